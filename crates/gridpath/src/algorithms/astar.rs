//! A*: the frontier is a priority queue on `f = g + h`.
//!
//! A* is Dijkstra's algorithm with a sense of direction. `g` is the cost so far, as in Dijkstra;
//! `h` is the heuristic's guess of the cost still to go. Their sum estimates the cost of the whole
//! route through a cell, so A* expands the cells on the most promising routes first. If `h` never
//! overestimates (it is admissible) the first path to the goal is a least-cost one, just as with
//! Dijkstra, but A* gets there after expanding far fewer cells: it stops spreading away from the
//! goal. With `h = 0` it *is* Dijkstra; with only `h` it is greedy best-first.

use super::rules::Rules;
use crate::vocabulary::frontier::Order;

pub(crate) const RULES: Rules = Rules {
    order: Order::Priority,
    relax: true,
    uses_heuristic: true,
};

/// Estimated total cost of the route through the cell.
#[inline]
pub(crate) fn priority(g: f64, h: f64) -> f64 {
    g + h
}
