//! Weighted A*: the frontier is a priority queue on `f = g + w·h`, with `w ≥ 1`.
//!
//! Trusting the heuristic a bit more than it deserves makes the search push harder towards the
//! goal and expand fewer cells. The price is optimality, but it is a bounded price: with an
//! admissible, consistent heuristic the path costs at most `w` times the optimal cost (and closed
//! cells are never reopened). `w = 1` is A*; as `w` grows the search behaves more and more like
//! greedy best-first.

use super::rules::Rules;
use crate::vocabulary::frontier::Order;

pub(crate) const RULES: Rules = Rules {
    order: Order::Priority,
    relax: true,
    uses_heuristic: true,
};

/// A* with the heuristic inflated by `w`.
#[inline]
pub(crate) fn priority(g: f64, h: f64, w: f64) -> f64 {
    g + w * h
}
