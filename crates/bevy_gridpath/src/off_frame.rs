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
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A slot's lock. Nothing panics while one is held, so it is never poisoned; if it were, its
/// data is whole.
pub(crate) fn lock<T>(slot: &Mutex<T>) -> MutexGuard<'_, T> {
    slot.lock().unwrap_or_else(PoisonError::into_inner)
}

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

/// Work handed off the frame: running on the pool or on a thread of its own, or done already.
pub(crate) enum Pending<T> {
    Running(Task<T>),
    #[cfg(not(target_arch = "wasm32"))]
    Alone(std::thread::JoinHandle<Option<T>>),
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

    /// Starts `work` where `thread` says, but off the frame on a thread of its own rather than
    /// the pool's. For short work that is due at a given frame, such as the crowd's next step:
    /// on the pool it would queue behind whatever was handed to it first (on two cores the
    /// async pool has one thread, and a route across a large map keeps it for milliseconds),
    /// while the system's scheduler shares the cores between threads. Spawning a thread costs
    /// some tens of microseconds, a small price next to a step's. Where threads cannot be
    /// spawned (the web, or the system refusing one), it goes to the pool after all.
    pub(crate) fn start_alone(
        thread: SearchThread,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        if thread == SearchThread::TaskPool {
            // Handed over through a slot, to be taken back if no thread can be spawned.
            let slot = std::sync::Arc::new(Mutex::new(Some(work)));
            let mine = std::sync::Arc::clone(&slot);
            let spawned = std::thread::Builder::new()
                .name("gridpath off-frame".into())
                .spawn(move || {
                    let work = lock(&mine).take(); // the lock let go before the work runs
                    work.map(|work| work())
                });
            match spawned {
                Ok(handle) => return Pending::Alone(handle),
                // The closure was dropped unrun, so the work is still in the slot.
                Err(_) => match lock(&slot).take() {
                    Some(work) => return Self::start(thread, work),
                    None => return Pending::Done(None),
                },
            }
        }
        Self::start(thread, work)
    }

    /// The result, waiting for it if it is still running (`None` if it was taken already).
    pub(crate) fn wait(self) -> Option<T> {
        match self {
            Pending::Running(task) => Some(bevy::tasks::block_on(task)),
            #[cfg(not(target_arch = "wasm32"))]
            Pending::Alone(handle) => handle.join().ok().flatten(),
            Pending::Done(result) => result,
        }
    }

    /// The result, once it is done (and only once).
    pub(crate) fn take(&mut self) -> Option<T> {
        match self {
            Pending::Running(task) => check_ready(task),
            #[cfg(not(target_arch = "wasm32"))]
            Pending::Alone(handle) if handle.is_finished() => {
                match std::mem::replace(self, Pending::Done(None)) {
                    Pending::Alone(handle) => handle.join().ok().flatten(),
                    _ => None,
                }
            }
            #[cfg(not(target_arch = "wasm32"))]
            Pending::Alone(_) => None,
            Pending::Done(result) => result.take(),
        }
    }
}

impl<T> fmt::Debug for Pending<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pending::Running(_) => "Pending::Running",
            #[cfg(not(target_arch = "wasm32"))]
            Pending::Alone(_) => "Pending::Alone",
            Pending::Done(_) => "Pending::Done",
        })
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<SearchThread>();
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn work_on_a_thread_of_its_own_is_waited_for() {
        let pending = Pending::start_alone(SearchThread::TaskPool, || 6 * 7);
        assert!(matches!(pending, Pending::Alone(_)), "{pending:?}");
        assert_eq!(pending.wait(), Some(42));
    }

    #[test]
    fn work_on_a_thread_of_its_own_is_taken_once() {
        let mut pending = Pending::start_alone(SearchThread::TaskPool, || "done");
        // Polled as a frame would, a frame a millisecond (bounded, so that a broken `take`
        // fails rather than hangs).
        let taken = (0..60_000).find_map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(1));
            pending.take()
        });
        assert_eq!(taken, Some("done"));
        assert_eq!(pending.take(), None, "a result is handed out only once");
        assert_eq!(pending.wait(), None);
    }

    #[test]
    fn in_the_frame_the_work_is_done_at_once() {
        let mut pending = Pending::start_alone(SearchThread::Frame, || 1);
        assert!(matches!(pending, Pending::Done(Some(1))), "{pending:?}");
        assert_eq!(pending.take(), Some(1));
        assert_eq!(pending.take(), None);
    }

    #[test]
    fn a_panic_in_the_work_gives_no_result() {
        let pending =
            Pending::start_alone(SearchThread::TaskPool, || -> u8 { panic!("on purpose") });
        assert_eq!(pending.wait(), None);
    }
}
