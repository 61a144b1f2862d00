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
//!         path(i) ← space-time A* from s_i to g_i: a move or a wait each step, never onto a cell
//!                   someone holds then, never swapping, ending on g_i for good, arriving no
//!                   later than before (so the sum of costs never rises)
//!         put path(i) in the table
//!     if a search failed: put the old paths back
//! ```

use super::distances::Distances;
use super::instance::SplitMix64;
use super::neighbours;
use crate::grid::Grid;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

const NONE: u32 = u32::MAX;

/// How many agents are re-planned together. Li et al. found 8 a good size for random
/// neighbourhoods; it is small enough that most rounds find a way, large enough to untangle two
/// agents that block each other.
const NEIGHBOURHOOD: usize = 8;

/// A search that expands more states than this gives up (and the old paths stay): in a crowd a
/// space-time search can wait its way through every cell and time.
const MAX_EXPANSIONS: usize = 20_000;

/// Makes `plan` (configurations of cell indices, from the starts to the goals) cheaper until
/// `deadline`. `tables[i]` is agent `i`'s distance table. Returns the plan unchanged if nothing
/// helped; every plan it returns is valid when the one given is.
pub(crate) fn refine(
    grid: &Grid,
    tables: &[&[u32]],
    plan: &[Box<[u32]>],
    deadline: Instant,
    rng: &mut SplitMix64,
) -> Vec<Box<[u32]>> {
    let Some(last) = plan.last() else {
        return Vec::new();
    };
    let agents = last.len();
    let goals: Vec<u32> = last.to_vec();
    let mut paths: Vec<Vec<u32>> = (0..agents)
        .map(|i| {
            let mut path: Vec<u32> = plan.iter().map(|config| config[i]).collect();
            while path.len() > 1 && path[path.len() - 2] == goals[i] {
                path.pop();
            }
            path
        })
        .collect();
    let mut table = Table::new(grid);
    for (i, path) in paths.iter().enumerate() {
        table.add(i as u32, path);
    }
    let mut search = Search::default();
    let mut chosen: Vec<usize> = Vec::with_capacity(NEIGHBOURHOOD);
    let mut delayed: Vec<usize> = Vec::new();
    while Instant::now() < deadline {
        // The agents that arrive later than their distance allows: only they can gain.
        delayed.clear();
        delayed.extend((0..agents).filter(|&i| {
            let start = paths[i][0] as usize;
            paths[i].len() - 1 > tables[i][start] as usize
        }));
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
        let old: Vec<Vec<u32>> = chosen.iter().map(|&i| paths[i].clone()).collect();
        for &i in &chosen {
            table.remove(i as u32, &paths[i]);
        }
        // Each agent arrives no later than it did: the sum of costs never rises.
        let mut replanned = 0;
        for &i in &chosen {
            let limit = (paths[i].len() - 1) as u32;
            let (start, goal) = (paths[i][0], goals[i]);
            let found = search.run(
                grid,
                &table,
                &paths,
                tables[i],
                (start, goal, limit),
                deadline,
            );
            let Some(path) = found else {
                break;
            };
            table.add(i as u32, &path);
            paths[i] = path;
            replanned += 1;
        }
        if replanned < chosen.len() {
            for &i in &chosen[..replanned] {
                table.remove(i as u32, &paths[i]);
            }
            for (&i, path) in chosen.iter().zip(old) {
                table.add(i as u32, &path);
                paths[i] = path;
            }
        }
    }
    let steps = paths.iter().map(Vec::len).max().unwrap_or(1);
    (0..steps)
        .map(|t| paths.iter().map(|p| p[t.min(p.len() - 1)]).collect())
        .collect()
}

/// Who is where when: each cell's visits (time, agent), sorted, and the time from which an
/// agent stands on its goal cell for good.
struct Table {
    visits: Vec<Vec<(u32, u32)>>,
    held_from: Vec<(u32, u32)>,
}

impl Table {
    fn new(grid: &Grid) -> Self {
        Self {
            visits: vec![Vec::new(); grid.len()],
            held_from: vec![(NONE, NONE); grid.len()],
        }
    }

    fn add(&mut self, agent: u32, path: &[u32]) {
        for (t, &v) in path.iter().enumerate() {
            let visits = &mut self.visits[v as usize];
            let k = visits.partition_point(|&e| e < (t as u32, agent));
            visits.insert(k, (t as u32, agent));
        }
        if let Some(&goal) = path.last() {
            self.held_from[goal as usize] = ((path.len() - 1) as u32, agent);
        }
    }

    fn remove(&mut self, agent: u32, path: &[u32]) {
        for (t, &v) in path.iter().enumerate() {
            let visits = &mut self.visits[v as usize];
            if let Ok(k) = visits.binary_search(&(t as u32, agent)) {
                visits.remove(k);
            }
        }
        if let Some(&goal) = path.last()
            && self.held_from[goal as usize].1 == agent
        {
            self.held_from[goal as usize] = (NONE, NONE);
        }
    }

