//! Bidirectional and any-angle searches on a Moving AI benchmark, set beside A*:
//!
//! ```text
//! cargo run --release -p gridpath --example beyond_astar -- MAP.map SCEN.scen
//! ```
//!
//! For every scenario: bidirectional A* and bidirectional Dijkstra must find the published
//! optimal length (the program counts any that do not and exits 1), with how many cells they
//! expand against A* and Dijkstra; Theta*'s path and A*'s path straightened with line of sight
//! are measured against the octile optimum, to show what any-angle paths save. Then D* Lite on
//! every 10th scenario under a sequence of edits (a wall on the current path, a wall or a floor
//! anywhere, the start a few steps along): after each repair the cost must equal a fresh A*'s,
//! and the program reports how many cells the repairs expanded against fresh A* searches.

use gridpath::bidirectional::{Bidirectional, Ordering};
use gridpath::incremental::DStarLite;
use gridpath::line_of_sight::polyline_length;
use gridpath::movingai::{read_map_file, read_scen_file};
use gridpath::{Algorithm, Grid, Heuristic, Movement, Point, Search, SearchConfig, smoothen_path};
use std::process::ExitCode;

/// Why one long function: an example read top to bottom: each algorithm in turn on the same
/// queries, and what it shows printed beside it.
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [map, scen] = args.as_slice() else {
        eprintln!("usage: beyond_astar MAP.map SCEN.scen");
        return ExitCode::from(2);
    };
    let (grid, scenarios) = match (read_map_file(map), read_scen_file(scen)) {
        (Ok(g), Ok(s)) => (g, s),
        (Err(e), _) => return fail(&e.to_string()),
        (_, Err(e)) => return fail(&e.to_string()),
    };
    let (mut search, mut both_ways) = (Search::new(), Bidirectional::new());
    let mut wrong = 0;
    let mut expanded: [Vec<usize>; 4] = Default::default();
    let (mut theta_saving, mut smooth_saving) = (Vec::new(), Vec::new());
    for s in scenarios.iter().filter(|s| s.optimal > 0.0) {
        for (i, algorithm) in [Algorithm::AStar, Algorithm::Dijkstra]
            .into_iter()
            .enumerate()
        {
            let config = SearchConfig::default().with_algorithm(algorithm);
            let found = search.find_path(&grid, s.start, s.goal, &config);
            expanded[i].push(found.map_or(0, |f| f.expanded));
        }
        let smooth = polyline_length(&smoothen_path(&grid, search_path(&mut search, s, &grid)));
        smooth_saving.push(1.0 - smooth / s.optimal);
        for (i, h) in [Heuristic::Octile, Heuristic::Zero].into_iter().enumerate() {
            let found = both_ways.find_path(
                &grid,
                s.start,
                s.goal,
                Movement::default(),
                Ordering::AStar(h),
            );
            let cost = found
                .as_ref()
                .ok()
                .and_then(|f| f.path.as_ref())
                .map(|p| p.cost);
            if cost.is_none_or(|c| (c - s.optimal).abs() > 1e-4) {
                wrong += 1;
                println!(
                    "not optimal: {h:?} {} → {}: {cost:?} vs {}",
                    s.start, s.goal, s.optimal
                );
            }
            expanded[2 + i].push(both_ways.expanded());
        }
        let theta = SearchConfig::default().with_algorithm(Algorithm::ThetaStar);
        if let Ok(Some(path)) = search
            .find_path(&grid, s.start, s.goal, &theta)
            .map(|f| f.path)
        {
            theta_saving.push(1.0 - path.cost / s.optimal);
        }
    }
    let names = [
        "A*",
        "Dijkstra",
        "bidirectional A*",
        "bidirectional Dijkstra",
    ];
    println!("{} scenarios on {map}", expanded[0].len());
    for (name, counts) in names.iter().zip(&mut expanded) {
        println!("  {name:<24} median expanded {:>7}", median(counts));
    }
    println!("  not optimal: {wrong}");
    println!(
        "  any angle, mean saving over the octile optimum: Theta* {:.2} %, straightened A* {:.2} %",
        100.0 * mean(&theta_saving),
        100.0 * mean(&smooth_saving)
    );
    let (repairs, fresh, d_wrong) = edit_sequences(&grid, &scenarios);
    println!(
        "  D* Lite, {} repairs; not optimal: {d_wrong}",
        repairs.len()
    );
    for (kind, name) in [
        "a wall on the path",
        "a cell anywhere flips",
        "the start moves",
    ]
    .into_iter()
    .enumerate()
    {
        let pick = |all: &[(usize, usize)]| -> Vec<usize> {
            all.iter().filter(|r| r.0 == kind).map(|r| r.1).collect()
        };
        println!(
            "    {name:<22} median expanded {:>5} (fresh A* {})",
            median(&mut pick(&repairs)),
            median(&mut pick(&fresh))
        );
    }
    if wrong == 0 && d_wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// D* Lite on every 10th scenario, through eight edits each; returns the cells each repair
