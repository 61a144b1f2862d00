//! Command-line options, and carrying them out at launch. Parsed by hand: there are only a few,
//! and the app must start with none.
//!
//! A map asked for on the command line arrives the way the panel's would: `--map` sends an
//! [`OpenMapFile`] request and `--generate` a [`GenerateMap`] one, so a bad file gets the same
//! message (and the built-in map instead).

use super::screenshot::ScreenshotRequest;
use crate::agents::{AgentGoal, AgentSettings, Steering};
use crate::editing::{AgentCommand, LoadScene, Scene, SpawnSize};
use crate::lifelong::{LifelongSource, OpenLifelong};
use crate::mapf::files::OpenPlanFile;
use crate::mapf::solve::MAX_MAPF_AGENTS;
use crate::mapf::{AgentSource, MapfSettings, SolveMapf};
use crate::planner::{Plan, PlannerSettings};
use crate::world::agents::MAX_AGENTS;
use crate::world::catalog;
use crate::world::generators::{GenerateMap, GeneratorKind, GeneratorSettings, SIZE_RANGE};
use crate::world::layout::{MapLayout, drawable};
use crate::world::map_files::OpenMapFile;
use crate::world::map_load::CurrentMap;
use crate::world::map_load::{LoadMap, ReshapeMap};
use bevy::prelude::*;
use gridpath::Algorithm;
use gridpath::hex::HexLayout;
use gridpath::lifelong::Guidance;
use gridpath::movingai::MapShape;
use std::path::PathBuf;

/// The help text. Its list of algorithms is made from [`Algorithm::ALL`], so a new algorithm
/// cannot be left out of it.
pub fn usage() -> String {
    let algorithms: String = Algorithm::ALL
        .iter()
        .map(|a| format!("\n                       {:<11}{}", a.key(), a.name()))
        .collect();
    format!(
        "\
usage: pathfinder_playground [--map FILE.map | --generate KIND[:WxH[:SEED]]] [--algorithm NAME]
                             [--straighten] [--agents N[:wander|:flow]] [--agent-size SIZE]
                             [--scene door|corridor|crossing|sizes] [--screenshot OUT.png]
                             [--mapf N[:scen]] [--plan FILE] [--lifelong N|FILE.json]
                             [--grid squares|hex|hex-flat|iso]

  --map FILE         open this Moving AI .map file instead of the built-in map
  --generate SPEC    start on a generated map: KIND is terrain, maze or rooms, then optionally
                     the size and the seed, e.g. maze:41x31:7 (default size 64x48, seed 1)
  --algorithm NAME   plan with one of these (default {default}):{algorithms}
  --grid SHAPE       draw and search the map's cells as squares, hex (pointy-top hexagons),
                     hex-flat (flat-top) or iso (an isometric diamond); a hex .map file
                     opens as hexagons by itself
  --straighten       also draw the path straightened with line of sight
  --agents SPEC      spawn N agents (1 to 1000) once the map is up; they chase the goal with
                     A* each, or with :flow by one flow field, or :wander from cell to cell
  --agent-size SIZE  how big the agents spawned are: 1, 2, 3 (cells across) or mixed
  --scene NAME       load a scene, a map and a crowd bound for places of their own: door
                     (300 through one cell), corridor (50 against 50), crossing (crowd across
                     crowd) or sizes (units of three sizes through a door)
  --mapf SPEC        once the map is up, plan N agents together with LaCAM (no two on one
                     cell) and play the plan: random starts and goals, or with :scen the first
                     N of the map's shipped benchmark scenario
  --plan FILE        once the map is up, play this MAPF plan file (the result format of LaCAM)
  --lifelong SPEC    run a lifelong instance live: N robots (1 to 800) on the shipped sorting
                     centre, or a benchmark's FILE.json (League of Robot Runners format)
  --screenshot OUT   wait for the first plan, save a screenshot of the window to OUT, and exit
  -h, --help         show this help",
        default = Algorithm::default().key(),
    )
}

#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct LaunchOptions {
    pub map: Option<PathBuf>,
    pub generate: Option<GeneratorSettings>,
    pub algorithm: Option<Algorithm>,
    pub straighten: bool,
    pub screenshot: Option<PathBuf>,
    pub agents: Option<AgentLaunch>,
    pub agent_size: Option<SpawnSize>,
    pub scene: Option<Scene>,
    pub mapf: Option<MapfLaunch>,
    pub plan: Option<PathBuf>,
    pub lifelong: Option<LifelongSource>,
    /// `--grid`: the shape of the first map's cells.
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

