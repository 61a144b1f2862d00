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
//!         if it is a shortest path and meets no one: put it back; next i    -- nothing to gain
//!         best-first search from s_i, fewest collisions first, then least g + h; each cell
//!             closed once, reached at time g; only cells with g + h ≤ dist(s_i) + MARGIN
//!         path(i) ← the chain back from the goal; add it to uses
//!     count the collisions between all the paths: a vertex, a swap, or crossing a goal after
//!         its agent arrived, each counted once
//! keep the paths of the round with the fewest
//! ```
//!
//! Two choices, measured on random-32-32-10 (200 to 400 agents, 16 runs):
//! - The rounds stop on the *true* count of collisions, not on the sum of what each search met
//!   when it ran (which counts a collision twice, or misses it if the other path moved since).
//!   Stopping on that sum ended after two or three rounds (522 collisions left, against 327, on
//!   one instance of 400 agents) and made the plans 3.7 % dearer.
//! - The search does not charge a path for the agents that will cross its goal after it arrives
//!   (the count does). That charge sent paths on detours and made the plans 2.7 % dearer.

use super::distances::Distances;
use super::moves::{Moves, neighbours};
use super::random::SplitMix64;
use super::until::Until;
use crate::buckets::BucketQueue;
use crate::grid::Grid;

const NONE: u32 = u32::MAX;

/// How many moves longer than its shortest an agent's scattered path may be.
const MARGIN: u32 = 10;

/// Every agent's scattered path, and for lookup its cells sorted, each with its place on the path.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scatter {
    paths: Vec<Box<[u32]>>,
    sorted: Vec<Box<[(u32, u32)]>>,
}

impl Scatter {
    /// Plans every agent's path, at most `rounds` rounds, and stops short when `until` says
    /// (the search then times out).
    pub(crate) fn new(
        grid: &Grid,
        distances: &mut Distances,
        starts: &[usize],
        goals: &[usize],
        rounds: usize,
        until: &Until<'_>,
        rng: &mut SplitMix64,
    ) -> Self {
        let mut planner = Planner::new(grid);
        let mut paths: Vec<Box<[u32]>> = vec![Box::default(); starts.len()];
        let mut order: Vec<usize> = (0..starts.len()).collect();
        // The paths with the fewest collisions so far, and that number.
        let mut best = (u64::MAX, Vec::new());
        for round in 0..rounds {
            for k in (1..order.len()).rev() {
                order.swap(k, (rng.next() % (k as u64 + 1)) as usize);
            }
            for &i in &order {
                if until.now() {
                    break;
                }
                let slot = distances.slot(grid, goals[i]);
                let table = distances.table(slot);
                planner.remove(&paths[i]);
                // A shortest path that meets no one cannot be bettered: keep it.
                let shortest = paths[i].len() == table[starts[i]] as usize + 1;
                if round > 0 && shortest && planner.meets_no_one(&paths[i]) {
                    planner.add(&paths[i]);
                    continue;
                }
                let moves = distances.moves();
                paths[i] = planner.cheapest((grid, moves), table, starts[i], goals[i]);
                planner.add(&paths[i]);
            }
            let collisions = Planner::collisions(grid, &paths);
            let better = collisions < best.0;
            if better {
                best = (collisions, paths.clone());
            }
            if collisions == 0 || (round > 0 && !better) || until.now() {
                break;
            }
        }
        let paths = best.1;
        let sorted = paths
            .iter()
            .map(|path| {
                let mut cells: Vec<(u32, u32)> = path
                    .iter()
                    .enumerate()
                    .map(|(k, &v)| (v, k as u32))
                    .collect();
                cells.sort_unstable();
                cells.into_boxed_slice()
            })
            .collect();
        Self { paths, sorted }
    }

    /// The cell after `here` on agent `i`'s path, if its path goes through `here`. `place` is
    /// where on the path the agent was last seen: agents mostly move on along their paths, so
    /// looking there and beside it first spares a binary search, which was a third of PIBT's
    /// time.
    pub(crate) fn next(&self, i: usize, here: usize, place: &mut u32) -> Option<usize> {
        let path = self.paths.get(i)?;
        let here = here as u32;
        let k = *place as usize;
        let found = [k, k + 1, k.wrapping_sub(1)]
            .into_iter()
            .find(|&c| path.get(c) == Some(&here))
            .or_else(|| {
                let cells = &self.sorted[i];
                let at = cells.binary_search_by_key(&here, |c| c.0).ok()?;
                Some(cells[at].1 as usize)
            })?;
        *place = found as u32;
        path.get(found + 1).map(|&v| v as usize)
    }
}

