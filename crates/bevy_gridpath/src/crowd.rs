//! Bodies: agents that take up their cell, so that a crowd queues, gives way and never overlaps.
//!
//! Add [`Body`] to a [`GridAgent`] and the crowd moves it instead of its own walk. It still asks
//! the path service for a route to its [`Destination`] and re-routes after edits as every agent
//! does; what changes is how it moves along it. On every *tick* the crowd moves every body at
//! most one cell with one step of PIBT ([`gridpath::mapf::CrowdStep`]): a body that has waited
//! long pushes one that has not out of its way, the pushed one steps aside (or back) and returns,
//! and no two bodies ever share a cell, swap, or cross diagonally. Between ticks a body glides
//! from cell to cell.
//!
//! - **The tick** is the time the fastest body takes to cross a cell of cost 1 ([`Crowd::tick`]
//!   fixes it instead). A slower body, or one on costly ground, is still on its way into its
//!   cell at the next tick and holds; the others go round it.
//! - **Gathering**: bodies sent to one cell would fight over it for ever. Bodies that share a
//!   destination are each given a cell of their own ([`GatherCell`]): the free cells nearest the
//!   destination, the nearest body to the nearest cell. In a gathering of several sizes, a
//!   body jammed on its way in for [`GATHER_PATIENCE`] settles where it stands instead.
//! - **Edits**: a wall painted under a body (or a body spawned on another) moves it to the
//!   nearest free cell no body stands on ([`AgentEscaped`] says so for walls).
//! - **Sizes**: a body of [`GridAgent::size`] k covers k × k cells and moves on the grid for its
//!   size ([`NavGrid::grid_for`]); footprints never overlap. A body that has got no nearer for a
//!   second (four for one cell) heads for the place nearest its next route cell that it can
//!   reach without covering a body on its way (a detour): two big bodies that must pass in the
//!   open would otherwise push each other back and forth along the line between them.
//! - **Liveness**: [`CrowdStats`] counts bodies moving, waiting, arrived, and *deadlocked*: no
//!   nearer to where they go for [`DEADLOCK_SECONDS`] while a route exists, and not merely
//!   queued (nor waiting for a search). "Nearer" is fewer cells left on its route; a new route
//!   (round a new wall, from where it was pushed, or to somewhere else) starts a new count but
//!   not a new clock, so a body cannot look busy by changing its mind. A body waiting behind a
//!   body on the move, or behind one that is itself queued, is in a queue, and so is one at the
//!   head of a queue whose front has just stepped off; a chain of waiting bodies that ends at
//!   a body on its own cell (arrived, or gliding back onto it after a push), or comes round on
//!   itself, at every frame for a second, is a deadlock. A body waits behind whoever stands on
//!   the cell it would step onto first, and one that passers-by keep pushing off its own cell
//!   is not deadlocked while it keeps getting back on.
//!   [`BodyMotion::stalled`] tells a game's AI how long a body has been no nearer, to give up on
//!   a jam; [`BodyMotion::deadlocked`] whether it was counted.
//!
//! Why PIBT and not local avoidance (ORCA, RVO2): local avoidance keeps units apart but, having
//! no plan, deadlocks in corridors and crushes at doors; PIBT's priorities make someone give way.

use crate::agents::{
    AgentEscaped, AgentProgress, AgentStatus, Destination, GridAgent, centre, ground_cost,
};
use crate::flow::SharedFlow;
use crate::nav_grid::{GridsBySize, NavGrid};
use crate::requests::{PathRequest, Route};
use bevy::platform::collections::{HashMap, HashSet};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use gridpath::mapf::crowd::{
    Mate, Wait, blocked, d2, detour, distance_fifths as distance, first_step, footprint,
    gather_cells, hand_round, nearest_free,
};
use gridpath::mapf::{CrowdStep, Mover};
use gridpath::{Grid, Movement, Point};
use std::collections::VecDeque;
use std::sync::Arc;

/// Seconds without getting nearer while a route exists, after which a body counts as
/// deadlocked.
pub const DEADLOCK_SECONDS: f32 = 5.0;

/// Seconds a stalled body must have waited at every frame in a chain that moves nowhere (see
/// [`blocked`]) before it counts as deadlocked. Who waits behind whom is a snapshot between
/// ticks: a body that waits one tick behind an arrived body, pushed aside at the next, is in a
/// queue that moves.
const BLOCKED_SECONDS: f32 = 1.0;

/// Makes a [`GridAgent`] a body: it takes up its cell, and the crowd moves it (see the module
/// docs). A body with [`SharedFlow`] is moved as a body but asks for no route, so it only gives
/// way: bodies follow routes.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[require(GridAgent, BodyMotion)]
pub struct Body;

/// The cell of its own a body heads for when it shares its [`Destination`] with other bodies.
/// Kept by the crowd; read it, do not write it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherCell(pub Point);

/// A body's glide between cells and its PIBT state. Kept by the crowd.
#[derive(Component, Clone, Debug, Default)]
pub struct BodyMotion {
    /// The centre it glides from, and when (the crowd's clock) and for how long.
    from: Vec2,
    started: f32,
    duration: f32,
    /// How much of a move it has earned: it may move at a tick when this reaches 1.
    credit: f32,
    mover: Option<Mover>,
    /// The fewest cells it has had left on its route to where it goes (a route round walls may
    /// lead away before it leads near, so the straight-line distance would not do), and the
    /// clock when it got there.
    best: Option<(Point, u32)>,
    since: f32,
    /// The route `best` is counted on: where it was planned from, and on which grid revision.
    on: (Point, u64),
    /// Seconds it had got no nearer, as of the crowd's last frame.
    stalled: f32,
    /// The clock when it last stood on, or glided onto, the cell it goes to. Passers-by may
    /// push a body off its cell at every other tick, so it never stands still there long
    /// enough to have arrived, nor gets nearer than it ever was; but it is not deadlocked.
    reached: f32,
    /// The clock when the chain of bodies it waits behind began to move nowhere ([`blocked`]),
    /// if it has at every frame since.
    blocked: Option<f32>,
    /// Counted deadlocked at the crowd's last frame.
    deadlocked: bool,
}

