//! When a search that can always do better stops: the anytime planners' shared deadline (LaCAM,
//! its refinement, LaCAM\*'s star search and the anytime facade all run `until` it says).

use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// When an anytime search stops: after `work` states expanded in all (a count, the same on any
/// machine), at `deadline`, or when one of `stops` is raised (a game's frame budget, another
/// thread that proved the plan cannot be bettered), whichever comes first.
#[derive(Clone, Copy)]
pub(crate) struct Until<'a> {
    deadline: Instant,
    work: usize,
    stops: [Option<&'a AtomicBool>; 2],
}

impl<'a> Until<'a> {
    pub(crate) fn new(deadline: Instant) -> Self {
        Self {
            deadline,
            work: usize::MAX,
            stops: [None; 2],
        }
    }

    pub(crate) fn work(self, work: usize) -> Self {
        Self { work, ..self }
    }

    /// The same, and over when `stop` is raised too (it holds two flags at most: the first
    /// two are kept).
    pub(crate) fn or_stopped(mut self, stop: &'a AtomicBool) -> Self {
        if let Some(free) = self.stops.iter_mut().find(|s| s.is_none()) {
            *free = Some(stop);
        }
        self
    }

    /// The same, but over at `deadline` if that is sooner.
    pub(crate) fn sooner(self, deadline: Instant) -> Self {
        Self {
            deadline: deadline.min(self.deadline),
            ..self
        }
    }

    /// The states it lets a search expand in all.
    pub(crate) fn work_budget(&self) -> usize {
        self.work
    }

    /// The time left.
    pub(crate) fn left(&self) -> std::time::Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// Out of time, or told to stop?
    pub(crate) fn now(&self) -> bool {
        Instant::now() > self.deadline
            || self
                .stops
                .iter()
                .any(|s| s.is_some_and(|s| s.load(Ordering::Relaxed)))
    }
}