/// The search's open list: (g, cell, parent cell) in a bucket queue by
/// `collisions × (MARGIN + 1) + (f − shortest)`, so an entry's collisions are its key divided by
/// `MARGIN + 1`. The key never falls along a path (a move adds collisions and never takes one
/// back, and h is consistent), so a push or a pop costs O(1), where a binary heap's cost half
/// the scatter's time.
type Open = BucketQueue<(u32, u32, u32)>;

/// The open list's key.
fn open_key(collisions: u64, above_shortest: u32) -> usize {
    (collisions as usize)
        .saturating_mul(MARGIN as usize + 1)
        .saturating_add(above_shortest as usize)
}

/// The collisions of an entry of key `key`.
fn collisions_of(key: usize) -> u64 {
    (key / (MARGIN as usize + 1)) as u64
}

/// The table of uses, and scratch space for the search.
struct Planner {
    /// For each cell, when paths are on it and where each goes next (`NONE` at its end). A cell
    /// is used by few paths on an open map and hundreds in a warehouse: sorted by time.
    uses: Vec<Vec<(u32, u32)>>,
    /// The time from which each goal cell is held by its agent for good (`NONE`: not yet).
    held_from: Vec<u32>,
    /// Per cell: the cell it was reached from, and the search that closed it.
    parent: Vec<u32>,
    closed_by: Vec<u32>,
    searches: u32,
    open: Open,
}

impl Planner {
    fn new(grid: &Grid) -> Self {
        Self {
            uses: vec![Vec::new(); grid.len()],
            held_from: vec![NONE; grid.len()],
            parent: vec![NONE; grid.len()],
            closed_by: vec![0; grid.len()],
            searches: 0,
            open: Open::default(),
        }
    }

    fn add(&mut self, path: &[u32]) {
        for (t, &v) in path.iter().enumerate() {
            let entry = (t as u32, path.get(t + 1).copied().unwrap_or(NONE));
            let times = &mut self.uses[v as usize];
            let k = times.partition_point(|&e| e < entry);
            times.insert(k, entry);
        }
        if let Some(&goal) = path.last() {
            self.held_from[goal as usize] = (path.len() - 1) as u32;
        }
    }

    fn remove(&mut self, path: &[u32]) {
        for (t, &v) in path.iter().enumerate() {
            let entry = (t as u32, path.get(t + 1).copied().unwrap_or(NONE));
            let times = &mut self.uses[v as usize];
            if let Ok(k) = times.binary_search(&entry) {
                times.remove(k);
            }
        }
        if let Some(&goal) = path.last() {
            self.held_from[goal as usize] = NONE;
        }
    }

    /// What it costs to step from `u` to `v`, arriving at time `t`: the other paths on `v` then,
    /// those that step from `v` to `u` meanwhile (a swap), and one more if `v` is a goal whose
    /// agent has arrived before (it would be pushed off, and arrive again later). A busy cell of
    /// a warehouse is crossed by hundreds of paths: its uses are sorted by time, and only those
    /// at `t - 1` and `t` are read.
    fn price(&self, u: usize, v: usize, t: u32) -> u64 {
        let times = &self.uses[v];
        let from = times.partition_point(|&(w, _)| w + 1 < t);
        let mut price = 0;
        for &(w, next) in times[from..].iter().take_while(|&&(w, _)| w <= t) {
            if w == t || next == u as u32 {
                price += 1;
            }
        }
        let held = self.held_from[v];
        price + u64::from(held != NONE && t > held)
    }

    /// What it costs to arrive at `goal` at time `t` and stay: one for each other path on it then
    /// or later, which would push the agent off.
    fn price_to_stay(&self, goal: usize, t: u32) -> u64 {
        let times = &self.uses[goal];
        (times.len() - times.partition_point(|&(u, _)| u < t)) as u64
    }