impl BodyMotion {
    /// Seconds since it last got nearer to where it goes (0 with nowhere to go).
    fn stalled_for(&self, now: f32) -> f32 {
        if self.best.is_some() {
            now - self.since
        } else {
            0.0
        }
    }

    /// Seconds it has got no nearer to where it goes, as of the crowd's last frame (0 when it
    /// has arrived or has nowhere to go). A game's AI reads it to give up on a jam: a wanderer,
    /// say, picks somewhere else to go.
    pub fn stalled(&self) -> f32 {
        self.stalled
    }

    /// Was it counted deadlocked ([`CrowdStats::deadlocked`]) at the crowd's last frame?
    pub fn deadlocked(&self) -> bool {
        self.deadlocked
    }

    /// Has it been no nearer to where it goes for [`DEADLOCK_SECONDS`], nor back on its cell if
    /// passers-by pushed it off?
    fn long_stalled(&self, now: f32) -> bool {
        self.best.is_some() && now - self.since.max(self.reached) > DEADLOCK_SECONDS
    }

    /// Notes whether the chain it waits behind moves nowhere at this frame (`blocked`): is it
    /// deadlocked, having so waited at every frame for [`BLOCKED_SECONDS`]?
    fn still_blocked(&mut self, blocked: bool, now: f32) -> bool {
        if !blocked {
            self.blocked = None;
        }
        let since = blocked.then(|| *self.blocked.get_or_insert(now));
        self.deadlocked = since.is_some_and(|t| now - t >= BLOCKED_SECONDS);
        self.deadlocked
    }
}

/// The crowd: its clock and PIBT's scratch space. Read [`Crowd::stats`] for the counts.
#[derive(Resource, Debug)]
pub struct Crowd {
    /// Seconds a tick; `None`: the time the fastest body takes to cross a cell of cost 1.
    pub tick: Option<f32>,
    step: CrowdStep,
    /// Seconds since the crowd started, and until the next tick.
    clock: f32,
    due: f32,
    ticks: u64,
    stats: CrowdStats,
    /// What the last frame's step took, in microseconds.
    step_micros: f64,
    /// Which cells a body on its way covers, one bit each, filled for the detours of a tick and
    /// cleared after them: bits rather than who, as a detour only asks whether a cell is free,
    /// and a table of bits (a thirty-second of one of indices) stays in the cache.
    covered: Vec<u64>,
}

impl Default for Crowd {
    fn default() -> Self {
        Self {
            tick: None,
            step: CrowdStep::new(0xB0D1E5),
            clock: 0.0,
            due: 0.0,
            ticks: 0,
            stats: CrowdStats::default(),
            step_micros: 0.0,
            covered: Vec::new(),
        }
    }
}

impl Crowd {
    /// The counts as of the last frame.
    pub fn stats(&self) -> CrowdStats {
        self.stats
    }

    /// Ticks so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// What the crowd's step took in the last frame, in microseconds: its ticks (PIBT, and the
    /// ways round for stalled bodies), the glides and the counts. (Settling bodies after edits
    /// and handing out gathering cells are not in it.)
    pub fn step_micros(&self) -> f64 {
        self.step_micros
    }
}

/// How the bodies are doing. `moving + waiting + arrived + stuck == bodies`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CrowdStats {
    /// Bodies in the crowd.
    pub bodies: usize,
    /// Gliding between cells now.
    pub moving: usize,
    /// Standing, not where they go: for a route, or for others to make room.
    pub waiting: usize,
    /// Where they go.
    pub arrived: usize,
    /// No way there as the grid is now.
    pub stuck: usize,
    /// Of the moving and waiting, those no nearer for [`DEADLOCK_SECONDS`] and not in a queue
    /// that moves (see the module docs): should read 0.
    pub deadlocked: usize,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Crowd>()
        .add_observer(unbody)
        .add_systems(
            Update,
            (
                (settle, gather)
                    .chain()
                    .in_set(crate::GridPathSystems::Plan)
                    .after(crate::agents::place_agents)
                    .before(crate::agents::ask_for_routes),
                step.in_set(crate::GridPathSystems::Move),
            ),
        );
}

/// An agent that is no longer a body heads for its destination itself, and starts its PIBT
/// state afresh if it becomes one again.
fn unbody(remove: On<Remove, Body>, mut commands: Commands) {
    // `try_`: a despawned body is removed too, and is gone by the time these run.
    if let Ok(mut entity) = commands.get_entity(remove.entity) {
        entity
            .try_remove::<GatherCell>()
            .try_insert(BodyMotion::default());
    }
}

