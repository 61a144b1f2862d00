//! Jams PIBT cannot undo, found, solved whole and walked through ([`Untangler`]).
//!
//! PIBT is not complete: bodies packed wall to wall, each bound for a cell another holds, push
//! each other off their cells and straight back for ever, and every push gives a body a new
//! route, so none of them is ever "no nearer" along its route for long. What gives them away
//! is a body close to where it goes that has got no nearer to it, as the crow flies, for
//! [`UNTANGLE_AFTER`] seconds ([`Nearness`]). Then the bodies in a region round it
//! ([`jam_region`]: passages one body wide taken in whole, to their ends) are planned together
//! ([`JamSearch`], which the caller runs where it likes: off the frame in a game), and walked
//! through the plan one configuration a tick, held from PIBT's pushes meanwhile. Bodies of one
//! cell are planned by LaCAM with LaCAM\*'s emulated swap ([`untangle`]); a jam with bigger
//! bodies (big units packed into places side by side, the last one in bound behind the others)
//! by A\* over their joint moves ([`untangle_sizes`]). A jam not planned within its effort is
//! left to PIBT, and its jammed bodies are tried again later.
//!
//! ```text
//! every tick:
//!     if no jam and LOOK_EVERY has passed:        look
//!         seeds ← bodies jammed, not backed off; region ← cells round them (and their goals)
//!         plan the bodies wholly inside it (each to its goal there, else to a free place)
//!     while the plan is searched:                 hold its bodies, close its region
//!     then, each tick all of them may move:       walk one step unless an outsider steps in
//!     a body gone or off the plan, or MOST_WAITS ticks blocked: drop the jam, back off
//! ```

use super::joint::{SizedBody, untangle_sizes};
use super::lateness::SearchLateness;
use super::mover::Mover;
use super::region::{four_steps, jam_region, nearest_in_region};
use super::rules::footprint;
use super::settle::Standing;
use super::untangle::{Window, untangle};
use crate::grid::{Grid, Point};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// How much LaCAM may search while the jam's bodies wait, in constraints (its unit of work: the
/// same on any machine, about 60 µs each in a region of 150 packed bodies in a release build):
/// past it, the jam is tried again later. Small jams need tens; in the door scene's hardest
/// seed regions of 100 to 300 cells packed with bodies were planned in 300 to 1,000, and those
/// that were not were not in 8,000 either.
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

/// A jam's plan: every body's cell at each step, the bodies in the order they were planned.
pub type JamPlan = Vec<Vec<Point>>;

/// How near a body has been to where it goes: what gives a livelocked body away. It is pushed
/// off and back, and given a new route each time, so the cells left on its route tell nothing;
/// how near it ever got, as the crow flies, does.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Nearness {
    /// Where it goes, the nearest it has been to it (cells each way), and since when.
    closest: Option<(Point, i32, f32)>,
}

impl Nearness {
    /// Notes where it stands, `here`, and where it goes, `target`, at `now`: nearer than ever
    /// (or somewhere new) restarts [`circling_for`](Self::circling_for).
    pub fn note(&mut self, here: Point, target: Option<Point>, now: f32) {
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

    /// Seconds it has been no nearer where it goes (and not on it), as of the last note; 0 once
    /// further than five cells each way (for a body of `size`, that and its size less one: a
    /// big body in a jam stands further off).
    pub fn circling_for(&self, now: f32, size: u8) -> f32 {
        let reach = UNTANGLE_REACH + i32::from(size.max(1));
        match self.closest {
            Some((_, d, since)) if d < reach => now - since,
            _ => 0.0,
        }
    }
}

/// A body as the untangler reads it.
#[derive(Clone, Copy, Debug, Default)]
pub struct JamBody {
    /// What names it from tick to tick (the bodies are given sorted by it).
    pub key: u64,
    /// Its cell, and its size (it covers `size` × `size` cells from there).
    pub at: Point,
    /// See `at`.
    pub size: u8,
    /// It moves at all: one that never does is a wall.
    pub moves: bool,
    /// Where it heads, if anywhere.
    pub target: Option<Point>,
    /// Seconds it has circled where it goes ([`Nearness::circling_for`]), if a plan may move
    /// it: it has a route, and its map is not staggered (plans move bodies 4-way by their
    /// cells' indices, and a step along a staggered map's row crosses a corner; on hexagons
    /// those four steps all join touching hexagons).
    pub circling: Option<f32>,
}

impl JamBody {
    /// Is it jammed near where it goes?
    fn jammed(&self) -> bool {
        self.moves && self.circling.is_some_and(|s| s > UNTANGLE_AFTER)
    }