/// expanded and what a fresh A* expanded for the same query, each with the kind of edit (0 a
/// wall on the path, 1 a cell anywhere, 2 the start moved), and how many costs differed.
type Counts = Vec<(usize, usize)>;
fn edit_sequences(
    map: &Grid,
    scenarios: &[gridpath::movingai::Scenario],
) -> (Counts, Counts, usize) {
    let (mut repairs, mut fresh, mut wrong) = (Vec::new(), Vec::new(), 0);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let (moves, h) = (Movement::default(), Heuristic::Octile);
    let mut search = Search::new();
    for s in scenarios.iter().step_by(10).filter(|s| s.optimal > 0.0) {
        let mut grid = map.clone();
        let (mut start, goal) = (s.start, s.goal);
        let mut planner = DStarLite::new();
        if planner.plan(&grid, start, goal, moves, h).is_err() {
            continue;
        }
        for round in 0..8 {
            let path = planner.path().to_vec();
            let (kind, cell) = match round % 4 {
                // A wall on the path (not at its ends).
                0 | 2 if path.len() > 2 => (0, path[1 + random(path.len() - 2)]),
                // The start walks three steps along its path.
                3 if path.len() > 4 => {
                    start = path[3];
                    (2, Point::new(-1, -1))
                }
                // Any cell flips between wall and floor.
                _ => (1, grid.point_of(random(grid.len()))),
            };
            if grid.contains(cell) && cell != start && cell != goal {
                let _ = grid.set_blocked(cell, grid.is_passable(cell));
                planner.cells_changed(&grid, [cell]);
            }
            let _ = planner.plan(&grid, start, goal, moves, h);
            let fresh_a = search.find_path(&grid, start, goal, &SearchConfig::default());
            let (ours, theirs) = (
                planner.found().map(|p| p.cost),
                fresh_a
                    .as_ref()
                    .ok()
                    .and_then(|f| f.path.as_ref())
                    .map(|p| p.cost),
            );
            let same = match (ours, theirs) {
                (Some(a), Some(b)) => (a - b).abs() < 1e-6,
                (None, None) => true,
                _ => false,
            };
            if !same {
                wrong += 1;
                println!("D* Lite not optimal: {start} → {goal}: {ours:?} vs {theirs:?}");
            }
            repairs.push((kind, planner.expanded()));
            fresh.push((kind, fresh_a.map_or(0, |f| f.expanded)));
        }
    }
    (repairs, fresh, wrong)
}

fn search_path<'a>(
    search: &'a mut Search,
    s: &gridpath::movingai::Scenario,
    grid: &gridpath::Grid,
) -> &'a [gridpath::Point] {
    let _ = search.find_path(grid, s.start, s.goal, &SearchConfig::default());
    search.path()
}

fn median(values: &mut [usize]) -> usize {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn fail(message: &str) -> ExitCode {
    eprintln!("{message}");
    ExitCode::from(2)
}