/// What [`settle`] last looked at: the grid's revision, and how many bodies were placed.
#[derive(Default)]
struct Settled {
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
fn settle(
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
    // Big bodies first: they are the hardest to place.
    order.sort_by_key(|(e, agent, ..)| (std::cmp::Reverse(agent.size), *e));
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
fn covers(grid: &Grid, at: Point, size: u8) -> impl Iterator<Item = usize> + '_ {
    let k = i32::from(size.max(1));
    (0..k)
        .flat_map(move |dy| (0..k).map(move |dx| Point::new(at.x + dx, at.y + dy)))
        .filter_map(|p| grid.index_of(p))
}

/// The nearest cell where a body fits (`sized`, the grid for its size) and is `free`, breadth
/// first over every cell (walls too: a body walled in by a wide stroke still gets out).
fn nearest_place(
    grid: &Grid,
    sized: &Grid,
    free: impl Fn(Point) -> bool,
    from: Point,
) -> Option<Point> {
    let start = grid.point_of(grid.index_of(from).unwrap_or(0));
    // A set, not a grid-sized table: the place is mostly a few cells off.
    let mut seen: HashSet<Point> = [start].into_iter().collect();
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        if sized.is_passable(p) && free(p) {
            return Some(p);
        }
        for (dx, dy) in gridpath::STEPS {
            let q = Point::new(p.x + dx, p.y + dy);
            if grid.contains(q) && seen.insert(q) {
                queue.push_back(q);
            }
        }
    }
    None
}

/// A body as [`gather`] reads it.
type Gathering = (
    Entity,
    &'static GridAgent,
    &'static AgentProgress,
    Option<&'static Route>,
    Option<&'static Destination>,
    Option<&'static GatherCell>,
    &'static BodyMotion,
);

/// Seconds a body in a gathering of several sizes may get no nearer to its [`GatherCell`]
/// before it gives that cell up and settles where it stands (see the module docs). Well under
/// [`DEADLOCK_SECONDS`], so a jam is undone before it counts as a deadlock.
pub const GATHER_PATIENCE: f32 = 1.5;

/// Patience with a jam, for a body's AI. A body that has been no nearer to where it goes
/// ([`BodyMotion::stalled`]) for a patience gives up on it (a wanderer picks somewhere else, a
/// body in a gathering settles where it stands); and again only after as long once more, since
/// the body's count runs on across a new place to go, or a patience after it next gets nearer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Patience {
    /// How long it had been no nearer when it last gave up (0: not since it last got nearer).
    gave_up: f32,
}

impl Patience {
    /// Has a body no nearer for `stalled` seconds waited `patience` since it last gave up, or
    /// since it last got nearer?
    pub fn run_out(&self, stalled: f32, patience: f32) -> bool {
        let since = if self.nearer_since(stalled) {
            0.0
        } else {
            self.gave_up
        };
        stalled > since + patience
    }

    /// It gives up, having been no nearer for `stalled` seconds: its patience starts again.
    pub fn give_up(&mut self, stalled: f32) {
        self.gave_up = stalled;
    }

    /// [`run_out`](Self::run_out), and if so [`give_up`](Self::give_up).
    pub fn gives_up(&mut self, stalled: f32, patience: f32) -> bool {
        let out = self.run_out(stalled, patience);
        if out {
            self.give_up(stalled);
        }
        out
    }

    /// Has it got nearer since it last gave up (its count of seconds started again)?
    pub fn nearer_since(&self, stalled: f32) -> bool {
        stalled < self.gave_up
    }
}

/// A gathering body that gave up on a jam: the destination it gathers at, and its patience.
#[derive(Clone, Copy, Debug)]
struct GaveUp {
    to: Point,
    patience: Patience,
}

