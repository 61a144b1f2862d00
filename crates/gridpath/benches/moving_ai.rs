//! `cargo bench -p gridpath`: our A*, our jump point search, JPS+ and the `pathfinding` crate's A*
//! on the same Moving AI scenarios, at identical optimal costs, with bidirectional A* (also
//! optimal) and the any-angle Theta* beside them; and what JPS+'s table costs to
//! make and to repair after a one-cell edit, on 512 × 512.
//!
//! The data is read from `$GRIDPATH_MOVINGAI` or from `../shared/movingai` beside the repository;
//! without it the benchmark says so and measures nothing. Each iteration solves a fixed sample of
//! the map's scenarios (every Nth, so all lengths are covered). At the end it prints the medians
//! and the ratios, all from this one run.

use criterion::{Criterion, criterion_group};
use gridpath::bidirectional::{Bidirectional, Ordering};
use gridpath::incremental::DStarLite;
use gridpath::movingai::{Scenario, read_map_file, read_scen_file};
use gridpath::{Algorithm, Grid, Heuristic, JumpDistances, Movement, Point, Search, SearchConfig};
use std::hint::black_box;
use std::path::PathBuf;

/// (map name, take every Nth scenario)
const MAPS: [(&str, usize); 2] = [("arena2", 10), ("random512-10-0", 20)];

/// This crate's directory, read at run time: a bench binary built in another checkout that
/// shares the target directory would otherwise look in that checkout.
fn crate_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("GRIDPATH_MOVINGAI")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir().join("../../../shared/movingai"));
    dir.join("maps").is_dir().then_some(dir)
}

/// The `pathfinding` crate needs totally ordered costs, so it counts in billionths: a straight
/// step is 10⁹ and a diagonal ⌊√2·10⁹⌉. The heuristic rounds √2 down, so it stays admissible.
mod baseline {
    use gridpath::{Grid, Point};

    pub const SCALE: f64 = 1e9;
    const STRAIGHT: u64 = 1_000_000_000;
    const DIAGONAL: u64 = 1_414_213_562;
    const DIAGONAL_DOWN: u64 = 1_414_213_562 - 1;

    fn free(grid: &Grid, x: i32, y: i32) -> bool {
        grid.is_passable(Point::new(x, y))
    }

    /// A lean successor function, as a user of the crate would write it: no allocation.
    fn successors(grid: &Grid, node: u32) -> impl Iterator<Item = (u32, u64)> + '_ {
        let w = grid.width() as i32;
        let (x, y) = (node as i32 % w, node as i32 / w);
        gridpath::STEPS.iter().filter_map(move |&(dx, dy)| {
            let (nx, ny) = (x + dx, y + dy);
            if !free(grid, nx, ny) {
                return None;
            }
            let diagonal = dx != 0 && dy != 0;
            if diagonal && !(free(grid, x + dx, y) && free(grid, x, y + dy)) {
                return None; // never cut a corner
            }
            Some((
                (ny * w + nx) as u32,
                if diagonal { DIAGONAL } else { STRAIGHT },
            ))
        })
    }

    pub fn cost(grid: &Grid, start: Point, goal: Point) -> Option<f64> {
        let w = grid.width() as i32;
        let (gx, gy) = (goal.x, goal.y);
        let goal = (gy * w + gx) as u32;
        let heuristic = |&n: &u32| {
            let (dx, dy) = (
                (n as i32 % w - gx).unsigned_abs() as u64,
                (n as i32 / w - gy).unsigned_abs() as u64,
            );
            let (lo, hi) = (dx.min(dy), dx.max(dy));
            (hi - lo) * STRAIGHT + lo * DIAGONAL_DOWN
        };
        pathfinding::prelude::astar(
            &((start.y * w + start.x) as u32),
            |&n| successors(grid, n),
            heuristic,
            |&n| n == goal,
        )
        .map(|(_, cost)| cost as f64 / SCALE)
    }
}

fn ours(search: &mut Search, grid: &Grid, s: &Scenario, config: &SearchConfig) -> Option<f64> {
    search.begin(grid, s.start, s.goal, config).ok()?;
    search.run(grid);
    search.cost()
}

