//! Guide paths that keep out of each other's way: the congestion-aware guidance of Chen et al.,
//! "Traffic Flow Optimisation for Lifelong Multi-Agent Path Finding" (AAAI 2024).
//!
//! Every agent keeps a *guide path* to its goal, planned by A* where a step costs more the more
//! other guide paths take the same edge the other way (*contraflow*: two files meeting head-on
//! in an aisle, one of which will have to back out):
//!
//! ```text
//! cost(u → v) = 1 + contraflow · usage(v → u) + vertex · through(v)
//! h(v)        = dist(goal, v)             -- the goal's distance table: exact without traffic
//! f(v)        = g(v) + 2 · h(v)           -- weighted A*: a path at most twice the cheapest,
//!                                            for a fraction of the search
//! ```
//!
//! (`through(v)`, the guide paths through a cell, is the paper's vertex congestion; its weight is
//! 0 by default: see [`super::Guidance::vertex`].) Each edge's usage counts the guide paths
//! that still have it ahead of their agent; an agent gives back each edge as it passes it, and
//! all of its path when it gets a new goal. PIBT then follows the guide path rather than the
//! shortest way (the *guide heuristic*):
//!
//! ```text
//! cost_to_go(i, v) = len(P) − j              if v is P[j], a cell of i's path just ahead
//!                  = d(v, P[k]) + len(P) − k   if i is off its path and keeps it, P[k] the best
//!                                              path cell within 2 steps of v (the way back)
//!                  = dist(goal, v) + slack + 3  ...and none is that near
//!                  = dist(goal, v) + slack + ½  otherwise, slack = what P adds to the shortest
//! ```
//!
//! An agent pushed off its path for [`GuidePaths::LOST_AFTER`] steps plans a new one from where
//! it stands, in the traffic as it is now, when its turn comes: a step spends a bounded number
//! of expanded cells on such plans. Meanwhile it either drops its path (its edges stop counting
//! against others) and follows its shortest way, or keeps it and is led back to it: off the
//! path, a cell costs the way back to the path and along it ([`GuidePaths::costs_to_go`] with
//! `way_back`, see `way_back.rs`), as the paper's heuristic does.
//! Nothing here is global: a step's work is a handful of A* searches, whatever the number of
//! agents, and agents that join, leave or see walls change simply plan again.

use super::focal::FocalSearch;
use super::guidance::{Guidance, sides};
use super::way_back::{PathMarks, RADIUS};
use crate::buckets::BucketQueue;
use crate::grid::Grid;
use crate::mapf::traffic::direction;

/// Costs are counted in sixteenths of a step.
const UNIT: u32 = 16;

/// Guide paths are planned by weighted A* (f = g + 2·h): at most twice the least congested
/// cost, found after expanding a fraction of the cells. The paper's planner (GP-R100-F2) bounds
/// its guide paths by the same factor with a focal search.
const HEURISTIC_WEIGHT: f32 = 2.0;

/// The most cells the focal search expands for one guide path before weighted A* plans it
/// instead: where contraflow cannot be avoided, the focal list would sweep every cell within its
/// bound of the shortest way first.
const FOCAL_BUDGET: usize = 20_000;

/// How far ahead along its path an agent looks for the cells round it.
const WINDOW: usize = 6;

/// Every agent's guide path and the usage of each edge (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct GuidePaths {
    width: usize,
    /// Per cell, the guide paths leaving it up, left, right and down.
    usage: Vec<[u16; 4]>,
    /// Per cell, the guide paths that still pass through it.
    through: Vec<u16>,
    paths: Vec<Vec<u32>>,
    /// The path of the stray asked about, marked for the way back to it.
    marks: PathMarks,
    /// Each agent's place on its path: the index of the last path cell it stood on.
    progress: Vec<usize>,
    /// How long the path adds to the shortest way, from where the agent is on it.
    slack: Vec<u32>,
    /// Steps each agent has been off its path's window.
    lost: Vec<u16>,
    // A*'s scratch, kept between searches.
    g: Vec<u32>,
    parent: Vec<u32>,
    seen: Vec<u32>,
    round: u32,
    /// The open cells by `f` (in units of `Costs::grain`), the last reached first among
    /// equals. A bucket queue: 15 % fewer instructions in the search than a binary heap's.
    open: BucketQueue<u32>,
    focal: FocalSearch,
}

impl GuidePaths {
    /// Steps off its path after which an agent plans a new one.
    pub const LOST_AFTER: u16 = 3;

    /// No guide paths yet, on `grid`.
    pub fn new(grid: &Grid) -> Self {
        Self {
            width: grid.width() as usize,
            usage: vec![[0; 4]; grid.len()],
            through: vec![0; grid.len()],
            g: vec![0; grid.len()],
            parent: vec![0; grid.len()],
            seen: vec![0; grid.len()],
            ..Self::default()
        }
    }

    /// The direction of a step between neighbouring cells (see [`direction`]).
    fn direction(&self, from: usize, to: usize) -> usize {
        direction(self.width, from, to).unwrap_or(3)
    }

