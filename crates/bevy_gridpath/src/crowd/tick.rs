//! One tick: one guided PIBT step of every body that has earned a move
//! ([`gridpath::mapf::crowd::CrowdRuntime`]), the bodies read into its records and their moves
//! written back as glides.

use super::ahead::TickPlan;
use super::body::BodyDataItem;
use super::clock::Crowd;
use super::untangle::{jam_body, look_for_jams};
use crate::agent::{centre, ground_cost};
use crate::nav_grid::NavGrid;
use crate::off_frame::SearchThread;
use bevy::prelude::*;
use gridpath::lifelong::BodyGuides;
use gridpath::mapf::Mover;
use gridpath::mapf::crowd::{
    BodyAtTick, CrowdWays, Planned, Standing, StepInput, StepOutput, TickBody,
};
use gridpath::{Grid, Point};
use std::sync::Arc;

/// One PIBT step of every body that has earned a move: the step planned ahead for it if there is
/// one ([`plan_ahead`]), else planned now.
pub(super) fn tick_once(
    crowd: &mut Crowd,
    nav: &NavGrid,
    thread: SearchThread,
    tick: f32,
    ticked: &mut Ticked<'_, '_, '_>,
) {
    let picked = crowd.planned.take().and_then(TickPlan::wait);
    let picked = picked.or_else(|| {
        let (from, input) = prepare(crowd, nav, thread, tick, ticked)?;
        TickPlan::start(SearchThread::Frame, from, input).wait()
    });
    if let Some((plan, output)) = picked {
        finish(crowd, nav, tick, ticked, plan, output);
    }
}

/// Starts planning the next tick's step off the frame (see [`Crowd::plan_ahead`]).
pub(super) fn plan_ahead(
    crowd: &mut Crowd,
    nav: &NavGrid,
    thread: SearchThread,
    tick: f32,
    ticked: &mut Ticked<'_, '_, '_>,
) {
    if let Some((from, input)) = prepare(crowd, nav, thread, tick, ticked) {
        crowd.planned = Some(TickPlan::start(thread, from, input));
    }
}

/// The grid for each size from 1 to `largest`.
fn grids(nav: &NavGrid, largest: u8) -> Vec<Arc<Grid>> {
    (1..=largest).map(|k| nav.grid_for(k)).collect()
}

/// Everything of a tick but the core step ([`CrowdRuntime::prepare`]), each body read into its
/// mover and record in the tables' order, where the bodies' components lie one after another
/// (in the entities' order, every read missed the cache).
///
/// [`CrowdRuntime::prepare`]: gridpath::mapf::crowd::CrowdRuntime::prepare
fn prepare(
    crowd: &mut Crowd,
    nav: &NavGrid,
    thread: SearchThread,
    tick: f32,
    ticked: &mut Ticked<'_, '_, '_>,
) -> Option<(Planned, StepInput)> {
    let (order, by_place) = (&mut ticked.bodies, &ticked.by_place);
    let movement = order.first().map(|b| b.agent.movement)?;
    let sized = grids(nav, ticked.largest);
    let mut movers = vec![Mover::new(Point::new(0, 0), 0); order.len()];
    let mut bodies = vec![TickBody::default(); order.len()];
    for &i in by_place.iter() {
        let b = &mut *order[i];
        let grid = &sized[usize::from(b.agent.size.max(1)) - 1];
        movers[i] = mover(b, grid, crowd.ways, (tick, crowd.clock));
        bodies[i] = TickBody {
            jam: jam_body(b, crowd.clock),
            aim: b.route.and_then(|r| b.progress.aim(r, grid, movement)),
            stalled: b.motion.state.stalled_for(crowd.clock),
        };
    }
    look_for_jams(crowd, &sized[0], &bodies, thread);
    let runtime = &mut crowd.runtime;
    (runtime.guidance, runtime.ways) = (crowd.guidance, crowd.ways);
    if let Some(guided) = runtime.guided()
        && crowd.ways == CrowdWays::GuidePaths
        && !guided.has_guides()
    {
        guided.guide_by(Box::new(BodyGuides::default()));
    }
    let revision = nav.revision();
    let prepared = runtime.prepare(&bodies, movers, (sized, revision), movement, crowd.clock);
    if !crowd.runtime.untangler.searching() {
        crowd.jam_search = None; // a jam dropped: dropping its search cancels it
    }
    Some(prepared)
}

