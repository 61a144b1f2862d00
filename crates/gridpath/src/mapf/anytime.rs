//! Anytime MAPF: LaCAM's first plan, then made cheaper for as long as there is time, on every
//! core.
//!
//! The first plan is LaCAM's ([`super::lacam`]), found by counts of work alone, so the same
//! instance and seed give the same first plan on any machine. Then large neighbourhood search
//! (Li, Chen, Harabor, Stuckey and Koenig, "Anytime Multi-Agent Path Finding via Large
//! Neighborhood Search", IJCAI 2021; the refinement LaCAM\* runs beside its search, "Engineering
//! LaCAM\*", Okumura, AAMAS 2024) takes a few late agents out at a time and re-plans each alone
//! around the others, keeping the change when no one arrives later ([`super::refine`]). Each
//! core refines the best plan so far with random numbers of its own for an *epoch*; at its end
//! the cheapest of their plans becomes the best, and the next epoch starts from it. On small
//! instances (a few dozen agents at most) one core runs LaCAM\*'s search instead
//! ([`super::star`]), which goes on from the start looking for cheaper plans and, when it has
//! tried every cheaper way, proves the best plan optimal: the solve then ends early.
//!
//! ```text
//! plan ← LaCAM(instance)                      -- counts of work only: repeatable
//! report(plan)
//! while the deadline is ahead and no one said stop and the plan is not proven optimal:
//!     plans ← in parallel: LaCAM*(below soc(plan)) on one core while it has memory,
//!                          refine(plan, seed_k) on each other core k, until the epoch ends
//!     best ← the cheapest of plans
//!     if soc(best) < soc(plan): plan ← best; report(plan)
//!     proven optimal if LaCAM* tried everything, or no agent arrives later than its distance
//! ```
//!
//! The clock (and the stop flag) only cut the improving: a search that is stopped while
//! looking for its first plan says it timed out.

use super::distances::Distances;
use super::instance::Instance;
use super::lacam::{Found, LacamOutcome, LacamStats, Settings, first_plan};
use super::moves::Moves;
use super::random::SplitMix64;
use super::refine::{Refiner, paths_of, soc_of};
use super::star::Star;
use super::until::Until;
use crate::grid::{Grid, Point};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// How an anytime solve may run: until when, on how many threads, and a flag that stops it
/// early (a game raises it when its frame budget is spent, or the user asks for the plan now).
#[derive(Clone, Copy, Debug)]
pub struct AnytimeLimits<'a> {
    /// Stop improving (or looking for a first plan) after this long.
    pub time_limit: Duration,
    /// Threads that refine side by side (1: the caller's thread alone; on the web, always 1).
    pub threads: usize,
    /// Raised by anyone: the solve returns the best plan so far, within milliseconds.
    pub stop: Option<&'a AtomicBool>,
}

/// A plan's cost, and when it was found (from the start of the solve).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Milestone {
    /// Its sum of costs.
    pub soc: u64,
    /// When it was found, from the start of the solve.
    pub at: Duration,
}

/// An anytime solve's outcome: the best plan, the first plan's cost and time, and each
/// improvement after it.
#[derive(Clone, Debug)]
pub struct AnytimeRun {
    /// `Solved` with the cheapest plan found.
    pub outcome: LacamOutcome,
    /// The search's counts, summed over every thread.
    pub stats: LacamStats,
    /// The first plan, then each cheaper one, in order.
    pub milestones: Vec<Milestone>,
    /// Rounds of refinement every thread ran in all.
    pub epochs: usize,
    /// The plan is proven optimal: LaCAM\* tried everything cheaper, or no agent arrives later
    /// than its distance allows.
    pub optimal: bool,
}

impl AnytimeRun {
    /// The first plan's cost and time.
    pub fn first(&self) -> Option<Milestone> {
        self.milestones.first().copied()
    }

    /// The best plan's cost and time.
    pub fn best(&self) -> Option<Milestone> {
        self.milestones.last().copied()
    }
}

/// How long each thread refines before the threads compare plans: long enough that building
/// each thread's table of who is where when (a pass over the whole plan) is a small part of
/// it, short enough that a thread stuck with a worse plan does not refine it for long.
fn epoch(time_limit: Duration, agents: usize) -> Duration {
    let floor = Duration::from_millis(50 + agents as u64 / 20);
    (time_limit / 20).clamp(floor, Duration::from_secs(2))
}

/// A cheaper plan, as [`solve_anytime`] reports it: the plan is made only when asked for (at
/// 10,000 agents it is millions of points).
pub struct Improved<'a> {
    grid: &'a Grid,
    paths: &'a [Vec<u32>],
}

