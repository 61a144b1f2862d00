//! `cargo bench -p gridpath --bench tactics`: a movement range of budget 20 against a Dijkstra
//! search of the same reach, on a 512 × 512 map with a tenth of its cells walls (random, as the
//! Moving AI `random512-10` maps; made here, so the benchmark needs no data).
//!
//! For each of 200 open cells, the range from it, then the search (the crate's Dijkstra through
//! [`Search`], memory reused, no path copied) from it to the dearest cell the range reached: the
//! search expands the cells cheaper than that goal, the range's own reach. Rounds alternate the
//! two; it prints the median round of each, per query, and their ratio, from this one run.

use gridpath::tactics::{Blockers, FieldOfView, MovementRange};
use gridpath::{Algorithm, Grid, Movement, Point, Search, SearchConfig};
use std::hint::black_box;
use std::time::Instant;

const SIDE: u32 = 512;
const BUDGET: f64 = 20.0;
const QUERIES: usize = 200;
const ROUNDS: usize = 41;

/// A 512 × 512 map, one cell in ten a wall, the same every run (a small xorshift).
fn random_map() -> Grid {
    let mut grid = Grid::new(SIDE, SIDE).expect("a 512 × 512 grid");
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for i in 0..grid.len() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if state.is_multiple_of(10) {
            let _ = grid.set_blocked(grid.point_of(i), true);
        }
    }
    grid
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` asks for the list of benchmarks: there is none to list
    }
    let grid = random_map();
    let movement = Movement::default();
    let starts: Vec<Point> = (0..QUERIES)
        .map(|k| grid.point_of((k * 1303 + 7) * 977 % grid.len()))
        .filter(|&p| grid.is_passable(p))
        .collect();
    let mut range = MovementRange::new();
    let blockers = Blockers::new();
    // The goal of each Dijkstra search: the last cell the range settled, its dearest.
    let goals: Vec<Point> = starts
        .iter()
        .map(|&s| {
            range.compute(&grid, movement, s, BUDGET, &blockers);
            range.cells().last().map_or(s, |(p, _)| p)
        })
        .collect();
    let reached: usize = starts
        .iter()
        .map(|&s| {
            range.compute(&grid, movement, s, BUDGET, &blockers);
            range.len()
        })
        .sum();
    let config = SearchConfig::astar(movement).with_algorithm(Algorithm::Dijkstra);
    let mut search = Search::new();
    let mut expanded = 0;
    for (&s, &g) in starts.iter().zip(&goals) {
        search.begin(&grid, s, g, &config).expect("open cells");
        search.run(&grid);
        expanded += search.expanded();
    }
    let mut fov = FieldOfView::new();
    let (mut ranges, mut searches, mut views) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for &s in &starts {
            range.compute(&grid, movement, s, BUDGET, &blockers);
            black_box(range.len());
        }
        ranges.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for (&s, &g) in starts.iter().zip(&goals) {
            let _ = search.begin(&grid, s, g, &config);
            search.run(&grid);
            black_box(search.expanded());
        }
        searches.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for &s in &starts {
            fov.compute(&grid, movement, s, 20);
            black_box(fov.cells().count());
        }
        views.push(t.elapsed().as_secs_f64());
    }
    let per = |xs: Vec<f64>| median(xs) / starts.len() as f64 * 1e6;
    let (r, d, v) = (per(ranges), per(searches), per(views));
    println!(
        "512 × 512, 10 % walls, 8-way, {} queries: range of budget {BUDGET} reaches {} cells a \
         query, Dijkstra to its dearest cell expands {}",
        starts.len(),
        reached / starts.len(),
        expanded / starts.len()
    );
    println!("| query | median µs | / Dijkstra |");
    println!("|---|---:|---:|");
    println!("| movement range, budget 20 | {r:.1} | {:.2} |", r / d);
    println!("| Dijkstra, same reach | {d:.1} | 1.00 |");
    println!("| field of view, radius 20 | {v:.1} | {:.2} |", v / d);
}
