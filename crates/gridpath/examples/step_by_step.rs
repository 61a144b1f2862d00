//! A search step by step, as in the lab exercise of expanding nodes by hand: after each
//! expansion, the cell taken out of the open list with its g, h and f, and the open list left
//! behind, in the order the search will take it. Check your own worked search against it.
//!
//! `cargo run -p gridpath --example step_by_step` (A*), or name another algorithm:
//! `cargo run -p gridpath --example step_by_step -- dijkstra` (bfs, dfs, dijkstra, greedy, astar,
//! wastar, jps).

use gridpath::{
    Algorithm, Grid, Movement, NodeState, Point, Search, SearchConfig, Step, TraceEvent,
};

fn main() {
    let key = std::env::args().nth(1).unwrap_or_else(|| "astar".into());
    let Some(algorithm) = Algorithm::from_key(&key) else {
        eprintln!("unknown algorithm '{key}': bfs, dfs, dijkstra, greedy, astar, wastar or jps");
        std::process::exit(2);
    };
    let rows = [
        "......", //
        "..#...", //
        "..#...", //
        "..#...", //
    ];
    let grid = Grid::from_ascii(&rows).expect("every row has the same width");
    let (start, goal) = (Point::new(0, 2), Point::new(4, 1));
    // 4-way moves keep the numbers whole: every step costs 1, and h is the Manhattan distance.
    let config = SearchConfig {
        record_trace: true, // remember every cell opened, to list the open list
        ..SearchConfig::astar(Movement::FourWay).with_algorithm(algorithm)
    };
    let mut search = Search::new();
    if let Err(e) = search.begin(&grid, start, goal, &config) {
        eprintln!("{e}");
        std::process::exit(2);
    }
    println!("{} from {start} to {goal} on", algorithm.name());
    for row in rows {
        println!("    {row}");
    }
    println!("\nstep  expanded  g     h     f      open list afterwards (cell f)");
    let mut n = 0;
    while let Step::Expanded(cell) = search.step(&grid) {
        n += 1;
        let Some(node) = search.node(cell) else { break };
        println!(
            "{n:>4}  {:<8}  {:<4}  {:<4}  {:<5}  {}",
            cell.to_string(),
            node.g,
            node.h,
            node.f,
            open_list(&search)
        );
    }
    match search.path() {
        [] => println!("\n{:?}: no path", search.status()),
        path => {
            let cells: Vec<String> = path.iter().map(Point::to_string).collect();
            println!(
                "\n{:?}, cost {}: {}",
                search.status(),
                search.cost().unwrap_or(0.0),
                cells.join(" ")
            );
        }
    }
}

/// The cells still open, lowest f first (ties: as the search breaks them, larger g first).
fn open_list(search: &Search) -> String {
    let mut open: Vec<(Point, f64, f64)> = Vec::new();
    for event in search.trace() {
        if let TraceEvent::Opened(p) = *event
            && let Some(node) = search.node(p)
            && node.state == NodeState::Open
            && !open.iter().any(|(q, ..)| *q == p)
        {
            open.push((p, node.f, node.g));
        }
    }
    open.sort_by(|a, b| a.1.total_cmp(&b.1).then(b.2.total_cmp(&a.2)));
    let entries: Vec<String> = open.iter().map(|(p, f, _)| format!("{p} {f}")).collect();
    entries.join(", ")
}