#[derive(Debug, PartialEq, Eq)]
pub enum CliError {
    Help,
    Bad(String),
}

impl LaunchOptions {
    /// Parses the arguments after the program name.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Self, CliError> {
        let mut options = Self::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .map(PathBuf::from)
                    .ok_or_else(|| CliError::Bad(format!("{name} needs a file name")))
            };
            match arg.as_str() {
                "--map" => options.map = Some(value("--map")?),
                "--screenshot" => options.screenshot = Some(value("--screenshot")?),
                "--generate" => {
                    let spec = value("--generate")?;
                    options.generate = Some(parse_generator(&spec.to_string_lossy())?);
                }
                "--algorithm" => {
                    let key = value("--algorithm")?;
                    let key = key.to_string_lossy();
                    options.algorithm = Some(
                        Algorithm::from_key(&key)
                            .ok_or_else(|| CliError::Bad(format!("unknown algorithm '{key}'")))?,
                    );
                }
                "--agents" => {
                    let spec = value("--agents")?;
                    options.agents = Some(parse_agents(&spec.to_string_lossy())?);
                }
                "--agent-size" => {
                    let spec = value("--agent-size")?;
                    let spec = spec.to_string_lossy();
                    options.agent_size = Some(SpawnSize::parse(&spec).ok_or_else(|| {
                        CliError::Bad(format!("--agent-size wants 1, 2, 3 or mixed, not '{spec}'"))
                    })?);
                }
                "--scene" => {
                    let spec = value("--scene")?;
                    let spec = spec.to_string_lossy();
                    options.scene = Some(Scene::parse(&spec).ok_or_else(|| {
                        CliError::Bad(format!(
                            "--scene wants door, corridor, crossing or sizes, not '{spec}'"
                        ))
                    })?);
                }
                "--mapf" => {
                    let spec = value("--mapf")?;
                    options.mapf = Some(parse_mapf(&spec.to_string_lossy())?);
                }
                "--plan" => options.plan = Some(value("--plan")?),
                "--lifelong" => {
                    let spec = value("--lifelong")?;
                    options.lifelong = Some(parse_lifelong(&spec.to_string_lossy())?);
                }
                "--grid" => {
                    let spec = value("--grid")?;
                    options.grid = Some(parse_grid(&spec.to_string_lossy())?);
                }
                "--straighten" => options.straighten = true,
                "-h" | "--help" => return Err(CliError::Help),
                other => return Err(CliError::Bad(format!("unknown argument '{other}'"))),
            }
        }
        if options.map.is_some() && options.generate.is_some() {
            return Err(CliError::Bad("use --map or --generate, not both".into()));
        }
        Ok(options)
    }
}

/// The launch options of a web page's address, as command-line arguments: `?map=trap&algorithm=jps`
/// is `--map trap --algorithm jps`, so a teacher can link a lesson. Values are percent-decoded
/// (`+` is a space); a key without a value is passed as a flag.
pub fn args_from_query(query: &str) -> Vec<String> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter(|pair| pair.split('=').next() != Some(super::test_hook::QUERY_KEY))
        .flat_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = format!("--{}", percent_decode(key));
            let value = (!value.is_empty()).then(|| percent_decode(value));
            std::iter::once(key).chain(value)
        })
        .collect()
}

/// `a%20b+c` → `a b c`; a malformed escape is kept as it is.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Carries out the [`LaunchOptions`] resource, if the app has one.
pub(super) fn plugin(app: &mut App) {
    let Some(options) = app.world().get_resource::<LaunchOptions>().cloned() else {
        return;
    };
    if let Some(path) = options.screenshot {
        app.insert_resource(ScreenshotRequest { path });
    }
    if let Some(mut settings) = app.world_mut().get_resource_mut::<PlannerSettings>() {
        if let Some(algorithm) = options.algorithm {
            settings.search.algorithm = algorithm;
        }
        settings.straighten |= options.straighten;
    }
    if let Some(agents) = options.agents
        && let Some(mut settings) = app.world_mut().get_resource_mut::<AgentSettings>()
    {
        settings.goal = agents.goal;
        settings.steering = agents.steering;
    }
    if let Some(size) = options.agent_size {
        app.insert_resource(size);
    }
    app.add_systems(Startup, request_launch_map).add_systems(
        Update,
        (spawn_launch_agents, launch_mapf, reshape_launch_map),
    );
}

