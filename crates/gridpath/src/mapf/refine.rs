//! Refine: a plan made cheaper by re-planning a few agents at a time (large neighbourhood search:
//! Li, Chen, Harabor, Stuckey and Koenig, "Anytime Multi-Agent Path Finding via Large
//! Neighborhood Search", IJCAI 2021; LaCAM\* refines its plans the same way, in "Engineering
//! LaCAM\*", AAMAS 2024).
//!
//! LaCAM's first plan is found by PIBT one step at a time, with no look ahead: an agent is often
//! pushed off its goal and comes back, or waits where a detour would have been quicker. Taking a
//! handful of agents out and planning each one alone, in space and time, around everybody else's
//! paths, fixes much of that. The change is kept only if the sum of costs did not rise.
//!
//! ```text
//! paths ← the plan, each agent's cut where it reaches its goal for good
//! repeat until the deadline:
//!     A ← a few agents, at random among those that arrive later than their distance allows
//!     take A's paths out of the table of who is where when
//!     for i in A:
//!         path(i) ← SIPP from s_i to g_i (see `sipp`): a move or a wait each step, never onto a
//!                   cell someone holds then, never swapping, ending on g_i for good, arriving
//!                   no later than before (so the sum of costs never rises)
//!         if that failed and i's old path is still clear: path(i) ← the old path
//!         put path(i) in the table
//!     if one failed and its old path was not clear: put all the old paths back
//! ```
//!
//! The searches are SIPP's, over safe intervals, not a space-time A\*'s over every time: an agent
//! late by tens of steps waits at doors, and a space-time search expands every cell near a door
//! at every time it might wait there. On room-64-64-8 with 400 agents, three seconds of
//! refinement took the sum of costs from 51,266 to 47,966 with space-time A\* at best (two
//! agents at a time, a cap of 200,000 states) and to 38,645 with SIPP.

use super::moves::Moves;
use super::random::SplitMix64;
use super::sipp::{Ask, Sipp, Table};
use super::until::Until;
use crate::grid::Grid;

/// How many agents are re-planned together. Li et al. found 8 a good size for random
/// neighbourhoods; it is small enough that most rounds find a way, large enough to untangle two
/// agents that block each other.
const NEIGHBOURHOOD: usize = 8;

/// A search that expands more states than this gives up (and the old paths stay): a round
/// stuck on one agent is a round the others do not get.
const MAX_EXPANSIONS: usize = 20_000;

/// Makes `plan` (configurations of cell indices, from the starts to the goals) cheaper
/// `until` it says. `tables[i]` is agent `i`'s distance table. Returns the plan unchanged if
/// nothing helped; every plan it returns is valid when the one given is.
pub(crate) fn refine(
    (grid, moves): (&Grid, Moves),
    tables: &[&[u32]],
    plan: &[Box<[u32]>],
    until: &Until<'_>,
    rng: &mut SplitMix64,
) -> Vec<Box<[u32]>> {
    let mut refiner = Refiner::new((grid, moves), tables, paths_of(plan));
    refiner.run(until, rng);
    refiner.configs()
}

/// The sum of costs of paths cut where each agent reaches its goal for good.
pub(crate) fn soc_of(paths: &[Vec<u32>]) -> u64 {
    paths.iter().map(|p| p.len() as u64 - 1).sum()
}

/// Each agent's path in `plan`, cut where it reaches its goal for good.
pub(crate) fn paths_of(plan: &[Box<[u32]>]) -> Vec<Vec<u32>> {
    let Some(goals) = plan.last() else {
        return Vec::new();
    };
    (0..goals.len())
        .map(|i| {
            let mut path: Vec<u32> = plan.iter().map(|config| config[i]).collect();
            while path.len() > 1 && path[path.len() - 2] == goals[i] {
                path.pop();
            }
            path
        })
        .collect()
}

/// A plan being refined: each agent's path, the table of who is where when, and the search's
/// scratch, kept from one call of [`Refiner::run`] to the next (at 10,000 agents, building the
/// table takes longer than many rounds).
pub(crate) struct Refiner<'a> {
    grid: &'a Grid,
    moves: Moves,
    tables: &'a [&'a [u32]],
    paths: Vec<Vec<u32>>,
    /// Each agent's distance from its start to its goal: no path of it can be shorter.
    least: Vec<u32>,
    table: Table,
    search: Sipp,
}

impl<'a> Refiner<'a> {
    /// `paths[i]`: agent `i`'s path to its goal, ending there for good.
    pub(crate) fn new(
        (grid, moves): (&'a Grid, Moves),
        tables: &'a [&'a [u32]],
        paths: Vec<Vec<u32>>,
    ) -> Self {
        let least = paths
            .iter()
            .zip(tables)
            .map(|(path, table)| path.first().map_or(0, |&s| table[s as usize]))
            .collect();
        Self {
            grid,
            moves,
            tables,
            table: Table::from_paths(grid, &paths),
            paths,
            least,
            search: Sipp::default(),
        }
    }

    /// The sum of costs: each agent's arrival for good.
    pub(crate) fn soc(&self) -> u64 {
        soc_of(&self.paths)
    }

    pub(crate) fn paths(&self) -> &[Vec<u32>] {
        &self.paths
    }

    /// The plan as configurations, from the starts to the goals.
    pub(crate) fn configs(&self) -> Vec<Box<[u32]>> {
        let steps = self.paths.iter().map(Vec::len).max().unwrap_or(1);
        (0..steps)
            .map(|t| self.paths.iter().map(|p| p[t.min(p.len() - 1)]).collect())
            .collect()
    }