/// Bodies that share a destination get a cell of their own near it.
///
/// Cells are handed out once, nearest body to nearest cell, when the bodies are still far off:
/// by the time they arrive, a body bound for a cell deep in the gathering may find the way
/// filled by bodies already on theirs, and pushing through each of them costs many ticks. So,
/// as in TSWAP (Okumura and Défago, "Solving simultaneous target assignment and path planning
/// efficiently with time-independent execution", ICAPS 2022), a body about to step onto a
/// group-mate already standing on its own cell *swaps cells* with it: it stops there, and the
/// other walks on to the deeper cell. And bodies that each step onto the next one's cell, the
/// last onto the first's, hand their cells round ([`hand_round`]): two in a passage, each
/// bound past the other, need no room to pass.
///
/// That keeps a gathering of bodies of one size moving. But in a gathering of several sizes a
/// body can be jammed on its way in for good: it cannot swap with a body of another size, and a
/// cell deep in a thousand bodies of three sizes, packed wall to wall, may be out of reach of
/// the pushes of one body.
/// One that has got no nearer for [`GATHER_PATIENCE`] gives its cell up ([`give_up_on_jams`])
/// and settles where it stands, or, still outside the gathering's cells, at the free place
/// nearest to where it stands: a place it keeps for as long as the gathering lasts.
fn gather(
    nav: Option<Res<NavGrid>>,
    bodies: Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    mut commands: Commands,
    // A big body alone on its destination keeps the place it was given while no edit comes
    // near it: by destination, the grid's revision it was last checked on and the body.
    mut alone: Local<HashMap<(Point, Movement), (u64, Entity)>>,
    mut gave_up: Local<HashMap<Entity, GaveUp>>,
    mut kept: Local<HashMap<(Point, Movement), GatherCells>>,
    mut count: Local<HashMap<(Point, Movement), u32>>,
) {
    let Some(nav) = nav else {
        return;
    };
    gave_up.retain(|&e, g| bodies.get(e).is_ok_and(|b| b.4.map(|d| d.0) == Some(g.to)));
    // How many bodies go to each destination, first: most bodies in a crowd of wanderers go
    // to one of their own, and a list for each of them cost 2 ms a frame at 10,000 bodies.
    count.clear();
    for (_, agent, _, _, destination, ..) in &bodies {
        if let Some(&Destination(to)) = destination {
            *count.entry((to, agent.movement)).or_default() += 1;
        }
    }
    let mut groups: HashMap<(Point, Movement), Vec<(u32, Entity, u8)>> = HashMap::default();
    for (entity, agent, progress, _, destination, gathering, _) in &bodies {
        let key = destination.map(|d| (d.0, agent.movement));
        let size = agent.size.max(1);
        match key {
            // One body of one cell goes to the destination itself.
            Some(key) if size == 1 && count.get(&key) == Some(&1) => {}
            // A big body alone at its destination keeps its place while no edit comes near.
            Some(key)
                if count.get(&key) == Some(&1)
                    && keeps_alone(&mut alone, &nav, key, entity, size) =>
            {
                continue;
            }
            Some((to, movement)) => {
                let d = distance(movement, progress.cell(), to);
                groups
                    .entry((to, movement))
                    .or_default()
                    .push((d, entity, size));
                continue;
            }
            None => {}
        }
        if gathering.is_some() {
            commands.entity(entity).remove::<GatherCell>();
        }
    }
    let have = |e: Entity| bodies.get(e).ok().and_then(|b| b.5.map(|g| g.0));
    alone.retain(|key, _| count.get(key) == Some(&1));
    kept.retain(|key, _| count.contains_key(key));
    for ((to, movement), mut members) in groups {
        let area: usize = members.iter().map(|m| usize::from(m.2).pow(2)).sum();
        let cells = &GatherCells::kept(&mut kept, &nav, movement, to, 3 * area + 16).cells;
        let mixed = members.iter().any(|m| m.2 != members[0].2);
        // A body keeps its cell while that is still among the nearest: a body joining or
        // leaving moves no one else. The others, nearest first, take the nearest places left.
        let near: HashSet<Point> = cells.iter().take(area + area / 4 + 4).copied().collect();
        let mut claimed: HashSet<Point> = HashSet::default();
        let mut assigned: HashMap<Entity, Point> = HashMap::default();
        let mut sized: HashMap<u8, _> = HashMap::default();
        // Places settled for after a jam first: the bodies they cover are elsewhere.
        members.sort_by_key(|m| !gave_up.contains_key(&m.1));
        members.retain(|&(_, e, size)| {
            let fits = sized.entry(size).or_insert_with(|| nav.grid_for(size));
            // A place it settled for after a jam is kept, near or not.
            let settled = gave_up.contains_key(&e);
            let kept = have(e).filter(|&c| {
                fits.is_passable(c)
                    && footprint(c, size)
                        .all(|q| (settled || near.contains(&q)) && !claimed.contains(&q))
            });
            if let Some(c) = kept {
                claimed.extend(footprint(c, size));
                assigned.insert(e, c);
            }
            kept.is_none()
        });
        members.sort_unstable();
        // Each size's places, nearest middle first, and how far down the list a body of that
        // size has looked (a place that overlaps a claim stays overlapped).
        let mut places: HashMap<u8, (Vec<Point>, usize)> = HashMap::default();
        for &(_, e, size) in &members {
            let fits = sized.entry(size).or_insert_with(|| nav.grid_for(size));
            let (list, looked) = places.entry(size).or_insert_with(|| {
                let mut list: Vec<Point> = cells
                    .iter()
                    .copied()
                    .filter(|&p| fits.is_passable(p))
                    .collect();
                let k = i32::from(size) - 1;
                let d2 = |p: &Point| (2 * (p.x - to.x) + k).pow(2) + (2 * (p.y - to.y) + k).pow(2);
                list.sort_by_key(|p| (d2(p), *p));
                (list, 0)
            });
            while *looked < list.len()
                && footprint(list[*looked], size).any(|q| claimed.contains(&q))
            {
                *looked += 1;
            }
            match list.get(*looked) {
                Some(&place) => {
                    claimed.extend(footprint(place, size));
                    assigned.insert(e, place);
                }
                None => {
                    if have(e).is_some() {
                        commands.entity(e).remove::<GatherCell>();
                    }
                }
            }
        }
        let jams = Jams {
            nav: &nav,
            to,
            cells,
            claimed: &mut claimed,
            gave_up: &mut gave_up,
        };
        if mixed {
            give_up_on_jams(&bodies, &mut sized, jams, &mut assigned);
        }
        swap_on_the_way(&bodies, &mut assigned);
        for (e, cell) in assigned {
            if have(e) != Some(cell) {
                commands.entity(e).insert(GatherCell(cell));
            }
        }
    }
}

/// Does the one body of `size` bound for `key`'s destination keep the place it was given there?
/// Its place is chosen among the nearest `3 · area + 16` cells, found breadth first from the
/// destination: an edit farther off than that many moves (and its size, for the grid it fits
/// on) cannot change it. (The same holds when there was no place for it: it is not looked for
/// again.)
fn keeps_alone(
    alone: &mut HashMap<(Point, Movement), (u64, Entity)>,
    nav: &NavGrid,
    key: (Point, Movement),
    e: Entity,
    size: u8,
) -> bool {
    let to = key.0;
    let reach = 3 * u32::from(size).pow(2) + 16 + u32::from(size) + 1;
    let far = |p: Point| p.x.abs_diff(to.x).max(p.y.abs_diff(to.y)) > reach;
    let kept = alone.get(&key).is_some_and(|&(seen, owner)| {
        owner == e && nav.changes_since(seen).is_some_and(|mut c| c.all(far))
    });
    alone.insert(key, (nav.revision(), e));
    kept
}

/// A gathering, as [`give_up_on_jams`] changes it.
struct Jams<'a> {
    nav: &'a NavGrid,
    /// Its destination, and its cells, nearest first.
    to: Point,
    cells: &'a [Point],
    /// The cells its places cover.
    claimed: &'a mut HashSet<Point>,
    gave_up: &'a mut HashMap<Entity, GaveUp>,
}

/// At most this many bodies give up in one frame (each looks through the gathering's cells).
const GIVE_UPS_PER_FRAME: usize = 8;

