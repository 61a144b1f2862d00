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
//!   destination, the nearest body to the nearest cell.
//! - **Edits**: a wall painted under a body (or a body spawned on another) moves it to the
//!   nearest free cell no body stands on ([`AgentEscaped`] says so for walls).
//! - **Liveness**: [`CrowdStats`] counts bodies moving, waiting, arrived, and *deadlocked*: no
//!   nearer to where they go for [`DEADLOCK_SECONDS`] while a route exists.
//!
//! Why PIBT and not local avoidance (ORCA, RVO2): local avoidance keeps units apart but, having
//! no plan, deadlocks in corridors and crushes at doors; PIBT's priorities make someone give way.

use crate::agents::{AgentEscaped, AgentProgress, AgentStatus, Destination, GridAgent};
use crate::flow::SharedFlow;
use crate::nav_grid::NavGrid;
use crate::requests::Route;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use gridpath::mapf::{CrowdStep, Mover};
use gridpath::{Cell, Grid, Movement, Point};
use std::collections::VecDeque;

/// Seconds without getting nearer while a route exists, after which a body counts as
/// deadlocked.
pub const DEADLOCK_SECONDS: f32 = 5.0;

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
    /// Its nearest distance yet to where it goes, and the clock when it got there.
    best: Option<(Point, u32)>,
    since: f32,
}

