//! One tick: one guided PIBT step of every body that has earned a move, the bodies read into the
//! core's records ([`CrowdRuntime`]) in the tables' order and their moves written back as glides;
//! and jams PIBT cannot undo, solved whole (`Untangler`), their search run off the frame.
//!
//! [`CrowdRuntime`]: gridpath::mapf::crowd::CrowdRuntime

use super::ahead::TickPlan;
use super::body::{BodyDataItem, BodyMotion};
use super::clock::Crowd;
use crate::agent::{centre, ground_cost};
use crate::nav_grid::NavGrid;
use crate::off_frame::{Pending, SearchThread};
use bevy::prelude::*;
use gridpath::Grid;
use gridpath::lifelong::BodyGuides;
use gridpath::mapf::Mover;
use gridpath::mapf::crowd::{BodyAtTick, CrowdWays, KeyOrder, Planned, Standing};
use gridpath::mapf::crowd::{JamBody, StepInput, StepOutput, TickBody};
use std::sync::Arc;

/// One step of every body that has earned a move: the one planned ahead if there is one
/// ([`plan_ahead`]), else planned now.
pub(super) fn tick_once(crowd: &mut Crowd, nav: &NavGrid, tick: f32, ticked: &mut Ticked) {
    let picked = crowd.planned.take().and_then(TickPlan::wait);
    let picked = picked.or_else(|| {
        let (from, input) = prepare(crowd, nav, tick, ticked)?;
        TickPlan::start(SearchThread::Frame, from, input).wait()
    });
    if let Some((plan, output)) = picked {
        finish(crowd, nav, tick, ticked, plan, output);
    }
}

/// Starts planning the next tick's step off the frame ([`Crowd::plan_ahead`]).
pub(super) fn plan_ahead(crowd: &mut Crowd, nav: &NavGrid, tick: f32, ticked: &mut Ticked) {
    if let Some((from, input)) = prepare(crowd, nav, tick, ticked) {
        crowd.planned = Some(TickPlan::start(ticked.thread, from, input));
    }
}

/// Everything of a tick but the core step (`CrowdRuntime::prepare`): each body read into its
/// mover and record.
fn prepare(
    crowd: &mut Crowd,
    nav: &NavGrid,
    tick: f32,
    ticked: &mut Ticked,
) -> Option<(Planned, StepInput)> {
    let now = crowd.clock.now;
    let movement = ticked.bodies.first().map(|b| b.agent.movement)?;
    let mut movers = vec![Mover::new(default(), 0); ticked.bodies.len()];
    let mut bodies = vec![TickBody::default(); ticked.bodies.len()];
    for &i in &ticked.order.by_place {
        let b = &mut *ticked.bodies[i];
        let grid = &ticked.grids[usize::from(b.agent.size.max(1)) - 1];
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
        movers[i] = b.motion.state.mover(&body, crowd.ways, (tick, now));
        // As the untangler reads it: plans move bodies 4-way, by their cells' indices.
        let plannable = b.route.is_some() && b.agent.movement.unstaggered().is_none();
        let jam = JamBody {
            key: body.key,
            at: here,
            size: b.agent.size,
            moves: b.agent.speed > 0.0,
            target: body.target,
            circling: plannable.then(|| b.motion.state.nearness.circling_for(now, b.agent.size)),
        };
        let aim = b.route.and_then(|r| b.progress.aim(r, grid, movement));
        let stalled = b.motion.state.stalled_for(now);
        bodies[i] = TickBody { jam, aim, stalled };
    }
    look_for_jams(crowd, &ticked.grids[0], &bodies, ticked.thread);
    let runtime = &mut crowd.runtime;
    (runtime.guidance, runtime.ways) = (crowd.guidance, crowd.ways);
    if let Some(guided) = runtime.guided().filter(|g| !g.has_guides())
        && crowd.ways == CrowdWays::GuidePaths
    {
        guided.guide_by(Box::new(BodyGuides::default()));
    }
    let grids = (ticked.grids.clone(), nav.revision());
    let prepared = runtime.prepare(&bodies, movers, grids, movement, now);
    if !crowd.runtime.untangler.searching() {
        crowd.jam_search = None; // a jam dropped: dropping its search cancels it
    }
    Some(prepared)
}