/// Takes a step's moves ([`CrowdRuntime::finish`]), and every body that moves starts its glide.
///
/// [`CrowdRuntime::finish`]: gridpath::mapf::crowd::CrowdRuntime::finish
fn finish(
    crowd: &mut Crowd,
    nav: &NavGrid,
    tick: f32,
    ticked: &mut Ticked<'_, '_, '_>,
    plan: Planned,
    output: StepOutput,
) {
    // Read and written in the tables' order, as in `prepare`.
    let (order, by_place) = (&mut ticked.bodies, &ticked.by_place);
    let mut standing = vec![Standing::default(); order.len()];
    for &i in by_place.iter() {
        let (at, size) = (order[i].progress.cell(), order[i].agent.size);
        let key = ticked.entities[i].to_bits();
        standing[i] = Standing { key, at, size };
    }
    let sized = grids(nav, ticked.largest);
    let grids: Vec<&Grid> = sized.iter().map(|g| &**g).collect();
    let moves = crowd
        .runtime
        .finish(plan, output, &standing, &grids, crowd.clock);
    let movement = order.first().map(|b| b.agent.movement);
    for &i in by_place.iter() {
        let (to, mover) = moves[i];
        let b = &mut *order[i];
        let (agent, route, progress, motion) = (b.agent, b.route, &mut b.progress, &mut b.motion);
        let here = progress.cell();
        if let (true, Some(movement)) = (to != here, movement) {
            let grid = &sized[usize::from(agent.size.max(1)) - 1];
            let length = nav.layout().moves_between(centre(here), centre(to));
            motion.glide((here, to), (length, agent.speed), grid, (crowd.due, tick));
            progress.step_to(to, route, grid, movement);
        }
        if mover.is_some() {
            motion.state.mover = mover;
        }
    }
}

/// The bodies in the entities' order, which a tick follows whatever order the query's tables
/// are in, and the way back to the tables' order, in which the passes over every body read
/// them: there their components lie one after another, while in the entities' order every read
/// missed the cache.
pub(super) struct Ticked<'o, 'w, 's> {
    pub(super) bodies: Vec<&'o mut BodyDataItem<'w, 's>>,
    /// Their entities, in the same order (read here, not through the items: no cache miss).
    pub(super) entities: Vec<Entity>,
    /// The indices of `bodies` in the order their items lie in memory.
    pub(super) by_place: Vec<usize>,
    /// The largest of their sizes (at least 1).
    pub(super) largest: u8,
}

impl<'o, 'w, 's> Ticked<'o, 'w, 's> {
    /// `order` is in the tables' order, as the query gave it.
    pub(super) fn new(order: &'o mut [BodyDataItem<'w, 's>]) -> Self {
        // Sorted as (entity, place) pairs, not through the items: one cache miss fewer for
        // each comparison.
        let mut keys: Vec<(Entity, usize)> = order
            .iter()
            .enumerate()
            .map(|(at, b)| (b.entity, at))
            .collect();
        keys.sort_unstable();
        let mut by_place = vec![0; keys.len()];
        for (i, &(_, at)) in keys.iter().enumerate() {
            by_place[at] = i;
        }
        let largest = order.iter().map(|b| b.agent.size.max(1)).max().unwrap_or(1);
        let mut slots: Vec<Option<&'o mut BodyDataItem<'w, 's>>> =
            order.iter_mut().map(Some).collect();
        let bodies = keys
            .iter()
            .filter_map(|&(_, at)| slots[at].take())
            .collect();
        let entities = keys.iter().map(|&(e, _)| e).collect();
        Self {
            bodies,
            entities,
            by_place,
            largest,
        }
    }
}

/// A body as PIBT sees it at this tick (at `now` on the crowd's clock), having earned `tick`'s
/// worth of a move at its pace on its ground (`grid`, its size's).
fn mover(
    b: &mut BodyDataItem<'_, '_>,
    grid: &Grid,
    ways: CrowdWays,
    (tick, now): (f32, f32),
) -> Mover {
    let here = b.progress.cell();
    let body = BodyAtTick {
        key: b.entity.to_bits(),
        at: here,
        size: b.agent.size,
        movement: b.agent.movement,
        speed: b.agent.speed,
        cost: ground_cost(grid, here),
        target: b.target(),
        routed: b.route.is_some(),
        asking: b.asking,
    };
    b.motion.state.mover(&body, ways, (tick, now))
}
