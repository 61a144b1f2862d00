//! JPS+: jump point search with the jumps looked up instead of run.
//!
//! [Jump point search](super::jump_point) finds its successors by running along lines; JPS+
//! (Harabor and Grastien 2014) runs every line once, ahead of time, and keeps the answers in a
//! table ([`crate::jump_distances::JumpDistances`]): for every cell and direction, how far to the next jump point
//! or wall. A query then does what JPS does, in the same order and with the same expansions,
//! but each jump is a table read plus one check the table cannot hold: whether the goal lies
//! within reach along the way.
//!
//! The table belongs to the grid's walls. [`crate::search::Search`] keeps one and brings it up to date
//! before a query: repaired, when the grid remembers what changed (a few lines and the diagonals
//! across them), rebuilt otherwise. Like JPS, JPS+ needs 8-way moves that never cut corners and
//! equal cell costs; other queries are refused with [`crate::vocabulary::QueryError::Unsupported`].

use super::jump_point::{arrival, cell_at, pruned, successor_reporter};
use super::rules::Rules;
use crate::grid::Grid;
use crate::jump_distances::{
    ACROSS, CARRY_ON, DOWN, JumpDistances, LEAP, ONWARD_FOUND, ONWARD_NONE, STRAIGHT_CAP,
    direction_index, look_steps_and_parts,
};

pub(crate) const RULES: Rules = super::jump_point::RULES;

/// Calls `visit(jump_point, x, y, distance)` for every successor of `node`, exactly as
/// [`super::jump_point::for_each_successor`] does, reading `table` (made for `grid`'s walls).
/// Always inlined into the best-first loop: out of line, JPS+ ran 3 % more instructions.
#[inline(always)]
pub(crate) fn for_each_successor(
    grid: &Grid,
    table: &JumpDistances,
    node: usize,
    parent: Option<usize>,
    goal: (i32, i32),
    visit: impl FnMut(usize, usize, usize, f64),
) {
    let w = grid.width() as usize;
    let (x, y) = cell_at(node, w);
    let lines = Lines {
        table,
        width: w,
        goal,
    };
    let mut found = successor_reporter(w, (x, y), visit);
    // One block per direction, in `STEPS` order, each with the direction's steps as constants.
    // A straight jump returns its jump point; a diagonal reports its own, and returns the goal if
    // it ran into it. (Plain blocks rather than a loop over the directions: from a loop, the
    // compiler set up all eight directions' goal checks before the first, about 70 instructions
    // an expansion, where two or three directions are taken.)
    let directions = pruned(arrival(x, y, parent, w), table.free_neighbours(node));
    if directions.has(0)
        && let Some(j) = lines.straight::<0, -1>(x, y)
    {
        found(j);
    }
    if directions.has(1)
        && let Some(j) = lines.straight::<1, 0>(x, y)
    {
        found(j);
    }
    if directions.has(2)
        && let Some(j) = lines.straight::<0, 1>(x, y)
    {
        found(j);
    }
    if directions.has(3)
        && let Some(j) = lines.straight::<-1, 0>(x, y)
    {
        found(j);
    }
    if directions.has(4)
        && let Some(j) = lines.diagonal::<1, -1>(x, y, &mut found)
    {
        found(j);
    }
    if directions.has(5)
        && let Some(j) = lines.diagonal::<1, 1>(x, y, &mut found)
    {
        found(j);
    }
    if directions.has(6)
        && let Some(j) = lines.diagonal::<-1, 1>(x, y, &mut found)
    {
        found(j);
    }
    if directions.has(7)
        && let Some(j) = lines.diagonal::<-1, -1>(x, y, &mut found)
    {
        found(j);
    }
}

/// The table and the goal: everything a jump reads.
struct Lines<'a> {
    table: &'a JumpDistances,
    width: usize,
    goal: (i32, i32),
}

