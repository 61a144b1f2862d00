//! How long a jam's bodies wait for its plan, searched off the crowd's thread
//! ([`SearchLateness`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
// `std::time::Instant` panics in a browser; `web_time`'s is the browser's clock there.
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// How long a jam's bodies are held while its plan is searched: [`SEARCH_TICKS`] ticks, and at
/// least this long by the wall clock. Past both, the search is dropped and the bodies go on as
/// before. Its effort bounds a search's work: this only guards a crowd against a thread that
/// stops. In a game eight ticks are two seconds for bodies of four cells a second, tens of
/// times what a search takes in a release build. A headless app runs many ticks a second of
/// the wall clock: by ticks alone most searches would be dropped there, by the wall clock alone
/// it would stand still for thousands of frames. (At half a second, a test's jam of big units
/// on a machine busy with a cold build was dropped every time for 20,000 frames: its searches,
/// at the tests' optimisation, were late.)
pub const SEARCH_WAIT: Duration = Duration::from_secs(2);

/// See [`SEARCH_WAIT`].
pub const SEARCH_TICKS: u64 = 8;

/// How long by the wall clock a search may wait for a thread before it starts: its lateness
/// counts from its start, since a pool busy with route searches must not make a jam's search
/// late before it ran (a headless test's parallel apps share one pool, of one thread on two
/// cores: the search of a jam of big units was dropped there, unstarted, and its bodies backed
/// off for 30 s). A pool starved for this long still must not freeze the crowd.
pub const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// When a jam's search was handed out, when a thread took it up, and the first tick that saw it
/// started.
#[derive(Debug)]
pub(super) struct SearchLateness {
    queued: Instant,
    started: Arc<AtomicBool>,
    began: Option<(u64, Instant)>,
}

impl SearchLateness {
    /// A search handed out now, and the flag it sets when it starts.
    pub(super) fn new() -> (Self, Arc<AtomicBool>) {
        let started = Arc::new(AtomicBool::new(false));
        let lateness = Self {
            queued: Instant::now(),
            started: started.clone(),
            began: None,
        };
        (lateness, started)
    }

    /// Is it late at tick `ticks` (see [`SEARCH_WAIT`] and [`QUEUE_WAIT`])? Ask at every tick
    /// until its answer comes: the first tick that sees it started is noted.
    pub(super) fn late(&mut self, ticks: u64) -> bool {
        if self.began.is_none() && self.started.load(Ordering::Relaxed) {
            self.began = Some((ticks, Instant::now()));
        }
        match self.began {
            Some((tick, when)) => ticks > tick + SEARCH_TICKS && when.elapsed() > SEARCH_WAIT,
            None => self.queued.elapsed() > QUEUE_WAIT,
        }
    }
}