impl Improved<'_> {
    /// Every agent's cell at each time step, from the starts to the goals: `plan[t][agent]`.
    pub fn plan(&self) -> Vec<Vec<Point>> {
        points_of(self.grid, self.paths)
    }
}

/// Solves `instance` with LaCAM, then improves the plan until `limits` say stop (see the
/// module docs). `on_better` hears of the first plan and of each cheaper one.
pub fn solve_anytime(
    instance: &Instance,
    seed: u64,
    limits: AnytimeLimits<'_>,
    mut on_better: impl FnMut(Milestone, &Improved<'_>),
) -> AnytimeRun {
    let began = Instant::now();
    let mut until = Until::new(began + limits.time_limit);
    if let Some(stop) = limits.stop {
        until = until.or_stopped(stop);
    }
    let mut distances = Distances::with_moves(instance.moves);
    let (found, stats) = first_plan(instance, &mut distances, &until, Settings::seeded(seed));
    let mut run = AnytimeRun {
        outcome: LacamOutcome::TimedOut,
        stats,
        milestones: Vec::new(),
        epochs: 0,
        optimal: false,
    };
    let (plan, slots) = match found {
        Found::Plan(configs, slots, _) => (configs, slots),
        Found::NoSolution => {
            run.outcome = LacamOutcome::NoSolution;
            return run;
        }
        Found::TimedOut => return run,
    };
    let grid = &instance.grid;
    let tables: Vec<&[u32]> = slots.iter().map(|&s| distances.table(s)).collect();
    // The plan handed back at the end is made from the paths: about as long as cutting them
    // out of the configurations took, and freeing the threads' tables about as long: the
    // improving stops four times that before the limit.
    let star = match (plan.first(), plan.last()) {
        (Some(starts), Some(goals)) => Star::new(grid, &distances, starts, goals, seed),
        _ => None,
    };
    let cut = Instant::now();
    let mut best = paths_of(&plan);
    drop(plan);
    let cutting = cut.elapsed();
    let until = until.sooner(began + limits.time_limit.saturating_sub(cutting * 4));
    let mut soc = soc_of(&best);
    let mut report = |run: &mut AnytimeRun, paths: &[Vec<u32>], soc: u64| {
        let milestone = Milestone {
            soc,
            at: began.elapsed(),
        };
        run.milestones.push(milestone);
        on_better(milestone, &Improved { grid, paths });
    };
    report(&mut run, &best, soc);
    improve(
        &mut run,
        &mut best,
        &mut soc,
        ((grid, instance.moves), &tables, star),
        (&until, limits, seed, cutting),
        &mut report,
    );
    run.outcome = LacamOutcome::Solved(points_of(grid, &best));
    run
}

/// The loop of the module docs: each thread refines the best plan (its own copy, kept between
/// epochs while it is the best) for an epoch; the cheapest becomes the best. One thread (every
/// other epoch on one) runs LaCAM\*'s search instead while it has memory: when it has tried
/// everything, the best plan is optimal and the solve ends. No epoch starts with less time left
/// than a thread may need to build its copy (about four times `cutting`, the time the paths took
/// to cut out of the plan): building it cannot be cut short.
///
/// Why one long function: the loop above is one epoch after another, each deciding from the last
/// what to run, on how many threads, and whether time is left; its state (the best plan, the
/// threads' copies, LaCAM*'s search) is shared by every step of it.
fn improve<'a>(
    run: &mut AnytimeRun,
    best: &mut Vec<Vec<u32>>,
    soc: &mut u64,
    (on, tables, mut star): ((&'a Grid, Moves), &'a [&'a [u32]], Option<Star<'_>>),
    (until, limits, seed, cutting): (&Until<'_>, AnytimeLimits<'_>, u64, Duration),
    report: &mut impl FnMut(&mut AnytimeRun, &[Vec<u32>], u64),
) {
    let threads = if cfg!(target_arch = "wasm32") {
        1
    } else {
        limits.threads.max(1)
    };
    let epoch = epoch(limits.time_limit, tables.len());
    let mut rng = SplitMix64(seed ^ 0xA11_71E5);
    let mut refiners: Vec<Option<Refiner<'a>>> = (0..threads).map(|_| None).collect();
    let mut overrun = Duration::ZERO;
    // Raised when LaCAM* has tried everything: the refiners' epoch ends there.
    let optimal = AtomicBool::new(false);
    run.optimal = !late(best, tables);
    while !run.optimal && !until.now() && until.left() > cutting * 4 {
        // An epoch ends a little after its deadline (a search looks at the clock every 256
        // states, a thread's copy is built whole): the last one ends that much sooner.
        let now = Instant::now();
        let ends = now + epoch.min(until.left().saturating_sub(overrun));
        let slice = until.sooner(ends).or_stopped(&optimal);
        let seeds: Vec<u64> = (0..threads).map(|_| rng.next()).collect();
        let shared: &[Vec<u32>] = best;
        let refined = |refiner: &mut Option<Refiner<'a>>, seed: u64| {
            let refiner = refiner.get_or_insert_with(|| Refiner::new(on, tables, shared.to_vec()));
            refiner.run(&slice, &mut SplitMix64(seed));
            refiner.soc()
        };
        let bound = *soc;
        let searched = |star: &mut Star<'_>| {
            let found = star.run(&slice, bound);
            if star.finished() {
                optimal.store(true, Ordering::Relaxed);
            }
            found
        };
        // Who runs: LaCAM* on this thread (on one thread, every other epoch; the rest of the
        // epoch refining if it runs out of memory), the refiners on the others.
        let star_runs = star.is_some() && (threads > 1 || run.epochs.is_multiple_of(2));
        let (mine, theirs) = refiners.split_at_mut(1);
        let this_thread = || match star.as_mut().filter(|_| star_runs) {
            Some(star) => {
                let found = searched(star);
                let soc = if star.full() {
                    refined(&mut mine[0], seeds[0])
                } else {
                    u64::MAX
                };
                (found, soc)
            }
            None => (None, refined(&mut mine[0], seeds[0])),
        };
        let others = theirs.iter_mut().zip(&seeds[1..]);
        let (found, socs) = side_by_side(
            this_thread,
            others.map(|(refiner, &seed)| move || refined(refiner, seed)),
        );
        run.epochs += 1;
        overrun = overrun.max(Instant::now().saturating_duration_since(ends));
        run.optimal = optimal.load(Ordering::Relaxed);
        if star.as_ref().is_some_and(Star::full) {
            star = None;
        }
        if let Some((cost, paths)) = cheapest(found, &socs, &refiners, *soc) {
            *soc = cost;
            *best = paths;
            report(run, best, cost);
        }
        run.optimal |= !late(best, tables);
        // The others start the next epoch from the best plan.
        for (refiner, &s) in refiners.iter_mut().zip(&socs) {
            if s > *soc {
                *refiner = None;
            }
        }
    }
}