    /// The rounds of the module docs' loop, `until` it says.
    pub(crate) fn run(&mut self, until: &Until<'_>, rng: &mut SplitMix64) {
        let mut chosen: Vec<usize> = Vec::with_capacity(NEIGHBOURHOOD);
        let mut delayed: Vec<usize> = Vec::new();
        let mut spent = 0;
        while spent < until.work_budget() && !until.now() {
            // The agents that arrive later than their distance allows: only they can gain.
            delayed.clear();
            delayed.extend(
                (0..self.paths.len()).filter(|&i| self.paths[i].len() - 1 > self.least[i] as usize),
            );
            if delayed.is_empty() {
                break;
            }
            chosen.clear();
            while chosen.len() < NEIGHBOURHOOD.min(delayed.len()) {
                let i = delayed[(rng.next() % delayed.len() as u64) as usize];
                if !chosen.contains(&i) {
                    chosen.push(i);
                }
            }
            spent += self.replan(&chosen, until, until.work_budget().saturating_sub(spent));
        }
    }

    /// Re-plans the `chosen` agents in turn, each arriving no later than it did (so the sum of
    /// costs never rises). One whose search fails keeps its old path if that is still clear
    /// (the others' new paths missed it); if not, every one of them gets its old path back.
    /// Returns the states the searches expanded.
    fn replan(&mut self, chosen: &[usize], until: &Until<'_>, work: usize) -> usize {
        let (grid, table) = (self.grid, &mut self.table);
        let old: Vec<Vec<u32>> = chosen.iter().map(|&i| self.paths[i].clone()).collect();
        for &i in chosen {
            table.remove(i as u32, &self.paths[i]);
        }
        let mut spent = 0;
        let mut replanned = 0;
        for &i in chosen {
            let path = &self.paths[i];
            let ask = Ask {
                moves: self.moves,
                start: path[0],
                goal: path[path.len() - 1],
                to_goal: self.tables[i],
                limit: (path.len() - 1) as u32,
                most: MAX_EXPANSIONS.min(work.saturating_sub(spent)),
            };
            let found = self
                .search
                .run(grid, table, &self.paths, &ask, until, &mut spent);
            match found {
                Some(path) => self.paths[i] = path,
                None if table.clear_for(&self.paths[i], &self.paths) => {}
                None => break,
            }
            table.add(i as u32, &self.paths[i]);
            replanned += 1;
        }
        if replanned < chosen.len() {
            for &i in &chosen[..replanned] {
                table.remove(i as u32, &self.paths[i]);
            }
            for (&i, path) in chosen.iter().zip(old) {
                table.add(i as u32, &path);
                self.paths[i] = path;
            }
        }
        spent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Point;
    use crate::mapf::{Distances, Instance, check_plan, solve_with_pibt};
    use proptest::prelude::*;
    use std::time::{Duration, Instant};

    /// Refines a plan of points for a few milliseconds.
    fn refined(instance: &Instance, plan: &[Vec<Point>], seed: u64) -> Vec<Vec<Point>> {
        let grid = &instance.grid;
        let cell = |p: &Point| grid.index_of(*p).map_or(0, |i| i as u32);
        let configs: Vec<Box<[u32]>> = plan.iter().map(|c| c.iter().map(cell).collect()).collect();
        let mut distances = Distances::with_moves(instance.moves);
        let slots: Vec<usize> = instance
            .goals
            .iter()
            .map(|g| distances.slot(grid, cell(g) as usize))
            .collect();
        let tables: Vec<&[u32]> = slots.iter().map(|&s| distances.table(s)).collect();
        let until = Until::new(Instant::now() + Duration::from_millis(5));
        let on = (grid, instance.moves);
        let out = refine(on, &tables, &configs, &until, &mut SplitMix64(seed));
        let point = |&v: &u32| grid.point_of(v as usize);
        out.iter().map(|c| c.iter().map(point).collect()).collect()
    }

    #[test]
    fn a_needless_wait_is_cut() {
        let grid = Grid::from_ascii(&["....."]).expect("test grid");
        let (start, goal) = (Point::new(0, 0), Point::new(4, 0));
        let instance = Instance::new(grid, vec![start], vec![goal]).expect("one agent");
        let waits: Vec<Vec<Point>> = [0, 0, 0, 1, 2, 3, 4]
            .iter()
            .map(|&x| vec![Point::new(x, 0)])
            .collect();
        let plan = refined(&instance, &waits, 1);
        let costs = check_plan(&instance.grid, &[start], &[goal], &plan).expect("valid");
        assert_eq!(costs.soc, 4);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// PIBT's plans on small random grids (full of waits and detours) stay legal once
        /// refined, and never cost more.
        #[test]
        fn refined_plans_stay_legal_and_never_cost_more(
            width in 3usize..8,
            height in 3usize..8,
            walls in proptest::collection::vec(any::<bool>(), 64),
            agents in 2usize..10,
            seed in any::<u64>(),
        ) {
            let rows: Vec<String> = (0..height)
                .map(|y| {
                    let wall = |x: usize| walls[(y * 8 + x) % 64] && (x + y).is_multiple_of(3);
                    (0..width).map(|x| if wall(x) { '#' } else { '.' }).collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let Ok(grid) = Grid::from_ascii(&rows) else { return Ok(()) };
            let Ok(instance) = Instance::random(grid, agents, seed) else { return Ok(()) };
            let run = solve_with_pibt(&instance, 200, seed);
            if !run.solved {
                return Ok(());
            }
            let (grid, starts, goals) = (&instance.grid, &instance.starts, &instance.goals);
            let before = check_plan(grid, starts, goals, &run.plan);
            let before = before.map_err(|e| TestCaseError::fail(e.to_string()))?;
            let plan = refined(&instance, &run.plan, seed);
            let after = check_plan(grid, starts, goals, &plan);
            let after = after.map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(after.soc <= before.soc, "{} > {}", after.soc, before.soc);
        }
    }
}
