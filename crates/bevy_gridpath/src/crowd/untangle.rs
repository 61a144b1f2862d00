//! Jams PIBT cannot undo, solved whole and walked through ([`untangle`]).
//!
//! PIBT is not complete: bodies packed wall to wall, each bound for a cell another holds, push
//! each other off their cells and straight back for ever, and every push gives a body a new
//! route, so none of them is ever "no nearer" along its route for long. What gives them away
//! is a body close to where it goes that has got no nearer to it, as the crow flies, for
//! [`UNTANGLE_AFTER`] seconds. Then the bodies in a region round it (passages one body wide
//! taken in whole, to their ends) are planned together, off the frame, and walked through the
//! plan one configuration a tick, held from PIBT's pushes meanwhile. Bodies of one cell are
//! planned by LaCAM with LaCAM\*'s emulated swap ([`untangle`]); a jam with bigger bodies
//! (big units packed into places side by side, the last one in bound behind the others) by
//! A\* over their joint moves ([`untangle_sizes`]). A jam not planned within its effort is left
//! to PIBT, and its jammed bodies are tried again later.

use super::body::BodyDataItem;
use super::clock::Crowd;
use super::jam::Untangling;
use super::motion::BodyMotion;
use crate::off_frame::{Pending, SearchThread};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use gridpath::mapf::Mover;
use gridpath::mapf::crowd::{
    SizedBody, Window, footprint, four_steps, jam_region, nearest_in_region, untangle,
    untangle_sizes,
};
use gridpath::{Grid, Point};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Seconds a body within five cells of where it goes may get no nearer to it before its jam is
/// solved whole. A queue at a door brings a body that near nearer far sooner.
pub const UNTANGLE_AFTER: f32 = 10.0;

/// How near where it goes (cells each way) a body must be for its jam to be solved whole, and
/// a body bigger than one cell its size less one more: a body further off is better served by
/// its route, and its window would be large.
const UNTANGLE_REACH: i32 = 5;

/// Steps round a jammed body and where it goes that its jam's region reaches (passages one
/// body wide, whole), tried in turn: a small region is quick to plan when it holds room
/// enough to pass, a larger one holds more room but more bodies.
const RADII: [u32; 3] = [3, 6, 9];

/// The most cells a region holds, but for the first jammed body's: it bounds LaCAM's work.
const MOST_CELLS: usize = 400;

/// How much LaCAM may search, off the frame, while the jam's bodies wait, in constraints (its
/// unit of work: the same on any machine, about 60 µs each in a region of 150 packed bodies in
/// a release build): past it, the jam is tried again later. Small jams need tens; in the door
/// scene's hardest seed (`door_strokes` 20) regions of 100 to 300 cells packed with bodies were
/// planned in 300 to 1,000, and those that were not were not in 8,000 either.
const SEARCH_EFFORT: usize = 4_000;

/// The same for a jam with bodies bigger than a cell, in configurations A\* expands (some 2 µs
/// each for six bodies, in a release build). In the playground's scene of three sizes the jams
/// of five or six big bodies in its corner took 600 to 6,400.
const SIZED_EFFORT: usize = 50_000;

/// The most bodies in a jam with bigger ones that A\* is tried on: its nodes grow as the
/// bodies' moves multiply.
const MOST_SIZED: usize = 8;

/// The longest plan walked, in steps: LaCAM's first plan through a hard jam may wander for a
/// thousand steps, holding its bodies and closing their region all that while; PIBT does
/// better with another try. (The door scene's hardest seed needs plans of 70 to 140 steps: at
/// a limit of 60 it cleared one run in six.)
const MOST_STEPS: usize = 150;

