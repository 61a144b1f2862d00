//! Scatter: a path for every agent, each chosen to keep clear of the others' in space and time,
//! as a hint for PIBT's choices.
//!
//! PIBT sends an agent to the neighbour nearest its goal. On an open map most cells have two such
//! neighbours, and which one is taken decides whether agents meet head-on later. Space utilisation
//! optimisation (Han and Yu, "Optimizing Space Utilization for More Effective Multi-Robot Path
//! Planning", ICRA 2022) plans every agent's path against a table of how many other paths use
//! each cell at each time, and re-plans each in turn while that helps. LaCAM\* hands such paths
//! to PIBT, which tries an agent's next cell on its path first (Okumura, "Engineering LaCAM\*",
//! AAMAS 2024). A path may be a few moves longer than the shortest, [`MARGIN`] at most, when the
//! detour meets fewer agents.
//!
//! ```text
//! uses ← empty table of (cell, time) → paths there
//! repeat (at least twice, then while the number of collisions falls):
//!     for each agent i, in a random order:
//!         remove i's path from uses
//!         best-first search from s_i, fewest collisions first, then least g + h; each cell
//!             closed once, reached at time g; only cells with g + h ≤ dist(s_i) + MARGIN
//!         path(i) ← the chain back from the goal; add it to uses
//! ```

use super::distances::Distances;
use super::instance::SplitMix64;
use super::neighbours;
use crate::grid::Grid;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

const NONE: u32 = u32::MAX;

/// How many moves longer than its shortest an agent's scattered path may be.
const MARGIN: u32 = 10;

/// Every agent's scattered path, as (cell, next cell) pairs sorted by cell, for lookup.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scatter {
    next: Vec<Box<[(u32, u32)]>>,
}

impl Scatter {
    /// Plans every agent's path, at most `rounds` rounds and not past `deadline`.
    pub(crate) fn new(
        grid: &Grid,
        distances: &mut Distances,
        starts: &[usize],
        goals: &[usize],
        rounds: usize,
        deadline: Instant,
        rng: &mut SplitMix64,
    ) -> Self {
        let mut planner = Planner::new(grid);
        let mut paths: Vec<Box<[u32]>> = vec![Box::default(); starts.len()];
        let mut order: Vec<usize> = (0..starts.len()).collect();
        // The price each path paid when it was planned: collisions, swaps and pushes.
        let mut prices = vec![0u64; starts.len()];
        let mut last = u64::MAX;
        for round in 0..rounds {
            for k in (1..order.len()).rev() {
                order.swap(k, (rng.next() % (k as u64 + 1)) as usize);
            }
            for &i in &order {
                if Instant::now() > deadline {
                    break;
                }
                planner.remove(&paths[i]);
                let slot = distances.slot(grid, goals[i]);
                let table = distances.table(slot);
                let (path, price) = planner.cheapest(grid, table, starts[i], goals[i]);
                paths[i] = path;
                prices[i] = price;
                planner.add(&paths[i]);
            }
            let total: u64 = prices.iter().sum();
            let better = total < last;
            last = total;
            if total == 0 || (round > 0 && !better) || Instant::now() > deadline {
                break;
            }
        }
        let next = paths
            .iter()
            .map(|path| {
                let mut pairs: Vec<(u32, u32)> = path.windows(2).map(|w| (w[0], w[1])).collect();
                pairs.sort_unstable();
                pairs.into_boxed_slice()
            })
            .collect();
        Self { next }
    }

    /// The cell after `here` on agent `i`'s path, if its path goes through `here`.
    pub(crate) fn next(&self, i: usize, here: usize) -> Option<usize> {
        let pairs = self.next.get(i)?;
        let k = pairs.binary_search_by_key(&(here as u32), |p| p.0).ok()?;
        Some(pairs[k].1 as usize)
    }
}

/// An open entry of the search: (collisions, f, `u32::MAX - g`, cell, parent cell).
type OpenEntry = (u64, u32, u32, u32, u32);

