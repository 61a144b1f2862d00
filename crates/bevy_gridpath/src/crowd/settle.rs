//! Bodies stand where they fit, apart: after an edit under them, or when new
//! ([`gridpath::mapf::crowd::Settler`]).

use super::body::{Body, Settling};
use super::clock::Crowd;
use crate::agent::{AgentEscaped, GridAgent};
use crate::nav_grid::{GridsBySize, NavGrid};
use bevy::prelude::*;
use gridpath::mapf::crowd::{CrowdMap, Settler, Standing, walled_under};

type Bodies<'w, 's> = Query<'w, 's, Settling, With<Body>>;

/// The placed bodies, as settling reads them.
fn standing<'a>(bodies: &'a Bodies) -> impl Iterator<Item = (Entity, Standing)> + 'a {
    bodies.iter().filter(|b| b.progress.placed()).map(|b| {
        let at = b.progress.cell();
        let (key, size) = (b.entity.to_bits(), b.agent.size);
        (b.entity, Standing { key, at, size })
    })
}

/// Bodies stand where they fit, apart: a body on a wall (painted under it), where it no longer
/// fits, or over another body (spawned there) moves to the nearest place where it fits and
/// covers no body. Only an edit or a new body can unsettle one ([`Settler::due`]), and after an
/// edit alone only the bodies near it are looked at if it can ([`Settler::settle_near`]).
pub(super) fn settle(
    nav: Option<Res<NavGrid>>,
    crowd: Res<Crowd>,
    mut bodies: Bodies,
    fresh: Query<(), (With<Body>, Or<(Added<Body>, Changed<GridAgent>)>)>,
    mut escaped: MessageWriter<AgentEscaped>,
    mut settler: Local<Settler>,
) {
    let Some(nav) = nav else {
        return;
    };
    let placed = bodies.iter().filter(|b| b.progress.placed()).count();
    let fresh = nav.is_added() || !fresh.is_empty();
    let mut by_size = GridsBySize::new(&nav);
    let walled = |seen| {
        let Some(changes) = nav.changes_since(seen) else {
            return true; // too many edits to tell
        };
        let grid_for = &mut |k| by_size.get(k);
        walled_under(changes, standing(&bodies).map(|(_, s)| s), grid_for)
    };
    let Some(due) = settler.due(nav.revision(), placed, fresh, walled) else {
        return;
    };
    let grid = nav.grid();
    let grid_for = &mut |k| by_size.get(k);
    let (entities, standing): (Vec<Entity>, Vec<Standing>) = standing(&bodies).unzip();
    let boxes = due
        .since
        .filter(|_| !due.new)
        .and_then(|seen| nav.changed_boxes_since(seen));
    let near = boxes.and_then(|boxes| settler.settle_near(grid, grid_for, &standing, &boxes));
    let moves = near.unwrap_or_else(|| settler.settle(grid, grid_for, &standing, due.new));
    for (i, to) in moves {
        if let Ok(mut b) = bodies.get_mut(entities[i]) {
            let from = b.progress.cell();
            b.progress.jump_to(to);
            b.motion.glide.stand(to, crowd.clock.now);
            let agent = b.entity;
            if !grid.is_passable(from) {
                escaped.write(AgentEscaped { agent, from, to }); // it was on a wall
            }
        }
    }
}