/// Gives the first map the `--grid` shape, once it is up.
fn reshape_launch_map(
    options: Res<LaunchOptions>,
    layout: Option<Res<MapLayout>>,
    mut done: Local<bool>,
    mut reshape: MessageWriter<ReshapeMap>,
) {
    if *done || layout.is_none() {
        return;
    }
    *done = true;
    if let Some(shape) = options.grid {
        reshape.write(ReshapeMap(shape));
    }
}

/// `squares`, `hex` (pointy-top), `hex-flat`, `iso`, or a map file's type word (`hex-row-even`).
fn parse_grid(spec: &str) -> Result<MapShape, CliError> {
    let shape = match spec {
        "squares" => Some(MapShape::Octile),
        "hex" | "hex-pointy" => Some(MapShape::Hex(HexLayout::RowOdd)),
        "hex-flat" => Some(MapShape::Hex(HexLayout::ColumnOdd)),
        "iso" => Some(MapShape::Isometric),
        word => MapShape::from_word(word),
    };
    shape.filter(|&s| drawable(s)).ok_or_else(|| {
        CliError::Bad(format!(
            "--grid wants squares, hex, hex-flat, iso or an offset hex layout \
             (hex-row-even...), not '{spec}'"
        ))
    })
}

/// Solves the `--mapf` instance, opens the `--plan`, or starts the `--lifelong` run, once the
/// first plan shows the map is up.
fn launch_mapf(
    options: Res<LaunchOptions>,
    plan: Res<Plan>,
    map: Res<CurrentMap>,
    mut settings: ResMut<MapfSettings>,
    mut done: Local<bool>,
    mut solve: MessageWriter<SolveMapf>,
    mut open: MessageWriter<OpenPlanFile>,
    mut lifelong: MessageWriter<OpenLifelong>,
) {
    if *done || plan.count == 0 {
        return;
    }
    *done = true;
    if let Some(mapf) = options.mapf {
        let source = match catalog::scenario_of(&map.name) {
            Some(s) if mapf.from_scenario => AgentSource::Scenario {
                name: s.file.into(),
                text: s.text.into(),
            },
            _ => AgentSource::Random,
        };
        // The panel shows what was asked.
        settings.agents = mapf.agents;
        settings.from_scenario = source != AgentSource::Random;
        let settings = settings.clone();
        solve.write(SolveMapf { source, settings });
    }
    if let Some(path) = &options.plan {
        open.write(OpenPlanFile(path.clone()));
    }
    if let Some(source) = &options.lifelong {
        let (source, guidance) = (source.clone(), Guidance::GUIDED);
        lifelong.write(OpenLifelong { source, guidance });
    }
}

/// `N` robots on the sorting centre, or a configuration file (`FILE.json`).
fn parse_lifelong(spec: &str) -> Result<LifelongSource, CliError> {
    if spec.ends_with(".json") {
        return Ok(LifelongSource::File(spec.into()));
    }
    match spec.parse::<usize>() {
        Ok(robots) if (1..=800).contains(&robots) => Ok(LifelongSource::SortingCentre { robots }),
        _ => Err(CliError::Bad(format!(
            "--lifelong wants N from 1 to 800 or a FILE.json, not '{spec}'"
        ))),
    }
}