/// The cheapest plan an epoch made, if it costs less than `below`: LaCAM\*'s (`found`) or the
/// best refiner's (`socs[k]` is `refiners[k]`'s sum of costs), LaCAM\*'s on a tie.
fn cheapest(
    found: Option<(u64, Vec<Box<[u32]>>)>,
    socs: &[u64],
    refiners: &[Option<Refiner<'_>>],
    below: u64,
) -> Option<(u64, Vec<Vec<u32>>)> {
    let refined = socs
        .iter()
        .zip(refiners)
        .filter_map(|(&soc, refiner)| Some((soc, refiner.as_ref()?)))
        .min_by_key(|&(soc, _)| soc)
        .filter(|&(soc, _)| soc < below);
    match (found, refined) {
        (Some((cost, configs)), r) if cost < below && r.is_none_or(|(s, _)| cost <= s) => {
            Some((cost, paths_of(&configs)))
        }
        (_, Some((cost, winner))) => Some((cost, winner.paths().to_vec())),
        _ => None,
    }
}

/// Runs `mine` on this thread and each of `theirs` on a thread of its own, side by side; with
/// none of theirs (the web's one thread), no thread scope, which a browser's main thread may not
/// wait on. Returns what `mine` found, and each one's sum of costs, this thread's first.
fn side_by_side<T, R: FnOnce() -> u64 + Send>(
    mine: impl FnOnce() -> (T, u64),
    theirs: impl ExactSizeIterator<Item = R>,
) -> (T, Vec<u64>) {
    if theirs.len() == 0 {
        let (found, soc) = mine();
        return (found, vec![soc]);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = theirs.map(|job| scope.spawn(job)).collect();
        let (found, soc) = mine();
        let socs = std::iter::once(soc)
            .chain(handles.into_iter().map(|h| h.join().unwrap_or(u64::MAX)))
            .collect();
        (found, socs)
    })
}

