//! Gatherings: bodies that share a destination each get a cell of their own near it
//! ([`gridpath::mapf::crowd::Gatherings`]), handed out again only where something changed.

use super::body::{Body, GatherCell, Gathering, GatheringItem};
use super::gather_due::GatherDue;
use crate::flow::SharedFlow;
use crate::nav_grid::NavGrid;
use bevy::prelude::*;
use gridpath::mapf::crowd::{Gatherer, GatheringBodies, Gatherings};

type Bodies<'w, 's> = Query<'w, 's, Gathering, (With<Body>, Without<SharedFlow>)>;

/// Bodies that share a destination get a cell of their own near it ([`GatherCell`]), handed
/// out, swapped on the way and given up after a jam by the core's [`Gatherings`].
///
/// It runs only on frames where something a gathering is made of changed ([`GatherDue`]).
pub(super) fn gather(
    nav: Option<Res<NavGrid>>,
    mut due: GatherDue,
    bodies: Bodies,
    mut commands: Commands,
    mut gatherings: Local<Gatherings>,
    mut seen: Local<Vec<Entity>>,
) {
    let Some(nav) = nav else {
        gatherings.forget(); // what changes while there is no grid goes unseen
        return;
    };
    if !due.gathering() {
        return take_cells_back(&bodies, &mut commands, &mut gatherings);
    }
    let Some(due_now) = due.now(&nav, &mut seen) else {
        return;
    };
    let seen: Vec<u64> = seen.iter().map(|e| e.to_bits()).collect();
    let one = |key: u64| Some(gatherer(&bodies.get(Entity::from_bits(key)).ok()?));
    let all = &mut bodies.iter().map(|b| gatherer(&b));
    let (places, gave_any_up) =
        gatherings.hand_out(&*nav, due_now, &seen, GatheringBodies { all, one: &one });
    for (key, cell) in places {
        let mut body = commands.entity(Entity::from_bits(key));
        match cell {
            Some(cell) => body.insert(GatherCell(cell)),
            None => body.remove::<GatherCell>(),
        };
    }
    due.ran(gave_any_up, nav.revision());
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
