//! A tick's step planned ahead, off the frame ([`crate::Crowd::plan_ahead`]).
//!
//! Bodies change cells only at ticks, so the next tick's step can be planned shortly before it
//! is due ([`PLAN_LEAD`]), on a thread of its own, while the bodies glide: the frame the tick
//! falls in only takes the moves. What the game does meanwhile (a wall painted, a body spawned,
//! despawned or moved) is checked when the plan is taken ([`CrowdRuntime::finish`]); a new route
//! or destination is read at the next tick. A plan is taken at its tick, waited for if need be:
//! the moves are the same on a quick machine or a busy one.
//!
//! [`PLAN_LEAD`]: gridpath::mapf::crowd::PLAN_LEAD
//! [`CrowdRuntime::finish`]: gridpath::mapf::crowd::CrowdRuntime::finish

use crate::off_frame::{Pending, SearchThread, lock};
use gridpath::mapf::crowd::{Planned, StepInput, StepOutput};
use std::sync::{Arc, Mutex};

/// A step planned ahead: what it was planned from, and the work. Its input waits in a slot the
/// task empties when it starts: one not started by its tick (the pool busy with long route
/// searches) is run in the frame instead of waited for behind them.
#[derive(Debug)]
pub(crate) struct TickPlan {
    from: Planned,
    input: Arc<Mutex<Option<StepInput>>>,
    work: Pending<Option<StepOutput>>,
}

/// The slot's input, if no one has taken it yet.
fn take(slot: &Mutex<Option<StepInput>>) -> Option<StepInput> {
    lock(slot).take()
}

impl TickPlan {
    /// Starts planning `input` where `thread` says.
    pub(super) fn start(thread: SearchThread, from: Planned, input: StepInput) -> Self {
        let input = Arc::new(Mutex::new(Some(input)));
        let slot = Arc::clone(&input);
        let work = Pending::start_alone(thread, move || take(&slot).map(StepInput::run));
        Self { from, input, work }
    }

    /// The plan's answer: run here if its task has not started, else waited for (`None` only
    /// if its task was lost, as when the pool shuts down).
    pub(super) fn wait(self) -> Option<(Planned, StepOutput)> {
        let output = match take(&self.input) {
            Some(input) => Some(input.run()), // dropping `work` cancels the task
            None => self.work.wait().flatten(),
        }?;
        Some((self.from, output))
    }
}
