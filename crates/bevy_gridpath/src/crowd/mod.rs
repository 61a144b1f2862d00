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
//! - **Planned ahead** ([`Crowd::plan_ahead`], on by default but on the web): a tick's PIBT step is
//!   planned off the frame, on a thread of its own, a quarter of a tick before it is due, while
//!   the bodies glide, with the stalled bodies' ways round; the frame the tick falls in only
//!   takes its moves: at 10,000 bodies PIBT takes about 20 ms, more
//!   than a frame. Bodies' cells change only at ticks, so the plan sees them as they will stand; a
//!   route that lands in that quarter tick is read at the next. A move that an edit made in the
//!   meantime no longer fits (a wall dropped on its cell, a body spawned or moved there) holds, and
//!   so does every body that would step onto a held one: the rules hold whatever the game does
//!   between ticks. A plan not done by its tick is waited for, so the moves do not depend on the
//!   machine.
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
//! - **Jams PIBT cannot undo**: PIBT is not complete. Bodies packed wall to wall, each bound for
//!   a place another holds (three in the wrong order in a passage, a room filled to its last
//!   cell, big units in places side by side with the last one in bound behind the others),
//!   push each other off and back for good. With [`Crowd::untangle`] on, once a body near its
//!   place has got no nearer for [`UNTANGLE_AFTER`] seconds, the bodies round it are planned
//!   together (complete, off the frame: LaCAM for one-cell bodies, A\* over joint moves with
//!   bigger ones) and walked through the plan (`untangle`; [`CrowdStats::untangled`] counts
//!   them).
//!
//! Why PIBT and not local avoidance (ORCA, RVO2): local avoidance keeps units apart but, having
//! no plan, deadlocks in corridors and crushes at doors; PIBT's priorities make someone give way.
//!
//! The systems, one job a file: `settle` (bodies apart and off walls), `gather` (a cell of its
//! own for each body of a gathering, and `jams` undone), `step` (the ticks, the glides and the
//! counts), `tick` (one PIBT step), `ahead` (a step planned off the frame, and checked when it
//! is taken), `untangle` (jams planned whole). `motion` is a body's own
//! state, `patience` its AI's patience with a jam. The engine-free parts (PIBT, the detours,
//! TSWAP's cells, the deadlock count, a jam's region and its joint plans) are in
//! [`gridpath::mapf::crowd`].
//!
//! [`AgentEscaped`]: crate::AgentEscaped
//! [`Destination`]: crate::Destination
//! [`NavGrid::grid_for`]: crate::NavGrid::grid_for

use crate::agent::{AgentProgress, AgentStatus, Destination, GridAgent};
use crate::requests::Route;
use bevy::prelude::*;
use gather::gather;
use gridpath::Point;
use gridpath::mapf::CrowdStep;
use settle::settle;
use step::step;

mod ahead;
mod destinations;
mod detours;
mod gather;
mod gather_due;
mod jams;
mod motion;
mod patience;
mod settle;
mod step;
mod tick;
mod untangle;

pub use motion::BodyMotion;
pub use patience::{GATHER_PATIENCE, Patience};
pub use untangle::UNTANGLE_AFTER;

/// A body as the crowd's systems hold it.
pub(super) type BodyItem<'a> = (
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
///
/// [`SharedFlow`]: crate::SharedFlow
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[require(GridAgent, BodyMotion)]
pub struct Body;

/// The cell of its own a body heads for when it shares its [`Destination`] with other bodies.
/// Kept by the crowd; read it, do not write it.
///
/// [`Destination`]: crate::Destination
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherCell(pub Point);

