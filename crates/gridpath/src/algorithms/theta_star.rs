//! Theta*: A* whose paths may turn at any angle (Nash, Daniel, Koenig and Felner, 2007).
//!
//! A* on a grid finds the cheapest path *of grid moves*; drawn on the map it zig-zags in 45°
//! turns, and its length is longer than the straight line a person would walk. Theta* changes one
//! thing in A*'s loop. When it expands a cell `s` and offers a neighbour `n`, it tries two routes:
//!
//! 1. as A* does, through `s`: cost `g(s) + step(s, n)`, parent `s`;
//! 2. straight from `s`'s own parent `p`, if `p` can see `n` ([`crate::line_of_sight()`]):
//!    cost `g(p) + |p n|`, parent `p`.
//!
//! Route 2 is never longer than route 1 (a side of a triangle is at most the other two), so
//! Theta* takes it whenever the line of sight is there. Parents are then no longer neighbours:
//! the path is the chain of parents, a few corners joined by straight segments, and its cost is
//! their Euclidean length. The heuristic is the straight-line distance, the only standard one that
//! never overestimates an any-angle path.
//!
//! Theta* is not optimal among *all* any-angle paths (a corner can only be a cell centre that
//! was a parent), but it is never longer than the optimal grid path: every relaxation is at
//! least as good as A*'s, and the straight-line heuristic is consistent with grid steps. The
//! property tests check exactly that, and that every segment has line of sight.
//!
//! It needs every cell to cost the same (a straight segment through grass and mud has no one
//! price) and moves that never cut a corner, because its segments may not either.

use super::rules::Rules;
use crate::grid::Grid;
use crate::line_of_sight::line_of_sight;
use crate::vocabulary::frontier::Order;

pub(crate) const RULES: Rules = Rules {
    order: Order::Priority,
    relax: true,
    uses_heuristic: true,
};

/// Route 2: if `grandparent` (the expanded cell's parent) can see `next`, the cell to link `next`
/// to and the Euclidean distance between them, in cells.
#[inline]
pub(crate) fn shortcut(
    grid: &Grid,
    grandparent: Option<usize>,
    next: usize,
) -> Option<(usize, f64)> {
    let p = grandparent?;
    let (from, to) = (grid.point_of(p), grid.point_of(next));
    line_of_sight(grid, from, to).then(|| (p, crate::line_of_sight::euclidean(from, to)))
}
