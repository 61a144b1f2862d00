//! The crowd's resource: its tick, its switches, the core's runtime, and the counts a game reads.

use super::ahead;
use crate::off_frame::Pending;
use bevy::prelude::*;
use gridpath::mapf::crowd::{
    CrowdClock, CrowdGuidance, CrowdRuntime, CrowdStats, CrowdWays, JamPlan,
};

/// The crowd: what a game sets, and the core's runtime. Read [`Crowd::stats`] for the counts.
#[derive(Resource, Debug)]
pub struct Crowd {
    /// Seconds a tick; `None`: the time the fastest body takes to cross a cell of cost 1.
    pub tick: Option<f32>,
    /// Plan jams PIBT cannot undo whole (after [`UNTANGLE_AFTER`](crate::UNTANGLE_AFTER)). Off
    /// by default: while a jam is searched and walked its bodies are held and its region closed
    /// to the others, which a game with its own idea of a jam may not want.
    pub untangle: bool,
    /// Plan each tick's step shortly before it is due, off the frame (with
    /// [`SearchThread::TaskPool`](crate::SearchThread::TaskPool)), so that the frame the tick
    /// falls in does not wait for it. On but on the web, whose task pool runs on the frame's
    /// thread. Off, a route or destination that came in the last quarter of a tick is read at
    /// once.
    pub plan_ahead: bool,
    /// Bodies that share a destination each get a cell of their own near it
    /// ([`GatherCell`](crate::GatherCell): chasers round a goal, a squad at a rally point). On
    /// by default. Off, each goes to the destination itself, and one that finds another there
    /// waits its turn: robots visiting one shelf, each given its next task as it arrives.
    pub gather: bool,
    /// How bodies are steered off each other's way ([`CrowdGuidance`]).
    pub guidance: CrowdGuidance,
    /// What orders each body's moves: its route, its destination's distance table or a guide
    /// path ([`CrowdWays`]).
    pub ways: CrowdWays,
    pub(super) runtime: CrowdRuntime,
    /// The step planned for the next tick, while it runs, and a jam's search.
    pub(super) planned: Option<ahead::TickPlan>,
    pub(super) jam_search: Option<Pending<Option<JamPlan>>>,
    pub(super) clock: CrowdClock,
    pub(super) stats: CrowdStats,
    #[cfg(feature = "diagnostics")]
    pub(super) step_micros: f64,
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
            jam_search: None,
            clock: CrowdClock::default(),
            stats: CrowdStats::default(),
            #[cfg(feature = "diagnostics")]
            step_micros: 0.0,
        }
    }
}

impl Crowd {
    /// The counts as of the last frame.
    pub fn stats(&self) -> CrowdStats {
        self.stats
    }

    /// Jams of bodies solved whole and walked through so far.
    pub fn untangled(&self) -> u64 {
        self.runtime.untangler.untangled()
    }

    /// Ticks so far.
    pub fn ticks(&self) -> u64 {
        self.clock.ticks
    }

    /// What the crowd's step took in the last frame, in microseconds: what the frame spent on
    /// its ticks, glides and counts (not settling, gathering, nor a step planned off the
    /// frame). With the `diagnostics` feature: the clock is read twice a frame.
    #[cfg(feature = "diagnostics")]
    pub fn step_micros(&self) -> f64 {
        self.step_micros
    }
}