    fn cells(&self) -> impl Iterator<Item = Point> {
        footprint(self.at, self.size)
    }
}

/// A jam's bodies, held while their plan is searched and then walked through it.
#[derive(Debug)]
struct Jam {
    /// The bodies it holds, sorted, and the size of each.
    bodies: Vec<u64>,
    sizes: Vec<u8>,
    /// The jammed bodies it was searched for: backed off if it fails.
    seeds: Vec<u64>,
    /// The region's cells: closed to other bodies while the jam is searched and walked.
    cells: Vec<Point>,
    searching: bool,
    /// How late its search may come back.
    lateness: SearchLateness,
    plan: JamPlan,
    at: usize,
    waited: u32,
}

/// A jam's plan to search: run it anywhere ([`JamSearch::run`]) and hand the answer back to
/// [`Untangler::found`].
pub struct JamSearch {
    grid: Arc<Grid>,
    window: Window,
    region: HashSet<Point>,
    bodies: Vec<SizedBody>,
    seed: u64,
    /// Set once it runs: its lateness counts from then ([`Untangler::late`]).
    started: Arc<AtomicBool>,
}

impl JamSearch {
    /// LaCAM for one-cell bodies, A\* over joint moves with bigger ones, within their efforts;
    /// `None` if it found no plan short enough to walk.
    pub fn run(self) -> Option<JamPlan> {
        self.started.store(true, Ordering::Relaxed);
        let open = |p: Point| self.region.contains(&p);
        let (grid, window, bodies) = (&self.grid, self.window, &self.bodies);
        let plan = if bodies.iter().any(|b| b.size > 1) {
            untangle_sizes(grid, window, open, bodies, SIZED_EFFORT)
        } else {
            let cells: Vec<(Point, Point)> = bodies.iter().map(|b| (b.at, b.goal)).collect();
            untangle(grid, window, open, &cells, SEARCH_EFFORT, self.seed)
        };
        plan.filter(|plan| (2..=MOST_STEPS).contains(&plan.len()))
    }
}

/// Finds jams, holds their bodies while their plan is searched, and walks them through it: the
/// crowd's state between ticks. `now` is the crowd's clock in seconds.
#[derive(Debug, Default)]
pub struct Untangler {
    jam: Option<Jam>,
    look_again: f32,
    /// Jammed bodies whose jam was not solved, and until when it is not tried again.
    backed_off: HashMap<u64, f32>,
    searches: u64,
    untangled: u64,
}

impl Untangler {
    /// Jams walked through to the end so far.
    pub fn untangled(&self) -> u64 {
        self.untangled
    }

    /// Is a jam searched or walked?
    pub fn busy(&self) -> bool {
        self.jam.is_some()
    }

    /// Is a jam's plan being searched (handed out by [`look`](Self::look), not yet
    /// [`found`](Self::found))?
    pub fn searching(&self) -> bool {
        self.jam.as_ref().is_some_and(|j| j.searching)
    }

    /// Does [`look`](Self::look) look at `now`? Then, or while [`busy`](Self::busy), the
    /// bodies are needed.
    pub fn looks(&self, now: f32) -> bool {
        self.jam.is_none() && now >= self.look_again
    }

    /// The bodies the jam holds, sorted: neither stalled nor a dead end for a body behind them.
    pub fn held(&self) -> &[u64] {
        self.jam.as_ref().map_or(&[][..], |j| &j.bodies)
    }