/// The crowd: its clock and PIBT's scratch space. Read [`Crowd::stats`] for the counts.
#[derive(Resource, Debug)]
pub struct Crowd {
    /// Seconds a tick; `None`: the time the fastest body takes to cross a cell of cost 1.
    pub tick: Option<f32>,
    /// Plan jams PIBT cannot undo whole, with LaCAM (see [`UNTANGLE_AFTER`]). Off by default:
    /// while a jam is searched and walked its bodies are held and its region closed to the
    /// others, which a game with its own idea of a jam may not want.
    pub untangle: bool,
    /// Plan each tick's PIBT step a quarter of a tick before it is due, off the frame on a
    /// thread of its own (with [`SearchThread::TaskPool`]), so that the frame the tick falls in does not wait for it
    /// (see the module docs). On by default, but on the web, where the task pool runs on the
    /// frame's one thread and there is nothing to gain. Off, each tick is planned in its own
    /// frame, and a route or destination that came in the last quarter of a tick is read at once.
    ///
    /// [`SearchThread::TaskPool`]: crate::SearchThread::TaskPool
    pub plan_ahead: bool,
    pub(super) step: CrowdStep,
    /// The step planned for the next tick, while it runs.
    pub(super) planned: Option<ahead::TickPlan>,
    /// How many bodies cover each cell, for checking a plan picked up.
    pub(super) counts: Vec<u16>,
    /// Seconds since the crowd started, and until the next tick.
    pub(super) clock: f32,
    pub(super) due: f32,
    pub(super) ticks: u64,
    pub(super) stats: CrowdStats,
    /// What the last frame's step took, in microseconds.
    pub(super) step_micros: f64,
    /// Which cells a body on its way covers, one bit each, filled for the detours of a tick and
    /// cleared after them: bits rather than who, as a detour only asks whether a cell is free,
    /// and a table of bits (a thirty-second of one of indices) stays in the cache.
    pub(super) covered: Vec<u64>,
    /// The jam whose plan is searched or walked, when to look for one again, how many were
    /// searched, and how many walked through to the end.
    pub(super) untangling: Option<untangle::Untangling>,
    pub(super) look_again: f32,
    /// Jammed bodies whose jam was not solved, and until when it is not tried again.
    pub(super) backed_off: bevy::platform::collections::HashMap<Entity, f32>,
    pub(super) searches: u64,
    pub(super) untangled: u64,
}

impl Default for Crowd {
    fn default() -> Self {
        Self {
            tick: None,
            untangle: false,
            plan_ahead: cfg!(not(target_arch = "wasm32")),
            step: CrowdStep::new(0xB0D1E5),
            planned: None,
            counts: Vec::new(),
            clock: 0.0,
            due: 0.0,
            ticks: 0,
            stats: CrowdStats::default(),
            step_micros: 0.0,
            covered: Vec::new(),
            untangling: None,
            look_again: 0.0,
            backed_off: Default::default(),
            searches: 0,
            untangled: 0,
        }
    }
}

impl Crowd {
    /// The counts as of the last frame.
    pub fn stats(&self) -> CrowdStats {
        self.stats
    }

    /// Jams of bodies solved whole and walked through so far (see [`UNTANGLE_AFTER`]).
    pub fn untangled(&self) -> u64 {
        self.untangled
    }

    /// Ticks so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// What the crowd's step took in the last frame, in microseconds: its ticks (PIBT, and the
    /// ways round for stalled bodies), the glides and the counts. (Settling bodies after edits
    /// and handing out gathering cells are not in it, nor, with [`Crowd::plan_ahead`], the
    /// work planned off the frame: only what the frame spent preparing and taking the plan.)
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
    /// Jams solved whole and walked through since the crowd began ([`UNTANGLE_AFTER`]).
    pub untangled: u64,
}

/// Bodies are settled and gathered in `gather_in` (the plugin puts it after new agents are
/// placed and before they ask for routes), and stepped in `step_in`.
pub(crate) fn plugin(app: &mut App, gather_in: impl SystemSet, step_in: impl SystemSet) {
    app.init_resource::<Crowd>()
        .add_observer(unbody)
        .add_systems(
            Update,
            (
                (settle, gather).chain().in_set(gather_in),
                step.in_set(step_in),
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