fn both_ways(search: &mut Bidirectional, grid: &Grid, s: &Scenario) -> Option<f64> {
    let ordering = Ordering::AStar(Heuristic::Octile);
    search
        .begin(grid, s.start, s.goal, Movement::default(), ordering)
        .ok()?;
    search.run(grid);
    search.cost()
}

/// Why one long function: the benchmark's groups, one per map and algorithm, set up in the order
/// the report lists them.
fn bench_maps(c: &mut Criterion) {
    let Some(dir) = data_dir() else {
        eprintln!(
            "Moving AI data not found (set GRIDPATH_MOVINGAI or add ../shared/movingai): skipping"
        );
        return;
    };
    let astar = SearchConfig::default();
    let jps = astar.with_algorithm(Algorithm::JumpPoint);
    let jps_plus = astar.with_algorithm(Algorithm::JumpPointPlus);
    let theta = astar.with_algorithm(Algorithm::ThetaStar);
    for (name, every) in MAPS {
        let grid = match read_map_file(dir.join(format!("maps/{name}.map"))) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("skipping {name}: {e}");
                continue;
            }
        };
        let scenarios: Vec<Scenario> =
            match read_scen_file(dir.join(format!("scens/{name}.map.scen"))) {
                Ok(all) => all.into_iter().step_by(every).collect(),
                Err(e) => {
                    eprintln!("skipping {name}: {e}");
                    continue;
                }
            };
        // Identical costs first: a benchmark of wrong answers would mean nothing.
        let mut search = Search::new();
        let mut bidirectional = Bidirectional::new();
        for s in &scenarios {
            let a = ours(&mut search, &grid, s, &astar);
            let j = ours(&mut search, &grid, s, &jps);
            let jp = ours(&mut search, &grid, s, &jps_plus);
            let p = baseline::cost(&grid, s.start, s.goal);
            let bi = both_ways(&mut bidirectional, &grid, s);
            let both = [
                ("A*", a),
                ("JPS", j),
                ("JPS+", jp),
                ("pathfinding", p),
                ("bidi", bi),
            ];
            for (who, cost) in both {
                let cost = cost.unwrap_or(f64::NAN);
                assert!(
                    (cost - s.optimal).abs() < 1e-4,
                    "{who} on {name}: {cost} vs {}",
                    s.optimal
                );
            }
        }
        let mut group = c.benchmark_group(name);
        group.sample_size(15);
        group.bench_function("gridpath_astar", |b| {
            b.iter(|| {
                total(
                    scenarios
                        .iter()
                        .map(|s| ours(&mut search, &grid, s, &astar)),
                )
            })
        });
        group.bench_function("gridpath_jps", |b| {
            b.iter(|| total(scenarios.iter().map(|s| ours(&mut search, &grid, s, &jps))))
        });
        // The table was made by the check above: this measures the searches alone.
        group.bench_function("gridpath_jpsplus", |b| {
            b.iter(|| {
                total(
                    scenarios
                        .iter()
                        .map(|s| ours(&mut search, &grid, s, &jps_plus)),
                )
            })
        });
        group.bench_function("gridpath_bidirectional_astar", |b| {
            b.iter(|| {
                total(
                    scenarios
                        .iter()
                        .map(|s| both_ways(&mut bidirectional, &grid, s)),
                )
            })
        });
        // Not optimal on the grid's terms (shorter: any angle), so not in the check above.
        group.bench_function("gridpath_theta_star", |b| {
            b.iter(|| {
                total(
                    scenarios
                        .iter()
                        .map(|s| ours(&mut search, &grid, s, &theta)),
                )
            })
        });
        group.bench_function("pathfinding_astar", |b| {
            b.iter(|| {
                total(
                    scenarios
                        .iter()
                        .map(|s| baseline::cost(&grid, s.start, s.goal)),
                )
            })
        });
        group.finish();
        println!(
            "{name}: {} scenarios per iteration (every {every}th)",
            scenarios.len()
        );
    }
}

