//! The crowd's frame: the ticks that are due, then every body's glide, status and counts.

use super::body::{Body, BodyData, BodyDataItem};
use super::clock::Crowd;
use super::tick::{Ticked, plan_ahead, tick_once};
use crate::agent::AgentStatus;
use crate::nav_grid::{GridsBySize, NavGrid};
use crate::off_frame::SearchThread;
#[cfg(feature = "diagnostics")]
use bevy::platform::time::Instant;
use bevy::prelude::*;
use gridpath::mapf::crowd::{CrowdClock, CrowdStats, FrameBody, RouteLeft};

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
    let fastest = bodies.iter().map(|b| b.agent.speed).fold(0.0f32, f32::max);
    let tick = CrowdClock::tick_length(crowd.tick, fastest);
    crowd.clock.frame(time.delta_secs(), tick);
    // Room made first: grown as it fills, 10,000 items were copied over a dozen times.
    let mut order = Vec::with_capacity(bodies.iter().len());
    order.extend(bodies.iter_mut().filter(|b| b.progress.placed()));
    // The next tick's step is planned off the frame shortly before it (checked again after
    // this frame's ticks, which move the next one on).
    let ahead = crowd.plan_ahead && crowd.planned.is_none() && crowd.clock.plans_ahead(tick);
    // The items stay in the tables' order, for the glide; a tick reads them in the entities'
    // order through references (`Ticked`: moving the items took 2 ms at 10,000 bodies).
    if crowd.clock.is_due() || ahead {
        let mut ticked = Ticked::new(&mut order, &nav, *thread);
        while crowd.clock.is_due() {
            tick_once(crowd, &nav, tick, &mut ticked);
            crowd.clock.ticked(tick);
        }
        if ahead && crowd.planned.is_none() && crowd.clock.plans_ahead(tick) {
            plan_ahead(crowd, &nav, tick, &mut ticked);
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
    let now = crowd.clock.now;
    let mut stats = CrowdStats::default();
    let mut frame = Vec::with_capacity(order.len());
    for b in order.iter_mut() {
        let (target, agent, route, asking) = (b.target(), b.agent, b.route, b.asking);
        // Its glide to its cell's centre, at its pace: how far along (0 to 1), and where.
        let t = b.motion.glide.glided(now);
        let at: Vec2 = b.motion.glide.drawn_at(b.progress.cell(), now).into();
        b.progress.set_position(at);
        let world = nav.layout().cells_to_world(at + agent.centre_offset());
        if b.transform.translation.truncate() != world {
            (b.transform.translation.x, b.transform.translation.y) = (world.x, world.y);
        }
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
