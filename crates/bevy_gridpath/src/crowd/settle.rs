//! Bodies stand where they fit, apart: after an edit under them, or when new.

use super::body::Body;
use super::clock::Crowd;
use super::motion::BodyMotion;
use crate::agent::{AgentEscaped, AgentProgress, GridAgent, centre};
use crate::nav_grid::{GridsBySize, NavGrid, nearest_where, nearest_within};
use bevy::prelude::*;
use gridpath::mapf::crowd::covers;
use gridpath::{Grid, Point};

/// What [`settle`] last looked at: the grid's revision, and how many bodies were placed.
#[derive(Default)]
pub(super) struct Settled {
    revision: Option<u64>,
    placed: usize,
}

impl Settled {
    /// Must the bodies be looked at, and are some new (`fresh`, or more placed)? `None`: no
    /// body can be unsettled. Notes what it saw.
    fn look(
        &mut self,
        nav: &Res<NavGrid>,
        fresh: bool,
        bodies: &Query<(Entity, &GridAgent, &mut AgentProgress, &mut BodyMotion), With<Body>>,
    ) -> Option<bool> {
        let placed = bodies
            .iter()
            .filter(|(_, _, progress, _)| progress.placed())
            .count();
        let new = nav.is_added() || fresh || placed != self.placed;
        let edited = self.revision != Some(nav.revision());
        let look = new
            || edited
                && self
                    .revision
                    .is_none_or(|seen| walled_under(nav, seen, bodies));
        *self = Settled {
            revision: Some(nav.revision()),
            placed,
        };
        look.then_some(new)
    }
}

/// Bodies stand where they fit, apart: a body on a wall (painted under it), where it no longer
/// fits, or over another body (spawned there) moves to the nearest place where it fits and
/// covers no body.
///
/// The crowd never moves a body onto a wall or another body, so only an edit or a new body can
/// unsettle one: at other frames this looks at nothing (at 10,000 bodies the look cost 1.6 ms a
/// frame, a cache miss a body), and after an edit it looks again only if a body stands on a
/// changed cell where it no longer fits, and then near the edit alone ([`Near`]) if it can.
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
    let seen = settled.revision;
    let Some(new) = settled.look(&nav, !fresh.is_empty(), &bodies) else {
        return;
    };
    let grid = nav.grid();
    let mut by_size = GridsBySize::new(&nav);
    taken.clear();
    taken.resize(grid.len().div_ceil(64), 0);
    if !new && let Some(boxes) = seen.and_then(|seen| nav.changed_boxes_since(seen)) {
        let near = Near {
            windows: boxes.iter().map(|&b| window(grid, b)).collect(),
        };
        if let Some(homes) = near.places(&nav, &mut by_size, &mut bodies, &mut taken) {
            for (entity, to) in homes {
                if let Ok((_, _, progress, motion)) = bodies.get_mut(entity) {
                    let from = progress.cell();
                    jump(progress, motion, to, crowd.clock);
                    escaped.write_batch(escape(grid, entity, from, to));
                }
            }
            return;
        }
        taken.fill(0); // none near for one: the whole crowd is settled
    }
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
    for (entity, agent, progress, motion) in homeless {
        let from = progress.cell();
        let sized = by_size.get(agent.size);
        let free = |p: Point| covers(grid, p, agent.size).all(|c| !is_taken(&taken, c));
        let Some(to) = nearest_place(grid, &sized, free, from) else {
            continue; // no room anywhere: it stays, and takes no part in the steps
        };
        covers(grid, to, agent.size).for_each(|c| taken[c / 64] |= 1 << (c % 64));
        jump(progress, motion, to, crowd.clock);
        escaped.write_batch(escape(grid, entity, from, to));
    }
}

/// The message for a body moved from `from` to `to`, if it was on a wall.
fn escape(grid: &Grid, agent: Entity, from: Point, to: Point) -> Option<AgentEscaped> {
    (!grid.is_passable(from)).then_some(AgentEscaped { agent, from, to })
}

/// Puts a body on `to` at once.
fn jump(mut progress: Mut<AgentProgress>, mut motion: Mut<BodyMotion>, to: Point, clock: f32) {
    progress.jump_to(to);
    motion.from = centre(to);
    motion.duration = 0.0;
    motion.started = clock;
}

/// How far round an edit [`Near`] looks for bodies in the way and places for the bodies it
/// walled, in cells.
const NEAR: i32 = 12;

/// The box `(low, high)` grown by [`NEAR`] cells each way, within the grid.
fn window(grid: &Grid, (low, high): (Point, Point)) -> (Point, Point) {
    let last = Point::new(grid.width() as i32 - 1, grid.height() as i32 - 1);
    (
        Point::new((low.x - NEAR).max(0), (low.y - NEAR).max(0)),
        Point::new((high.x + NEAR).min(last.x), (high.y + NEAR).min(last.y)),
    )
}

/// Settling after an edit alone, near it. No body overlaps another before it (only new bodies
/// can), so only those the edit walled need a place, and only bodies near it can be in the
/// way of one: those within [`NEAR`] cells of its boxes ([`NavGrid::changed_boxes_since`])
/// are marked, not all 10,000 (3 to 4 ms at each wall stroke), and places are looked for
/// there alone.
struct Near {
    windows: Vec<(Point, Point)>,
}

impl Near {
    /// Is the footprint of a body of `size` at `p` inside one window?
    fn holds(&self, p: Point, size: u8) -> bool {
        let k = i32::from(size.max(1)) - 1;
        self.windows.iter().any(|&(low, high)| {
            p.x >= low.x && p.y >= low.y && p.x + k <= high.x && p.y + k <= high.y
        })
    }

    /// Does the footprint of a body of `size` at `p` reach into a window?
    fn touches(&self, p: Point, size: u8) -> bool {
        let k = i32::from(size.max(1)) - 1;
        self.windows.iter().any(|&(low, high)| {
            p.x + k >= low.x && p.y + k >= low.y && p.x <= high.x && p.y <= high.y
        })
    }

    /// The place each walled body moves to, nearest first, biggest bodies first; `None` when
    /// one finds none near (the whole crowd is settled then).
    fn places(
        &self,
        nav: &NavGrid,
        by_size: &mut GridsBySize,
        bodies: &mut Query<(Entity, &GridAgent, &mut AgentProgress, &mut BodyMotion), With<Body>>,
        taken: &mut [u64],
    ) -> Option<Vec<(Entity, Point)>> {
        let grid = nav.grid();
        let mut homeless = Vec::new();
        for (entity, agent, progress, _) in bodies.iter() {
            let at = progress.cell();
            if !progress.placed() || !self.touches(at, agent.size) {
                continue;
            }
            if by_size.get(agent.size).is_passable(at) {
                covers(grid, at, agent.size).for_each(|c| taken[c / 64] |= 1 << (c % 64));
            } else {
                homeless.push((std::cmp::Reverse(agent.size), entity, at));
            }
        }
        homeless.sort_unstable();
        let mut moves = Vec::new();
        for (std::cmp::Reverse(size), entity, from) in homeless {
            let sized = by_size.get(size);
            let free = |p: Point| {
                self.holds(p, size)
                    && sized.is_passable(p)
                    && covers(grid, p, size).all(|c| taken[c / 64] & (1 << (c % 64)) == 0)
            };
            let to = nearest_within(grid, from, |p| self.holds(p, 1), free)?;
            covers(grid, to, size).for_each(|c| taken[c / 64] |= 1 << (c % 64));
            moves.push((entity, to));
        }
        Some(moves)
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