/// How long a jam's bodies are held while its plan is searched: [`SEARCH_TICKS`] ticks, and at
/// least this long by the wall clock. Past both, the search is dropped and the bodies go on as
/// before. Its effort bounds a search's work ([`SEARCH_EFFORT`], [`SIZED_EFFORT`]): this only
/// guards a crowd against a thread that stops. In a game eight ticks are two seconds for bodies
/// of four cells a second, tens of times what a search takes in a release build. A headless app
/// runs many ticks a second of the wall clock: by ticks alone most searches would be dropped
/// there, by the wall clock alone it would stand still for thousands of frames. (At half a
/// second, a test's jam of big units on a machine busy with a cold build was dropped every
/// time for 20,000 frames: its searches, at the tests' optimisation, were late.)
const SEARCH_WAIT: Duration = Duration::from_secs(2);

/// See [`SEARCH_WAIT`].
const SEARCH_TICKS: u64 = 8;

/// How long by the wall clock a jam's search may wait for a thread before it starts: its
/// lateness ([`SEARCH_WAIT`]) counts from its start, since a pool busy with route searches
/// must not make a jam's search late before it ran (a headless test's parallel apps share one
/// pool, of one thread on two cores: the search of a jam of big units was dropped there,
/// unstarted, and its bodies backed off for 30 s). A pool starved for this long still must not
/// freeze the crowd.
const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// How much longer than [`UNTANGLE_AFTER`] the jammed bodies of a search that found nothing
/// wait before their jam is tried again: it is likely as hard the next time. (Others' jams
/// are not kept waiting: with one clock for all, a jam of one-cell bodies at the door that
/// LaCAM could not plan put off the jam of big bodies in a corner for 40 s.)
const BACK_OFF: f32 = 3.0;

/// Seconds between looks for a jam.
const LOOK_EVERY: f32 = 1.0;

/// Ticks a plan may wait for a body outside it to clear the way, or for its slowest body,
/// before it is dropped.
const MOST_WAITS: u32 = 20;

/// Is this body jammed near where it goes: within [`UNTANGLE_REACH`] of it (and its size
/// less one), and no nearer for [`UNTANGLE_AFTER`] seconds? Not on a staggered map: the plans
/// move bodies 4-way by their cells' indices, and a step along a staggered map's row crosses a
/// corner. (On hexagons those four steps all join touching hexagons.)
fn jammed(b: &BodyDataItem<'_, '_>, now: f32) -> bool {
    b.route.is_some()
        && b.agent.speed > 0.0
        && b.agent.movement.unstaggered().is_none()
        && b.motion.circling_for(now, b.agent.size) > UNTANGLE_AFTER
}

/// Looks for a jam to solve (at most once every [`LOOK_EVERY`] seconds), and starts its
/// search.
pub(super) fn look_for_jams(
    crowd: &mut Crowd,
    grid: &Arc<Grid>,
    order: &[&mut BodyDataItem<'_, '_>],
    thread: SearchThread,
) {
    if !crowd.untangle || crowd.untangling.is_some() || crowd.clock < crowd.look_again {
        return;
    }
    let now = crowd.clock;
    crowd.look_again = now + LOOK_EVERY;
    crowd.backed_off.retain(|_, until| *until > now);
    let backed_off = &crowd.backed_off;
    let jams: Vec<&BodyDataItem<'_, '_>> = order
        .iter()
        .map(|b| &**b)
        .filter(|b| jammed(b, now) && !backed_off.contains_key(&b.entity))
        .collect();
    if jams.is_empty() {
        return;
    }
    // Until this look starts a search, these bodies wait their turn again.
    let seeds: Vec<Entity> = jams.iter().map(|b| b.entity).collect();
    for &e in &seeds {
        crowd.backed_off.insert(e, now + UNTANGLE_AFTER);
    }
    // Bodies that never move are walls.
    let mut walls = HashSet::new();
    for b in order.iter().filter(|b| b.agent.speed <= 0.0) {
        walls.extend(footprint(b.progress.cell(), b.agent.size));
    }
    let open = |p: Point| grid.is_passable(p) && !walls.contains(&p);
    // The cells within a radius of a jammed body or where it goes, for as many jammed bodies
    // as fit in MOST_CELLS.
    let radius = RADII[crowd.searches as usize % RADII.len()];
    crowd.searches += 1;
    let mut region: HashSet<Point> = HashSet::new();
    let big_jam = jams.iter().any(|b| b.agent.size > 1);
    for b in jams {
        let from = [Some(b.progress.cell()), b.target()];
        let reach = radius + u32::from(b.agent.size.max(1)) - 1;
        let ball = jam_region(from.into_iter().flatten(), reach, MOST_CELLS, &open);
        if region.is_empty() || region.len() + ball.len() <= MOST_CELLS {
            region.extend(ball);
        }
    }
    // A jam of one-cell bodies with a bigger body beside its region is left to PIBT, which
    // pushes bodies of every size: the big body is likely bound through the region, and was
    // shut out while it was closed (in the scene of three sizes at a door, for minutes).
    let beside = |b: &BodyDataItem<'_, '_>| {
        footprint(b.progress.cell(), b.agent.size)
            .any(|c| four_steps(c).any(|n| region.contains(&n)))
    };
    if !big_jam && order.iter().filter(|b| b.agent.size > 1).any(|b| beside(b)) {
        return;
    }
    // A body partly in the region is taken in whole.
    for b in order.iter().filter(|b| b.agent.speed > 0.0) {
        let cells: Vec<Point> = footprint(b.progress.cell(), b.agent.size).collect();
        if cells.iter().any(|c| region.contains(c)) {
            region.extend(cells);
        }
    }
    crowd.untangling = search_region(grid, region, order, crowd.ticks, thread, seeds);
}