    /// Whether `path` (not in the table) collides with none of the paths in it.
    fn meets_no_one(&self, path: &[u32]) -> bool {
        let moves = path.windows(2).enumerate();
        let mut prices = moves.map(|(t, w)| self.price(w[0] as usize, w[1] as usize, t as u32 + 1));
        let stay = path
            .last()
            .map_or(0, |&g| self.price_to_stay(g as usize, path.len() as u32));
        stay == 0 && prices.all(|p| p == 0)
    }

    /// How many collisions the paths have between them, each counted once: two on one cell at
    /// once, a swap, or a path crossing a goal after its agent arrived.
    fn collisions(grid: &Grid, paths: &[Box<[u32]>]) -> u64 {
        let mut table = Self::new(grid);
        let mut count = 0;
        for path in paths {
            for (t, w) in path.windows(2).enumerate() {
                count += table.price(w[0] as usize, w[1] as usize, t as u32 + 1);
            }
            if let Some(&goal) = path.last() {
                count += table.price_to_stay(goal as usize, path.len() as u32);
            }
            table.add(path);
        }
        count
    }

    /// The path from `start` to `goal` (the goal of `table`) that meets the fewest other paths,
    /// then is shortest, within [`MARGIN`] moves of the shortest.
    fn cheapest(
        &mut self,
        (grid, moves): (&Grid, Moves),
        table: &[u32],
        start: usize,
        goal: usize,
    ) -> Box<[u32]> {
        let d = table[start];
        if d == Distances::UNREACHABLE {
            return Box::new([start as u32]);
        }
        let bound = d + MARGIN;
        self.searches += 1;
        let search = self.searches;
        self.open.clear();
        self.open.push(0, (0, start as u32, NONE));
        while let Some((key, (g, v, parent))) = self.open.pop() {
            let collisions = collisions_of(key);
            if self.closed_by[v as usize] == search {
                continue;
            }
            self.closed_by[v as usize] = search;
            self.parent[v as usize] = parent;
            if v as usize == goal {
                break;
            }
            for u in neighbours(grid, moves, v as usize) {
                let h = table[u];
                if self.closed_by[u] == search || u == start || g + 1 + h > bound {
                    continue;
                }
                let c = collisions + self.price(v as usize, u, g + 1);
                let key = open_key(c, g + 1 + h - d);
                self.open.push(key, (g + 1, u as u32, v));
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
        path.into_boxed_slice()
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
        let until = Until::new(std::time::Instant::now() + std::time::Duration::from_secs(5));
        let mut distances = Distances::new();
        let mut rng = SplitMix64(3);
        let scatter = Scatter::new(&grid, &mut distances, &starts, &goals, 10, &until, &mut rng);
        (grid, scatter)
    }

    /// Agent `i`'s path, followed from `start` by the hints.
    fn follow(scatter: &Scatter, i: usize, start: usize) -> Vec<usize> {
        let mut path = vec![start];
        let mut place = 0;
        while let Some(next) = scatter.next(i, *path.last().unwrap_or(&start), &mut place) {
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
                    neighbours(&grid, Moves::FourWay, w[0]).any(|n| n == w[1]),
                    "agent {i}: {w:?}"
                );
            }
            let d = distances.get(&grid, g, s) as usize;
            assert!(path.len() - 1 <= d + MARGIN as usize, "agent {i}");
        }
    }

    #[test]
    fn collisions_are_counted_once_each_of_every_kind() {
        let grid = Grid::from_ascii(&["....."]).expect("test grid");
        let count = |paths: &[&[u32]]| {
            let paths: Vec<Box<[u32]>> = paths.iter().map(|&p| p.into()).collect();
            Planner::collisions(&grid, &paths)
        };
        assert_eq!(count(&[&[0, 1, 2], &[4, 3]]), 0, "apart");
        assert_eq!(count(&[&[0, 1], &[1, 0]]), 1, "a swap");
        assert_eq!(count(&[&[0, 1, 2], &[2, 1, 0]]), 1, "on one cell at once");
        assert_eq!(
            count(&[&[1], &[0, 1, 2]]),
            1,
            "crossing a goal after its agent arrived"
        );
        assert_eq!(
            count(&[&[0, 1, 2], &[1]]),
            1,
            "the same, planned the other way round"
        );
        assert_eq!(
            count(&[&[0, 1, 2], &[3, 2, 3]]),
            0,
            "crossing a goal before: no one there"
        );
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