    /// The agent on cell `v` at time `t`, if any.
    fn at(&self, v: usize, t: u32) -> Option<u32> {
        let (from, holder) = self.held_from[v];
        if from != NONE && t >= from {
            return Some(holder);
        }
        let visits = &self.visits[v];
        let k = visits.partition_point(|&(u, _)| u < t);
        visits.get(k).filter(|&&(u, _)| u == t).map(|&(_, a)| a)
    }

    /// The last time anyone visits `v` (its goal's holder aside).
    fn last_visit(&self, v: usize) -> Option<u32> {
        self.visits[v].last().map(|&(t, _)| t)
    }
}

/// A hasher for (cell, time) keys: one multiply a word (the Rust compiler's "Fx" hash). The
/// standard one is built to resist hostile keys; these come from the search itself.
#[derive(Default)]
struct CellTimeHasher(u64);

impl Hasher for CellTimeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    fn write_u32(&mut self, word: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(word)).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// A space-time A*'s scratch, kept between searches.
#[derive(Default)]
struct Search {
    /// (f, `u32::MAX - t`, cell): least f, then the latest time (deepest) first.
    open: BinaryHeap<Reverse<(u32, u32, u32)>>,
    /// Each reached (cell, time): the cell it was reached from.
    parent: HashMap<(u32, u32), u32, BuildHasherDefault<CellTimeHasher>>,
}

impl Search {
    /// The quickest path from `start` to `goal` that keeps clear of the table, ending on `goal`
    /// for good, or `None` if none arrives by time `limit`, or the deadline passes first.
    fn run(
        &mut self,
        grid: &Grid,
        table: &Table,
        paths: &[Vec<u32>],
        to_goal: &[u32],
        (start, goal, limit): (u32, u32, u32),
        deadline: Instant,
    ) -> Option<Vec<u32>> {
        let d = to_goal[start as usize];
        if d == Distances::UNREACHABLE {
            return None;
        }
        let free_after = table.last_visit(goal as usize);
        self.open.clear();
        self.parent.clear();
        self.parent.insert((start, 0), NONE);
        self.open.push(Reverse((d, u32::MAX, start)));
        let mut expansions = 0;
        while let Some(Reverse((_, late, v))) = self.open.pop() {
            let t = u32::MAX - late;
            if v == goal && free_after.is_none_or(|last| last < t) {
                return Some(self.path_to(v, t));
            }
            expansions += 1;
            if expansions > MAX_EXPANSIONS
                || (expansions.is_multiple_of(256) && Instant::now() > deadline)
            {
                return None;
            }
            let next = t + 1;
            for u in std::iter::once(v as usize).chain(neighbours(grid, v as usize)) {
                let h = to_goal[u];
                if h == Distances::UNREACHABLE || next + h > limit {
                    continue;
                }
                if self.parent.contains_key(&(u as u32, next)) || table.at(u, next).is_some() {
                    continue;
                }
                // A swap: the agent on u now steps onto v.
                let swap = table.at(u, t).is_some_and(|j| {
                    let p = &paths[j as usize];
                    p[(next as usize).min(p.len() - 1)] == v
                });
                if swap && u != v as usize {
                    continue;
                }
                self.parent.insert((u as u32, next), v);
                self.open
                    .push(Reverse((next + h, u32::MAX - next, u as u32)));
            }
        }
        None
    }

    fn path_to(&self, v: u32, t: u32) -> Vec<u32> {
        let mut path = vec![v];
        let (mut at, mut t) = (v, t);
        while let Some(&from) = self.parent.get(&(at, t)) {
            if from == NONE {
                break;
            }
            path.push(from);
            (at, t) = (from, t - 1);
        }
        path.reverse();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Point;
    use crate::mapf::{Instance, check_plan, solve_with_pibt};
    use proptest::prelude::*;
    use std::time::Duration;

    /// Refines a plan of points for a few milliseconds.
    fn refined(instance: &Instance, plan: &[Vec<Point>], seed: u64) -> Vec<Vec<Point>> {
        let grid = &instance.grid;
        let cell = |p: &Point| grid.index_of(*p).map_or(0, |i| i as u32);
        let configs: Vec<Box<[u32]>> = plan.iter().map(|c| c.iter().map(cell).collect()).collect();
        let mut distances = Distances::new();
        let slots: Vec<usize> = instance
            .goals
            .iter()
            .map(|g| distances.slot(grid, cell(g) as usize))
            .collect();
        let tables: Vec<&[u32]> = slots.iter().map(|&s| distances.table(s)).collect();
        let deadline = Instant::now() + Duration::from_millis(5);
        let out = refine(grid, &tables, &configs, deadline, &mut SplitMix64(seed));
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