/// Starts the search, at tick `tick` (its seed too) on `thread`, for every body in `region`: to
/// where it goes if that is in the region, else to stay where it is (or the nearest place no
/// one goes to). Bodies of one cell are planned by LaCAM, a jam with bigger ones by A\* over
/// their joint moves ([`untangle_sizes`]), which is complete but searches far more: it is
/// tried on at most [`MOST_SIZED`] bodies.
fn search_region(
    grid: &Arc<Grid>,
    mut region: HashSet<Point>,
    order: &[&mut BodyDataItem<'_, '_>],
    tick: u64,
    thread: SearchThread,
    seeds: Vec<Entity>,
) -> Option<Untangling> {
    let (inside, outside): (Vec<&BodyDataItem<'_, '_>>, Vec<&BodyDataItem<'_, '_>>) =
        order.iter().map(|b| &**b).partition(|b| {
            b.agent.speed > 0.0
                && footprint(b.progress.cell(), b.agent.size).all(|c| region.contains(&c))
        });
    for b in outside {
        for c in footprint(b.progress.cell(), b.agent.size) {
            region.remove(&c);
        }
    }
    let sized = inside.iter().any(|b| b.agent.size > 1);
    if inside.is_empty() || sized && inside.len() > MOST_SIZED {
        return None;
    }
    let bodies = with_goals_in(&inside, &region)?;
    let mut window = Window::around(grid, bodies.first()?.at, 0);
    for &p in &region {
        window = window.grown(grid, p, 0);
    }
    let cells: Vec<Point> = region.iter().copied().collect();
    let grid = grid.clone();
    let sizes = bodies.iter().map(|b| b.size).collect();
    let started = Arc::new(AtomicBool::new(false));
    let starts = started.clone();
    let search = Pending::start(thread, move || {
        starts.store(true, Ordering::Relaxed);
        let open = |p: Point| region.contains(&p);
        let plan = if sized {
            untangle_sizes(&grid, window, open, &bodies, SIZED_EFFORT)
        } else {
            let cells: Vec<(Point, Point)> = bodies.iter().map(|b| (b.at, b.goal)).collect();
            untangle(&grid, window, open, &cells, SEARCH_EFFORT, tick)
        };
        plan.filter(|plan| (2..=MOST_STEPS).contains(&plan.len()))
    });
    Some(Untangling {
        bodies: inside.iter().map(|b| b.entity).collect(),
        seeds,
        sizes,
        cells,
        queued: Instant::now(),
        started,
        began: None,
        search: Some(search),
        plan: Vec::new(),
        at: 0,
        waited: 0,
    })
}