    /// The cells of the jam's closed region and those beside them: a body there may wait on
    /// the plan (it cannot step in, nor be pushed in), which is no deadlock.
    pub fn around(&self) -> HashSet<Point> {
        let mut near = HashSet::new();
        for &c in self.jam.iter().flat_map(|j| &j.cells) {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    near.insert(Point::new(c.x + dx, c.y + dy));
                }
            }
        }
        near
    }

    /// Looks for a jam (at most once a second) among `bodies` (sorted by
    /// key) on `grid` at `tick` (the search's seed): the search to run for it, if one is found.
    pub fn look(
        &mut self,
        bodies: &[JamBody],
        grid: &Arc<Grid>,
        now: f32,
        tick: u64,
    ) -> Option<JamSearch> {
        if !self.looks(now) {
            return None;
        }
        self.look_again = now + LOOK_EVERY;
        self.backed_off.retain(|_, until| *until > now);
        let jams: Vec<&JamBody> = bodies
            .iter()
            .filter(|b| b.jammed() && !self.backed_off.contains_key(&b.key))
            .collect();
        if jams.is_empty() {
            return None;
        }
        // Until this look starts a search, these bodies wait their turn again.
        let seeds: Vec<u64> = jams.iter().map(|b| b.key).collect();
        for &key in &seeds {
            self.backed_off.insert(key, now + UNTANGLE_AFTER);
        }
        let radius = RADII[self.searches as usize % RADII.len()];
        self.searches += 1;
        let region = region(bodies, &jams, grid, radius)?;
        let (jam, search) = search_region(grid, region, bodies, tick)?;
        self.jam = Some(Jam { seeds, ..jam });
        Some(search)
    }

    /// Has the search handed out by [`look`](Self::look) come too late at tick `ticks`
    /// ([`SEARCH_WAIT`](super::SEARCH_WAIT))? Then give [`found`](Self::found) `None`. Ask at
    /// every tick until its answer comes.
    pub fn late(&mut self, ticks: u64) -> bool {
        let searched = self.jam.as_mut().filter(|j| j.searching);
        searched.is_some_and(|j| j.lateness.late(ticks))
    }

    /// The search's answer: a plan to walk, or none (it found none, or came too late, or its
    /// thread was lost), and the jammed bodies are tried again later than others.
    pub fn found(&mut self, plan: Option<JamPlan>, now: f32) {
        let Some(jam) = self.jam.as_mut().filter(|j| j.searching) else {
            return;
        };
        jam.searching = false;
        match plan {
            Some(plan) => jam.plan = plan,
            None => self.drop_jam(BACK_OFF * UNTANGLE_AFTER, now),
        }
    }

    /// The jam's bodies, by their place in `bodies` (sorted by key), held so that PIBT moves
    /// them nowhere and pushes them nowhere (`movers`, in the same order); and whether they may
    /// take the plan's next step (it is found, and all of them have earned this tick's move).
    /// The jam is dropped if one of its bodies is gone or was moved off the plan.
    pub fn hold(
        &mut self,
        bodies: &[JamBody],
        movers: &mut [Mover],
        now: f32,
    ) -> Option<(Vec<usize>, bool)> {
        let jam = self.jam.as_ref()?;
        let found: Option<Vec<usize>> = jam
            .bodies
            .iter()
            .enumerate()
            .map(|(k, key)| {
                let i = bodies.binary_search_by_key(key, |b| b.key).ok()?;
                let on_plan = jam.plan.get(jam.at).is_none_or(|c| c[k] == bodies[i].at);
                on_plan.then_some(i)
            })
            .collect();
        let Some(held) = found else {
            self.drop_jam(UNTANGLE_AFTER, now);
            return None;
        };
        let ready = !jam.searching && held.iter().all(|&i| movers[i].free);
        for &i in &held {
            movers[i].free = false;
        }
        Some((held, ready))
    }

    /// Closes the jam's region to other bodies while it is searched and walked: a still body of
    /// one cell on each of its free cells, appended to `movers` (their moves are not read).
    /// Without them, bodies from outside walk in onto cells the plan needs, and its bodies
    /// wait, and those behind them with them.
    pub fn reserve(&self, bodies: &[JamBody], movers: &mut Vec<Mover>) {
        let Some(jam) = self.jam.as_ref() else {
            return;
        };
        let mut free: HashSet<Point> = jam.cells.iter().copied().collect();
        for c in bodies.iter().flat_map(JamBody::cells) {
            free.remove(&c);
        }
        for (k, &c) in jam.cells.iter().enumerate() {
            if free.contains(&c) {
                let mut keeper = Mover::new(c, u64::MAX - k as u64);
                keeper.free = false;
                keeper.arrived = true;
                movers.push(keeper);
            }
        }
    }

    /// Walks the `held` bodies one step along the plan (into `next`, each body's next cell, in
    /// the order of `bodies`), unless one outside it steps onto one of the plan's next cells at
    /// this tick: then they wait, and the plan is dropped after 20 such ticks.
    pub fn walk(
        &mut self,
        bodies: &[Standing],
        (held, ready): (&[usize], bool),
        next: &mut [Point],
        now: f32,
    ) {
        let Some(walk) = self.jam.as_mut().filter(|w| !w.searching) else {
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
            && bodies.iter().enumerate().any(|(i, b)| {
                !mine.contains(&i) && footprint(next[i], b.size).any(|c| wanted.contains(&c))
            });
        if !ready || blocked {
            walk.waited += 1;
            if walk.waited > MOST_WAITS {
                self.drop_jam(UNTANGLE_AFTER, now);
            }
            return;
        }
        for (&i, &to) in held.iter().zip(cells) {
            next[i] = to;
        }
        walk.at += 1;
        if walk.at + 1 == walk.plan.len() {
            self.jam = None;
            self.untangled += 1;
        }
    }

    /// Drops the jam, its jammed bodies not to be tried again for `seconds`.
    fn drop_jam(&mut self, seconds: f32, now: f32) {
        if let Some(jam) = self.jam.take() {
            for key in jam.seeds {
                self.backed_off.insert(key, now + seconds);
            }
        }
    }
}