/// Gives up the places of bodies jammed on their way to them (see [`gather`]): once a
/// [`GATHER_PATIENCE`], and again only after that once more, or after getting nearer.
///
/// A jammed body among the gathering's cells settles where it stands: the bodies whose places
/// it covers are elsewhere, not jammed there, and settle near where they are. One still
/// outside them settles for the free place nearest to where it stands (at the edge of the
/// gathering, not beyond the jam), and where it stands if it is jammed again on its way there.
/// (Settling only within the cells the gathering would fill, packed, read 0 deadlocked
/// headless against 0.1, but 81 looks of 790 found one in a 10-minute soak, against 2 of 522.)
fn give_up_on_jams(
    bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    sized: &mut HashMap<u8, Arc<Grid>>,
    jams: Jams<'_>,
    assigned: &mut HashMap<Entity, Point>,
) {
    let mut jammed: Vec<(Entity, Point, u8, f32)> = Vec::new();
    for (&e, &place) in assigned.iter() {
        let Ok((_, agent, progress, .., motion)) = bodies.get(e) else {
            continue;
        };
        let stalled = motion.stalled();
        let patience = jams.gave_up.get(&e).map(|g| g.patience).unwrap_or_default();
        if progress.cell() != place && patience.run_out(stalled, GATHER_PATIENCE) {
            jammed.push((e, progress.cell(), agent.size.max(1), stalled));
        }
    }
    jammed.sort_unstable_by_key(|&(e, ..)| e);
    jammed.truncate(GIVE_UPS_PER_FRAME);
    if jammed.is_empty() {
        return;
    }
    let size = |e: Entity| bodies.get(e).map_or(1, |b| b.1.size.max(1));
    // Who claims each cell.
    let mut claims: HashMap<Point, Entity> = assigned
        .iter()
        .flat_map(|(&e, &c)| footprint(c, size(e)).map(move |q| (q, e)))
        .collect();
    let inside: HashSet<Point> = jams.cells.iter().copied().collect();
    for (e, here, k, stalled) in jammed {
        let Some(&mine) = assigned.get(&e) else {
            continue;
        };
        let to = jams.to;
        // Jammed again on its way to the place it settled for: no more looking.
        let mut patience = Patience::default();
        patience.give_up(stalled);
        let again = jams
            .gave_up
            .insert(e, GaveUp { to, patience })
            .is_some_and(|g| g.to == to && !g.patience.nearer_since(stalled));
        let mut unclaim = |e: Entity, at: Point, claims: &mut HashMap<Point, Entity>| {
            for q in footprint(at, size(e)) {
                jams.claimed.remove(&q);
                claims.remove(&q);
            }
        };
        unclaim(e, mine, &mut claims);
        let fits = sized
            .entry(k)
            .or_insert_with(|| jams.nav.grid_for(k))
            .clone();
        let mut evicted = Vec::new();
        let place = if (again || inside.contains(&here)) && fits.is_passable(here) {
            let covered: HashSet<Entity> = footprint(here, k)
                .filter_map(|q| claims.get(&q).copied())
                .collect();
            for other in covered {
                if let Some(at) = assigned.remove(&other) {
                    unclaim(other, at, &mut claims);
                    evicted.push(other);
                }
            }
            here
        } else {
            nearest_free(jams.cells, &fits, |q| jams.claimed.contains(&q), here, k)
                .filter(|&p| d2(p, here) < d2(mine, here))
                .unwrap_or(mine)
        };
        jams.claimed.extend(footprint(place, k));
        claims.extend(footprint(place, k).map(|q| (q, e)));
        assigned.insert(e, place);
        // Those it displaced settle for the free place nearest to where they are, so that
        // one jam undone does not send others deep into the gathering.
        for other in evicted {
            let Ok((_, agent, progress, .., motion)) = bodies.get(other) else {
                continue;
            };
            let k = agent.size.max(1);
            let fits = sized.entry(k).or_insert_with(|| jams.nav.grid_for(k));
            if let Some(place) = nearest_free(
                jams.cells,
                fits,
                |q| jams.claimed.contains(&q),
                progress.cell(),
                k,
            ) {
                jams.claimed.extend(footprint(place, k));
                claims.extend(footprint(place, k).map(|q| (q, other)));
                assigned.insert(other, place);
                let mut patience = Patience::default();
                patience.give_up(motion.stalled());
                jams.gave_up.insert(other, GaveUp { to, patience });
            }
        }
    }
}

/// TSWAP's two ways of handing cells round a gathering (see [`gather`]), read off where each
/// body stands and the cell it steps onto next.
fn swap_on_the_way(
    bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    assigned: &mut HashMap<Entity, Point>,
) {
    let mut mates: Vec<(Entity, Mate)> = assigned
        .iter()
        .filter_map(|(&e, &cell)| {
            let (_, agent, progress, route, ..) = bodies.get(e).ok()?;
            let at = progress.cell();
            // Only a step along a route to its cell: one still bound for a cell it was given
            // before, or pushed off its route, would be read as wanting a way it does not go.
            let next = route
                .filter(|r| r.request.to == cell && at != cell)
                .and_then(|r| progress.next_cell(Some(r)))
                .filter(|n| n.x.abs_diff(at.x).max(n.y.abs_diff(at.y)) == 1);
            Some((
                e,
                Mate {
                    at,
                    next,
                    size: agent.size,
                },
            ))
        })
        .collect();
    mates.sort_unstable_by_key(|&(e, _)| e);
    let seen: Vec<Mate> = mates.iter().map(|&(_, m)| m).collect();
    let mut cells: Vec<Option<Point>> = mates
        .iter()
        .map(|(e, _)| assigned.get(e).copied())
        .collect();
    hand_round(&seen, &mut cells);
    for ((e, _), cell) in mates.iter().zip(cells) {
        if let Some(cell) = cell {
            assigned.insert(*e, cell);
        }
    }
}