/// JPS+'s table on 512 × 512: made from scratch, and repaired after one cell's wall comes or goes
/// (each iteration toggles the next of 64 cells spread over the map, then updates the table).
fn bench_jump_table(c: &mut Criterion) {
    let mut maps = vec![("open512", Grid::new(512, 512).ok())];
    if let Some(dir) = data_dir() {
        maps.push((
            "random512-10-0",
            read_map_file(dir.join("maps/random512-10-0.map")).ok(),
        ));
    }
    for (name, grid) in maps {
        let Some(mut grid) = grid else { continue };
        let mut group = c.benchmark_group(format!("jump_table_{name}"));
        group.sample_size(15);
        group.bench_function("rebuild", |b| {
            b.iter(|| {
                let mut table = JumpDistances::new();
                black_box(table.update(&grid))
            })
        });
        let cells: Vec<Point> = (0..64)
            .map(|k| Point::new((k * 97 + 13) % 512, (k * 181 + 41) % 512))
            .collect();
        let mut table = JumpDistances::new();
        table.update(&grid);
        let mut next = 0;
        group.bench_function("repair_one_cell", |b| {
            b.iter(|| {
                let p = cells[next % cells.len()];
                next += 1;
                let blocked = grid.is_passable(p);
                let _ = grid.set_blocked(p, blocked);
                black_box(table.update(&grid))
            })
        });
        group.finish();
    }
}

/// The sum of the path costs, so that the optimiser cannot skip a search whose result is unused.
fn total(costs: impl Iterator<Item = Option<f64>>) -> f64 {
    costs.fold(0.0, |t, c| t + black_box(c.unwrap_or(0.0)))
}

/// Nanoseconds as milliseconds, for the tables.
fn ms(ns: f64) -> String {
    format!("{:.2} ms", ns / 1e6)
}

/// Reads criterion's median estimate (ns per iteration) for one benchmark of this run.
fn median_ns(group: &str, bench: &str) -> Option<f64> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir().join("../../target"));
    let json = std::fs::read_to_string(
        target.join(format!("criterion/{group}/{bench}/new/estimates.json")),
    )
    .ok()?;
    let after = &json[json.find("\"median\"")?..];
    let value = &after[after.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
    value[..value.find([',', '}'])?].trim().parse().ok()
}

/// Why one long function: it prints the README's table, row after row, in the order it is read.
fn print_ratios() {
    if data_dir().is_none() {
        return;
    }
    println!(
        "\n| map | gridpath A* | gridpath JPS | JPS+ | pathfinding A* | A* / pathfinding | JPS / A* | JPS+ / A* |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, _) in MAPS {
        let get = |b| median_ns(name, b);
        if let (Some(a), Some(j), Some(jp), Some(p)) = (
            get("gridpath_astar"),
            get("gridpath_jps"),
            get("gridpath_jpsplus"),
            get("pathfinding_astar"),
        ) {
            println!(
                "| {name} | {} | {} | {} | {} | {:.2} | {:.3} | {:.3} |",
                ms(a),
                ms(j),
                ms(jp),
                ms(p),
                a / p,
                j / a,
                jp / a
            );
        }
    }
    println!(
        "\n| map | gridpath A* | bidirectional A* | Theta* | bidirectional / A* | Theta* / A* |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, _) in MAPS {
        let get = |b| median_ns(name, b);
        if let (Some(a), Some(bi), Some(t)) = (
            get("gridpath_astar"),
            get("gridpath_bidirectional_astar"),
            get("gridpath_theta_star"),
        ) {
            println!(
                "| {name} | {} | {} | {} | {:.2} | {:.2} |",
                ms(a),
                ms(bi),
                ms(t),
                bi / a,
                t / a
            );
        }
    }
    println!(
        "\n| map | D* Lite repairs | A* after the same edits | repair / A* | BFS | bidirectional BFS | bidirectional / BFS |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for name in ["arena2", "random512-10-0"] {
        let group = format!("replan_{name}");
        let get = |b| median_ns(&group, b);
        if let (Some(d), Some(a), Some(bf), Some(bb)) = (
            get("d_star_lite_repair"),
            get("astar_after_the_edit"),
            get("breadth_first"),
            get("bidirectional_breadth_first"),
        ) {
            println!(
                "| {name} | {} | {} | {:.3} | {} | {} | {:.2} |",
                ms(d),
                ms(a),
                d / a,
                ms(bf),
                ms(bb),
                bb / bf
            );
        }
    }
    println!(
        "\n| JPS+ table, 512 × 512 | rebuild | repair after a one-cell edit | repair / rebuild |"
    );
    println!("|---|---:|---:|---:|");
    for name in ["open512", "random512-10-0"] {
        let group = format!("jump_table_{name}");
        if let (Some(full), Some(one)) = (
            median_ns(&group, "rebuild"),
            median_ns(&group, "repair_one_cell"),
        ) {
            println!(
                "| {name} | {:.2} ms | {:.1} µs | {:.2} % |",
                full / 1e6,
                one / 1e3,
                100.0 * one / full
            );
        }
    }
}

