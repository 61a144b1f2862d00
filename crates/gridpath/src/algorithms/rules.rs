//! What sets one algorithm of the best-first loop apart: its frontier order, whether it takes a
//! cheaper route to a cell it has seen, whether it uses the heuristic (each algorithm's page
//! gives its own `RULES`).

use crate::vocabulary::frontier::Order;

/// What sets one algorithm apart from the others in the best-first loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// How the frontier orders cells.
    pub order: Order,
    /// When a cheaper route to a cell in the frontier turns up, take it? Cost-aware searches do;
    /// the others keep the first route they found.
    pub relax: bool,
    /// Does the priority use the heuristic? (Saves computing it when not.)
    pub uses_heuristic: bool,
}