/// A gathering's cells ([`gather_cells`]), kept between frames: found again only when the
/// gathering grows or shrinks, or an edit comes near enough to change them. (A thousand
/// chasers of mixed sizes look through 28,000 cells: 2.4 ms a frame in a dev build.)
struct GatherCells {
    n: usize,
    /// The grid's revision they are good for, and how far from the destination the search
    /// reached (in moves along x or y): edits farther off than one more cannot change them.
    revision: u64,
    reach: u32,
    cells: Vec<Point>,
}

impl GatherCells {
    /// The `n` cells of the gathering at `to`, from `kept` while still good.
    fn kept<'k>(
        kept: &'k mut HashMap<(Point, Movement), GatherCells>,
        nav: &NavGrid,
        movement: Movement,
        to: Point,
        n: usize,
    ) -> &'k GatherCells {
        let revision = nav.revision();
        let entry = kept.entry((to, movement));
        let fresh = |g: &GatherCells| {
            let far = |p: Point| p.x.abs_diff(to.x).max(p.y.abs_diff(to.y)) > g.reach + 1;
            g.n == n
                && nav
                    .changes_since(g.revision)
                    .is_some_and(|mut c| c.all(far))
        };
        entry
            .and_modify(|g| {
                if !fresh(g) {
                    (g.cells, g.reach) = gather_cells(nav.grid(), movement, to, n);
                    g.n = n;
                }
                g.revision = revision;
            })
            .or_insert_with(|| {
                let (cells, reach) = gather_cells(nav.grid(), movement, to, n);
                GatherCells {
                    n,
                    revision,
                    reach,
                    cells,
                }
            })
    }
}

type Moved<'a> = (
    Entity,
    &'a GridAgent,
    &'a mut AgentProgress,
    &'a mut AgentStatus,
    &'a mut BodyMotion,
    &'a mut Transform,
    Option<&'a Route>,
    Option<&'a Destination>,
    Option<&'a GatherCell>,
    Has<PathRequest>,
);

/// A body as the crowd's systems hold it.
type BodyItem<'a> = (
    Entity,
    &'a GridAgent,
    Mut<'a, AgentProgress>,
    Mut<'a, AgentStatus>,
    Mut<'a, BodyMotion>,
    Mut<'a, Transform>,
    Option<&'a Route>,
    Option<&'a Destination>,
    Option<&'a GatherCell>,
    bool,
);

