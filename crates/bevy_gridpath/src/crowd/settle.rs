//! Bodies stand where they fit, apart: after an edit under them, or when new
//! ([`gridpath::mapf::crowd::Settler`]).

use super::body::Body;
use super::clock::Crowd;
use super::motion::BodyMotion;
use crate::agent::{AgentEscaped, AgentProgress, GridAgent, centre};
use crate::nav_grid::{GridsBySize, NavGrid};
use bevy::prelude::*;
use gridpath::mapf::crowd::{CrowdMap, Settler, Standing, walled_under};
use gridpath::{Grid, Point};

type Bodies<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static GridAgent,
        &'static mut AgentProgress,
        &'static mut BodyMotion,
    ),
    With<Body>,
>;

/// What [`settle`] last looked at: the grid's revision, and how many bodies were placed.
#[derive(Default)]
pub(super) struct Settled {
    revision: Option<u64>,
    placed: usize,
}

impl Settled {
    /// Must the bodies be looked at, and are some new (`fresh`, or more placed)? `None`: no
    /// body can be unsettled. Notes what it saw.
    fn look(&mut self, nav: &Res<NavGrid>, fresh: bool, bodies: &Bodies) -> Option<bool> {
        let placed = bodies.iter().filter(|(_, _, p, _)| p.placed()).count();
        let new = nav.is_added() || fresh || placed != self.placed;
        let edited = self.revision != Some(nav.revision());
        let look = new
            || edited
                && self.revision.is_none_or(|seen| {
                    let Some(changes) = nav.changes_since(seen) else {
                        return true; // too many edits to tell
                    };
                    let mut by_size = GridsBySize::new(nav);
                    walled_under(changes, standing(bodies).map(|(_, s)| s), &mut |k| {
                        by_size.get(k)
                    })
                });
        *self = Settled {
            revision: Some(nav.revision()),
            placed,
        };
        look.then_some(new)
    }
}

/// The placed bodies, as settling reads them.
fn standing<'a>(bodies: &'a Bodies) -> impl Iterator<Item = (Entity, Standing)> + 'a {
    bodies
        .iter()
        .filter(|(_, _, p, _)| p.placed())
        .map(|(e, agent, p, _)| {
            let body = Standing {
                key: e.to_bits(),
                at: p.cell(),
                size: agent.size,
            };
            (e, body)
        })
}

/// Bodies stand where they fit, apart: a body on a wall (painted under it), where it no longer
/// fits, or over another body (spawned there) moves to the nearest place where it fits and
/// covers no body.
///
/// Only an edit or a new body can unsettle one: at other frames this looks at nothing (at
/// 10,000 bodies the look cost 1.6 ms a frame, a cache miss a body), and after an edit it
/// looks again only if a body stands on a changed cell where it no longer fits, and then near
/// the edit alone if it can ([`Settler::settle_near`]).
pub(super) fn settle(
    nav: Option<Res<NavGrid>>,
    crowd: Res<Crowd>,
    mut bodies: Bodies,
    fresh: Query<(), (With<Body>, Or<(Added<Body>, Changed<GridAgent>)>)>,
    mut escaped: MessageWriter<AgentEscaped>,
    mut settled: Local<Settled>,
    mut settler: Local<Settler>,
) {
    let Some(nav) = nav else {
        return;
    };
    let seen = settled.revision;
    let Some(new) = settled.look(&nav, !fresh.is_empty(), &bodies) else {
        return;
    };
    let grid = nav.grid();
    let mut by_size = GridsBySize::new(&nav);
    let grid_for = &mut |k| by_size.get(k);
    let (entities, standing): (Vec<Entity>, Vec<Standing>) = standing(&bodies).unzip();
    let boxes = seen
        .filter(|_| !new)
        .and_then(|seen| nav.changed_boxes_since(seen));
    let near = boxes.and_then(|boxes| settler.settle_near(grid, grid_for, &standing, &boxes));
    let moves = near.unwrap_or_else(|| settler.settle(grid, grid_for, &standing, new));
    for (i, to) in moves {
        if let Ok((entity, _, mut progress, mut motion)) = bodies.get_mut(entities[i]) {
            let from = progress.cell();
            progress.jump_to(to);
            motion.from = centre(to);
            motion.duration = 0.0;
            motion.started = crowd.clock;
            escaped.write_batch(escape(grid, entity, from, to));
        }
    }
}

/// The message for a body moved from `from` to `to`, if it was on a wall.
fn escape(grid: &Grid, agent: Entity, from: Point, to: Point) -> Option<AgentEscaped> {
    (!grid.is_passable(from)).then_some(AgentEscaped { agent, from, to })
}
