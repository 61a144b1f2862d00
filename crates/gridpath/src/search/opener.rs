//! Opening a cell: the innermost step of every search in the shared loop.

use super::frontier::Frontier;
use super::nodes::NodeTable;
use super::query::{Query, point_at};
use super::{NodeState, TraceEvent};
use crate::algorithms::Rules;

/// What [`super::Search::expand`] needs to open a cell, borrowed from the search.
pub(super) struct Opener<'a> {
    pub(super) nodes: &'a mut NodeTable,
    pub(super) frontier: &'a mut Frontier,
    pub(super) trace: &'a mut Vec<TraceEvent>,
    pub(super) query: &'a Query,
    pub(super) rules: Rules,
}

impl Opener<'_> {
    /// Offers `next` (at column `x`, row `y`) the route through `via` (the expanded cell, or for
    /// Theta* perhaps its parent) at total cost `g`.
    ///
    /// Always inlined into the neighbour loop of the searches that step cell by cell, where it
    /// runs for every neighbour of every expanded cell: as a closure called from four places the
    /// compiler made it a call each time, and A* ran 12 % more instructions.
    #[inline(always)]
    pub(super) fn offer(&mut self, next: usize, x: usize, y: usize, via: usize, g: f64) {
        let seen = match self.nodes.state_and_g(next) {
            (NodeState::Unseen, _) => false,
            // Seen before: only a cost-aware search takes a cheaper route, and never to a
            // closed cell (with a consistent heuristic its cost is already final).
            (NodeState::Open, known) if self.rules.relax && g < known => true,
            _ => return,
        };
        self.nodes.open(next, g, via as u32);
        let h = if self.rules.uses_heuristic {
            self.query.heuristic(x, y)
        } else {
            0.0
        };
        let priority = self.query.priority(g, h);
        if seen {
            self.frontier.improve(next, priority, g);
        } else {
            self.frontier.push(next, priority, g);
        }
        if self.query.config.record_trace {
            let cell = point_at(next, self.query.width);
            self.trace.push(TraceEvent::Opened(cell));
        }
    }

    /// [`Opener::offer`] as a call, for the searches whose own loops are the hot part (jump point
    /// search's jumps) or that offer less often: inlined there, it only made their code bigger.
    #[inline(never)]
    pub(super) fn offer_call(&mut self, next: usize, x: usize, y: usize, via: usize, g: f64) {
        self.offer(next, x, y, via, g)
    }
}