/// Ticks the crowd (one PIBT step at each tick that is due), then glides every body and sets its
/// status.
fn step(
    time: Res<Time>,
    nav: Option<Res<NavGrid>>,
    mut crowd: ResMut<Crowd>,
    mut bodies: Query<Moved, With<Body>>,
) {
    let Some(nav) = nav else {
        return;
    };
    let began = Instant::now();
    let crowd = &mut *crowd;
    crowd.clock += time.delta_secs();
    let fastest = bodies.iter().map(|b| b.1.speed).fold(0.0f32, f32::max);
    let tick = crowd
        .tick
        .unwrap_or(1.0 / fastest.max(1e-3))
        .clamp(1.0 / 120.0, 10.0);
    let mut order: Vec<_> = bodies.iter_mut().filter(|b| b.2.placed()).collect();
    // A long frame runs a few ticks, not hundreds: the crowd slows down rather than stalls.
    if crowd.due > crowd.clock + tick || crowd.clock - crowd.due > 4.0 * tick {
        crowd.due = crowd.clock;
    }
    if crowd.due <= crowd.clock {
        // A tick's order is the entities', whatever order the query's tables are in.
        order = by_entity(order, |b| b.0);
    }
    while crowd.due <= crowd.clock {
        tick_once(crowd, &nav, tick, &mut order);
        crowd.due += tick;
        crowd.ticks += 1;
    }
    let now = crowd.clock;
    let mut by_size = GridsBySize::new(&nav);
    let mut stats = CrowdStats::default();
    let mut waits = Vec::with_capacity(order.len());
    for (_, agent, progress, status, motion, transform, route, destination, gathering, asking) in
        &mut order
    {
        // The glide: from where it was to its cell's centre, at its pace.
        let to = centre(progress.cell());
        let t = if motion.duration > 0.0 {
            ((now - motion.started) / motion.duration).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let at = motion.from.lerp(to, t);
        progress.set_position(at);
        let world = nav.layout().cells_to_world(at + agent.centre_offset());
        if transform.translation.truncate() != world {
            transform.translation.x = world.x;
            transform.translation.y = world.y;
        }
        let target = gathering.map(|g| g.0).or(destination.map(|d| d.0));
        // Progress: fewer cells left to walk than ever since it was sent there.
        match (target, *route) {
            // Only a route to where it goes now counts, and not while it is being replaced: an
            // old one is walked while the new one is searched, but getting along it is no
            // progress, and waiting for a search is no deadlock.
            (Some(target), Some(route))
                if **status != AgentStatus::Stuck && route.request.to == target && !*asking =>
            {
                if let Some(d) = progress.left_on(route) {
                    let d = d as u32;
                    let on = (route.request.from, route.revision);
                    match motion.best {
                        Some((was, best)) if was == target && motion.on == on => {
                            if d < best {
                                motion.best = Some((target, d));
                                motion.since = now;
                            }
                        }
                        // A new route (round a new wall, from where it was pushed, or to a new
                        // place) counts cells on itself: a new baseline, but the clock runs on.
                        // A body that gives up on a jam for somewhere else is no nearer for it.
                        Some(_) => {
                            motion.best = Some((target, d));
                            motion.on = on;
                        }
                        None => {
                            motion.best = Some((target, d));
                            motion.on = on;
                            motion.since = now;
                        }
                    }
                }
            }
            _ => motion.best = None,
        }
        // Arrived once it stands there, not while it glides in.
        let arrived = target == Some(progress.cell()) && t >= 1.0;
        let new = match **status {
            _ if arrived => AgentStatus::Arrived,
            AgentStatus::Stuck if route.is_none() => AgentStatus::Stuck,
            _ if route.is_some() => AgentStatus::Walking,
            _ => AgentStatus::Waiting,
        };
        if **status != new {
            **status = new;
        }
        if arrived {
            motion.best = None;
        }
        motion.stalled = motion.stalled_for(now);
        stats.bodies += 1;
        match new {
            AgentStatus::Arrived => stats.arrived += 1,
            AgentStatus::Stuck => stats.stuck += 1,
            _ if t < 1.0 => stats.moving += 1,
            _ => stats.waiting += 1,
        }
        if target == Some(progress.cell()) {
            motion.reached = now;
        }
        let stalled = motion.long_stalled(now) && !arrived;
        waits.push(Wait {
            cell: progress.cell(),
            size: agent.size.max(1),
            behind: progress
                .aiming_at(*route)
                .filter(|_| stalled)
                .and_then(|aim| {
                    first_step(
                        &by_size.get(agent.size),
                        agent.movement,
                        progress.cell(),
                        aim,
                    )
                }),
            stalled,
            home: target == Some(progress.cell()),
        });
    }
    for (b, blocked) in order.iter_mut().zip(blocked(&waits)) {
        stats.deadlocked += usize::from(b.4.still_blocked(blocked, now));
    }
    crowd.stats = stats;
    crowd.step_micros = began.elapsed().as_secs_f64() * 1e6;
}

/// `items` sorted by `key`, each moved once: a body's query item is a dozen references, and
/// a sort that shuffled them about took a third of a frame's step.
fn by_entity<T>(items: Vec<T>, key: impl Fn(&T) -> Entity) -> Vec<T> {
    let mut keys: Vec<(Entity, usize)> = items.iter().map(&key).zip(0..).collect();
    if keys.is_sorted() {
        return items;
    }
    keys.sort_unstable();
    let mut items: Vec<Option<T>> = items.into_iter().map(Some).collect();
    keys.iter().filter_map(|&(_, i)| items[i].take()).collect()
}

/// Seconds without getting nearer after which a body bigger than one cell looks for a way round
/// the bodies in its way ([`detour`]).
const DETOUR_SECONDS: f32 = 1.0;

/// The same for a body of one cell, which PIBT's pushes serve well: in a queue at a door, bodies
/// that look for ways round too soon swirl about instead of filing through.
const DETOUR_SECONDS_ONE_CELL: f32 = 4.0;

/// One PIBT step of every body that has earned a move.
fn tick_once(crowd: &mut Crowd, nav: &NavGrid, tick: f32, order: &mut [BodyItem<'_>]) {
    let Some(movement) = order.first().map(|b| b.1.movement) else {
        return;
    };
    let largest = order.iter().map(|b| b.1.size).max().unwrap_or(1).max(1);
    let sized: Vec<Arc<Grid>> = (1..=largest).map(|k| nav.grid_for(k)).collect();
    let grids: Vec<&Grid> = sized.iter().map(|g| &**g).collect();
    let mut movers = Vec::with_capacity(order.len());
    for (entity, agent, progress, _, motion, _, route, destination, gathering, _) in
        order.iter_mut()
    {
        let here = progress.cell();
        let size = agent.size.max(1);
        let cost = ground_cost(grids[usize::from(size) - 1], here);
        motion.credit = (motion.credit + tick * agent.speed.max(0.0) / cost).min(1.0);
        let target = gathering.map(|g| g.0).or(destination.map(|d| d.0));
        let mut mover = motion
            .mover
            .unwrap_or_else(|| Mover::new(here, entity.to_bits()));
        mover.at = here;
        mover.size = size;
        mover.free = motion.credit >= 1.0 - 1e-4;
        mover.arrived = target.is_none_or(|t| t == here) || route.is_none();
        mover.goal = target.filter(|_| route.is_some());
        movers.push(mover);
    }
    // Each body's guide: the distance to the next cell of its route (without a route, its own
    // cell is best: it moves only when pushed).
    let mut aims: Vec<(Point, Option<Point>)> = order
        .iter_mut()
        .map(|b| {
            let grid = grids[usize::from(b.1.size.max(1)) - 1];
            (b.2.cell(), b.6.and_then(|r| b.2.aim(r, grid, movement)))
        })
        .collect();
    // A body that has got no nearer for a while heads round the bodies in its way instead.
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
    if !stalled.is_empty() {
        // Bodies on their way are in the way; those that have arrived can be pushed aside.
        // Which cells they cover, on a grid-sized table of bits kept between ticks (hashing
        // the footprints of thousands of bodies at every tick cost more than the detours).
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
    let next = crowd
        .step
        .step(&grids, movement, &mut movers, |i, c| match aims[i] {
            (_, Some(aim)) => distance(movement, c, aim),
            (here, None) => u32::from(c != here),
        })
        .to_vec();
    for ((b, mover), to) in order.iter_mut().zip(movers).zip(next) {
        let (_, agent, progress, _, motion, _, route, ..) = b;
        let here = progress.cell();
        if to != here {
            let grid = grids[usize::from(agent.size.max(1)) - 1];
            let cost = ground_cost(grid, here);
            let length = if to.x != here.x && to.y != here.y {
                std::f32::consts::SQRT_2
            } else {
                1.0
            };
            motion.from = progress.position().unwrap_or(centre(here));
            motion.started = crowd.clock;
            motion.duration = length * cost / agent.speed.max(1e-3);
            motion.credit -= 1.0;
            progress.step_to(to, *route, grid, movement);
        }
        motion.mover = Some(mover);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_waiting_behind_one_jostled_about_its_own_cell_is_deadlocked() {
        // A corridor one cell wide; a body that never moves (speed 0) stands on its own cell
        // in it, and another is bound past it. Passers-by jostling the still one about its cell
        // are played by resetting its glide at every frame: it is never arrived, but it is on
        // its own cell and on its way nowhere, so the one behind it is not in a queue.
        use crate::{CellPos, Destination, GridAgent, GridPathPlugin, GridPathSystems, Obstacle};
        use bevy::time::TimeUpdateStrategy;
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, GridPathPlugin))
            .insert_resource(TimeUpdateStrategy::ManualDuration(
                std::time::Duration::from_millis(50),
            ))
            .insert_resource(NavGrid::new(6, 3).expect("a grid"));
        for x in 0..6 {
            for y in [0, 2] {
                app.world_mut().spawn((Obstacle, CellPos(Point::new(x, y))));
            }
        }
        let spawn = |app: &mut App, speed: f32, at: Point, to: Point| {
            let place = Transform::from_xyz(at.x as f32, at.y as f32, 0.0);
            let agent = (GridAgent::new(speed), Body, place, Destination(to));
            app.world_mut().spawn(agent).id()
        };
        let still = spawn(&mut app, 0.0, Point::new(3, 1), Point::new(3, 1));
        let bound = spawn(&mut app, 4.0, Point::new(0, 1), Point::new(5, 1));
        app.add_systems(
            Update,
            (move |crowd: Res<Crowd>, mut motions: Query<&mut BodyMotion>| {
                if let Ok(mut motion) = motions.get_mut(still) {
                    motion.started = crowd.clock;
                    motion.duration = 1.0;
                }
            })
            .before(GridPathSystems::Move),
        );
        let frames = (0..400).find(|_| {
            app.update();
            app.world().resource::<Crowd>().stats().deadlocked > 0
        });
        let motion = app.world().get::<BodyMotion>(bound).expect("a body");
        assert!(
            frames.is_some() && motion.deadlocked(),
            "never counted deadlocked: {motion:?}"
        );
    }

    #[test]
    fn a_body_passers_by_push_off_its_cell_is_not_deadlocked_while_it_gets_back_on() {
        // No nearer than its best for 9 s, but back on its cell 2 s ago.
        let mut motion = BodyMotion {
            best: Some((Point::new(0, 0), 0)),
            since: 1.0,
            reached: 8.0,
            ..default()
        };
        assert!(!motion.long_stalled(10.0));
        motion.reached = 4.0;
        assert!(motion.long_stalled(10.0));
    }

    #[test]
    fn a_gatherings_cells_are_kept_till_an_edit_comes_near_them() {
        let mut nav = NavGrid::new(64, 64).expect("a grid");
        let movement = Movement::EightWay(gridpath::CornerRule::NeverCut);
        let to = Point::new(10, 10);
        let mut kept = HashMap::default();
        let fresh = |nav: &NavGrid| gather_cells(nav.grid(), movement, to, 40).0;
        let first = GatherCells::kept(&mut kept, &nav, movement, to, 40)
            .cells
            .clone();
        assert_eq!(first, fresh(&nav));
        // A wall far off: the same cells, not searched again (the very same list).
        let list = kept[&(to, movement)].cells.as_ptr();
        nav.block(Point::new(60, 60), Entity::from_bits(1));
        let again = GatherCells::kept(&mut kept, &nav, movement, to, 40);
        assert_eq!(again.cells.as_ptr(), list);
        assert_eq!(again.cells, first);
        // A wall on one of them: searched again, and it is gone.
        nav.block(first[5], Entity::from_bits(2));
        let now = GatherCells::kept(&mut kept, &nav, movement, to, 40)
            .cells
            .clone();
        assert_eq!(now, fresh(&nav));
        assert!(!now.contains(&first[5]));
        // The gathering grows: searched again.
        assert_eq!(
            GatherCells::kept(&mut kept, &nav, movement, to, 60).cells,
            gather_cells(nav.grid(), movement, to, 60).0
        );
    }

    #[test]
    fn a_jammed_body_gives_up_once_a_patience_not_every_frame() {
        let mut p = Patience::default();
        assert!(!p.gives_up(0.5, 2.0));
        assert!(!p.gives_up(1.9, 2.0));
        assert!(p.gives_up(2.1, 2.0));
        // Still stalled a frame later: it has just given up.
        assert!(!p.gives_up(2.2, 2.0));
        assert!(p.gives_up(4.2, 2.0));
        // It got nearer (the count started again): a whole patience before the next.
        assert!(p.nearer_since(0.1));
        assert!(!p.gives_up(0.1, 2.0));
        assert!(!p.gives_up(1.9, 2.0));
        assert!(p.gives_up(2.1, 2.0));
    }

    #[test]
    fn a_body_counts_as_deadlocked_once_blocked_at_every_frame_for_a_second() {
        let mut motion = BodyMotion::default();
        // Blocked for a tick, then queued again: the body ahead was pushed aside.
        assert!(!motion.still_blocked(true, 10.0));
        assert!(!motion.still_blocked(true, 10.25));
        assert!(!motion.still_blocked(false, 10.5));
        // Blocked from 10.75 on: deadlocked a second later, not before.
        for now in [10.75, 11.0, 11.25, 11.5] {
            assert!(!motion.still_blocked(true, now));
        }
        assert!(motion.still_blocked(true, 11.75));
    }
}
