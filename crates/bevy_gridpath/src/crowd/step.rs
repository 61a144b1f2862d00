//! The crowd's frame: the ticks that are due, then every body's glide, status and counts.

use super::body::{Body, BodyData, BodyDataItem};
use super::clock::{Crowd, CrowdStats};
use super::motion::BodyMotion;
use super::tick::{Ticked, plan_ahead, tick_once};
use crate::agent::{AgentProgress, AgentStatus, GridAgent};
use crate::nav_grid::{GridsBySize, NavGrid};
use crate::off_frame::SearchThread;
#[cfg(feature = "diagnostics")]
use bevy::platform::time::Instant;
use bevy::prelude::*;
use gridpath::mapf::crowd::{FrameBody, RouteLeft};

/// How long before its tick a step is planned off the frame, in ticks ([`Crowd::plan_ahead`]).
/// Later, and the plan reads fresher routes (those that bodies pushed at the last tick asked
/// for); earlier, and it has longer to finish before the tick waits for it.
const PLAN_LEAD: f32 = 0.25;

/// Ticks the crowd (one PIBT step at each tick that is due), then glides every body and sets its
/// status.
pub(super) fn step(
    time: Res<Time>,
    nav: Option<Res<NavGrid>>,
    thread: Res<SearchThread>,
    mut crowd: ResMut<Crowd>,
    mut bodies: Query<BodyData, With<Body>>,
) {
    let Some(nav) = nav else {
        return;
    };
    #[cfg(feature = "diagnostics")]
    let began = Instant::now();
    let crowd = &mut *crowd;
    crowd.clock += time.delta_secs();
    let fastest = bodies.iter().map(|b| b.agent.speed).fold(0.0f32, f32::max);
    let tick = crowd
        .tick
        .unwrap_or(1.0 / fastest.max(1e-3))
        .clamp(1.0 / 120.0, 10.0);
    // Room made first: grown as it fills, 10,000 items were copied over a dozen times.
    let mut order = Vec::with_capacity(bodies.iter().len());
    order.extend(bodies.iter_mut().filter(|b| b.progress.placed()));
    // A long frame runs a few ticks, not hundreds: the crowd slows down rather than stalls.
    if crowd.due > crowd.clock + tick || crowd.clock - crowd.due > 4.0 * tick {
        crowd.due = crowd.clock;
    }
    // The next tick's step is planned off the frame once only `PLAN_LEAD` of a tick is left
    // before it (checked again after this frame's ticks, which move the next one on).
    let ahead =
        crowd.plan_ahead && crowd.planned.is_none() && crowd.due - tick * PLAN_LEAD <= crowd.clock;
    // A tick's order is the entities', whatever order the query's tables are in. The items
    // stay where they are, in the tables' order, for the glide (read in the entities' order,
    // they miss the cache: 3 ms instead of 1 at 10,000 bodies); the tick reads them through
    // references (moving the items took 2 ms, a memory copy of a dozen references each).
    if crowd.due <= crowd.clock || ahead {
        let mut ticked = Ticked::new(&mut order);
        while crowd.due <= crowd.clock {
            tick_once(crowd, &nav, *thread, tick, &mut ticked);
            crowd.due += tick;
            crowd.ticks += 1;
        }
        if ahead && crowd.planned.is_none() && crowd.due - tick * PLAN_LEAD <= crowd.clock {
            plan_ahead(crowd, &nav, *thread, tick, &mut ticked);
        }
    }
    crowd.stats = CrowdStats {
        untangled: crowd.runtime.untangler.untangled(),
        ..glide_and_count(crowd, &nav, &mut order)
    };
    #[cfg(feature = "diagnostics")]
    {
        crowd.step_micros = began.elapsed().as_secs_f64() * 1e6;
    }
}

/// Glides every body, sets its status, and counts the crowd: its progress and the deadlocked
/// are noted and counted by the core ([`CrowdRuntime::note_frame`]).
///
/// [`CrowdRuntime::note_frame`]: gridpath::mapf::crowd::CrowdRuntime::note_frame
fn glide_and_count(crowd: &Crowd, nav: &NavGrid, order: &mut [BodyDataItem<'_, '_>]) -> CrowdStats {
    let now = crowd.clock;
    let mut stats = CrowdStats::default();
    let mut frame = Vec::with_capacity(order.len());
    for b in order.iter_mut() {
        let (target, agent, route, asking) = (b.target(), b.agent, b.route, b.asking);
        let t = glide(
            &b.motion,
            &mut b.progress,
            &mut b.transform,
            agent,
            nav,
            now,
        );
        let (progress, status) = (&b.progress, &mut b.status);
        // Progress: fewer cells left to walk than ever since it was sent there. Only a route to
        // where it goes now counts, and not while it is being replaced.
        let left = match (target, route) {
            (Some(target), Some(route))
                if **status != AgentStatus::Stuck && route.request.to == target && !asking =>
            {
                let on = (route.request.from, route.revision);
                progress
                    .left_on(route)
                    .map_or(RouteLeft::Off, |d| RouteLeft::Cells(d as u32, on))
            }
            _ => RouteLeft::None,
        };
        // Arrived once it stands there, not while it glides in.
        let home = target == Some(progress.cell());
        let arrived = home && t >= 1.0;
        let new = match **status {
            _ if arrived => AgentStatus::Arrived,
            AgentStatus::Stuck if route.is_none() => AgentStatus::Stuck,
            _ if route.is_some() => AgentStatus::Walking,
            _ => AgentStatus::Waiting,
        };
        if **status != new {
            **status = new;
        }
        stats.bodies += 1;
        match new {
            AgentStatus::Arrived => stats.arrived += 1,
            AgentStatus::Stuck => stats.stuck += 1,
            _ if t < 1.0 => stats.moving += 1,
            _ => stats.waiting += 1,
        }
        frame.push(FrameBody {
            key: b.entity.to_bits(),
            at: progress.cell(),
            size: agent.size,
            movement: agent.movement,
            target,
            left,
            home,
            arrived,
            aim: progress.aiming_at(route),
        });
    }
    let mut states: Vec<_> = order.iter_mut().map(|b| &mut b.motion.state).collect();
    let mut by_size = GridsBySize::new(nav);
    let grid_for = &mut |size| by_size.get(size);
    stats.deadlocked = crowd.runtime.note_frame(&frame, &mut states, grid_for, now);
    stats
}

/// A body's glide from where it was to its cell's centre, at its pace: how far along (0 to 1).
fn glide(
    motion: &BodyMotion,
    progress: &mut AgentProgress,
    transform: &mut Transform,
    agent: &GridAgent,
    nav: &NavGrid,
    now: f32,
) -> f32 {
    let t = motion.glide.glided(now);
    let at = motion.drawn_at(progress.cell(), now);
    progress.set_position(at);
    let world = nav.layout().cells_to_world(at + agent.centre_offset());
    if transform.translation.truncate() != world {
        transform.translation.x = world.x;
        transform.translation.y = world.y;
    }
    t
}