    fn add_usage(&mut self, path: &[u32], from: usize, sign: i32) {
        for pair in path.get(from..).unwrap_or(&[]).windows(2) {
            let (u, v) = (pair[0] as usize, pair[1] as usize);
            let d = self.direction(u, v);
            let n = &mut self.usage[u][d];
            *n = if sign > 0 {
                n.saturating_add(1)
            } else {
                n.saturating_sub(1)
            };
            let t = &mut self.through[v];
            *t = if sign > 0 {
                t.saturating_add(1)
            } else {
                t.saturating_sub(1)
            };
        }
    }

    /// Makes room for agent `agent`.
    fn ensure(&mut self, agent: usize) {
        if self.paths.len() <= agent {
            self.paths.resize_with(agent + 1, Vec::new);
            self.progress.resize(agent + 1, 0);
            self.slack.resize(agent + 1, 0);
            self.lost.resize(agent + 1, 0);
        }
    }

    /// Plans `agent`'s guide path from cell `from` to the goal of `table` (its distance table),
    /// its old path given back first, by the search `guidance` names: weighted A* with
    /// `contraflow` and `vertex` costs, or the focal search ([`Guidance::focal`]). Returns how
    /// many cells the search expanded.
    pub fn plan(
        &mut self,
        grid: &Grid,
        agent: usize,
        from: usize,
        table: &[u32],
        guidance: Guidance,
    ) -> usize {
        self.ensure(agent);
        let old = std::mem::take(&mut self.paths[agent]);
        self.add_usage(&old, self.progress[agent], -1);
        let mut path = old;
        path.clear();
        self.progress[agent] = 0;
        self.lost[agent] = 0;
        self.slack[agent] = 0;
        let h = |v: usize| table.get(v).copied().unwrap_or(u32::MAX);
        if h(from) == u32::MAX {
            self.paths[agent] = path;
            return 0;
        }
        let (mut reached, mut expanded) = (None, 0);
        if guidance.focal >= 1.0 {
            (reached, expanded) = self.focal.search(
                grid,
                &self.usage,
                table,
                from,
                guidance.focal,
                guidance.focal_slack,
                FOCAL_BUDGET,
                &mut self.parent,
            );
        }
        if reached.is_none() {
            let (found, more) = self.weighted_astar(grid, from, table, guidance);
            (reached, expanded) = (found, expanded + more);
        }
        if let Some(goal) = reached {
            let mut at = goal;
            path.push(at as u32);
            while at != from {
                at = self.parent[at] as usize;
                path.push(at as u32);
            }
            path.reverse();
            self.add_usage(&path, 0, 1);
            self.slack[agent] = (path.len() as u32 - 1).saturating_sub(h(from));
        }
        self.paths[agent] = path;
        expanded
    }

