//! One tick: one PIBT step ([`gridpath::mapf::CrowdStep`]) of every body that has earned a move.

use super::ahead::{PlannedFrom, StepInput, StepOutput, TickPlan};
use super::body::BodyDataItem;
use super::clock::Crowd;
use super::untangle::{hold_jam, jam_bodies, jam_body};
use crate::agent::{centre, ground_cost};
use crate::nav_grid::NavGrid;
use crate::off_frame::SearchThread;
use bevy::prelude::*;
use gridpath::lifelong::BodyGuides;
use gridpath::mapf::Mover;
use gridpath::mapf::crowd::{BodyAtTick, CrowdWays, Detours, GuidedStep, hold_what_no_longer_fits};
use gridpath::{Grid, Point};
use std::sync::Arc;

/// Seconds without getting nearer after which a body bigger than one cell looks for a way round
/// the bodies in its way ([`Detours`]).
const DETOUR_SECONDS: f32 = 1.0;

/// The same for a body of one cell, which PIBT's pushes serve well: in a queue at a door, bodies
/// that look for ways round too soon swirl about instead of filing through.
const DETOUR_SECONDS_ONE_CELL: f32 = 4.0;

/// How long a body of `size` waits before it looks for a way round.
fn patience(size: u8) -> f32 {
    if size > 1 {
        DETOUR_SECONDS
    } else {
        DETOUR_SECONDS_ONE_CELL
    }
}

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

/// Who stands where and the jam's held bodies, and what the core step needs.
type Prepared = (PlannedFrom, StepInput);

/// Everything of a tick but the core step: each body's mover and aim, the ways round for the
/// stalled, and the jam's bodies held and its region closed.
fn prepare(
    crowd: &mut Crowd,
    nav: &NavGrid,
    thread: SearchThread,
    tick: f32,
    ticked: &mut Ticked<'_, '_, '_>,
) -> Option<Prepared> {
    let Ticked {
        bodies: order,
        entities,
        by_place,
        largest,
        ..
    } = ticked;
    let movement = order.first().map(|b| b.agent.movement)?;
    let largest = *largest;
    let sized: Vec<Arc<Grid>> = (1..=largest).map(|k| nav.grid_for(k)).collect();
    let grids: Vec<&Grid> = sized.iter().map(|g| &**g).collect();
    let for_size = |size: u8| grids[usize::from(size.max(1)) - 1];
    // Each body's mover, and its guide: the next cell of its route (without a route, its own
    // cell is best: it moves only when pushed). Read in the tables' order, where the bodies'
    // components lie one after another (in the entities' order, every read missed the cache).
    let mut movers = vec![Mover::new(Point::new(0, 0), 0); order.len()];
    let mut aims: Vec<(Point, Option<Point>)> = vec![(Point::new(0, 0), None); order.len()];
    let mut detours = Detours::new(std::mem::take(&mut crowd.detours));
    for &i in by_place.iter() {
        let b = &mut *order[i];
        let grid = for_size(b.agent.size);
        movers[i] = mover(b, grid, crowd.ways, (tick, crowd.clock));
        aims[i] = (
            b.progress.cell(),
            b.route.and_then(|r| b.progress.aim(r, grid, movement)),
        );
        if aims[i].1.is_some() && b.motion.state.stalled_for(crowd.clock) > patience(b.agent.size) {
            detours.stalled(i, b.agent.size);
        }
    }
    if detours.any() {
        for &i in by_place.iter().filter(|&&i| !movers[i].arrived) {
            detours.in_the_way(aims[i].0, order[i].agent.size);
        }
    }
    let held = jam_bodies(crowd, order)
        .and_then(|jam| hold_jam(crowd, &sized[0], &jam, thread, &mut movers));
    let held =
        held.map(|(bodies, ready)| (bodies.iter().map(|&i| order[i].entity).collect(), ready));
    let bodies = entities.iter().zip(&aims).map(|(&e, a)| (e, a.0)).collect();
    let mut guided = std::mem::replace(&mut crowd.guided, GuidedStep::new(0));
    (guided.guidance, guided.ways) = (crowd.guidance, crowd.ways);
    if crowd.ways == CrowdWays::GuidePaths && !guided.has_guides() {
        guided.guide_by(Box::new(BodyGuides::default()));
    }
    let input = StepInput {
        guided,
        grids: sized,
        revision: nav.revision(),
        movement,
        keys: entities.iter().map(|e| e.to_bits()).collect(),
        movers,
        aims,
        detours,
    };
    Some((PlannedFrom { bodies, held }, input))
}

/// Takes a step's moves: each body that still stands where the step found it gets its next
/// cell, the jam's bodies walk on along their plan, any move that no longer fits holds
/// ([`hold_what_no_longer_fits`]), and every body that moves starts its glide.
fn finish(
    crowd: &mut Crowd,
    nav: &NavGrid,
    tick: f32,
    ticked: &mut Ticked<'_, '_, '_>,
    plan: PlannedFrom,
    output: StepOutput,
) {
    crowd.guided = output.guided;
    // Read and written in the tables' order, as in `prepare`.
    let Ticked {
        bodies: order,
        entities,
        by_place,
        sizes,
        largest,
    } = ticked;
    crowd.detours = output.detours;
    let mut cells = vec![Point::new(0, 0); order.len()];
    for &i in by_place.iter() {
        cells[i] = order[i].progress.cell();
    }
    let mut next = cells.clone();
    let mut movers: Vec<Option<Mover>> = vec![None; order.len()];
    let mut unchanged = plan.bodies.len() == order.len();
    for (i, &e) in entities.iter().enumerate() {
        let k = match plan.bodies.get(i) {
            Some(&(planned, _)) if planned == e => Some(i),
            _ => plan.bodies.binary_search_by_key(&e, |p| p.0).ok(),
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
            .map(|e| entities.binary_search(e).ok())
            .collect();
        if let Some(held) = held {
            let bodies: Vec<_> = order.iter().map(|b| jam_body(b, crowd.clock)).collect();
            crowd
                .untangler
                .walk(&bodies, (&held, *ready), &mut next, crowd.clock);
        }
    }
    let sized: Vec<Arc<Grid>> = (1..=*largest).map(|k| nav.grid_for(k)).collect();
    let grids: Vec<&Grid> = sized.iter().map(|g| &**g).collect();
    let counts = &mut crowd.counts;
    hold_what_no_longer_fits(&grids, &cells, sizes, &mut next, unchanged, counts);
    let movement = order.first().map(|b| b.agent.movement);
    for &i in by_place.iter() {
        let (mover, to) = (movers[i], next[i]);
        let b = &mut *order[i];
        let (agent, route, progress, motion) = (b.agent, b.route, &mut b.progress, &mut b.motion);
        let here = progress.cell();
        if let (true, Some(movement)) = (to != here, movement) {
            let grid = &sized[usize::from(agent.size.max(1)) - 1];
            let length = nav.layout().moves_between(centre(here), centre(to));
            motion.glide(here, to, length, agent.speed, grid, (crowd.due, tick));
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
    /// Their sizes (at least 1), in the same order, and the largest of them.
    pub(super) sizes: Vec<u8>,
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
        let mut sizes = vec![1; keys.len()];
        for (b, &i) in order.iter().zip(&by_place) {
            sizes[i] = b.agent.size.max(1); // read in the tables' order
        }
        let largest = sizes.iter().copied().max().unwrap_or(1);
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
            sizes,
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
