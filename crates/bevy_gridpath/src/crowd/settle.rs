//! Bodies stand where they fit, apart: after an edit under them, or when new.

use super::{Body, BodyMotion, Crowd};
use crate::agents::{AgentEscaped, AgentProgress, GridAgent, centre};
use crate::nav_grid::{GridsBySize, NavGrid, nearest_where};
use bevy::prelude::*;
use gridpath::{Grid, Point};

/// What [`settle`] last looked at: the grid's revision, and how many bodies were placed.
#[derive(Default)]
pub(super) struct Settled {
    revision: Option<u64>,
    placed: usize,
}

/// Bodies stand where they fit, apart: a body on a wall (painted under it), where it no longer
/// fits, or over another body (spawned there) moves to the nearest place where it fits and
/// covers no body.
///
/// The crowd never moves a body onto a wall or another body, so only an edit or a new body can
/// unsettle one: at other frames this looks at nothing (at 10,000 bodies the look cost 1.6 ms a
/// frame, a cache miss a body), and after an edit it looks again only if a body stands on a
/// changed cell where it no longer fits.
pub(super) fn settle(
    nav: Option<Res<NavGrid>>,
    crowd: Res<Crowd>,
    mut bodies: Query<(Entity, &GridAgent, &mut AgentProgress, &mut BodyMotion), With<Body>>,
    fresh: Query<(), (With<Body>, Or<(Added<Body>, Changed<GridAgent>)>)>,
    mut escaped: MessageWriter<AgentEscaped>,
    mut settled: Local<Settled>,
    // Kept between frames: a fresh one on a big map is a fresh page of memory every frame.
    mut taken: Local<Vec<u64>>,
) {
    let Some(nav) = nav else {
        return;
    };
    let placed = bodies.iter().filter(|b| b.2.placed()).count();
    let new = nav.is_added() || !fresh.is_empty() || placed != settled.placed;
    let edited = settled.revision != Some(nav.revision());
    let look = new
        || edited
            && settled
                .revision
                .is_none_or(|seen| walled_under(&nav, seen, &bodies));
    *settled = Settled {
        revision: Some(nav.revision()),
        placed,
    };
    if !look {
        return;
    }
    let grid = nav.grid();
    let mut by_size = GridsBySize::new(&nav);
    taken.clear();
    taken.resize(grid.len().div_ceil(64), 0);
    let is_taken = |taken: &[u64], c: usize| taken[c / 64] & (1 << (c % 64)) != 0;
    let mut order: Vec<_> = bodies
        .iter_mut()
        .filter(|(_, _, p, _)| p.placed())
        .collect();
    // Big bodies first: they are the hardest to place. Only new bodies can overlap others:
    // after an edit alone, every body that still fits keeps its cell whatever the order, and
    // only the homeless are sorted (sorting 10,000 query items took milliseconds).
    let big_first =
        |(e, agent, ..): &(Entity, &GridAgent, _, _)| (std::cmp::Reverse(agent.size), *e);
    if new {
        order.sort_by_key(big_first);
    }
    let mut homeless = Vec::new();
    for (entity, agent, progress, motion) in order {
        let sized = by_size.get(agent.size);
        let at = progress.cell();
        if sized.is_passable(at) && covers(grid, at, agent.size).all(|c| !is_taken(&taken, c)) {
            covers(grid, at, agent.size).for_each(|c| taken[c / 64] |= 1 << (c % 64));
        } else {
            homeless.push((entity, agent, progress, motion));
        }
    }
    homeless.sort_by_key(big_first);
    for (entity, agent, mut progress, mut motion) in homeless {
        let from = progress.cell();
        let sized = by_size.get(agent.size);
        let free = |p: Point| covers(grid, p, agent.size).all(|c| !is_taken(&taken, c));
        let Some(to) = nearest_place(grid, &sized, free, from) else {
            continue; // no room anywhere: it stays, and takes no part in the steps
        };
        covers(grid, to, agent.size).for_each(|c| taken[c / 64] |= 1 << (c % 64));
        progress.jump_to(to);
        motion.from = centre(to);
        motion.duration = 0.0;
        motion.started = crowd.clock;
        if !grid.is_passable(from) {
            escaped.write(AgentEscaped {
                agent: entity,
                from,
                to,
            });
        }
    }
}

/// Does a body stand where it no longer fits, after the edits since revision `seen`? Only the
/// bodies within the edits' bounding box are looked up on the grid.
fn walled_under(
    nav: &NavGrid,
    seen: u64,
    bodies: &Query<(Entity, &GridAgent, &mut AgentProgress, &mut BodyMotion), With<Body>>,
) -> bool {
    let Some(changes) = nav.changes_since(seen) else {
        return true; // too many edits to tell
    };
    let Some((low, high)) = changes.fold(None, |b: Option<(Point, Point)>, p| {
        let (lo, hi) = b.unwrap_or((p, p));
        let low = Point::new(lo.x.min(p.x), lo.y.min(p.y));
        Some((low, Point::new(hi.x.max(p.x), hi.y.max(p.y))))
    }) else {
        return false;
    };
    let mut by_size = GridsBySize::new(nav);
    bodies.iter().any(|(_, agent, progress, _)| {
        let (at, k) = (progress.cell(), i32::from(agent.size.max(1)));
        let near = at.x + k > low.x && at.x <= high.x && at.y + k > low.y && at.y <= high.y;
        near && progress.placed() && !by_size.get(agent.size).is_passable(at)
    })
}

/// The indices of the cells a body of `size` covers from `at` (those on the grid).
pub(super) fn covers(grid: &Grid, at: Point, size: u8) -> impl Iterator<Item = usize> + '_ {
    let k = i32::from(size.max(1));
    (0..k)
        .flat_map(move |dy| (0..k).map(move |dx| Point::new(at.x + dx, at.y + dy)))
        .filter_map(|p| grid.index_of(p))
}

/// The nearest cell where a body fits (`sized`, the grid for its size) and is `free`, from
/// `from` (or the grid's first cell, if it is off the grid).
fn nearest_place(
    grid: &Grid,
    sized: &Grid,
    free: impl Fn(Point) -> bool,
    from: Point,
) -> Option<Point> {
    let start = grid.point_of(grid.index_of(from).unwrap_or(0));
    nearest_where(grid, start, |p| sized.is_passable(p) && free(p))
}