/// `N[:scen]`, e.g. `400:scen`.
fn parse_mapf(spec: &str) -> Result<MapfLaunch, CliError> {
    let bad = || {
        CliError::Bad(format!(
            "--mapf wants N[:scen] with N from 1 to {MAX_MAPF_AGENTS}, not '{spec}'"
        ))
    };
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

/// Spawns the `--agents` once the first plan shows the map is up.
fn spawn_launch_agents(
    options: Res<LaunchOptions>,
    plan: Res<Plan>,
    mut done: Local<bool>,
    mut spawn: MessageWriter<AgentCommand>,
    mut scenes: MessageWriter<LoadScene>,
) {
    if *done || plan.count == 0 {
        return;
    }
    *done = true;
    if let Some(agents) = options.agents {
        spawn.write(AgentCommand::Spawn(agents.count));
    }
    if let Some(scene) = options.scene {
        scenes.write(LoadScene(scene));
    }
}

/// `N[:wander|:flow]`, e.g. `500:wander`.
fn parse_agents(spec: &str) -> Result<AgentLaunch, CliError> {
    let bad = || {
        CliError::Bad(format!(
            "--agents wants N[:wander|:flow] with N from 1 to {MAX_AGENTS}, not '{spec}'"
        ))
    };
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

/// Opens `--map`: a file if there is one by that name, else a shipped map by that name (`trap`),
/// which is how a web page's `?map=trap` opens one (a browser has no files to read).
fn request_launch_map(
    options: Res<LaunchOptions>,
    mut open: MessageWriter<OpenMapFile>,
    mut load: MessageWriter<LoadMap>,
    mut generate: MessageWriter<GenerateMap>,
) {
    if let Some(path) = &options.map {
        let name = path.to_string_lossy();
        match catalog::shipped(&name).filter(|_| !path.exists()) {
            Some(map) => {
                load.write_batch(LoadMap::shipped(map));
            }
            None => {
                open.write(OpenMapFile(path.clone()));
            }
        }
    }
    if let Some(settings) = &options.generate {
        generate.write(GenerateMap(settings.clone()));
    }
}

/// `KIND[:WxH[:SEED]]`, e.g. `maze:41x31:7`.
fn parse_generator(spec: &str) -> Result<GeneratorSettings, CliError> {
    let bad = |why: &str| CliError::Bad(format!("--generate {spec}: {why}"));
    let mut parts = spec.split(':');
    let kind = match parts.next().unwrap_or_default() {
        "terrain" => GeneratorKind::RandomTerrain,
        "maze" => GeneratorKind::Maze,
        "rooms" => GeneratorKind::Rooms,
        other => {
            return Err(bad(&format!(
                "unknown kind '{other}' (terrain, maze or rooms)"
            )));
        }
    };
    let mut settings = GeneratorSettings {
        kind,
        ..GeneratorSettings::default()
    };
    if let Some(size) = parts.next() {
        let (w, h) = size
            .split_once('x')
            .ok_or_else(|| bad("the size is WIDTHxHEIGHT"))?;
        let side = |v: &str| {
            v.parse::<u32>()
                .ok()
                .filter(|v| SIZE_RANGE.contains(v))
                .ok_or_else(|| {
                    bad(&format!(
                        "each side must be {} to {}",
                        SIZE_RANGE.start(),
                        SIZE_RANGE.end()
                    ))
                })
        };
        (settings.width, settings.height) = (side(w)?, side(h)?);
    }
    if let Some(seed) = parts.next() {
        settings.seed = seed
            .parse()
            .map_err(|_| bad("the seed is a whole number"))?;
    }
    if parts.next().is_some() {
        return Err(bad("expected KIND[:WxH[:SEED]]"));
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
            let line = format!(" {:<11}{}", algorithm.key(), algorithm.name());
            assert!(help.contains(&line), "{line:?} missing from\n{help}");
            let parsed = LaunchOptions::parse(["--algorithm".into(), algorithm.key().into()]);
            assert_eq!(parsed.map(|o| o.algorithm), Ok(Some(algorithm)));
        }
    }

    #[test]
    fn a_page_address_gives_the_same_options_as_the_command_line() {
        assert_eq!(
            args_from_query("?map=trap&algorithm=jps"),
            ["--map", "trap", "--algorithm", "jps"]
        );
        assert_eq!(
            args_from_query("?generate=maze%3A41x31%3A7&help"),
            ["--generate", "maze:41x31:7", "--help"]
        );
        assert_eq!(args_from_query("?map=my+map%2"), ["--map", "my map%2"]);
        assert!(args_from_query("").is_empty() && args_from_query("?").is_empty());
        assert_eq!(args_from_query("?test_hook&map=trap"), ["--map", "trap"]);
        let options = LaunchOptions::parse(args_from_query("?map=random-32-32-10&mapf=400:scen"));
        let mapf = MapfLaunch {
            agents: 400,
            from_scenario: true,
        };
        assert_eq!(options.map(|o| o.mapf), Ok(Some(mapf)));
        for bad in ["0", "x", "5:random", "99999"] {
            assert!(LaunchOptions::parse(["--mapf".into(), bad.into()]).is_err());
        }
        let options = LaunchOptions::parse(args_from_query("?map=trap&agents=20:flow"));
        assert!(options.is_ok_and(|o| o.map.is_some() && o.agents.is_some()));
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
