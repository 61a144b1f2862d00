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
use gridpath::mapf::crowd::{Planned, StepInput, StepOutput};
use std::sync::{Arc, Mutex};

/// A step planned ahead: what it was planned from, and the work. The input waits in a shared
/// slot that the task empties when it starts: a plan whose task has not started by its tick
/// (where no thread of its own can be had, the pool busy with long route searches) is taken
/// back and run in the frame instead of waited for behind them.
pub(crate) struct TickPlan {
    from: Planned,
    input: Arc<Mutex<Option<StepInput>>>,
    work: Pending<Option<StepOutput>>,
}

impl std::fmt::Debug for TickPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TickPlan")
            .field("bodies", &self.from.len())
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
