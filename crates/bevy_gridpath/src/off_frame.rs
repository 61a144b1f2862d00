//! Where the plugin's searches run: off the frame on the async task pool, or in it.
//!
//! Off the frame (the default) a search never holds up a frame, but it lands at whichever frame
//! it finishes by: on a busy machine, a slower one, or a browser tab in the background, later
//! than on a quick one, and the crowd's bodies meet otherwise. In the frame
//! ([`SearchThread::Frame`]) every search lands at the next frame whatever the machine: the
//! same moves on every run, as a game played in lockstep over a network, a replay, or a test
//! needs. The cost is the frame's: a route across a large map, or a jam planned whole, takes
//! milliseconds there.

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use std::fmt;

/// Where route searches, flow fields and the crowd's jam plans are computed. A resource the
/// plugin adds (as [`SearchThread::TaskPool`]); set it before the searches start, or at any
/// time: a search already running finishes where it started.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SearchThread {
    /// On the async task pool: no search holds up a frame, and each lands as soon as it is done.
    #[default]
    TaskPool,
    /// In the frame that starts it, landing at the next: the same moves on any machine under
    /// any load.
    Frame,
}

/// Work handed off the frame: running on the pool, or done already.
pub(crate) enum Pending<T> {
    Running(Task<T>),
    Done(Option<T>),
}

impl<T: Send + 'static> Pending<T> {
    /// Starts `work` where `thread` says.
    pub(crate) fn start(thread: SearchThread, work: impl FnOnce() -> T + Send + 'static) -> Self {
        match thread {
            SearchThread::TaskPool => {
                Pending::Running(AsyncComputeTaskPool::get().spawn(async move { work() }))
            }
            SearchThread::Frame => Pending::Done(Some(work())),
        }
    }

    /// The result, waiting for it if it is still running (`None` if it was taken already).
    pub(crate) fn wait(self) -> Option<T> {
        match self {
            Pending::Running(task) => Some(bevy::tasks::block_on(task)),
            Pending::Done(result) => result,
        }
    }

    /// The result, once it is done (and only once).
    pub(crate) fn take(&mut self) -> Option<T> {
        match self {
            Pending::Running(task) => check_ready(task),
            Pending::Done(result) => result.take(),
        }
    }
}

impl<T> fmt::Debug for Pending<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pending::Running(_) => "Pending::Running",
            Pending::Done(_) => "Pending::Done",
        })
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<SearchThread>();
}