/// The table of uses, and scratch space for the search.
struct Planner {
    /// For each cell, when paths are on it and where each goes next (`NONE` at its end). A cell
    /// is used by few paths: a list is quick.
    uses: Vec<Vec<(u32, u32)>>,
    /// The time from which each goal cell is held by its agent for good (`NONE`: not yet).
    held_from: Vec<u32>,
    /// Per cell: the cell it was reached from, and the search that closed it.
    parent: Vec<u32>,
    closed_by: Vec<u32>,
    searches: u32,
    open: BinaryHeap<Reverse<OpenEntry>>,
}

impl Planner {
    fn new(grid: &Grid) -> Self {
        Self {
            uses: vec![Vec::new(); grid.len()],
            held_from: vec![NONE; grid.len()],
            parent: vec![NONE; grid.len()],
            closed_by: vec![0; grid.len()],
            searches: 0,
            open: BinaryHeap::new(),
        }
    }

    fn add(&mut self, path: &[u32]) {
        for (t, &v) in path.iter().enumerate() {
            let next = path.get(t + 1).copied().unwrap_or(NONE);
            self.uses[v as usize].push((t as u32, next));
        }
        if let Some(&goal) = path.last() {
            self.held_from[goal as usize] = (path.len() - 1) as u32;
        }
    }

    fn remove(&mut self, path: &[u32]) {
        for (t, &v) in path.iter().enumerate() {
            let times = &mut self.uses[v as usize];
            if let Some(k) = times.iter().position(|&(u, _)| u == t as u32) {
                times.swap_remove(k);
            }
        }
        if let Some(&goal) = path.last() {
            self.held_from[goal as usize] = NONE;
        }
    }

    /// What it costs to step from `u` to `v`, arriving at time `t`: the other paths on `v` then,
    /// those that step from `v` to `u` meanwhile (a swap), and one more if `v` is a goal whose
    /// agent has arrived before (it would be pushed off, and arrive again later).
    fn price(&self, u: usize, v: usize, t: u32) -> u64 {
        let there = self.uses[v].iter().filter(|&&(w, _)| w == t).count() as u64;
        let swaps = self.uses[v]
            .iter()
            .filter(|&&(w, next)| w + 1 == t && next == u as u32)
            .count() as u64;
        let held = self.held_from[v];
        there + swaps + u64::from(held != NONE && t > held)
    }

    /// What it costs to arrive at `goal` at time `t` and stay: one for each other path on it then
    /// or later, which would push the agent off.
    fn price_to_stay(&self, goal: usize, t: u32) -> u64 {
        self.uses[goal].iter().filter(|&&(u, _)| u >= t).count() as u64
    }

