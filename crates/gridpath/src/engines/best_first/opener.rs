//! Opening a cell: the innermost step of every search in the best-first loop.

use super::query::Query;
use crate::algorithms::{Rules, astar, jump_point};
use crate::vocabulary::frontier::Frontier;
use crate::vocabulary::nodes::NodeTable;
use crate::vocabulary::{NodeState, TraceEvent, point_at};

/// What `BestFirst::expand` needs to open a cell, borrowed from the search.
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
        self.offer_as::<false>(next, via, g, |query| query.heuristic(x, y))
    }

    /// [`Opener::offer`] with the heuristic worked out by the caller, only if it is needed: the
    /// hex loop has it from the expanded cell's axial coordinates in a few instructions.
    #[inline(always)]
    pub(super) fn offer_estimated(
        &mut self,
        next: usize,
        via: usize,
        g: f64,
        h: impl FnOnce(&Query) -> f64,
    ) {
        self.offer_as::<false>(next, via, g, h)
    }

    /// [`Opener::offer`] as a call, for Theta*, which offers less often than it checks lines of
    /// sight: inlined there, it only made the code bigger.
    #[inline(never)]
    pub(super) fn offer_call(&mut self, next: usize, x: usize, y: usize, via: usize, g: f64) {
        self.offer(next, x, y, via, g)
    }

    /// [`Opener::offer`] for jump point search and JPS+, as a call (their jump loops are the hot
    /// part; inlined there, the offer made them 7 % dearer). Their rules are A*'s, known here, so
    /// the compiler leaves out every test the rules settle: whether to take a cheaper route,
    /// whether to compute the heuristic, the priority's formula and the frontier's order. JPS+
    /// ran 1 % fewer instructions on arena2 than with the general offer.
    #[inline(never)]
    pub(super) fn offer_jump_point(&mut self, next: usize, x: usize, y: usize, via: usize, g: f64) {
        self.offer_as::<true>(next, via, g, |query| query.heuristic(x, y))
    }

    /// The offer; with `JUMP_POINT`, for the jump point searches, whose rules are known. `h`
    /// is the heuristic of `next`, asked for only by the searches that use one.
    #[inline(always)]
    fn offer_as<const JUMP_POINT: bool>(
        &mut self,
        next: usize,
        via: usize,
        g: f64,
        h: impl FnOnce(&Query) -> f64,
    ) {
        let rules = if JUMP_POINT {
            jump_point::RULES
        } else {
            self.rules
        };
        let seen = match self.nodes.state_and_g(next) {
            (NodeState::Unseen, _) => false,
            // Seen before: only a cost-aware search takes a cheaper route, and never to a
            // closed cell (with a consistent heuristic its cost is already final).
            (NodeState::Open, known) if rules.relax && g < known => true,
            _ => return,
        };
        self.nodes.open(next, g, via as u32);
        let h = if rules.uses_heuristic {
            h(self.query)
        } else {
            0.0
        };
        let priority = if JUMP_POINT {
            astar::priority(g, h)
        } else {
            self.query.priority(g, h)
        };
        if seen {
            self.frontier.improve_as(rules.order, next, priority, g);
        } else {
            self.frontier.push_as(rules.order, next, priority, g);
        }
        if self.query.config.record_trace {
            let cell = point_at(next, self.query.width);
            self.trace.push(TraceEvent::Opened(cell));
        }
    }
}