/// The cells within `radius` of each jammed body or where it goes, for as many jammed bodies
/// as fit in [`MOST_CELLS`], with every moving body partly in it taken in whole; `None` for a
/// jam of one-cell bodies with a bigger body beside it, which is left to PIBT, which pushes
/// bodies of every size: the big body is likely bound through the region, and was shut out
/// while it was closed (in the scene of three sizes at a door, for minutes).
fn region(
    bodies: &[JamBody],
    jams: &[&JamBody],
    grid: &Grid,
    radius: u32,
) -> Option<HashSet<Point>> {
    // Bodies that never move are walls.
    let walls: HashSet<Point> = bodies
        .iter()
        .filter(|b| !b.moves)
        .flat_map(JamBody::cells)
        .collect();
    let open = |p: Point| grid.is_passable(p) && !walls.contains(&p);
    let mut region: HashSet<Point> = HashSet::new();
    for b in jams {
        let from = [Some(b.at), b.target];
        let reach = radius + u32::from(b.size.max(1)) - 1;
        let ball = jam_region(from.into_iter().flatten(), reach, MOST_CELLS, &open);
        if region.is_empty() || region.len() + ball.len() <= MOST_CELLS {
            region.extend(ball);
        }
    }
    let beside = |b: &JamBody| {
        b.cells()
            .any(|c| four_steps(c).any(|n| region.contains(&n)))
    };
    let big_jam = jams.iter().any(|b| b.size > 1);
    if !big_jam && bodies.iter().filter(|b| b.size > 1).any(beside) {
        return None;
    }
    // A body partly in the region is taken in whole.
    for b in bodies.iter().filter(|b| b.moves) {
        let cells: Vec<Point> = b.cells().collect();
        if cells.iter().any(|c| region.contains(c)) {
            region.extend(cells);
        }
    }
    Some(region)
}

/// The jam of every moving body wholly in `region` (the others' cells taken out of it), and
/// the search for it, seeded with `tick`: each to where it goes if that is in the region, else
/// to the nearest place no one goes to. A jam with bigger bodies is tried on at most
/// [`MOST_SIZED`] of them.
fn search_region(
    grid: &Arc<Grid>,
    mut region: HashSet<Point>,
    bodies: &[JamBody],
    tick: u64,
) -> Option<(Jam, JamSearch)> {
    let (inside, outside): (Vec<&JamBody>, Vec<&JamBody>) = bodies
        .iter()
        .partition(|b| b.moves && b.cells().all(|c| region.contains(&c)));
    for c in outside.iter().flat_map(|b| b.cells()) {
        region.remove(&c);
    }
    let sized = inside.iter().any(|b| b.size > 1);
    if inside.is_empty() || sized && inside.len() > MOST_SIZED {
        return None;
    }
    let planned = with_goals_in(&inside, &region)?;
    let mut window = Window::around(grid, planned.first()?.at, 0);
    for &p in &region {
        window = window.grown(grid, p, 0);
    }
    let (lateness, started) = SearchLateness::new();
    let jam = Jam {
        bodies: inside.iter().map(|b| b.key).collect(),
        sizes: planned.iter().map(|b| b.size).collect(),
        seeds: Vec::new(),
        cells: region.iter().copied().collect(),
        searching: true,
        lateness,
        plan: Vec::new(),
        at: 0,
        waited: 0,
    };
    let search = JamSearch {
        grid: grid.clone(),
        window,
        region,
        bodies: planned,
        seed: tick,
        started,
    };
    Some((jam, search))
}

/// The jam's bodies, each bound for its own target if that lies in `region` and no other body
/// claimed it first, else for the nearest place of the region where it fits unclaimed (`None`
/// if some body has none).
fn with_goals_in(inside: &[&JamBody], region: &HashSet<Point>) -> Option<Vec<SizedBody>> {
    let mut claimed = HashSet::new();
    let mut claim = |at: Point, size: u8| {
        let fits = footprint(at, size).all(|c| region.contains(&c) && !claimed.contains(&c));
        if fits {
            claimed.extend(footprint(at, size));
        }
        fits
    };
    let goals: Vec<Option<Point>> = inside
        .iter()
        .map(|b| b.target.filter(|&to| claim(to, b.size)))
        .collect();
    let mut planned = Vec::with_capacity(inside.len());
    for (goal, b) in goals.iter().zip(inside) {
        let size = b.size.max(1);
        let goal = match goal {
            Some(goal) => *goal,
            None => nearest_in_region(b.at, region, |p| claim(p, size))?,
        };
        planned.push(SizedBody {
            at: b.at,
            goal,
            size,
        });
    }
    Some(planned)
}
