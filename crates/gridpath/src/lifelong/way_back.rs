//! The way back to a guide path: how an agent pushed off its path is led back onto it.
//!
//! Chen et al.'s guided PIBT (AAAI 2024) never drops a guide path because PIBT pushed its agent
//! off it. Its heuristic is the distance to the path plus the path left from where it is met,
//! the *distance-to-path* heuristic:
//!
//! ```text
//! h(i, v) = min over the cells P[j] of i's path   d(v, P[j]) + (len(P) − 1 − j)
//! ```
//!
//! found there by a breadth-first search from every cell of the path, goal end first. A search
//! of the whole map for each agent cannot be kept (a trial took 3.4 GB for the warehouse's 8,000
//! agents, and 108 ms a step to fill), and PIBT only ever asks about the cells next to an agent.
//! So here it is bounded: [`PathMarks`] marks a stray's path on the map, each cell with the path
//! left from it, and [`PathMarks::way_back`] looks at most [`RADIUS`] steps out from the cell
//! asked about, over free cells. Farther from the path than that, the caller falls back on the
//! goal's distance.
//!
//! ```text
//! way_back(v) = min { d + left(p) : p a path cell, d = steps from v to p ≤ RADIUS }
//!             = None when no path cell is that near
//! ```
//!
//! On the packed room map (2,500 and 3,000 agents, the three instances, seeds 0 to 5, focal
//! guide paths) strays that keep their path this way finish 78,351 tasks, against 72,165 when
//! they drop it and follow their shortest way (see the workspace's `docs/benchmarks/lifelong.md`).

use super::guidance::sides;
use crate::grid::Grid;

/// How far from a cell the search for the path looks, in steps.
pub const RADIUS: usize = 2;

/// One guide path's cells marked on the map, each with the steps of path left from it (see the
/// module docs): one array for every agent, marked again for each agent asked about, so a
/// look-up is one read of a table that stays in the cache.
#[derive(Clone, Debug, Default)]
pub struct PathMarks {
    /// Per cell, the mark it was last given and the path left from it then.
    marks: Vec<(u32, u32)>,
    stamp: u32,
}

impl PathMarks {
    /// Marks `path` (cell indices on `grid`, its agent's end first), forgetting the path before.
    pub fn mark(&mut self, grid: &Grid, path: &[u32]) {
        if self.marks.len() != grid.len() {
            self.marks = vec![(0, 0); grid.len()];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill((0, 0));
            self.stamp = 1;
        }
        let last = path.len().saturating_sub(1);
        // A path that comes back to a cell keeps its later visit: the shorter way on.
        for (j, &cell) in path.iter().enumerate() {
            if let Some(m) = self.marks.get_mut(cell as usize) {
                *m = (self.stamp, (last - j) as u32);
            }
        }
    }

    /// The steps of path left from cell `v`, if the path marked last goes through it.
    pub fn left(&self, v: usize) -> Option<u32> {
        match self.marks.get(v) {
            Some(&(stamp, left)) if stamp == self.stamp && stamp != 0 => Some(left),
            _ => None,
        }
    }

    /// The steps to the path marked last from free cell `v`, and along it to its end (see the
    /// module docs), if a cell of the path is at most [`RADIUS`] (2) steps away on `grid`.
    ///
    /// The cells two steps away are worked out rather than searched for: straight on through a
    /// free side, or a corner reached through either of its two sides. This runs for every side
    /// of every stray, every step: a breadth-first search with a queue took a third more of the
    /// planner's time on the packed room map (perf, 3,000 agents).
    pub fn way_back(&self, grid: &Grid, v: usize) -> Option<u32> {
        let (width, n) = (grid.width() as usize, grid.len());
        if v >= n || self.marks.len() != n {
            return None;
        }
        if let Some(left) = self.left(v) {
            return Some(left);
        }
        let mut best = None;
        let mut meet = |cell: usize, steps: u32| {
            if let Some(left) = self.left(cell) {
                best = Some(best.map_or(steps + left, |b: u32| b.min(steps + left)));
            }
        };
        let around = sides(width, n, v);
        let open = around.map(|(on_map, w, _)| on_map && w < n && grid.raw_cost(w) != 0);
        for (k, &(_, side, _)) in around.iter().enumerate() {
            if open[k] {
                meet(side, 1);
                let (on_map, beyond, _) = sides(width, n, side)[k];
                if on_map {
                    meet(beyond, 2);
                }
            }
        }
        // The corners: up or down (0, 3) with left or right (1, 2).
        for (a, b) in [(0, 1), (0, 2), (3, 1), (3, 2)] {
            if (open[a] || open[b]) && around[a].0 && around[b].0 {
                meet(around[a].1.wrapping_add(around[b].1).wrapping_sub(v), 2);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Point;

    fn index_of(grid: &Grid, x: i32, y: i32) -> usize {
        grid.index_of(Point::new(x, y)).expect("on the map")
    }

    #[test]
    fn a_cell_beside_the_path_goes_back_to_the_nearest_cell_with_the_least_left() {
        // A path along row 0 of a 6 × 4 room, from (0, 0) to (5, 0).
        let grid = Grid::new(6, 4).expect("a grid");
        let path: Vec<u32> = (0..6).map(|x| index_of(&grid, x, 0) as u32).collect();
        let mut index = PathMarks::default();
        index.mark(&grid, &path);
        assert_eq!(index.way_back(&grid, index_of(&grid, 2, 0)), Some(3));
        // One below (2, 0): one step up, then 3 left; or two steps to (3, 0), then 2.
        assert_eq!(index.way_back(&grid, index_of(&grid, 2, 1)), Some(4));
        assert_eq!(index.way_back(&grid, index_of(&grid, 2, 2)), Some(5));
        assert_eq!(index.way_back(&grid, index_of(&grid, 2, 3)), None, "3 away");
    }

    #[test]
    fn the_way_back_goes_round_walls() {
        // Row 1 is a wall but for (0, 1): from (3, 2) the path on row 0 is 5 steps away.
        let mut grid = Grid::new(5, 3).expect("a grid");
        for x in 1..5 {
            grid.set_blocked(Point::new(x, 1), true)
                .expect("on the map");
        }
        let path: Vec<u32> = (0..5).map(|x| index_of(&grid, x, 0) as u32).collect();
        let mut index = PathMarks::default();
        index.mark(&grid, &path);
        assert_eq!(index.way_back(&grid, index_of(&grid, 3, 2)), None);
        assert_eq!(index.way_back(&grid, index_of(&grid, 0, 2)), Some(2 + 4));
        index.mark(&grid, &[]);
        assert_eq!(
            index.way_back(&grid, index_of(&grid, 0, 0)),
            None,
            "forgotten"
        );
    }
}
