//! The command line's options, parsed by `clap`'s derive: each option's help is its doc comment,
//! its values are checked as it is read, and a bad one is named in one line.

use crate::agents::{AgentGoal, Steering};
use crate::editing::{Scene, SpawnSize};
use crate::lifelong::LifelongSource;
use crate::mapf::solve::MAX_MAPF_AGENTS;
use crate::world::agents::MAX_AGENTS;
use crate::world::generators::{GeneratorKind, GeneratorSettings, SIZE_RANGE};
use crate::world::layout::drawable;
use bevy::prelude::*;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use gridpath::Algorithm;
use gridpath::hex::HexLayout;
use gridpath::movingai::MapShape;
use std::path::PathBuf;

/// Watch grid pathfinding re-plan live. With no options, the built-in map and A*.
#[derive(Parser, Resource, Clone, Debug, Default, PartialEq)]
#[command(name = "pathfinder_playground", version)]
pub struct LaunchOptions {
    /// Open this Moving AI .map file (or a shipped map by its name) instead of the built-in map.
    #[arg(long, value_name = "FILE", conflicts_with = "generate")]
    pub map: Option<PathBuf>,
    /// Start on a generated map: terrain, maze or rooms, then optionally the size and the seed,
    /// e.g. maze:41x31:7 (default size 64x48, seed 1).
    #[arg(verbatim_doc_comment, long, value_name = "KIND[:WxH[:SEED]]", value_parser = parse_generator)]
    pub generate: Option<GeneratorSettings>,
    /// Plan with this algorithm.
    #[arg(long, value_name = "NAME", value_parser = algorithm())]
    pub algorithm: Option<Algorithm>,
    /// Also draw the path straightened with line of sight.
    #[arg(long)]
    pub straighten: bool,
    /// Open the unit classes view: the way for a walker, a soldier, a tank and a boat.
    #[arg(long)]
    pub classes: bool,
    /// Wait for the first plan, save a screenshot of the window here, and exit.
    #[arg(long, value_name = "OUT.png")]
    pub screenshot: Option<PathBuf>,
    /// Spawn N agents (1 to 1000) once the map is up; they chase the goal with A* each, or with
    /// :flow by one flow field, or :wander from cell to cell.
    #[arg(verbatim_doc_comment, long, value_name = "N[:wander|:flow]", value_parser = parse_agents)]
    pub agents: Option<AgentLaunch>,
    /// How big the agents spawned are: 1, 2, 3 (cells across) or mixed.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub agent_size: Option<SpawnSize>,
    /// Load a scene, a map and a crowd bound for places of their own: door (300 through one
    /// cell), corridor (50 against 50), crossing (crowd across crowd), sizes (units of three
    /// sizes through a door) or tactics (a unit and its enemies on hexagons).
    #[arg(verbatim_doc_comment, long, value_name = "NAME", value_parser = parse_scene)]
    pub scene: Option<Scene>,
    /// Once the map is up, plan N agents together with LaCAM (no two on one cell) and play the
    /// plan: random starts and goals, or with :scen the first N of the map's shipped benchmark
    /// scenario.
    #[arg(verbatim_doc_comment, long, value_name = "N[:scen]", value_parser = parse_mapf)]
    pub mapf: Option<MapfLaunch>,
    /// Once the map is up, play this MAPF plan file (the result format of LaCAM).
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// Run a lifelong instance live: N robots (1 to 800) on the shipped sorting centre, or a
    /// benchmark's FILE.json (League of Robot Runners format).
    #[arg(verbatim_doc_comment, long, value_name = "N|FILE.json", value_parser = parse_lifelong)]
    pub lifelong: Option<LifelongSource>,
    /// Draw and search the map's cells as squares, hex (pointy-top hexagons), hex-flat
    /// (flat-top), iso (an isometric diamond) or an offset hex layout (hex-row-even...); a hex
    /// .map file opens as hexagons by itself.
    #[arg(verbatim_doc_comment, long, value_name = "SHAPE", value_parser = parse_grid)]
    pub grid: Option<MapShape>,
}

/// `--mapf N[:scen]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapfLaunch {
    pub agents: usize,
    pub from_scenario: bool,
}

/// `--agents N[:wander|:flow]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentLaunch {
    pub count: u32,
    pub goal: AgentGoal,
    pub steering: Steering,
}

/// Why the app does not start: help was asked for, or an argument is bad (the one line that
/// says which).
#[derive(Debug, PartialEq, Eq)]
pub enum CliError {
    Help,
    Bad(String),
}

impl LaunchOptions {
    /// Parses the arguments after the program name.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Self, CliError> {
        let all = std::iter::once("pathfinder_playground".to_string()).chain(args);
        Self::try_parse_from(all).map_err(|e| match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => CliError::Help,
            _ => CliError::Bad(one_line(&e.to_string())),
        })
    }
}