/// The jam's bodies, each bound for its own target if that lies in `region` and no other body
/// claimed it first, else for the nearest place of the region where it fits unclaimed (`None`
/// if some body has none).
fn with_goals_in(
    inside: &[&BodyDataItem<'_, '_>],
    region: &HashSet<Point>,
) -> Option<Vec<SizedBody>> {
    let fits = |at: Point, size: u8| footprint(at, size).all(|c| region.contains(&c));
    let mut goals: Vec<Option<Point>> = vec![None; inside.len()];
    let mut claimed = HashSet::new();
    let claim = |at: Point, size: u8, claimed: &mut HashSet<Point>| {
        let free = fits(at, size) && footprint(at, size).all(|c| !claimed.contains(&c));
        if free {
            claimed.extend(footprint(at, size));
        }
        free
    };
    for (goal, b) in goals.iter_mut().zip(inside) {
        *goal = b
            .target()
            .filter(|&to| claim(to, b.agent.size, &mut claimed));
    }
    let mut bodies = Vec::with_capacity(inside.len());
    for (goal, b) in goals.iter().zip(inside) {
        let (here, size) = (b.progress.cell(), b.agent.size.max(1));
        let goal = match goal {
            Some(goal) => *goal,
            None => nearest_in_region(here, region, |p| claim(p, size, &mut claimed))?,
        };
        bodies.push(SizedBody {
            at: here,
            goal,
            size,
        });
    }
    Some(bodies)
}

/// The bodies of the jam, by their place in `order` (sorted by entity), held so that PIBT
/// moves them nowhere and pushes them nowhere; and whether they may take the plan's next step
/// (it is found, and all of them have earned this tick's move). The jam is dropped if its
/// search found nothing, or one of its bodies is gone or was moved off the plan.
pub(super) fn hold(
    crowd: &mut Crowd,
    order: &[&mut BodyDataItem<'_, '_>],
    movers: &mut [Mover],
) -> Option<(Vec<usize>, bool)> {
    let jam = crowd.untangling.as_mut()?;
    if jam.began.is_none() && jam.started.load(Ordering::Relaxed) {
        jam.began = Some((crowd.ticks, Instant::now()));
    }
    let late = match jam.began {
        Some((tick, when)) => crowd.ticks > tick + SEARCH_TICKS && when.elapsed() > SEARCH_WAIT,
        None => jam.queued.elapsed() > QUEUE_WAIT,
    };
    if let Some(search) = jam.search.as_mut() {
        let found = search.take().or(late.then_some(None));
        let Some(found) = found else {
            return hold_bodies(crowd, order, movers);
        };
        jam.search = None;
        match found {
            Some(plan) => jam.plan = plan,
            None => drop_jam(crowd, BACK_OFF * UNTANGLE_AFTER),
        }
    }
    hold_bodies(crowd, order, movers)
}

/// [`hold`], the search done or not.
fn hold_bodies(
    crowd: &mut Crowd,
    order: &[&mut BodyDataItem<'_, '_>],
    movers: &mut [Mover],
) -> Option<(Vec<usize>, bool)> {
    let jam = crowd.untangling.as_ref()?;
    let found: Option<Vec<usize>> = jam
        .bodies
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let i = order.binary_search_by_key(e, |b| b.entity).ok()?;
            let on_plan = jam
                .plan
                .get(jam.at)
                .is_none_or(|c| c[k] == order[i].progress.cell());
            on_plan.then_some(i)
        })
        .collect();
    let Some(held) = found else {
        drop_jam(crowd, UNTANGLE_AFTER);
        return None;
    };
    let ready = jam.search.is_none() && held.iter().all(|&i| movers[i].free);
    for &i in &held {
        movers[i].free = false;
    }
    Some((held, ready))
}

