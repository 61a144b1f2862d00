//! `gridpath scen`: every query of a Moving AI scenario file, against its published optimum.

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use gridpath::movingai::text::visible_path;
use gridpath::movingai::{MapShape, Scenario, read_class_file, read_map_file, read_scen_file};
use gridpath::scenarios::run_scenarios_as;
use gridpath::{Algorithm, Grid, Heuristic, Movement, SearchConfig};
use std::path::PathBuf;

/// Solve every scenario of SCEN on MAP (8-way moves, no corner cutting: the Moving AI rules).
///
/// Lists the scenarios whose cost differs from the published optimum by more than 1e-4, and ends
/// with a summary line. Exits 1 if any differ, 2 on bad input (a file that cannot be read or
/// parsed, scenarios for another map, a start or goal on a wall). With other --moves the
/// published costs do not apply: only the summary is printed, to measure the searches.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct ScenArgs {
    /// The map, a Moving AI .map file.
    map: PathBuf,
    /// Its scenarios, a .scen file with the published optimal lengths.
    scen: PathBuf,
    /// The search.
    #[arg(long, default_value = "astar", value_parser = algorithm())]
    algo: Algorithm,
    /// The moves: the benchmarks' (octile), 4-way, the same on the map read as a staggered
    /// isometric one, or the map's cells read as hexagons of a map file's type word.
    #[arg(verbatim_doc_comment, long, default_value = "octile", value_parser = moves())]
    moves: Movement,
    /// Every query for this unit class (a cost factor or `no` per terrain character: see
    /// `gridpath route --help`) instead of the benchmark's unit.
    #[arg(long, value_name = "FILE")]
    class: Option<PathBuf>,
}

/// `--algo`: every algorithm's key, listed in `--help`.
pub(crate) fn algorithm() -> impl TypedValueParser<Value = Algorithm> {
    let keys: Vec<&'static str> = Algorithm::ALL.iter().map(|a| a.key()).collect();
    PossibleValuesParser::new(keys).try_map(|key| Algorithm::from_key(&key).ok_or(key))
}

/// `--moves`: `octile`, `four`, the two staggered ones, and the hex layouts' type words.
pub(crate) fn moves() -> impl TypedValueParser<Value = Movement> {
    let mut words = vec!["octile", "four", "staggered-octile", "staggered-four"];
    words.extend(
        MapShape::ALL
            .iter()
            .filter(|s| s.hex().is_some())
            .map(|s| s.word()),
    );
    PossibleValuesParser::new(words).try_map(|word| parse_moves(&word).ok_or(word))
}

fn parse_moves(word: &str) -> Option<Movement> {
    match word {
        "octile" => Some(Movement::default()),
        "four" => Some(Movement::FourWay),
        "staggered-octile" => Some(Movement::default().staggered()),
        "staggered-four" => Some(Movement::StaggeredFourWay),
        word => MapShape::from_word(word)?.hex().map(Movement::Hex),
    }
}

/// Ok(every cost optimal).
pub fn run(args: ScenArgs) -> Result<bool, String> {
    let (map_path, scen_path) = (visible_path(&args.map), visible_path(&args.scen));
    let grid = read_map_file(&args.map).map_err(|e| e.to_string())?;
    let scenarios = read_scen_file(&args.scen).map_err(|e| e.to_string())?;
    if let Some(s) = scenarios
        .iter()
        .find(|s| s.map_width != grid.width() || s.map_height != grid.height())
    {
        return Err(format!(
            "{scen_path}: scenarios are for a {}×{} map, but {map_path} is {}×{}",
            s.map_width,
            s.map_height,
            grid.width(),
            grid.height()
        ));
    }
    check_points(&grid, &scenarios).map_err(|why| format!("{scen_path}: {why} of {map_path}"))?;
    let config = SearchConfig {
        movement: args.moves,
        heuristic: Heuristic::best_for(args.moves),
        ..SearchConfig::default().with_algorithm(args.algo)
    };
    let class = match &args.class {
        Some(path) => Some(read_class_file(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let report = run_scenarios_as(&grid, &scenarios, &config, class.as_ref());
    if args.moves != Movement::default() {
        outln!("{}", report.summary());
        return Ok(true);
    }
    for outcome in report.mismatches() {
        outln!("{}", outcome.describe());
    }
    outln!("{}", report.summary());
    Ok(report.mismatches().next().is_none())
}

/// Every start and goal is an open cell of the map. A query that cannot be asked is bad input
/// (exit 2), not a mismatch (exit 1): the files do not belong together.
fn check_points(grid: &Grid, scenarios: &[Scenario]) -> Result<(), String> {
    for (i, s) in scenarios.iter().enumerate() {
        for (what, p) in [("start", s.start), ("goal", s.goal)] {
            if !grid.is_passable(p) {
                return Err(format!("scenario {}: the {what} {p} is a wall", i + 1));
            }
        }
    }
    Ok(())
}