/// The help text, every option explained. Its list of algorithms is made from
/// [`Algorithm::ALL`], so a new algorithm cannot be left out of it.
pub fn usage() -> String {
    LaunchOptions::command().render_long_help().to_string()
}

/// clap's error as one line: its lines up to the usage, joined. (clap lays some errors out over
/// several lines; every other message of the app is one.)
fn one_line(error: &str) -> String {
    let said: Vec<&str> = error
        .lines()
        .map(str::trim)
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more"))
        .filter(|line| !line.is_empty())
        .collect();
    format!("{} (see --help)", said.join(" "))
}

/// `--algorithm`: every algorithm's key, with its name in the help.
fn algorithm() -> impl TypedValueParser<Value = Algorithm> {
    let values = Algorithm::ALL.map(|a| PossibleValue::new(a.key()).help(a.name()));
    PossibleValuesParser::new(values).try_map(|key| Algorithm::from_key(&key).ok_or(key))
}

fn parse_size(spec: &str) -> Result<SpawnSize, String> {
    SpawnSize::parse(spec).ok_or_else(|| "expected 1, 2, 3 or mixed".into())
}

fn parse_scene(spec: &str) -> Result<Scene, String> {
    Scene::parse(spec).ok_or_else(|| "expected door, corridor, crossing, sizes or tactics".into())
}

/// `squares`, `hex` (pointy-top), `hex-flat`, `iso`, or a map file's type word (`hex-row-even`).
fn parse_grid(spec: &str) -> Result<MapShape, String> {
    let shape = match spec {
        "squares" => Some(MapShape::Octile),
        "hex" | "hex-pointy" => Some(MapShape::Hex(HexLayout::RowOdd)),
        "hex-flat" => Some(MapShape::Hex(HexLayout::ColumnOdd)),
        "iso" => Some(MapShape::Isometric),
        word => MapShape::from_word(word),
    };
    shape.filter(|&s| drawable(s)).ok_or_else(|| {
        "expected squares, hex, hex-flat, iso or an offset hex layout (hex-row-even...)".into()
    })
}

/// `N` robots on the sorting centre, or a configuration file (`FILE.json`).
fn parse_lifelong(spec: &str) -> Result<LifelongSource, String> {
    if spec.ends_with(".json") {
        return Ok(LifelongSource::File(spec.into()));
    }
    match spec.parse::<usize>() {
        Ok(robots) if (1..=800).contains(&robots) => Ok(LifelongSource::SortingCentre { robots }),
        _ => Err("expected N from 1 to 800 or a FILE.json".into()),
    }
}

/// `N[:scen]`, e.g. `400:scen`.
fn parse_mapf(spec: &str) -> Result<MapfLaunch, String> {
    let bad = || format!("expected N[:scen] with N from 1 to {MAX_MAPF_AGENTS}");
    let (count, how) = spec.split_once(':').unwrap_or((spec, ""));
    let agents: usize = count.parse().map_err(|_| bad())?;
    if agents == 0 || agents > MAX_MAPF_AGENTS || !matches!(how, "" | "scen") {
        return Err(bad());
    }
    Ok(MapfLaunch {
        agents,
        from_scenario: how == "scen",
    })
}

/// `N[:wander|:flow]`, e.g. `500:wander`.
fn parse_agents(spec: &str) -> Result<AgentLaunch, String> {
    let bad = || format!("expected N[:wander|:flow] with N from 1 to {MAX_AGENTS}");
    let (count, how) = spec.split_once(':').unwrap_or((spec, ""));
    let count: u32 = count.parse().map_err(|_| bad())?;
    if count == 0 || count as usize > MAX_AGENTS {
        return Err(bad());
    }
    let (goal, steering) = match how {
        "" => (AgentGoal::Chase, Steering::AStarEach),
        "flow" => (AgentGoal::Chase, Steering::FlowField),
        "wander" => (AgentGoal::Wander, Steering::AStarEach),
        _ => return Err(bad()),
    };
    Ok(AgentLaunch {
        count,
        goal,
        steering,
    })
}