/// Drops the jam, its jammed bodies not to be tried again for `seconds`.
fn drop_jam(crowd: &mut Crowd, seconds: f32) {
    let Some(jam) = crowd.untangling.take() else {
        return;
    };
    for e in jam.seeds {
        crowd.backed_off.insert(e, crowd.clock + seconds);
    }
}

/// Closes the jam's region to other bodies while it is searched and walked: a still body of one
/// cell on each of its free cells, appended to `movers` (their moves are not read). Without
/// them, bodies from outside walk in onto cells the plan needs, and its bodies wait, and those
/// behind them with them.
pub(super) fn reserve(crowd: &Crowd, order: &[&mut BodyDataItem<'_, '_>], movers: &mut Vec<Mover>) {
    let Some(jam) = crowd.untangling.as_ref() else {
        return;
    };
    let mut free: HashSet<Point> = jam.cells.iter().copied().collect();
    for b in order {
        for c in footprint(b.progress.cell(), b.agent.size) {
            free.remove(&c);
        }
    }
    for (k, &c) in jam
        .cells
        .iter()
        .enumerate()
        .filter(|(_, c)| free.contains(c))
    {
        let mut keeper = Mover::new(c, u64::MAX - k as u64);
        keeper.free = false;
        keeper.arrived = true;
        movers.push(keeper);
    }
}

/// Walks the held bodies one step along the plan, unless a body outside it steps onto one of
/// the plan's next cells at this tick (then they wait, and the plan is dropped after
/// [`MOST_WAITS`] such ticks).
pub(super) fn walk(
    crowd: &mut Crowd,
    order: &[&mut BodyDataItem<'_, '_>],
    held: &[usize],
    ready: bool,
    next: &mut [Point],
) {
    let Some(walk) = crowd.untangling.as_mut().filter(|w| w.search.is_none()) else {
        return;
    };
    let cells = &walk.plan[walk.at + 1];
    let mine: HashSet<usize> = held.iter().copied().collect();
    let wanted: HashSet<Point> = cells
        .iter()
        .zip(&walk.sizes)
        .flat_map(|(&c, &size)| footprint(c, size))
        .collect();
    let blocked = ready
        && order.iter().enumerate().any(|(i, b)| {
            !mine.contains(&i) && footprint(next[i], b.agent.size).any(|c| wanted.contains(&c))
        });
    if !ready || blocked {
        walk.waited += 1;
        if walk.waited > MOST_WAITS {
            drop_jam(crowd, UNTANGLE_AFTER);
        }
        return;
    }
    for (&i, &to) in held.iter().zip(cells) {
        next[i] = to;
    }
    walk.at += 1;
    if walk.at + 1 == walk.plan.len() {
        crowd.untangling = None;
        crowd.untangled += 1;
    }
}

impl BodyMotion {
    /// Seconds it has been no nearer where it goes, as the crow flies (and not on it), as of
    /// the last frame; 0 once further than [`UNTANGLE_REACH`] (for a body of `size`, that and
    /// its size less one: a big body in a jam stands further off). A livelocked body is pushed
    /// off and back, and given a new route each time, so the cells left on its route tell
    /// nothing; how near it ever got does.
    pub(super) fn circling_for(&self, now: f32, size: u8) -> f32 {
        let reach = UNTANGLE_REACH + i32::from(size.max(1));
        match self.closest {
            Some((_, d, since)) if d < reach => now - since,
            _ => 0.0,
        }
    }

    /// Notes where it stands, `here`, and where it goes, `target`: nearer than ever (or
    /// somewhere new) restarts [`circling_for`](Self::circling_for).
    pub(super) fn note_nearness(&mut self, here: Point, target: Option<Point>, now: f32) {
        let Some(to) = target else {
            self.closest = None;
            return;
        };
        let d = (to.x - here.x).abs().max((to.y - here.y).abs());
        match self.closest {
            Some((was, best, _)) if was == to && best <= d && d > 0 => {}
            _ => self.closest = Some((to, d, now)),
        }
    }
}