/// Takes a step's moves (`CrowdRuntime::finish`), and every body that moves starts its glide.
fn finish(
    crowd: &mut Crowd,
    nav: &NavGrid,
    tick: f32,
    ticked: &mut Ticked,
    plan: Planned,
    output: StepOutput,
) {
    let mut standing = vec![Standing::default(); ticked.bodies.len()];
    for &i in &ticked.order.by_place {
        let b = &ticked.bodies[i];
        let (key, at, size) = (ticked.order.keys[i], b.progress.cell(), b.agent.size);
        standing[i] = Standing { key, at, size };
    }
    let grids: Vec<&Grid> = ticked.grids.iter().map(|g| &**g).collect();
    let now = crowd.clock.now;
    let moves = crowd.runtime.finish(plan, output, &standing, &grids, now);
    let Some(movement) = ticked.bodies.first().map(|b| b.agent.movement) else {
        return;
    };
    for &i in &ticked.order.by_place {
        let (to, mover) = moves[i];
        let b = &mut *ticked.bodies[i];
        let (agent, route, progress, motion) = (b.agent, b.route, &mut b.progress, &mut b.motion);
        let here = progress.cell();
        if to != here {
            let grid = grids[usize::from(agent.size.max(1)) - 1];
            let length = nav.layout().moves_between(centre(here), centre(to));
            let costs = (ground_cost(grid, here), ground_cost(grid, to));
            let (moving, due) = ((length, agent.speed), (crowd.clock.due, tick));
            let BodyMotion { glide, state } = &mut **motion;
            glide.start(state, here, moving, costs, due);
            progress.step_to(to, route, grid, movement);
        }
        if mover.is_some() {
            motion.state.mover = mover;
        }
    }
}

/// The bodies in the entities' order, which a tick follows, read where they lie ([`KeyOrder`]);
/// the grid for each size from 1 to the largest, and where to plan.
pub(super) struct Ticked<'o, 'w, 's> {
    bodies: Vec<&'o mut BodyDataItem<'w, 's>>,
    order: KeyOrder,
    grids: Vec<Arc<Grid>>,
    thread: SearchThread,
}

impl<'o, 'w, 's> Ticked<'o, 'w, 's> {
    /// `items` is in the tables' order, as the query gave it.
    pub(super) fn new(
        items: &'o mut [BodyDataItem<'w, 's>],
        nav: &NavGrid,
        thread: SearchThread,
    ) -> Self {
        let order = KeyOrder::new(items.iter().map(|b| b.entity.to_bits()));
        let largest = items.iter().map(|b| b.agent.size.max(1)).max().unwrap_or(1);
        Self {
            bodies: order.arrange(items),
            order,
            grids: (1..=largest).map(|k| nav.grid_for(k)).collect(),
            thread,
        }
    }
}

/// Looks for a jam among `bodies` on `grid` ([`Crowd::untangle`]) and starts its search on
/// `thread`, and hands a search's answer to the untangler once it is done (or late).
fn look_for_jams(crowd: &mut Crowd, grid: &Arc<Grid>, bodies: &[TickBody], thread: SearchThread) {
    let (now, untangler) = (crowd.clock.now, &mut crowd.runtime.untangler);
    if crowd.untangle && untangler.looks(now) {
        let jam: Vec<JamBody> = bodies.iter().map(|b| b.jam).collect();
        if let Some(search) = untangler.look(&jam, grid, now, crowd.clock.ticks) {
            crowd.jam_search = Some(Pending::start(thread, move || search.run()));
        }
    }
    // Its answer, or none once it is late (the core says when: `SEARCH_WAIT`).
    let answer = crowd.jam_search.as_mut().and_then(Pending::take);
    let untangler = &mut crowd.runtime.untangler;
    if let Some(found) = answer.or_else(|| untangler.late(crowd.clock.ticks).then_some(None)) {
        untangler.found(found, now);
    }
}