impl BodyMotion {
    /// Has it been no nearer to where it goes for [`DEADLOCK_SECONDS`]?
    pub fn deadlocked(&self, now: f32) -> bool {
        self.best.is_some() && now - self.since > DEADLOCK_SECONDS
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
    /// Of the moving and waiting, those no nearer for [`DEADLOCK_SECONDS`]: should read 0.
    pub deadlocked: usize,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Crowd>().add_systems(
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

fn centre(p: Point) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

/// Octile distance in fifths of a cell (straight 5, diagonal 7), or Manhattan for 4-way.
fn distance(movement: Movement, a: Point, b: Point) -> u32 {
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    if movement.allows_diagonals() {
        5 * dx.max(dy) + 2 * dx.min(dy)
    } else {
        5 * (dx + dy)
    }
}

/// Bodies stand on free cells, one each: a body on a wall (painted under it) or on another
/// body's cell (spawned there) moves to the nearest free cell no body stands on.
fn settle(
    nav: Option<Res<NavGrid>>,
    crowd: Res<Crowd>,
    mut bodies: Query<(Entity, &mut AgentProgress, &mut BodyMotion), With<Body>>,
    mut escaped: MessageWriter<AgentEscaped>,
) {
    let Some(nav) = nav else {
        return;
    };
    let grid = nav.grid();
    let mut taken = vec![false; grid.len()];
    let mut order: Vec<_> = bodies.iter_mut().filter(|(_, p, _)| p.placed()).collect();
    order.sort_by_key(|(e, ..)| *e);
    let mut homeless = Vec::new();
    for (entity, progress, motion) in order {
        match grid.index_of(progress.cell()) {
            Some(i) if grid.is_passable(progress.cell()) && !taken[i] => taken[i] = true,
            _ => homeless.push((entity, progress, motion)),
        }
    }
    for (entity, mut progress, mut motion) in homeless {
        let from = progress.cell();
        let Some(to) = nearest_untaken(grid, &taken, from) else {
            continue; // a full grid: it stays, and takes no part in the steps
        };
        if let Some(i) = grid.index_of(to) {
            taken[i] = true;
        }
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

/// The nearest free cell not `taken`, breadth first over every cell (walls too: a body walled
/// in by a wide stroke still gets out).
fn nearest_untaken(grid: &Grid, taken: &[bool], from: Point) -> Option<Point> {
    let mut seen = vec![false; grid.len()];
    let start = grid.index_of(from).unwrap_or(0);
    seen[start] = true;
    let mut queue = VecDeque::from([grid.point_of(start)]);
    while let Some(p) = queue.pop_front() {
        let i = grid.index_of(p)?;
        if grid.is_passable(p) && !taken[i] {
            return Some(p);
        }
        for (dx, dy) in gridpath::STEPS {
            let q = Point::new(p.x + dx, p.y + dy);
            if let Some(k) = grid.index_of(q)
                && !seen[k]
            {
                seen[k] = true;
                queue.push_back(q);
            }
        }
    }
    None
}

/// Bodies that share a destination get a cell of their own near it.
fn gather(
    nav: Option<Res<NavGrid>>,
    bodies: Query<
        (
            Entity,
            &GridAgent,
            &AgentProgress,
            Option<&Destination>,
            Option<&GatherCell>,
        ),
        (With<Body>, Without<SharedFlow>),
    >,
    mut commands: Commands,
) {
    let Some(nav) = nav else {
        return;
    };
    let grid = nav.grid();
    let mut groups: HashMap<(Point, Movement), Vec<(u32, Entity)>> = HashMap::default();
    for (entity, agent, progress, destination, gathering) in &bodies {
        match destination {
            Some(&Destination(to)) => {
                let d = distance(agent.movement, progress.cell(), to);
                groups
                    .entry((to, agent.movement))
                    .or_default()
                    .push((d, entity));
            }
            None if gathering.is_some() => {
                commands.entity(entity).remove::<GatherCell>();
            }
            None => {}
        }
    }
    for ((to, movement), mut members) in groups {
        let cells = if members.len() > 1 {
            gather_cells(grid, movement, to, members.len())
        } else {
            Vec::new()
        };
        // A body keeps its cell while that is still among the nearest: a body joining or
        // leaving moves no one else. The others, nearest first, take the nearest cells left.
        let have = |e: Entity| bodies.get(e).ok().and_then(|b| b.4.copied());
        let mut free: Vec<Point> = cells.clone();
        members.retain(|&(_, e)| match have(e) {
            Some(GatherCell(c)) => match free.iter().position(|&f| f == c) {
                Some(k) => {
                    free.remove(k);
                    false
                }
                None => true,
            },
            None => true,
        });
        members.sort_unstable();
        for (k, (_, entity)) in members.into_iter().enumerate() {
            match free.get(k) {
                Some(&cell) => commands.entity(entity).insert(GatherCell(cell)),
                None if have(entity).is_some() => commands.entity(entity).remove::<GatherCell>(),
                None => continue,
            };
        }
    }
}

/// The `n` free cells nearest `to` (by straight-line distance) among those reachable from it.
fn gather_cells(grid: &Grid, movement: Movement, to: Point, n: usize) -> Vec<Point> {
    if !grid.is_passable(to) {
        return Vec::new();
    }
    // Breadth first to twice as many as needed, then the nearest as the crow flies: a round
    // gathering rather than the square rings 8-way steps make.
    let want = 2 * n + 8;
    let mut found = vec![to];
    let mut seen = HashMap::from([(to, ())]);
    let mut k = 0;
    while k < found.len() && found.len() < want {
        for (next, _) in movement.neighbors(grid, found[k]) {
            if seen.insert(next, ()).is_none() {
                found.push(next);
            }
        }
        k += 1;
    }
    let d2 = |p: &Point| (p.x - to.x).pow(2) + (p.y - to.y).pow(2);
    found.sort_by_key(|p| (d2(p), *p));
    found.truncate(n);
    found
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
    let grid = nav.grid();
    let crowd = &mut *crowd;
    crowd.clock += time.delta_secs();
    let fastest = bodies.iter().map(|b| b.1.speed).fold(0.0f32, f32::max);
    let tick = crowd
        .tick
        .unwrap_or(1.0 / fastest.max(1e-3))
        .clamp(1.0 / 120.0, 10.0);
    let mut order: Vec<_> = bodies.iter_mut().filter(|b| b.2.placed()).collect();
    order.sort_by_key(|b| b.0);
    // A long frame runs a few ticks, not hundreds: the crowd slows down rather than stalls.
    if crowd.due > crowd.clock + tick || crowd.clock - crowd.due > 4.0 * tick {
        crowd.due = crowd.clock;
    }
    while crowd.due <= crowd.clock {
        tick_once(crowd, grid, tick, &mut order);
        crowd.due += tick;
        crowd.ticks += 1;
    }
    let now = crowd.clock;
    let mut stats = CrowdStats::default();
    for (_, agent, progress, status, motion, transform, route, destination, gathering) in &mut order
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
        let world = nav.layout().cells_to_world(at);
        if transform.translation.truncate() != world {
            transform.translation.x = world.x;
            transform.translation.y = world.y;
        }
        let target = gathering.map(|g| g.0).or(destination.map(|d| d.0));
        // Progress: nearer to where it goes than ever since it was sent there.
        match target {
            Some(target) if route.is_some() && **status != AgentStatus::Stuck => {
                let d = distance(agent.movement, progress.cell(), target);
                match motion.best {
                    Some((was, best)) if was == target && d >= best => {}
                    _ => {
                        motion.best = Some((target, d));
                        motion.since = now;
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
        stats.bodies += 1;
        match new {
            AgentStatus::Arrived => stats.arrived += 1,
            AgentStatus::Stuck => stats.stuck += 1,
            _ if t < 1.0 => stats.moving += 1,
            _ => stats.waiting += 1,
        }
        if motion.deadlocked(now) && !arrived {
            stats.deadlocked += 1;
        }
    }
    crowd.stats = stats;
}

/// One PIBT step of every body that has earned a move.
fn tick_once(crowd: &mut Crowd, grid: &Grid, tick: f32, order: &mut [BodyItem<'_>]) {
    let Some(movement) = order.first().map(|b| b.1.movement) else {
        return;
    };
    let mut movers = Vec::with_capacity(order.len());
    for (entity, agent, progress, _, motion, _, route, destination, gathering) in order.iter_mut() {
        let here = progress.cell();
        let cost = match grid.cell(here) {
            Some(Cell::Passable(c)) => c as f32,
            _ => 1.0,
        };
        motion.credit = (motion.credit + tick * agent.speed.max(0.0) / cost).min(1.0);
        let target = gathering.map(|g| g.0).or(destination.map(|d| d.0));
        let mut mover = motion
            .mover
            .unwrap_or_else(|| Mover::new(here, entity.to_bits()));
        mover.at = here;
        mover.free = motion.credit >= 1.0 - 1e-4;
        mover.arrived = target.is_none_or(|t| t == here) || route.is_none();
        movers.push(mover);
    }
    // Each body's guide: the distance to the next cell of its route (without a route, its own
    // cell is best: it moves only when pushed).
    let aims: Vec<(Point, Option<Point>)> = order
        .iter_mut()
        .map(|b| (b.2.cell(), b.6.and_then(|r| b.2.aim(r))))
        .collect();
    let next = crowd
        .step
        .step(grid, movement, &mut movers, |i, c| match aims[i] {
            (_, Some(aim)) => distance(movement, c, aim),
            (here, None) => u32::from(c != here),
        })
        .to_vec();
    for ((b, mover), to) in order.iter_mut().zip(movers).zip(next) {
        let (_, agent, progress, _, motion, _, route, ..) = b;
        let here = progress.cell();
        if to != here {
            let cost = match grid.cell(here) {
                Some(Cell::Passable(c)) => c as f32,
                _ => 1.0,
            };
            let length = if to.x != here.x && to.y != here.y {
                std::f32::consts::SQRT_2
            } else {
                1.0
            };
            motion.from = progress.position().unwrap_or(centre(here));
            motion.started = crowd.clock;
            motion.duration = length * cost / agent.speed.max(1e-3);
            motion.credit -= 1.0;
            progress.step_to(to, *route);
        }
        motion.mover = Some(mover);
    }
}
