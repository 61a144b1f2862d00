//! When the gatherings must be looked at again: only when something they are made of changed.

use super::{Body, Crowd, GatherCell};
use crate::agents::{Destination, GridAgent};
use crate::flow::SharedFlow;
use crate::nav_grid::NavGrid;
use crate::requests::Route;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// Bodies whose part in a gathering may have changed since [`gather`](super::gather::gather)
/// last ran: new, resized, sent elsewhere, given a cell, or routed to the cell they were given.
type Touched = Or<(
    Added<Body>,
    Changed<GridAgent>,
    Changed<Destination>,
    Changed<GatherCell>,
    Added<SharedFlow>,
)>;

/// Is a gathering's hand-out due this frame?
///
/// What a gathering hands out is worked out from where its bodies stand, where they go, their
/// sizes, the walls and the cells they were given. Bodies change cells only at ticks, so
/// between ticks (15 frames at 60 a second for bodies crossing 4 cells a second) the hand-out
/// would come out the same, frame after frame: at 10,000 wanderers that was as many
/// instructions as the crowd's whole step. It runs again when a tick has moved the bodies, an
/// edit came, a body came, went, changed size or destination, a route to a given cell came (a
/// body's next step, which cells are swapped by), or its own last run changed anything
/// (to settle, and so that at most [`GIVE_UPS_PER_FRAME`] jammed bodies give up *a frame*).
/// One thing it does not watch: a jammed body's patience runs out with time, so it gives up
/// at the first hand-out after that, at most a tick late.
///
/// A tick's frame, the dearest of all (PIBT for every body), so mostly does without one.
///
/// [`GIVE_UPS_PER_FRAME`]: super::jams::GIVE_UPS_PER_FRAME
#[derive(SystemParam)]
pub(super) struct GatherDue<'w, 's> {
    crowd: Res<'w, Crowd>,
    touched: Query<'w, 's, (), (With<Body>, Touched)>,
    routed: Query<'w, 's, (), (With<Body>, With<GatherCell>, Changed<Route>)>,
    left: RemovedComponents<'w, 's, Body>,
    unsent: RemovedComponents<'w, 's, Destination>,
    ungiven: RemovedComponents<'w, 's, GatherCell>,
    unflowed: RemovedComponents<'w, 's, SharedFlow>,
    /// The crowd's ticks when it last ran, and whether that run changed anything.
    last: Local<'s, Option<(u64, bool)>>,
}

impl GatherDue<'_, '_> {
    /// Is it due, now? (Reads what went since the last frame, so ask once a frame.)
    pub(super) fn now(&mut self, nav: &Res<NavGrid>) -> bool {
        let gone = !(self.left.is_empty()
            && self.unsent.is_empty()
            && self.ungiven.is_empty()
            && self.unflowed.is_empty());
        self.left.clear();
        self.unsent.clear();
        self.ungiven.clear();
        self.unflowed.clear();
        let ticks = self.crowd.ticks;
        !self
            .last
            .is_some_and(|(seen, changed)| seen == ticks && !changed)
            || gone
            || nav.is_changed()
            || !self.touched.is_empty()
            || !self.routed.is_empty()
    }

    /// Notes a run that did (or did not) change a gathering's cells or give-ups.
    pub(super) fn ran(&mut self, changed: bool) {
        *self.last = Some((self.crowd.ticks, changed));
    }
}
