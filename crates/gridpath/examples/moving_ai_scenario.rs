//! A Moving AI benchmark: read a map and its scenario file, solve every scenario with A* and with
//! jump point search, and compare the costs with the published optimal lengths.
//!
//! `cargo run -p gridpath --release --example moving_ai_scenario` runs the repository's
//! `assets/maps/arena.map` and `assets/scenarios/arena.map.scen`; pass two paths for others:
//! `... --example moving_ai_scenario -- MAP.map SCEN.scen`.

use gridpath::movingai::{read_map_file, read_scen_file};
use gridpath::scenarios::run_scenarios;
use gridpath::{Algorithm, SearchConfig};
use std::path::PathBuf;

fn main() {
    // Found at run time, so the example runs from any directory of the repository.
    let assets = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()))
        .join("../../assets");
    let mut args = std::env::args().skip(1);
    let map = args
        .next()
        .map_or_else(|| assets.join("maps/arena.map"), PathBuf::from);
    let scen = args
        .next()
        .map_or_else(|| assets.join("scenarios/arena.map.scen"), PathBuf::from);

    let grid = match read_map_file(&map) {
        Ok(grid) => grid,
        Err(e) => return fail(&e.to_string()),
    };
    let scenarios = match read_scen_file(&scen) {
        Ok(s) => s,
        Err(e) => return fail(&e.to_string()),
    };
    println!(
        "{}: {}×{}, {} scenarios",
        map.display(),
        grid.width(),
        grid.height(),
        scenarios.len()
    );
    // The Moving AI rules are the default movement: 8-way, never cutting a corner.
    for algorithm in [Algorithm::AStar, Algorithm::JumpPoint] {
        let config = SearchConfig::default().with_algorithm(algorithm);
        let report = run_scenarios(&grid, &scenarios, &config);
        println!("{:<18} {}", algorithm.name(), report.summary());
        for mismatch in report.mismatches().take(5) {
            println!("  {}", mismatch.describe());
        }
    }
}

fn fail(message: &str) {
    eprintln!("{message}");
    std::process::exit(2);
}
