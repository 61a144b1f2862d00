//! One tick: one PIBT step ([`gridpath::mapf::CrowdStep`]) of every body that has earned a move.

use super::ahead::{PlannedFrom, StepInput, StepOutput, TickPlan, hold_what_no_longer_fits};
use super::settle::covers;
use super::untangle::{hold, look_for_jams, reserve, walk};
use super::{BodyItem, Crowd};
use crate::agents::{centre, ground_cost};
use crate::nav_grid::NavGrid;
use crate::off_frame::SearchThread;
use bevy::prelude::*;
use gridpath::mapf::crowd::detour;
use gridpath::mapf::{CrowdStep, Mover};
use gridpath::{Grid, Point};
use std::sync::Arc;

/// Seconds without getting nearer after which a body bigger than one cell looks for a way round
/// the bodies in its way ([`detour`]).
const DETOUR_SECONDS: f32 = 1.0;

/// The same for a body of one cell, which PIBT's pushes serve well: in a queue at a door, bodies
/// that look for ways round too soon swirl about instead of filing through.
const DETOUR_SECONDS_ONE_CELL: f32 = 4.0;

/// One PIBT step of every body that has earned a move: the step planned ahead for it if there is
/// one ([`plan_ahead`]), else planned now.
pub(super) fn tick_once(
    crowd: &mut Crowd,
    nav: &NavGrid,
    thread: SearchThread,
    tick: f32,
    order: &mut [&mut BodyItem<'_>],
) {
    let picked = crowd.planned.take().and_then(TickPlan::wait);
    let picked = picked.or_else(|| {
        let (from, input) = prepare(crowd, nav, thread, tick, order)?;
        TickPlan::start(SearchThread::Frame, from, input).wait()
    });
    if let Some((plan, output)) = picked {
        finish(crowd, nav, order, plan, output);
    }
}

/// Starts planning the next tick's step off the frame (see [`Crowd::plan_ahead`]).
pub(super) fn plan_ahead(
    crowd: &mut Crowd,
    nav: &NavGrid,
    thread: SearchThread,
    tick: f32,
    order: &mut [&mut BodyItem<'_>],
) {
    if let Some((from, input)) = prepare(crowd, nav, thread, tick, order) {
        crowd.planned = Some(TickPlan::start(thread, from, input));
    }
}

/// Who stands where and the jam's held bodies, and what the core step needs.
type Prepared = (PlannedFrom, StepInput);

/// Everything of a tick but the core step: each body's mover and aim, the ways round for the
/// stalled, and the jam's bodies held and its region closed.
fn prepare(
    crowd: &mut Crowd,
    nav: &NavGrid,
    thread: SearchThread,
    tick: f32,
    order: &mut [&mut BodyItem<'_>],
) -> Option<Prepared> {
    let movement = order.first().map(|b| b.1.movement)?;
    let largest = order.iter().map(|b| b.1.size).max().unwrap_or(1).max(1);
    let sized: Vec<Arc<Grid>> = (1..=largest).map(|k| nav.grid_for(k)).collect();
    let grids: Vec<&Grid> = sized.iter().map(|g| &**g).collect();
    let for_size = |size: u8| grids[usize::from(size.max(1)) - 1];
    // Each body's mover, and its guide: the next cell of its route (without a route, its own
    // cell is best: it moves only when pushed). Read in the tables' order, where the bodies'
    // components lie one after another (in the entities' order, every read missed the cache).
    let mut movers = vec![Mover::new(Point::new(0, 0), 0); order.len()];
    let mut aims: Vec<(Point, Option<Point>)> = vec![(Point::new(0, 0), None); order.len()];
    for i in in_tables_order(order) {
        let b = &mut *order[i];
        let grid = for_size(b.1.size);
        movers[i] = mover(b, grid, tick);
        aims[i] = (b.2.cell(), b.6.and_then(|r| b.2.aim(r, grid, movement)));
    }
    detour_the_stalled(crowd, &grids, movement, order, &movers, &mut aims);
    look_for_jams(crowd, &sized[0], order, thread);
    let held = hold(crowd, order, &mut movers);
    if held.is_some() {
        reserve(crowd, order, &mut movers);
    }
    let held = held.map(|(bodies, ready)| (bodies.iter().map(|&i| order[i].0).collect(), ready));
    let bodies = order.iter().map(|b| (b.0, b.2.cell())).collect();
    let step = std::mem::replace(&mut crowd.step, CrowdStep::new(0));
    let input = StepInput {
        step,
        grids: sized,
        movement,
        movers,
        aims,
    };
    Some((PlannedFrom { bodies, held }, input))
}

/// Takes a step's moves: each body that still stands where the step found it gets its next
/// cell, the jam's bodies walk on along their plan, any move that no longer fits holds
/// ([`hold_what_no_longer_fits`]), and every body that moves starts its glide.
fn finish(
    crowd: &mut Crowd,
    nav: &NavGrid,
    order: &mut [&mut BodyItem<'_>],
    plan: PlannedFrom,
    output: StepOutput,
) {
    crowd.step = output.step;
    // Read and written in the tables' order, as in `prepare`.
    let by_place = in_tables_order(order);
    let mut cells = vec![Point::new(0, 0); order.len()];
    for &i in &by_place {
        cells[i] = order[i].2.cell();
    }
    let mut next = cells.clone();
    let mut movers: Vec<Option<Mover>> = vec![None; order.len()];
    let mut unchanged = plan.bodies.len() == order.len();
    for (i, b) in order.iter().enumerate() {
        let k = match plan.bodies.get(i) {
            Some(&(e, _)) if e == b.0 => Some(i),
            _ => plan.bodies.binary_search_by_key(&b.0, |p| p.0).ok(),
        };
        let Some(k) = k else {
            unchanged = false; // came since
            continue;
        };
        movers[i] = output.movers.get(k).copied();
        if plan.bodies[k].1 == cells[i] {
            next[i] = output.next.get(k).copied().unwrap_or(cells[i]);
        } else {
            unchanged = false; // moved since: it holds
        }
    }
    if let Some((held, ready)) = &plan.held {
        let held: Option<Vec<usize>> = held
            .iter()
            .map(|e| order.binary_search_by_key(e, |b| b.0).ok())
            .collect();
        if let Some(held) = held {
            walk(crowd, order, &held, *ready, &mut next);
        }
    }
    let largest = order.iter().map(|b| b.1.size).max().unwrap_or(1).max(1);
    let sized: Vec<Arc<Grid>> = (1..=largest).map(|k| nav.grid_for(k)).collect();
    let sizes: Vec<u8> = order.iter().map(|b| b.1.size.max(1)).collect();
    let counts = &mut crowd.counts;
    hold_what_no_longer_fits(&sized, &cells, &sizes, &mut next, unchanged, counts);
    let movement = order.first().map(|b| b.1.movement);
    for i in by_place {
        let (mover, to) = (movers[i], next[i]);
        let (_, agent, progress, _, motion, _, route, ..) = &mut *order[i];
        let here = progress.cell();
        if let (true, Some(movement)) = (to != here, movement) {
            let grid = &sized[usize::from(agent.size.max(1)) - 1];
            let cost = ground_cost(grid, here);
            let length = nav.layout().moves_between(centre(here), centre(to));
            motion.from = progress.position().unwrap_or(centre(here));
            motion.started = crowd.clock;
            motion.duration = length * cost / agent.speed.max(1e-3);
            motion.credit -= 1.0;
            progress.step_to(to, *route, grid, movement);
        }
        if mover.is_some() {
            motion.mover = mover;
        }
    }
}

/// The indices of `order` in the order its items lie in memory: the query's tables' order.
fn in_tables_order(order: &[&mut BodyItem<'_>]) -> Vec<usize> {
    let mut by_place: Vec<usize> = (0..order.len()).collect();
    by_place.sort_unstable_by_key(|&i| std::ptr::from_ref::<BodyItem<'_>>(&*order[i]) as usize);
    by_place
}

/// A body as PIBT sees it at this tick, having earned `tick`'s worth of a move at its pace on
/// its ground (`grid`, its size's).
fn mover(b: &mut BodyItem<'_>, grid: &Grid, tick: f32) -> Mover {
    let (entity, agent, progress, _, motion, _, route, destination, gathering, _) = b;
    let here = progress.cell();
    let cost = ground_cost(grid, here);
    motion.credit = (motion.credit + tick * agent.speed.max(0.0) / cost).min(1.0);
    let target = gathering.map(|g| g.0).or(destination.map(|d| d.0));
    let mut mover = motion
        .mover
        .unwrap_or_else(|| Mover::new(here, entity.to_bits()));
    mover.at = here;
    mover.size = agent.size.max(1);
    mover.free = motion.credit >= 1.0 - 1e-4;
    mover.arrived = target.is_none_or(|t| t == here) || route.is_none();
    mover.goal = target.filter(|_| route.is_some());
    mover
}

/// A body that has got no nearer for a while heads round the bodies in its way instead of for
/// its route's next cell ([`detour`]).
fn detour_the_stalled(
    crowd: &mut Crowd,
    grids: &[&Grid],
    movement: gridpath::Movement,
    order: &[&mut BodyItem<'_>],
    movers: &[Mover],
    aims: &mut [(Point, Option<Point>)],
) {
    let now = crowd.clock;
    let stalled: Vec<usize> = (0..order.len())
        .filter(|&i| {
            let wait = if order[i].1.size > 1 {
                DETOUR_SECONDS
            } else {
                DETOUR_SECONDS_ONE_CELL
            };
            aims[i].1.is_some() && order[i].4.stalled_for(now) > wait
        })
        .collect();
    if stalled.is_empty() {
        return;
    }
    // Bodies on their way are in the way; those that have arrived can be pushed aside. Which
    // cells they cover, on a grid-sized table of bits kept between ticks (hashing the
    // footprints of thousands of bodies at every tick cost more than the detours).
    let covered = &mut crowd.covered;
    covered.clear();
    covered.resize(grids[0].len().div_ceil(64), 0);
    for i in (0..order.len()).filter(|&i| !movers[i].arrived) {
        for c in covers(grids[0], order[i].2.cell(), order[i].1.size) {
            covered[c / 64] |= 1 << (c % 64);
        }
    }
    for i in stalled {
        let (here, Some(aim)) = aims[i] else { continue };
        let size = order[i].1.size.max(1);
        let sized = grids[usize::from(size) - 1];
        if let Some(step) = detour(sized, movement, covered, here, size, aim, true) {
            aims[i].1 = Some(step);
        }
    }
}
