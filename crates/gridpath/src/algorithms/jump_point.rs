//! Jump point search (JPS): A* that skips the cells in between.
//!
//! On a grid where every cell costs the same, most cells have many equally short routes through
//! them, and A* wastes its time opening all of them. JPS (Harabor and Grastien, 2011) keeps one
//! *canonical* route instead: diagonal moves first, then straight ones. From a cell it only looks
//! in the directions such a route could continue, and instead of stepping one cell it *jumps*:
//! it runs along a straight line or a diagonal until it hits something interesting, a *jump
//! point*. A jump point is the goal, or a cell with a *forced neighbour*: a cell that only a turn
//! here can reach optimally, because a wall blocks the shortcut to it. Only jump points enter the
//! frontier, so JPS expands a small fraction of A*'s cells and returns the same optimal cost.
//!
//! This version follows the Moving AI rules: 8-way moves that never cut a corner. Under that rule
//! a diagonal arrival has no forced neighbours (both side cells were free), and a straight
//! arrival has one on each side whose cell *behind* is a wall. JPS needs every passable cell to
//! cost the same; on terrain costs [`crate::Search::begin`] refuses it with
//! [`crate::QueryError::Unsupported`] instead of returning a wrong path.

use super::Rules;
use crate::grid::Grid;
use crate::search::frontier::Order;
use std::f64::consts::SQRT_2;

pub(crate) const RULES: Rules = Rules {
    order: Order::Priority,
    relax: true,
    uses_heuristic: true,
};

pub(crate) const SUMMARY: &str = "A* that jumps along straight lines and diagonals and only \
     stops at cells where the route may turn. Same optimal cost as A* with far fewer expansions. \
     Needs 8-way moves that never cut corners and equal cell costs.";

/// Calls `visit(jump_point, distance)` for every successor of `node`, where `distance` is the
/// length in steps (1 straight, √2 diagonal) of the straight or diagonal run to it.
///
/// `parent` is the jump point `node` was reached from (`None` for the start): the direction of
/// arrival decides which directions are worth a look.
pub(crate) fn for_each_successor(
    grid: &Grid,
    node: usize,
    parent: Option<usize>,
    goal: usize,
    mut visit: impl FnMut(usize, f64),
) {
    let w = grid.width() as usize;
    let at = |i: usize| ((i % w) as i32, (i / w) as i32);
    let (x, y) = at(node);
    let goal = at(goal);
    let mut dirs = Directions::default();
    match parent.map(at) {
        None => crate::movement::STEPS.iter().for_each(|&d| dirs.push(d)),
        Some((px, py)) => {
            pruned_directions(grid, x, y, (x - px).signum(), (y - py).signum(), &mut dirs)
        }
    }
    for &(dx, dy) in dirs.as_slice() {
        let found = if dx == 0 || dy == 0 {
            jump_straight(grid, x, y, dx, dy, goal)
        } else {
            jump_diagonal(grid, x, y, dx, dy, goal)
        };
        if let Some((jx, jy)) = found {
            let (ax, ay) = ((jx - x).unsigned_abs(), (jy - y).unsigned_abs());
            // A run is straight (one of ax, ay is 0) or diagonal (ax == ay).
            let distance = if ax == 0 || ay == 0 {
                f64::from(ax.max(ay))
            } else {
                f64::from(ax) * SQRT_2
            };
            visit(jy as usize * w + jx as usize, distance);
        }
    }
}

/// The directions a canonical route may continue in, after arriving at `(x, y)` moving `(dx, dy)`.
fn pruned_directions(grid: &Grid, x: i32, y: i32, dx: i32, dy: i32, out: &mut Directions) {
    let free = |x, y| grid.is_free(x, y);
    if dx != 0 && dy != 0 {
        // Diagonal arrival: carry on diagonally, or turn to one of its two straight parts.
        out.push((dx, 0));
        out.push((0, dy));
        out.push((dx, dy));
    } else if dx != 0 {
        out.push((dx, 0));
        for side in [-1, 1] {
            // The wall behind a side cell forced us to come this way to reach it.
            if !free(x - dx, y + side) && free(x, y + side) {
                out.push((0, side));
                out.push((dx, side));
            }
        }
    } else {
        out.push((0, dy));
        for side in [-1, 1] {
            if !free(x + side, y - dy) && free(x + side, y) {
                out.push((side, 0));
                out.push((side, dy));
            }
        }
    }
}

/// Runs from `(x, y)` in the straight direction `(dx, dy)` and returns the first jump point, or
/// `None` when the run ends at a wall or the edge of the map.
fn jump_straight(
    grid: &Grid,
    mut x: i32,
    mut y: i32,
    dx: i32,
    dy: i32,
    goal: (i32, i32),
) -> Option<(i32, i32)> {
    let free = |x, y| grid.is_free(x, y);
    loop {
        x += dx;
        y += dy;
        if !free(x, y) {
            return None;
        }
        if (x, y) == goal {
            return Some((x, y));
        }
        let forced = if dx != 0 {
            (free(x, y - 1) && !free(x - dx, y - 1)) || (free(x, y + 1) && !free(x - dx, y + 1))
        } else {
            (free(x - 1, y) && !free(x - 1, y - dy)) || (free(x + 1, y) && !free(x + 1, y - dy))
        };
        if forced {
            return Some((x, y));
        }
    }
}

/// Runs from `(x, y)` diagonally in `(dx, dy)`. A cell on the diagonal is a jump point when one
/// of the two straight runs out of it finds a jump point.
fn jump_diagonal(
    grid: &Grid,
    mut x: i32,
    mut y: i32,
    dx: i32,
    dy: i32,
    goal: (i32, i32),
) -> Option<(i32, i32)> {
    let free = |x, y| grid.is_free(x, y);
    loop {
        // Never cut a corner: both cells beside the diagonal step must be free.
        if !free(x + dx, y) || !free(x, y + dy) || !free(x + dx, y + dy) {
            return None;
        }
        x += dx;
        y += dy;
        if (x, y) == goal
            || jump_straight(grid, x, y, dx, 0, goal).is_some()
            || jump_straight(grid, x, y, 0, dy, goal).is_some()
        {
            return Some((x, y));
        }
    }
}

/// Up to eight directions, without allocating.
#[derive(Default)]
struct Directions {
    items: [(i32, i32); 8],
    len: usize,
}

impl Directions {
    fn push(&mut self, d: (i32, i32)) {
        self.items[self.len] = d;
        self.len += 1;
    }

    fn as_slice(&self) -> &[(i32, i32)] {
        &self.items[..self.len]
    }
}
