//! `gridpath`: the core's command line. The Moving AI scenario runner, and multi-agent
//! pathfinding (see `mapf_cli.rs`):
//!
//! ```text
//! cargo run --release -p gridpath -- scen MAP.map SCEN.scen [--algo astar]
//! cargo run --release -p gridpath -- mapf MAP.map SCEN.scen --agents 100
//! cargo run --release -p gridpath -- mapf-check MAP.map RESULT.txt
//! cargo run --release -p gridpath -- lifelong CONFIG.json --steps 1000
//! ```

mod lifelong_cli;
mod mapf_cli;

use gridpath::movingai::{MapShape, Scenario, read_map_file, read_scen_file};
use gridpath::scenarios::run_scenarios;
use gridpath::{Algorithm, Grid, Heuristic, Movement, SearchConfig};
use std::process::ExitCode;

fn usage() -> String {
    let keys: Vec<&str> = Algorithm::ALL.iter().map(|a| a.key()).collect();
    format!(
        "usage: gridpath scen MAP.map SCEN.scen [--algo {}] [--moves octile|four|staggered-octile|staggered-four|hex-row-odd...]\n\n\
         Solves every scenario of SCEN on MAP (8-way moves, no corner cutting, the Moving AI rules),\n\
         lists the ones whose cost differs from the published optimum by more than 1e-4, and ends\n\
         with a summary line. Exits 1 if any differ, 2 on bad input (a file that cannot be read\n\
         or parsed, scenarios for another map, a start or goal on a wall). With other --moves (4-way,\n\
         the map's cells read as a staggered isometric map's or as hexagons of a map file's type\n\
         word), the published costs do not apply: only the summary is printed, to measure the searches.",
        keys.join("|")
    )
}

/// `--moves`: `octile` (the benchmarks' rules), `four`, the same on the map read as a staggered
/// isometric one, or a hex layout's type word.
fn parse_moves(word: &str) -> Option<Movement> {
    match word {
        "octile" => Some(Movement::default()),
        "four" => Some(Movement::FourWay),
        "staggered-octile" => Some(Movement::default().staggered()),
        "staggered-four" => Some(Movement::StaggeredFourWay),
        word => MapShape::from_word(word)?.hex().map(Movement::Hex),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(all_optimal) => {
            if all_optimal {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<bool, String> {
    match args.first().map(String::as_str) {
        Some("mapf") => return mapf_cli::solve(&args[1..]),
        Some("mapf-check") => return mapf_cli::check(&args[1..]),
        Some("lifelong") => return lifelong_cli::run(&args[1..]),
        _ => {}
    }
    let [command, map_path, scen_path, rest @ ..] = args else {
        return Err(format!(
            "{}\n\n{}\n\n{}",
            usage(),
            mapf_cli::USAGE,
            lifelong_cli::USAGE
        ));
    };
    if command != "scen" {
        return Err(format!("unknown command '{command}'\n\n{}", usage()));
    }
    let mut algorithm = Algorithm::AStar;
    let mut movement = Movement::default();
    let mut rest = rest.iter();
    while let Some(flag) = rest.next() {
        match (flag.as_str(), rest.next()) {
            ("--algo", Some(key)) => {
                algorithm = Algorithm::from_key(key)
                    .ok_or_else(|| format!("unknown algorithm '{key}'\n\n{}", usage()))?;
            }
            ("--moves", Some(word)) => {
                movement = parse_moves(word)
                    .ok_or_else(|| format!("unknown moves '{word}'\n\n{}", usage()))?;
            }
            _ => return Err(format!("unexpected argument '{flag}'\n\n{}", usage())),
        }
    }
    let grid = read_map_file(map_path).map_err(|e| e.to_string())?;
    let scenarios = read_scen_file(scen_path).map_err(|e| e.to_string())?;
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
        movement,
        heuristic: Heuristic::best_for(movement),
        ..SearchConfig::default().with_algorithm(algorithm)
    };
    let report = run_scenarios(&grid, &scenarios, &config);
    if movement != Movement::default() {
        println!("{}", report.summary());
        return Ok(true);
    }
    for outcome in report.mismatches() {
        println!("{}", outcome.describe());
    }
    println!("{}", report.summary());
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
