//! When the gatherings must be looked at again: only when something they are made of changed.

use super::body::{Body, GatherCell};
use super::clock::Crowd;
use crate::agent::{Destination, GridAgent};
use crate::flow::SharedFlow;
use crate::nav_grid::NavGrid;
use crate::requests::Route;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridpath::mapf::crowd::Due;

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
/// instructions as the crowd's whole step. Every gathering is handed out again when a tick has
/// moved the bodies, or its own last run gave cells up (to settle, and so that at most
/// [`GIVE_UPS_AT_ONCE`] jammed bodies give up *a frame*); after an edit, those it came near
/// (see [`Due::Edit`]); one gathering alone when a body of it came, went, changed size or
/// destination, was given a cell, or got a route to the cell it was given (a body's next step,
/// which cells are swapped by). One thing it does not watch: a jammed body's patience runs out
/// with time, so it gives up at the first hand-out of its gathering after that, at most a tick
/// late.
///
/// A tick's frame, the dearest of all (PIBT for every body), so mostly does without one.
///
/// [`GIVE_UPS_AT_ONCE`]: gridpath::mapf::crowd::GIVE_UPS_AT_ONCE
#[derive(SystemParam)]
pub(super) struct GatherDue<'w, 's> {
    crowd: Res<'w, Crowd>,
    touched: Query<'w, 's, Entity, (With<Body>, Touched)>,
    routed: Query<'w, 's, Entity, (With<Body>, With<GatherCell>, Changed<Route>)>,
    left: RemovedComponents<'w, 's, Body>,
    unsent: RemovedComponents<'w, 's, Destination>,
    ungiven: RemovedComponents<'w, 's, GatherCell>,
    unflowed: RemovedComponents<'w, 's, SharedFlow>,
    /// The crowd's ticks when it last ran, whether that run changed anything, and the grid's
    /// revision it ran on.
    last: Local<'s, Option<(u64, bool, u64)>>,
}

impl GatherDue<'_, '_> {
    /// Is it due, now, and for which gatherings? (Reads what went since the last frame, so ask
    /// once a frame.) `None`: not due. `seen` gets the bodies touched, routed or gone since the
    /// last frame (some more than once).
    pub(super) fn now(&mut self, nav: &Res<NavGrid>, seen: &mut Vec<Entity>) -> Option<Due> {
        seen.clear();
        seen.extend(self.left.read());
        seen.extend(self.unsent.read());
        seen.extend(self.ungiven.read());
        seen.extend(self.unflowed.read());
        seen.extend(self.touched.iter());
        seen.extend(self.routed.iter());
        let ticks = self.crowd.ticks;
        match *self.last {
            // No tick since, and the last run changed nothing.
            Some((ticked, false, since)) if ticked == ticks => {
                if since != nav.revision() {
                    Some(Due::Edit { since })
                } else {
                    (!seen.is_empty()).then_some(Due::Seen)
                }
            }
            _ => Some(Due::Everything),
        }
    }

    /// Are bodies that share a destination given cells of their own ([`Crowd::gather`])?
    pub(super) fn gathering(&self) -> bool {
        self.crowd.gather
    }

    /// Notes a run on the grid of `revision` that did (or did not) change a gathering's cells
    /// or give-ups.
    pub(super) fn ran(&mut self, changed: bool, revision: u64) {
        *self.last = Some((self.crowd.ticks, changed, revision));
    }
}