/// Does any agent arrive later than its distance allows? (If none, the plan is optimal.)
fn late(paths: &[Vec<u32>], tables: &[&[u32]]) -> bool {
    paths
        .iter()
        .zip(tables)
        .any(|(p, table)| p.len() - 1 > p.first().map_or(0, |&s| table[s as usize]) as usize)
}

/// Paths cut at their goals as configurations of points, from the starts to the goals.
fn points_of(grid: &Grid, paths: &[Vec<u32>]) -> Vec<Vec<Point>> {
    let steps = paths.iter().map(Vec::len).max().unwrap_or(1);
    (0..steps)
        .map(|t| {
            paths
                .iter()
                .map(|p| grid.point_of(p[t.min(p.len() - 1)] as usize))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::mapf::check_plan_with_moves;
    use proptest::prelude::*;
    use std::sync::atomic::Ordering;

    fn grid_from(width: usize, height: usize, walls: &[bool]) -> Option<Grid> {
        let rows: Vec<String> = (0..height)
            .map(|y| {
                let wall = |x: usize| walls[(y * 8 + x) % 64] && (x + y).is_multiple_of(3);
                (0..width)
                    .map(|x| if wall(x) { '#' } else { '.' })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        Grid::from_ascii(&rows).ok()
    }

    fn limits(ms: u64, threads: usize) -> AnytimeLimits<'static> {
        AnytimeLimits {
            time_limit: Duration::from_millis(ms),
            threads,
            stop: None,
        }
    }

    #[test]
    fn the_first_plan_is_the_same_whatever_the_threads_and_a_stop_flag_ends_the_solve() {
        let grid = Grid::from_ascii(&["........", "..#..#..", "........", "..#..#..", "........"])
            .expect("a grid");
        let instance = Instance::random(grid, 12, 5).expect("12 agents");
        let first_of = |threads: usize| {
            let mut first = None;
            solve_anytime(&instance, 7, limits(30, threads), |m, better| {
                first.get_or_insert((m.soc, better.plan()));
            });
            first.expect("a first plan")
        };
        assert_eq!(first_of(1), first_of(2));
        // Raised at the first plan: that plan is the answer.
        let stop = AtomicBool::new(false);
        let run = solve_anytime(
            &instance,
            7,
            AnytimeLimits {
                stop: Some(&stop),
                ..limits(60_000, 2)
            },
            |_, _| stop.store(true, Ordering::Relaxed),
        );
        assert_eq!(run.milestones.len(), 1);
        let LacamOutcome::Solved(plan) = run.outcome else {
            panic!("solved")
        };
        assert_eq!(Some((run.milestones[0].soc, plan)), Some(first_of(1)));
        // Raised before: no plan, out of time.
        let run = solve_anytime(
            &instance,
            7,
            AnytimeLimits {
                stop: Some(&stop),
                ..limits(60_000, 2)
            },
            |_, _| {},
        );
        assert_eq!(run.outcome, LacamOutcome::TimedOut);
        assert!(run.milestones.is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

        /// Every plan the solve reports, on small random grids (squares or hexagons), passes
        /// the validator and costs less than the one before; the answer is the last of them.
        #[test]
        fn every_plan_reported_is_valid_and_cheaper_than_the_last(
            shape in 0usize..7,
            width in 3usize..8,
            height in 3usize..8,
            walls in proptest::collection::vec(any::<bool>(), 64),
            agents in 2usize..12,
            seed in any::<u64>(),
            threads in 1usize..3,
        ) {
            let Some(grid) = grid_from(width, height, &walls) else { return Ok(()) };
            let moves = match shape {
                0 => Moves::FourWay,
                k => Moves::Hex(crate::hex::HexLayout::ALL[k - 1]),
            };
            let Ok(instance) = Instance::random_with(grid, moves, agents, seed) else {
                return Ok(());
            };
            let (grid, starts, goals) = (&instance.grid, &instance.starts, &instance.goals);
            let mut reported: Vec<(u64, Vec<Vec<Point>>)> = Vec::new();
            let run = solve_anytime(&instance, seed, limits(10, threads), |m, better| {
                reported.push((m.soc, better.plan()));
            });
            for (soc, plan) in &reported {
                let costs = check_plan_with_moves(grid, moves, starts, goals, plan);
                let costs = costs.map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(costs.soc, *soc);
            }
            for pair in reported.windows(2) {
                prop_assert!(pair[1].0 < pair[0].0, "{} then {}", pair[0].0, pair[1].0);
            }
            if let LacamOutcome::Solved(plan) = run.outcome {
                prop_assert_eq!(Some(&plan), reported.last().map(|r| &r.1));
            }
        }
    }
}
