//! Gatherings: bodies that share a destination each get a cell of their own near it
//! ([`gridpath::mapf::crowd::Gatherings`]), handed out again only where something changed.

use super::body::{Body, GatherCell, Gathering, GatheringItem};
use super::clock::Crowd;
use crate::agent::{Destination, GridAgent};
use crate::flow::SharedFlow;
use crate::nav_grid::NavGrid;
use crate::requests::Route;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridpath::mapf::crowd::{Gatherer, GatheringBodies, Gatherings};

type Bodies<'w, 's> = Query<'w, 's, Gathering, (With<Body>, Without<SharedFlow>)>;

/// Bodies that share a destination get a cell of their own near it ([`GatherCell`]), handed
/// out, swapped on the way and given up after a jam by the core's [`Gatherings`], on frames
/// where something a gathering is made of changed ([`Gatherings::due`]).
pub(super) fn gather(
    nav: Option<Res<NavGrid>>,
    crowd: Res<Crowd>,
    mut seen: Seen,
    bodies: Bodies,
    mut commands: Commands,
    mut gatherings: Local<Gatherings>,
) {
    let Some(nav) = nav else {
        gatherings.forget(); // what changes while there is no grid goes unseen
        return;
    };
    if !crowd.gather {
        return take_cells_back(&bodies, &mut commands, &mut gatherings);
    }
    let (ticks, seen) = (crowd.clock.ticks, seen.keys());
    let Some(due) = gatherings.due(ticks, nav.revision(), !seen.is_empty()) else {
        return;
    };
    let one = |key: u64| Some(gatherer(&bodies.get(Entity::from_bits(key)).ok()?));
    let all = &mut bodies.iter().map(|b| gatherer(&b));
    let (places, gave_any_up) =
        gatherings.hand_out(&*nav, due, &seen, GatheringBodies { all, one: &one });
    for (key, cell) in places {
        let mut body = commands.entity(Entity::from_bits(key));
        match cell {
            Some(cell) => body.insert(GatherCell(cell)),
            None => body.remove::<GatherCell>(),
        };
    }
    gatherings.ran(ticks, gave_any_up, nav.revision());
}

/// A body as the gatherings read it.
fn gatherer(b: &GatheringItem<'_, '_>) -> Gatherer {
    let at = b.progress.cell();
    let next = |r| b.progress.next_cell(Some(r));
    let heads = b.route.and_then(|r| Some((r.request.to, next(r)?)));
    Gatherer {
        key: b.entity.to_bits(),
        at,
        size: b.agent.size,
        movement: b.agent.movement,
        destination: b.destination.map(|d| d.0),
        given: b.gathering.map(|g| g.0),
        heads: heads.filter(|(_, n)| n.x.abs_diff(at.x).max(n.y.abs_diff(at.y)) == 1),
        stalled: b.motion.stalled(),
    }
}

/// Each body goes to its destination itself ([`Crowd::gather`] off): the cells given out are
/// taken back, and the bodies filed afresh if gathering comes back on.
///
/// [`Crowd::gather`]: crate::Crowd::gather
fn take_cells_back(bodies: &Bodies, commands: &mut Commands, gatherings: &mut Gatherings) {
    gatherings.forget();
    for b in bodies.iter().filter(|b| b.gathering.is_some()) {
        commands.entity(b.entity).remove::<GatherCell>();
    }
}

/// Bodies whose part in a gathering may have changed since [`gather`] last ran: new, resized,
/// sent elsewhere, given a cell, or routed to the cell they were given.
type Touched = Or<(
    Added<Body>,
    Changed<GridAgent>,
    Changed<Destination>,
    Changed<GatherCell>,
    Added<SharedFlow>,
)>;

/// The bodies touched, routed or gone since the last frame.
#[derive(SystemParam)]
pub(super) struct Seen<'w, 's> {
    touched: Query<'w, 's, Entity, (With<Body>, Touched)>,
    routed: Query<'w, 's, Entity, (With<Body>, With<GatherCell>, Changed<Route>)>,
    left: RemovedComponents<'w, 's, Body>,
    unsent: RemovedComponents<'w, 's, Destination>,
    ungiven: RemovedComponents<'w, 's, GatherCell>,
    unflowed: RemovedComponents<'w, 's, SharedFlow>,
}

impl Seen<'_, '_> {
    /// Their keys (some more than once). Reads what went since the last frame: once a frame.
    fn keys(&mut self) -> Vec<u64> {
        let gone = self.left.read().chain(self.unsent.read());
        let gone = gone.chain(self.ungiven.read()).chain(self.unflowed.read());
        let now = self.touched.iter().chain(self.routed.iter());
        gone.chain(now).map(Entity::to_bits).collect()
    }
}
