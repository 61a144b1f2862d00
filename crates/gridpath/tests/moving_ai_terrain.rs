//! Swamp and water, as the Moving AI format defines them ("S - swamp (passable from regular
//! terrain)", "W - water (traversable, but not passable from terrain)"), on a published
//! benchmark map that uses both: Warcraft III's *Battleground*, in `fixtures/moving_ai/` (see its
//! README for the attribution).
//!
//! The benchmark's unit is [`UnitClass::moving_ai_for`] its start: land (ground and swamp) or
//! water. Its routes, through the scenario runner's rule, are checked against the oracle's
//! Dijkstra on the map as the format reads it, cell by cell here (a move joins two cells of the
//! same kind, land or water), written apart from the class code.

use gridpath::movingai::{Scenario, parse_map, write_map};
use gridpath::scenarios::run_scenarios;
use gridpath::{Cell, Grid, Point, SearchConfig, Terrain, UnitClass};

mod common;
use common::oracle::oracle_cost;

fn battleground() -> (String, Grid) {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR")
        .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
    let path = format!("{crate_dir}/tests/fixtures/moving_ai/battleground.map");
    let text = std::fs::read_to_string(&path).expect("the fixture");
    let grid = parse_map(&text).expect("a published map parses");
    (text, grid)
}

/// The map as the format reads it for a unit on water (`water`) or on land: the other kind
/// of cell is a wall. Built from the map's characters, not from a class.
fn as_the_format_reads_it(text: &str, water: bool) -> Grid {
    let rows: Vec<&str> = text.lines().skip(4).collect();
    let mut grid = Grid::new(512, 512).unwrap();
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let open = match ch {
                '.' | 'G' | 'S' => !water,
                'W' => water,
                _ => false,
            };
            if !open {
                grid.set(Point::new(x as i32, y as i32), Cell::Blocked)
                    .unwrap();
            }
        }
    }
    grid
}

#[test]
fn swamp_and_water_are_read_and_written_back() {
    let (text, grid) = battleground();
    let count = |t: Terrain| {
        (0..grid.len())
            .map(|i| grid.point_of(i))
            .filter(|&p| grid.is_passable(p) && grid.terrain(p) == Some(t))
            .count()
    };
    let chars = |c: char| {
        text.lines()
            .skip(4)
            .flat_map(str::chars)
            .filter(|&x| x == c)
            .count()
    };
    assert_eq!(count(Terrain::SWAMP), chars('S'));
    assert_eq!(count(Terrain::WATER), chars('W'));
    assert_eq!((chars('S'), chars('W')), (2102, 13971));
    assert_eq!(parse_map(&write_map(&grid)).unwrap(), grid);
}

/// Queries between cells spread over the map, land to land, water to water and land to water:
/// the benchmark's unit costs what the oracle says on the map as the format reads it, never
/// leaves its kind of cell, and finds no way between land and water.
#[test]
fn the_benchmark_unit_keeps_to_land_or_water() {
    let (text, grid) = battleground();
    let land = as_the_format_reads_it(&text, false);
    let water = as_the_format_reads_it(&text, true);
    let open: Vec<Point> = (0..grid.len())
        .map(|i| grid.point_of(i))
        .filter(|&p| grid.is_passable(p))
        .collect();
    let (mut differs, mut scenarios) = (0, Vec::new());
    for k in 0..40usize {
        let start = open[k * 7919 % open.len()];
        let goal = open[(k * 104_729 + 13) % open.len()];
        scenarios.push(Scenario {
            bucket: 0,
            map: "battleground.map".into(),
            map_width: 512,
            map_height: 512,
            start,
            goal,
            optimal: 0.0,
        });
    }
    let movement = SearchConfig::default().movement;
    let report = run_scenarios(&grid, &scenarios, &SearchConfig::default());
    for (scenario, outcome) in scenarios.iter().zip(&report.outcomes) {
        let on_water = grid.terrain(scenario.start) == Some(Terrain::WATER);
        let seen = if on_water { &water } else { &land };
        let truth = oracle_cost(seen, movement, scenario.start, scenario.goal).map(|c| c.value());
        let cost = outcome.cost.filter(|_| outcome.error.is_none());
        let what = format!("{} -> {}", scenario.start, scenario.goal);
        match (cost, truth) {
            (Some(cost), Some(truth)) => {
                assert!((cost - truth).abs() < 1e-6, "{what}: {cost} vs {truth}")
            }
            (None, None) => {}
            (cost, truth) => panic!("{what}: {cost:?} vs the oracle's {truth:?}"),
        }
        // A plain search, which reads water as ground, finds a cheaper way (or one where there
        // is none) on some of these queries: the rule matters on this map.
        let class = UnitClass::moving_ai_for(&grid, scenario.start);
        let plain = gridpath::find_path(
            &grid,
            scenario.start,
            scenario.goal,
            &SearchConfig::default(),
        );
        let classed = gridpath::find_path_as(
            &grid,
            &class,
            scenario.start,
            scenario.goal,
            &SearchConfig::default(),
        );
        let cost_of =
            |r: Result<gridpath::SearchResult, _>| r.ok().and_then(|r| r.path).map(|p| p.cost);
        if cost_of(plain) != cost_of(classed) {
            differs += 1;
        }
    }
    assert!(differs > 0, "no query where water changed the answer");
}