/// `KIND[:WxH[:SEED]]`, e.g. `maze:41x31:7`.
fn parse_generator(spec: &str) -> Result<GeneratorSettings, String> {
    let mut parts = spec.split(':');
    let kind = match parts.next().unwrap_or_default() {
        "terrain" => GeneratorKind::RandomTerrain,
        "maze" => GeneratorKind::Maze,
        "rooms" => GeneratorKind::Rooms,
        other => return Err(format!("unknown kind '{other}' (terrain, maze or rooms)")),
    };
    let mut settings = GeneratorSettings {
        kind,
        ..GeneratorSettings::default()
    };
    if let Some(size) = parts.next() {
        let (w, h) = size.split_once('x').ok_or("the size is WIDTHxHEIGHT")?;
        let side = |v: &str| {
            v.parse::<u32>()
                .ok()
                .filter(|v| SIZE_RANGE.contains(v))
                .ok_or_else(|| {
                    format!(
                        "each side must be {} to {}",
                        SIZE_RANGE.start(),
                        SIZE_RANGE.end()
                    )
                })
        };
        (settings.width, settings.height) = (side(w)?, side(h)?);
    }
    if let Some(seed) = parts.next() {
        settings.seed = seed.parse().map_err(|_| "the seed is a whole number")?;
    }
    if parts.next().is_some() {
        return Err("expected KIND[:WxH[:SEED]]".into());
    }
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_lists_every_algorithm_the_parser_takes() {
        let help = usage();
        for algorithm in Algorithm::ALL {
            let key = format!("- {}:", algorithm.key());
            let listed = help.lines().map(str::trim).any(|line| {
                line.strip_prefix(&key)
                    .is_some_and(|name| name.trim() == algorithm.name())
            });
            assert!(listed, "{key} {} missing from\n{help}", algorithm.name());
            let parsed = LaunchOptions::parse(["--algorithm".into(), algorithm.key().into()]);
            assert_eq!(parsed.map(|o| o.algorithm), Ok(Some(algorithm)));
        }
    }

    /// A bad argument gets one line that names it, as every other message of the app.
    #[test]
    fn a_bad_argument_is_named_in_one_line() {
        for (args, named) in [
            (&["--agents", "5000"][..], "--agents"),
            (&["--bogus"], "--bogus"),
            (&["--screenshot"], "--screenshot"),
            (&["--algorithm", "fastest"], "--algorithm"),
            (&["--generate", "maze:4x4"], "each side must be"),
            (&["--map", "a.map", "--generate", "maze"], "--generate"),
        ] {
            let Err(CliError::Bad(message)) = parse(args) else {
                panic!("{args:?} parsed");
            };
            assert!(message.contains(named), "{args:?}: {message}");
            assert!(!message.contains('\n'), "{args:?}: {message}");
        }
    }

    fn parse(args: &[&str]) -> Result<LaunchOptions, CliError> {
        LaunchOptions::parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn options() {
        assert_eq!(parse(&[]), Ok(LaunchOptions::default()));
        let o = parse(&["--screenshot", "a.png", "--map", "m.map"]).unwrap();
        assert_eq!(o.screenshot, Some("a.png".into()));
        assert_eq!(o.map, Some("m.map".into()));
        assert!(matches!(parse(&["--screenshot"]), Err(CliError::Bad(_))));
        assert!(matches!(parse(&["--bogus"]), Err(CliError::Bad(_))));
        assert_eq!(parse(&["-h"]), Err(CliError::Help));
        let grid = |spec: &str| parse(&["--grid", spec]).map(|o| o.grid);
        assert_eq!(grid("hex"), Ok(Some(MapShape::Hex(HexLayout::RowOdd))));
        assert_eq!(
            grid("hex-flat"),
            Ok(Some(MapShape::Hex(HexLayout::ColumnOdd)))
        );
        assert_eq!(
            grid("hex-row-even"),
            Ok(Some(MapShape::Hex(HexLayout::RowEven)))
        );
        assert_eq!(grid("iso"), Ok(Some(MapShape::Isometric)));
        assert!(
            matches!(grid("hex-row"), Err(CliError::Bad(_))),
            "a rhombus is not drawn"
        );
        assert!(matches!(grid("triangles"), Err(CliError::Bad(_))));
        let a = parse(&["--agents", "500:wander"]).unwrap();
        assert_eq!(
            a.agents.map(|a| (a.count, a.goal)),
            Some((500, AgentGoal::Wander))
        );
        for bad in ["0", "1001", "ten", "5:run"] {
            assert!(
                matches!(parse(&["--agents", bad]), Err(CliError::Bad(_))),
                "{bad}"
            );
        }
        let g = parse(&["--generate", "maze:41x31:7", "--algorithm", "dijkstra"]).unwrap();
        let settings = g.generate.unwrap();
        assert_eq!(
            (
                settings.kind,
                settings.width,
                settings.height,
                settings.seed
            ),
            (GeneratorKind::Maze, 41, 31, 7)
        );
        assert_eq!(g.algorithm, Some(Algorithm::Dijkstra));
        assert!(!g.straighten);
        let t = parse(&["--algorithm", "theta", "--straighten"]).unwrap();
        assert_eq!(t.algorithm, Some(Algorithm::ThetaStar));
        assert!(t.straighten);
        assert_eq!(
            parse(&["--generate", "rooms"])
                .unwrap()
                .generate
                .unwrap()
                .kind,
            GeneratorKind::Rooms
        );
        for bad in [
            "cave",
            "maze:41",
            "maze:4x4",
            "maze:41x31:x",
            "maze:9x9:1:2",
        ] {
            assert!(
                matches!(parse(&["--generate", bad]), Err(CliError::Bad(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            parse(&["--algorithm", "fastest"]),
            Err(CliError::Bad(_))
        ));
        assert!(matches!(
            parse(&["--map", "a.map", "--generate", "maze"]),
            Err(CliError::Bad(_))
        ));
    }
}