    /// The path from `start` to `goal` (the goal of `table`) that meets the fewest other paths,
    /// then is shortest, within [`MARGIN`] moves of the shortest.
    fn cheapest(
        &mut self,
        grid: &Grid,
        table: &[u32],
        start: usize,
        goal: usize,
    ) -> (Box<[u32]>, u64) {
        let d = table[start];
        if d == Distances::UNREACHABLE {
            return (Box::new([start as u32]), 0);
        }
        let bound = d + MARGIN;
        self.searches += 1;
        let search = self.searches;
        self.open.clear();
        // (collisions, f, u32::MAX - g, cell, parent): fewest collisions, then least f, then the
        // deepest (on a grid many cells tie on f; going deep first reaches the goal sooner).
        self.open
            .push(Reverse((0, d, u32::MAX, start as u32, NONE)));
        let mut price = 0;
        while let Some(Reverse((collisions, _, depth, v, parent))) = self.open.pop() {
            let g = u32::MAX - depth;
            if self.closed_by[v as usize] == search {
                continue;
            }
            self.closed_by[v as usize] = search;
            self.parent[v as usize] = parent;
            if v as usize == goal {
                price = collisions;
                break;
            }
            for u in neighbours(grid, v as usize) {
                let h = table[u];
                if self.closed_by[u] == search || u == start || g + 1 + h > bound {
                    continue;
                }
                let mut c = collisions + self.price(v as usize, u, g + 1);
                if u == goal {
                    c += self.price_to_stay(u, g + 2);
                }
                self.open
                    .push(Reverse((c, g + 1 + h, depth - 1, u as u32, v)));
            }
        }
        let mut path = Vec::with_capacity(d as usize + 1);
        if self.closed_by[goal] == search {
            let mut at = goal as u32;
            while at != NONE {
                path.push(at);
                at = self.parent[at as usize];
            }
            path.reverse();
        }
        (path.into_boxed_slice(), price)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A start and a goal.
    type Pair = ((i32, i32), (i32, i32));

    fn scatter_on(rows: &[&str], pairs: &[Pair]) -> (Grid, Scatter) {
        let grid = Grid::from_ascii(rows).expect("test grid");
        let cell = |p: (i32, i32)| grid.index_of(p.into()).expect("on the grid");
        let starts: Vec<usize> = pairs.iter().map(|&(s, _)| cell(s)).collect();
        let goals: Vec<usize> = pairs.iter().map(|&(_, g)| cell(g)).collect();
        let deadline = Instant::now() + std::time::Duration::from_secs(5);
        let mut distances = Distances::new();
        let mut rng = SplitMix64(3);
        let scatter = Scatter::new(
            &grid,
            &mut distances,
            &starts,
            &goals,
            10,
            deadline,
            &mut rng,
        );
        (grid, scatter)
    }

    /// Agent `i`'s path, followed from `start` by the hints.
    fn follow(scatter: &Scatter, i: usize, start: usize) -> Vec<usize> {
        let mut path = vec![start];
        while let Some(next) = scatter.next(i, *path.last().unwrap_or(&start)) {
            path.push(next);
            assert!(path.len() < 1000, "a loop");
        }
        path
    }

    #[test]
    fn each_path_is_a_walk_of_moves_from_start_to_goal_within_the_margin() {
        let rows = ["........", "..#..#..", "........", "...##...", "........"];
        let pairs = [
            ((0, 0), (7, 4)),
            ((7, 0), (0, 4)),
            ((0, 4), (7, 0)),
            ((3, 2), (4, 0)),
        ];
        let (grid, scatter) = scatter_on(&rows, &pairs);
        let mut distances = Distances::new();
        for (i, &(s, g)) in pairs.iter().enumerate() {
            let (s, g) = (grid.index_of(s.into()), grid.index_of(g.into()));
            let (Some(s), Some(g)) = (s, g) else {
                panic!("off the grid")
            };
            let path = follow(&scatter, i, s);
            assert_eq!(path.last(), Some(&g), "agent {i}");
            for w in path.windows(2) {
                assert!(
                    neighbours(&grid, w[0]).any(|n| n == w[1]),
                    "agent {i}: {w:?}"
                );
            }
            let d = distances.get(&grid, g, s) as usize;
            assert!(path.len() - 1 <= d + MARGIN as usize, "agent {i}");
        }
    }

    #[test]
    fn two_agents_that_would_meet_head_on_are_scattered_apart() {
        // Shortest paths along the middle row would swap places halfway (an even row: they
        // never share a cell); a detour costs two moves.
        let rows = ["......", "......", "......"];
        let pairs = [((0, 1), (5, 1)), ((5, 1), (0, 1))];
        let (grid, scatter) = scatter_on(&rows, &pairs);
        let a = follow(&scatter, 0, grid.index_of((0, 1).into()).unwrap_or(0));
        let b = follow(&scatter, 1, grid.index_of((5, 1).into()).unwrap_or(0));
        for t in 1..a.len().max(b.len()) {
            let at = |p: &[usize], t: usize| p[t.min(p.len() - 1)];
            assert_ne!(at(&a, t), at(&b, t), "both on one cell at {t}");
            let swap = at(&a, t) == at(&b, t - 1) && at(&b, t) == at(&a, t - 1);
            assert!(!swap, "a swap at {t}: {a:?} {b:?}");
        }
    }
}