impl Lines<'_> {
    /// The jump from `(x, y)` in straight direction `(DX, DY)`: the goal, if it lies ahead before
    /// the run stops; else the jump point the table names, if any. A line longer than the table
    /// counts is crossed in hops ([`ONWARD_FOUND`], [`ONWARD_NONE`]).
    #[inline(always)]
    fn straight<const DX: i32, const DY: i32>(&self, mut x: i32, mut y: i32) -> Option<(i32, i32)> {
        // How far ahead the goal is along this line (0 or less: not ahead, or not on it).
        let mut to_goal = if DY == 0 {
            if self.goal.1 == y {
                (self.goal.0 - x) * DX
            } else {
                0
            }
        } else if self.goal.0 == x {
            (self.goal.1 - y) * DY
        } else {
            0
        };
        loop {
            let distance = self
                .table
                .distance(self.index(x, y), const { direction_index(DX, DY) });
            if distance == ONWARD_FOUND || distance == ONWARD_NONE {
                if to_goal > 0 && to_goal <= STRAIGHT_CAP {
                    return Some(self.goal);
                }
                (x, y) = (x + STRAIGHT_CAP * DX, y + STRAIGHT_CAP * DY);
                to_goal -= STRAIGHT_CAP;
                continue;
            }
            if to_goal > 0 && to_goal <= distance.abs() {
                return Some(self.goal);
            }
            return (distance > 0).then_some((x + distance * DX, y + distance * DY));
        }
    }

    /// The jump point straight ahead of `(x, y)` that the table promises (its entry is
    /// positive), without a goal check: for a look away from the goal's row and column.
    #[inline(always)]
    fn promised<const DX: i32, const DY: i32>(&self, mut x: i32, mut y: i32) -> (i32, i32) {
        loop {
            let distance = self
                .table
                .distance(self.index(x, y), const { direction_index(DX, DY) });
            if distance != ONWARD_FOUND {
                return (x + distance * DX, y + distance * DY);
            }
            (x, y) = (x + STRAIGHT_CAP * DX, y + STRAIGHT_CAP * DY);
        }
    }

    /// The diagonal run from `(x, y)` in `(DX, DY)`: at every cell where the table says a
    /// straight run finds something, report what it finds, and carry on; stop where the diagonal
    /// is blocked, or at the goal (which it returns, like a straight jump).
    ///
    /// The goal needs one more look. If it lies in this quadrant, the diagonal crosses its row or
    /// column at one cell, and a straight run from there may meet it, which the table (made
    /// before the goal was known) cannot say: that cell runs both straight jumps with their goal
    /// checks. Every other look runs only the parts the table names, and cannot meet the goal:
    /// the goal is not on its row or column, or lies behind it.
    #[inline(always)]
    fn diagonal<const DX: i32, const DY: i32>(
        &self,
        mut x: i32,
        mut y: i32,
        found: &mut impl FnMut((i32, i32)),
    ) -> Option<(i32, i32)> {
        let (ahead_x, ahead_y) = ((self.goal.0 - x) * DX, (self.goal.1 - y) * DY);
        // Steps to the goal's row or column, whichever comes first; none if it lies behind.
        let mut to_goal_line = if ahead_x > 0 && ahead_y > 0 {
            ahead_x.min(ahead_y)
        } else {
            i32::MAX
        };
        loop {
            let distance = self
                .table
                .distance(self.index(x, y), const { direction_index(DX, DY) });
            // How far this entry lets the run go, and which straight parts to run there.
            let (reach, parts) = match distance {
                CARRY_ON => (LEAP, 0), // `LEAP` free cells with nothing to look at on the way
                d if d > 0 => look_steps_and_parts(d),
                d => (-d, 0),
            };
            if to_goal_line <= reach {
                // The goal's row or column comes first: look there, for the goal too.
                (x, y) = (x + to_goal_line * DX, y + to_goal_line * DY);
                to_goal_line = i32::MAX;
                if (x, y) == self.goal {
                    return Some(self.goal);
                }
                if let Some(j) = self.straight::<DX, 0>(x, y) {
                    found(j);
                }
                if let Some(j) = self.straight::<0, DY>(x, y) {
                    found(j);
                }
                continue;
            }
            if parts == 0 && distance != CARRY_ON {
                return None; // blocked, with nothing on the way
            }
            if to_goal_line != i32::MAX {
                to_goal_line -= reach;
            }
            (x, y) = (x + reach * DX, y + reach * DY);
            if parts & ACROSS != 0 {
                found(self.promised::<DX, 0>(x, y));
            }
            if parts & DOWN != 0 {
                found(self.promised::<0, DY>(x, y));
            }
        }
    }

    #[inline(always)]
    fn index(&self, x: i32, y: i32) -> usize {
        y as usize * self.width + x as usize
    }
}
