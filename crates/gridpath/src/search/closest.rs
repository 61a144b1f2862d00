//! Finding the reachable cell nearest to an unreachable goal, for [`super::GoalMode::ClosestReachable`].
//!
//! A flood fill from the start visits every reachable cell once and keeps the one closest to the
//! goal in a straight line. The search then simply heads there instead. Doing it this way, rather
//! than remembering the closest cell while searching, works the same for every algorithm, even
//! jump point search, which never looks at most cells.

use crate::grid::{Grid, Point};
use crate::movement::Movement;
use std::collections::VecDeque;

/// Reusable flood-fill memory (same stamping trick as the node table).
#[derive(Clone, Debug, Default)]
pub(crate) struct Reach {
    stamp: Vec<u32>,
    mark: u32,
    queue: VecDeque<u32>,
}

impl Reach {
    /// The reachable cell (from `start`, under `movement`) nearest to `goal`; ties go to the lower
    /// index. Returns `start` itself when nothing reachable is nearer.
    pub(crate) fn nearest_reachable(
        &mut self,
        grid: &Grid,
        movement: Movement,
        start: usize,
        goal: Point,
    ) -> usize {
        if self.stamp.len() < grid.len() {
            self.stamp.resize(grid.len(), 0);
        }
        if self.mark == u32::MAX {
            self.stamp.fill(0);
            self.mark = 0;
        }
        self.mark += 1;
        let distance2 = |i: usize| {
            let p = grid.point_of(i);
            let (dx, dy) = (i64::from(p.x - goal.x), i64::from(p.y - goal.y));
            dx * dx + dy * dy
        };
        let mut best = (distance2(start), start);
        self.queue.clear();
        self.queue.push_back(start as u32);
        self.stamp[start] = self.mark;
        while let Some(i) = self.queue.pop_front() {
            let i = i as usize;
            best = best.min((distance2(i), i));
            let (stamp, mark, queue) = (&mut self.stamp, self.mark, &mut self.queue);
            movement.for_each_neighbor(grid, i, |next, _, _, _| {
                if stamp[next] != mark {
                    stamp[next] = mark;
                    queue.push_back(next as u32);
                }
            });
        }
        best.1
    }
}