/// D* Lite against A* after the same edit, on the same scenarios: a wall dropped on the middle of
/// the current path, then taken away again (two repairs an iteration, so the state is the same
/// each time), against two fresh A* searches on the same two grids. Also bidirectional BFS, which
/// counts moves, beside breadth-first search.
fn bench_replanning(c: &mut Criterion) {
    let Some(dir) = data_dir() else { return };
    let (moves, h) = (Movement::default(), Heuristic::Octile);
    for (name, every) in [("arena2", 91), ("random512-10-0", 222)] {
        let (Ok(map), Ok(all)) = (
            read_map_file(dir.join(format!("maps/{name}.map"))),
            read_scen_file(dir.join(format!("scens/{name}.map.scen"))),
        ) else {
            continue;
        };
        // Each case: a planner that has planned once, its grid, and the cell to wall off.
        let mut cases: Vec<(DStarLite, Grid, Scenario, Point)> = Vec::new();
        for s in all.into_iter().step_by(every) {
            let mut planner = DStarLite::new();
            if planner.plan(&map, s.start, s.goal, moves, h).is_err() || planner.path().len() < 3 {
                continue;
            }
            let middle = planner.path()[planner.path().len() / 2];
            cases.push((planner, map.clone(), s, middle));
        }
        let mut group = c.benchmark_group(format!("replan_{name}"));
        group.sample_size(15);
        group.bench_function("d_star_lite_repair", |b| {
            b.iter(|| {
                let mut total = 0.0;
                for (planner, grid, s, cell) in &mut cases {
                    for blocked in [true, false] {
                        let _ = grid.set_blocked(*cell, blocked);
                        planner.cells_changed(grid, [*cell]);
                        let _ = planner.plan(grid, s.start, s.goal, moves, h);
                        total += planner.found().map_or(0.0, |p| p.cost);
                    }
                }
                black_box(total)
            })
        });
        let mut search = Search::new();
        let astar = SearchConfig::default();
        group.bench_function("astar_after_the_edit", |b| {
            b.iter(|| {
                let mut total = 0.0;
                for (_, grid, s, cell) in &mut cases {
                    for blocked in [true, false] {
                        let _ = grid.set_blocked(*cell, blocked);
                        total += ours(&mut search, grid, s, &astar).unwrap_or(0.0);
                    }
                }
                black_box(total)
            })
        });
        let scenarios: Vec<Scenario> = cases.iter().map(|c| c.2.clone()).collect();
        let bfs = astar.with_algorithm(Algorithm::BreadthFirst);
        let bibfs = astar.with_algorithm(Algorithm::BidirectionalBreadthFirst);
        group.bench_function("breadth_first", |b| {
            b.iter(|| total(scenarios.iter().map(|s| ours(&mut search, &map, s, &bfs))))
        });
        group.bench_function("bidirectional_breadth_first", |b| {
            b.iter(|| total(scenarios.iter().map(|s| ours(&mut search, &map, s, &bibfs))))
        });
        group.finish();
        println!("{name}: {} scenarios for re-planning", cases.len());
    }
}

criterion_group!(benches, bench_maps, bench_jump_table, bench_replanning);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    print_ratios();
}