    /// Weighted A* from `from` to the goal of `table`, each step costing one plus what
    /// contraflow and crowding add (see the module docs). Returns the goal, if reached (the way
    /// there in `parent`), and the cells expanded.
    fn weighted_astar(
        &mut self,
        grid: &Grid,
        from: usize,
        table: &[u32],
        guidance: Guidance,
    ) -> (Option<usize>, usize) {
        let Costs {
            extra,
            inflate,
            crowd,
            grain,
        } = Costs::of(guidance);
        let key = |f: u32| (f / grain) as usize;
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.seen.fill(0);
            self.round = 1;
        }
        let round = self.round;
        // Every table cut to the grid's length: one `v < n` per side then stands for the
        // bounds checks of all of them (they were a fifth of the search's instructions).
        let n = grid.len();
        let (Some(h), Some(g_of), Some(seen), Some(parent), Some(usage), Some(through)) = (
            table.get(..n),
            self.g.get_mut(..n),
            self.seen.get_mut(..n),
            self.parent.get_mut(..n),
            self.usage.get(..n),
            self.through.get(..n),
        ) else {
            return (None, 0); // a table of another grid
        };
        if from >= n {
            return (None, 0);
        }
        self.open.clear();
        g_of[from] = 0;
        seen[from] = round;
        self.open.push(key(h[from] * inflate), from as u32);
        let mut expanded = 0;
        while let Some((k, u)) = self.open.pop() {
            let u = u as usize;
            let (g, hu) = (g_of[u], h[u]);
            if k > key(g + hu * inflate) {
                continue; // a stale entry
            }
            expanded += 1;
            if hu == 0 {
                return (Some(u), expanded);
            }
            for (on_map, v, ahead) in sides(self.width, n, u) {
                if !on_map || v >= n || grid.raw_cost(v) == 0 || h[v] == u32::MAX {
                    continue;
                }
                let back = usage[v][3 - ahead];
                let step = UNIT + extra * u32::from(back) + crowd * u32::from(through[v]);
                let gv = g + step;
                if seen[v] != round || gv < g_of[v] {
                    seen[v] = round;
                    g_of[v] = gv;
                    parent[v] = u as u32;
                    self.open.push(key(gv + h[v] * inflate), v as u32);
                }
            }
        }
        (None, expanded)
    }

    /// `agent`'s guide path as cell indices, from where it was planned to the goal: empty when
    /// it has none (none planned, the goal out of reach, or forgotten).
    pub fn path(&self, agent: usize) -> &[u32] {
        self.paths.get(agent).map_or(&[], Vec::as_slice)
    }

    /// Forgets `agent`'s path, giving back its edges.
    pub fn forget(&mut self, agent: usize) {
        if agent < self.paths.len() {
            let mut path = std::mem::take(&mut self.paths[agent]);
            self.add_usage(&path, self.progress[agent], -1);
            path.clear();
            self.paths[agent] = path;
            self.progress[agent] = 0;
            self.lost[agent] = 0;
            self.slack[agent] = 0;
        }
    }

    /// Whether `agent` has been off its path long enough to plan a new one.
    pub fn is_lost(&self, agent: usize) -> bool {
        self.lost.get(agent).is_some_and(|&l| l >= Self::LOST_AFTER)
    }

    /// Where `v` lies on `agent`'s path just ahead (from its place, [`WINDOW`] cells on).
    fn ahead(&self, agent: usize, v: usize) -> Option<usize> {
        let path = self.paths.get(agent)?;
        let from = self.progress[agent];
        let to = (from + WINDOW).min(path.len());
        (from..to).find(|&j| path[j] as usize == v)
    }

    /// The guide heuristic of each of `cells` for `agent`, in sixteenths of a step (see the
    /// module docs); `dists` are their goal's distances. With `way_back`, an agent off its path
    /// is led back to it (see `way_back.rs`).
    pub fn costs_to_go(
        &mut self,
        grid: &Grid,
        agent: usize,
        cells: [usize; 5],
        dists: [u32; 5],
        way_back: bool,
    ) -> [u32; 5] {
        let astray = self.lost.get(agent).is_some_and(|&l| l > 0);
        if way_back && astray {
            let path = self.paths.get(agent).map_or(&[][..], Vec::as_slice);
            self.marks.mark(grid, path);
        }
        let mut costs = [0; 5];
        for ((cost, &v), &dist) in costs.iter_mut().zip(&cells).zip(&dists) {
            *cost = self.cost_to_go(grid, agent, v, dist, way_back && astray);
        }
        costs
    }

    /// [`GuidePaths::costs_to_go`] of one cell, `agent`'s path marked if `way_back`.
    fn cost_to_go(&self, grid: &Grid, agent: usize, v: usize, dist: u32, way_back: bool) -> u32 {
        let Some(path) = self.paths.get(agent).filter(|p| !p.is_empty()) else {
            return dist.saturating_mul(UNIT);
        };
        let off_path = |extra: u32| {
            dist.saturating_add(self.slack[agent])
                .saturating_mul(UNIT)
                .saturating_add(extra)
        };
        match self.ahead(agent, v) {
            Some(j) => (path.len() - 1 - j) as u32 * UNIT,
            None if way_back => match self.marks.way_back(grid, v) {
                Some(left) => left.saturating_mul(UNIT),
                None => off_path((RADIUS as u32 + 1) * UNIT),
            },
            None => off_path(UNIT / 2),
        }
    }

    /// After a step: `agent` stands on cell `at`. Moves its place along its path, giving back
    /// the edges passed. Returns true once, at the step it becomes lost (off its path for
    /// [`GuidePaths::LOST_AFTER`] steps: queue it to plan again); [`GuidePaths::is_lost`] says whether it
    /// still is.
    pub fn advance(&mut self, agent: usize, at: usize) -> bool {
        match self.ahead(agent, at) {
            Some(j) => {
                let path = std::mem::take(&mut self.paths[agent]);
                self.add_usage(&path[..=j], self.progress[agent], -1);
                self.paths[agent] = path;
                self.progress[agent] = j;
                self.lost[agent] = 0;
                false
            }
            None if self.paths[agent].is_empty() => false,
            None => {
                let lost = &mut self.lost[agent];
                *lost = lost.saturating_add(1);
                *lost == Self::LOST_AFTER
            }
        }
    }
}

/// What weighted A*'s steps cost, in sixteenths of a step.
struct Costs {
    /// Per guide path the other way.
    extra: u32,
    /// The heuristic's factor.
    inflate: u32,
    /// Per guide path through the cell.
    crowd: u32,
    /// The greatest common divisor of them all: every `f` is a multiple of it, so the open
    /// list keys `f / grain` and finds the next key without stepping over empty buckets.
    grain: u32,
}

impl Costs {
    fn of(guidance: Guidance) -> Self {
        let extra = (guidance.contraflow * UNIT as f32) as u32;
        let inflate = (HEURISTIC_WEIGHT * UNIT as f32) as u32;
        let crowd = (guidance.vertex * UNIT as f32) as u32;
        let grain = [extra, inflate, crowd].into_iter().fold(UNIT, gcd);
        Self {
            extra,
            inflate,
            crowd,
            grain,
        }
    }
}

/// Euclid's greatest common divisor (`gcd(a, 0) = a`).
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}
