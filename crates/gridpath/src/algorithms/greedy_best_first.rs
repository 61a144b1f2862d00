//! Greedy best-first search: the frontier is a priority queue on `h` alone.
//!
//! `h` is the heuristic's guess of the distance left to the goal. Always expanding the cell that
//! *looks* closest makes the search rush at the goal, and on open ground it expands very few
//! cells. But it ignores what the route has cost so far, so it can follow a wall into a dead end
//! and come back with a path far from the shortest. Fast, not optimal.

use super::rules::Rules;
use crate::vocabulary::frontier::Order;

pub(crate) const RULES: Rules = Rules {
    order: Order::Priority,
    relax: false,
    uses_heuristic: true,
};

/// Closest-looking first; the cost so far plays no part.
#[inline]
pub(crate) fn priority(h: f64) -> f64 {
    h
}
