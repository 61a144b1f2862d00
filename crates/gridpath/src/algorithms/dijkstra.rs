//! Dijkstra's algorithm (uniform-cost search): the frontier is a priority queue on `g`.
//!
//! `g` is the cost of the best route found so far from the start. Taking the cheapest cell first
//! means that when a cell comes out of the queue, no cheaper route to it can exist: every other
//! route would pass through a cell that costs at least as much already. So the first time the goal
//! comes out, its route is a least-cost path. Dijkstra honours terrain costs (it walks around the
//! mud when the road is cheaper) but searches in every direction equally, since it has no idea
//! where the goal is.

use super::rules::Rules;
use crate::vocabulary::frontier::Order;

pub(crate) const RULES: Rules = Rules {
    order: Order::Priority,
    relax: true,
    uses_heuristic: false,
};

/// Cheapest-so-far first.
#[inline]
pub(crate) fn priority(g: f64) -> f64 {
    g
}
