//! `cargo bench -p gridpath --bench mapf`: LaCAM's time to a first solution on the multi-agent
//! benchmark: random-32-32-10 with the first 50 to 400 agents of its random-1 scenario file, and
//! warehouse-20-40-10-2-2 with 1,000 random agents (seed 1). Each instance is solved and its plan
//! checked by the validator before it is timed; the table at the end gives the median time with
//! the plan's sum of costs and makespan beside their lower bounds.
//!
//! The data is read from `$GRIDPATH_MAPF` or from `../shared/mapf` beside the repository; without
//! it the benchmark says so and measures nothing.

use criterion::{Criterion, criterion_group};
use gridpath::mapf::{Instance, LacamOutcome, check_plan, solve_with_lacam};
use gridpath::movingai::{read_map_file, read_scen_file};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn data_dir() -> Option<PathBuf> {
    let crate_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let dir = std::env::var_os("GRIDPATH_MAPF")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir.join("../../../shared/mapf"));
    dir.join("maps").is_dir().then_some(dir)
}

/// The instances, by name.
fn instances(dir: &Path) -> Vec<(String, Instance)> {
    let mut out = Vec::new();
    let map = dir.join("maps/random-32-32-10.map");
    let scen = dir.join("scens/random-32-32-10-random-1.scen");
    if let (Ok(grid), Ok(scenarios)) = (read_map_file(&map), read_scen_file(&scen)) {
        for agents in [50, 100, 200, 300, 400] {
            if let Ok(instance) = Instance::from_scenarios(grid.clone(), &scenarios, agents) {
                out.push((format!("random-32-32-10/{agents}"), instance));
            }
        }
    }
    if let Ok(grid) = read_map_file(dir.join("maps/warehouse-20-40-10-2-2.map"))
        && let Ok(instance) = Instance::random(grid, 1000, 1)
    {
        out.push(("warehouse-20-40-10-2-2/1000".to_string(), instance));
    }
    out
}

fn bench_lacam(c: &mut Criterion) {
    let Some(dir) = data_dir() else {
        println!("no ../shared/mapf (or $GRIDPATH_MAPF): nothing to measure");
        return;
    };
    let mut rows = Vec::new();
    let mut group = c.benchmark_group("lacam_first_solution");
    group.sample_size(10);
    for (name, instance) in instances(&dir) {
        let limit = Duration::from_secs(60);
        let LacamOutcome::Solved(plan) = solve_with_lacam(&instance, limit, 0).0 else {
            println!("{name}: not solved within {limit:?}");
            continue;
        };
        let costs = check_plan(&instance.grid, &instance.starts, &instance.goals, &plan)
            .unwrap_or_else(|e| panic!("{name}: invalid plan: {e}"));
        let mut times = Vec::new();
        group.bench_function(&name, |b| {
            b.iter(|| {
                let began = Instant::now();
                let outcome = solve_with_lacam(black_box(&instance), limit, 0);
                times.push(began.elapsed());
                outcome
            })
        });
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        rows.push((name, median, costs));
    }
    group.finish();
    println!("\n| instance | median | soc (lb) | makespan (lb) |\n|---|---:|---:|---:|");
    for (name, median, c) in rows {
        println!(
            "| {name} | {:.1} ms | {} ({}) | {} ({}) |",
            median.as_secs_f64() * 1000.0,
            c.soc,
            c.soc_lb,
            c.makespan,
            c.makespan_lb
        );
    }
}

criterion_group!(benches, bench_lacam);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
