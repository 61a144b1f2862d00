//! Bidirectional and any-angle searches on a Moving AI benchmark, set beside A*:
//!
//! ```text
//! cargo run --release -p gridpath --example beyond_astar -- MAP.map SCEN.scen
//! ```
//!
//! For every scenario: bidirectional A* and bidirectional Dijkstra must find the published
//! optimal length (the program counts any that do not and exits 1), with how many cells they
//! expand against A* and Dijkstra; Theta*'s path and A*'s path straightened with line of sight
//! are measured against the octile optimum, to show what any-angle paths save.

use gridpath::bidirectional::{Bidirectional, Ordering};
use gridpath::line_of_sight::polyline_length;
use gridpath::movingai::{read_map_file, read_scen_file};
use gridpath::{Algorithm, Heuristic, Movement, Search, SearchConfig, smoothen_path};
use std::process::ExitCode;

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
    if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
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
