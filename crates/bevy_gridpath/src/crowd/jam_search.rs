//! A jam's search off the frame ([`JamSearching`]): started on the plugin's thread, and taken
//! back once done, or dropped once late.

use crate::off_frame::{Pending, SearchThread};
use bevy::platform::time::Instant;
use gridpath::mapf::crowd::{JamPlan, JamSearch};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long a jam's bodies are held while its plan is searched: [`SEARCH_TICKS`] ticks, and at
/// least this long by the wall clock. Past both, the search is dropped and the bodies go on as
/// before. Its effort bounds a search's work: this only guards a crowd against a thread that
/// stops. In a game eight ticks are two seconds for bodies of four cells a second, tens of
/// times what a search takes in a release build. A headless app runs many ticks a second of
/// the wall clock: by ticks alone most searches would be dropped there, by the wall clock alone
/// it would stand still for thousands of frames. (At half a second, a test's jam of big units
/// on a machine busy with a cold build was dropped every time for 20,000 frames: its searches,
/// at the tests' optimisation, were late.)
const SEARCH_WAIT: Duration = Duration::from_secs(2);

/// See [`SEARCH_WAIT`].
const SEARCH_TICKS: u64 = 8;

/// How long by the wall clock a jam's search may wait for a thread before it starts: its
/// lateness ([`SEARCH_WAIT`]) counts from its start, since a pool busy with route searches
/// must not make a jam's search late before it ran (a headless test's parallel apps share one
/// pool, of one thread on two cores: the search of a jam of big units was dropped there,
/// unstarted, and its bodies backed off for 30 s). A pool starved for this long still must not
/// freeze the crowd.
const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// A jam's search, running off the frame.
#[derive(Debug)]
pub(crate) struct JamSearching {
    /// When it was queued; set by the search when a thread takes it up; the first tick it was
    /// seen started, and when.
    queued: Instant,
    started: Arc<AtomicBool>,
    began: Option<(u64, Instant)>,
    search: Pending<Option<JamPlan>>,
}

/// Starts `search` on `thread`.
pub(super) fn start(search: JamSearch, thread: SearchThread) -> JamSearching {
    let started = Arc::new(AtomicBool::new(false));
    let starts = started.clone();
    JamSearching {
        queued: Instant::now(),
        started,
        began: None,
        search: Pending::start(thread, move || {
            starts.store(true, Ordering::Relaxed);
            search.run()
        }),
    }
}

impl JamSearching {
    /// Its answer at tick `ticks`, once it is done, or none once it is late.
    pub(super) fn answer(&mut self, ticks: u64) -> Option<Option<JamPlan>> {
        if self.began.is_none() && self.started.load(Ordering::Relaxed) {
            self.began = Some((ticks, Instant::now()));
        }
        let late = match self.began {
            Some((tick, when)) => ticks > tick + SEARCH_TICKS && when.elapsed() > SEARCH_WAIT,
            None => self.queued.elapsed() > QUEUE_WAIT,
        };
        self.search.take().or(late.then_some(None))
    }
}
