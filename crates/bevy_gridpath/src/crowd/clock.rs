//! The crowd's resource: its tick, its switches, PIBT's scratch, and the counts a game reads.

use super::ahead;
use super::jam_search::JamSearching;
use bevy::prelude::*;
use gridpath::mapf::crowd::{CrowdGuidance, CrowdRuntime, CrowdWays};

/// The crowd: its clock and PIBT's scratch space. Read [`Crowd::stats`] for the counts.
#[derive(Resource, Debug)]
pub struct Crowd {
    /// Seconds a tick; `None`: the time the fastest body takes to cross a cell of cost 1.
    pub tick: Option<f32>,
    /// Plan jams PIBT cannot undo whole, with LaCAM (see [`UNTANGLE_AFTER`](crate::UNTANGLE_AFTER)). Off by default:
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
    /// Bodies that share a destination each get a cell of their own near it ([`GatherCell`]:
    /// chasers round a goal, a squad at a rally point). On by default. Off, each goes to the
    /// destination itself, and one that finds another there waits its turn: robots visiting
    /// one shelf, each given its next task as it arrives.
    ///
    /// [`GatherCell`]: crate::GatherCell
    pub gather: bool,
    /// How bodies are steered off each other's way ([`CrowdGuidance`]).
    pub guidance: CrowdGuidance,
    /// What orders each body's moves: its route, or its destination's distance table
    /// ([`CrowdWays`]).
    pub ways: CrowdWays,
    /// The core's crowd: PIBT's state, the recent flow (with [`CrowdGuidance::Traffic`]), the
    /// goal tables or guide paths, the ways round, and the jam being untangled.
    pub(super) runtime: CrowdRuntime,
    /// The step planned for the next tick, while it runs.
    pub(super) planned: Option<ahead::TickPlan>,
    /// Seconds since the crowd started, and until the next tick.
    pub(super) clock: f32,
    pub(super) due: f32,
    pub(super) ticks: u64,
    pub(super) stats: CrowdStats,
    /// What the last frame's step took, in microseconds.
    #[cfg(feature = "diagnostics")]
    pub(super) step_micros: f64,
    /// The search of the jam being untangled, while it runs.
    pub(super) jam_search: Option<JamSearching>,
}

impl Default for Crowd {
    fn default() -> Self {
        Self {
            tick: None,
            untangle: false,
            plan_ahead: cfg!(not(target_arch = "wasm32")),
            gather: true,
            guidance: CrowdGuidance::default(),
            ways: CrowdWays::default(),
            runtime: CrowdRuntime::new(0xB0D1E5),
            planned: None,
            clock: 0.0,
            due: 0.0,
            ticks: 0,
            stats: CrowdStats::default(),
            #[cfg(feature = "diagnostics")]
            step_micros: 0.0,
            jam_search: None,
        }
    }
}

impl Crowd {
    /// The counts as of the last frame.
    pub fn stats(&self) -> CrowdStats {
        self.stats
    }

    /// Jams of bodies solved whole and walked through so far (see [`UNTANGLE_AFTER`](crate::UNTANGLE_AFTER)).
    pub fn untangled(&self) -> u64 {
        self.runtime.untangler.untangled()
    }

    /// Ticks so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// What the crowd's step took in the last frame, in microseconds: its ticks (PIBT, and the
    /// ways round for stalled bodies), the glides and the counts. (Settling bodies after edits
    /// and handing out gathering cells are not in it, nor, with [`Crowd::plan_ahead`], the
    /// work planned off the frame: only what the frame spent preparing and taking the plan.)
    ///
    /// With the `diagnostics` feature: a game does not need it to move its crowd, and the clock
    /// is read twice a frame.
    #[cfg(feature = "diagnostics")]
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
    /// Of the moving and waiting, those no nearer for [`DEADLOCK_SECONDS`](super::DEADLOCK_SECONDS) and not in a queue
    /// that moves (see the module docs): should read 0.
    pub deadlocked: usize,
    /// Jams solved whole and walked through since the crowd began ([`UNTANGLE_AFTER`](crate::UNTANGLE_AFTER)).
    pub untangled: u64,
}
