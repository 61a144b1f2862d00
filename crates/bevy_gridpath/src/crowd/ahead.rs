//! A tick's PIBT step planned one tick ahead, off the frame ([`crate::Crowd::plan_ahead`]).
//!
//! The bodies' cells change only at a tick. So the next tick's step can be planned before it is
//! due (a quarter of a tick before: `PLAN_LEAD` in `step.rs`), on a thread of its own, while the
//! bodies glide: the frame the tick falls in only takes the moves. What can change meanwhile is
//! what the game does between ticks: a wall painted, a body spawned, despawned or moved off a
//! wall, a new route. A route or destination that comes in that time is read at the next tick.
//! The rest is checked when the plan is taken ([`hold_what_no_longer_fits`](gridpath::mapf::crowd::hold_what_no_longer_fits)): a body moved
//! meanwhile, or one whose next cell is a wall now, holds, and so, in turn, does every body
//! that would step onto a held one.
//!
//! A plan is taken at its tick, waiting for it if it is not done: the moves are the same on a
//! quick machine or a busy one, and the same with [`SearchThread::Frame`], where it is planned in
//! the frame that starts it.
//!
//! [`SearchThread::Frame`]: crate::SearchThread::Frame

use crate::off_frame::{Pending, SearchThread, lock};
use bevy::prelude::*;
use gridpath::mapf::Mover;
use gridpath::mapf::crowd::{Detours, GuidedStep};
use gridpath::{Grid, Movement, Point};
use std::sync::{Arc, Mutex};

/// What the core step needs, owned, so that it can run anywhere.
pub(super) struct StepInput {
    /// The crowd's step and its guidance, handed back with the moves.
    pub(super) guided: GuidedStep,
    /// The grid for each size, from 1, and its revision.
    pub(super) grids: Vec<Arc<Grid>>,
    pub(super) revision: u64,
    pub(super) movement: Movement,
    /// Each body's entity, as a number that names it from step to step (for its guide path).
    pub(super) keys: Vec<u64>,
    pub(super) movers: Vec<Mover>,
    /// Each body's cell and the cell it heads for (none: it moves only when pushed).
    pub(super) aims: Vec<(Point, Option<Point>)>,
    /// The stalled bodies' ways round, searched before the step.
    pub(super) detours: Detours,
}

/// The core step's answer: its state back, the movers as it left them, and each mover's next
/// cell (the bodies' first, in their order, then the cells a jam's plan keeps).
pub(super) struct StepOutput {
    pub(super) guided: GuidedStep,
    pub(super) movers: Vec<Mover>,
    pub(super) next: Vec<Point>,
    /// The detours' scratch, handed back to be used again.
    pub(super) detours: Detours,
}

impl StepInput {
    /// One guided step ([`GuidedStep::step`]).
    pub(super) fn run(mut self) -> StepOutput {
        let grids: Vec<&Grid> = self.grids.iter().map(|g| &**g).collect();
        let next = self.guided.step(
            &grids,
            self.movement,
            self.revision,
            &self.keys,
            &mut self.movers,
            &mut self.aims,
            &mut self.detours,
        );
        StepOutput {
            guided: self.guided,
            movers: self.movers,
            next,
            detours: self.detours,
        }
    }
}

/// A step planned ahead: what it was planned from, and the work. The input waits in a shared
/// slot that the task empties when it starts: a plan whose task has not started by its tick
/// (where no thread of its own can be had, the pool busy with long route searches) is taken
/// back and run in the frame instead of waited for behind them.
pub(crate) struct TickPlan {
    from: PlannedFrom,
    input: Arc<Mutex<Option<StepInput>>>,
    work: Pending<Option<StepOutput>>,
}

/// What a step was planned from: who stood where, and the jam's bodies it held (and whether
/// they may take their plan's next step). Its moves are checked against them when taken.
pub(super) struct PlannedFrom {
    pub(super) bodies: Vec<(Entity, Point)>,
    pub(super) held: Option<(Vec<Entity>, bool)>,
}

impl std::fmt::Debug for TickPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TickPlan")
            .field("bodies", &self.from.bodies.len())
            .field("work", &self.work)
            .finish()
    }
}

/// The slot's input, if no one has taken it yet.
fn take(slot: &Mutex<Option<StepInput>>) -> Option<StepInput> {
    lock(slot).take()
}

impl TickPlan {
    /// Starts planning `input` where `thread` says.
    pub(super) fn start(thread: SearchThread, from: PlannedFrom, input: StepInput) -> Self {
        let input = Arc::new(Mutex::new(Some(input)));
        let slot = Arc::clone(&input);
        let work = Pending::start_alone(thread, move || take(&slot).map(StepInput::run));
        Self { from, input, work }
    }

    /// The plan's answer: run here if its task has not started, else waited for (`None` only
    /// if its task was lost, as when the pool shuts down).
    pub(super) fn wait(self) -> Option<(PlannedFrom, StepOutput)> {
        let output = match take(&self.input) {
            Some(input) => Some(input.run()), // dropping `work` cancels the task
            None => self.work.wait().flatten(),
        }?;
        Some((self.from, output))
    }
}
