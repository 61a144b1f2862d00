//! Breadth-first search: the frontier is a queue.
//!
//! Cells come out in the order they went in, so the search spreads out in rings: first every cell
//! one step away, then every cell two steps away, and so on. The first time it reaches the goal it
//! has used the fewest *steps*, but it ignores costs: a diagonal counts like a straight step, and
//! mud like road. So it is optimal on a 4-way grid where every cell costs the same, and not
//! otherwise. Red Blob Games' introduction starts here, and so should you.

use super::rules::Rules;
use crate::vocabulary::frontier::Order;

pub(crate) const RULES: Rules = Rules {
    order: Order::Queue,
    relax: false,
    uses_heuristic: false,
};
