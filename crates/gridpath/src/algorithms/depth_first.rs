//! Depth-first search: the frontier is a stack.
//!
//! Swap breadth-first search's queue for a stack and the newest cell always comes out first, so
//! the search dives down one corridor as far as it can before it backs up. It does find a path
//! whenever one exists, but the path is usually long and winding, because nothing ever asks "is
//! this short?". It is here to show why the *order* of the frontier matters: it is the poor
//! pathfinder that makes the good ones make sense.

use super::rules::Rules;
use crate::vocabulary::frontier::Order;

pub(crate) const RULES: Rules = Rules {
    order: Order::Stack,
    relax: false,
    uses_heuristic: false,
};
