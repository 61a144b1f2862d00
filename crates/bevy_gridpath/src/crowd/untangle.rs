//! Jams PIBT cannot undo, solved whole ([`gridpath::mapf::crowd::Untangler`]): the bodies read
//! for it, and its search run off the frame.

use super::body::BodyDataItem;
use super::clock::Crowd;
use crate::off_frame::{Pending, SearchThread};
use bevy::platform::time::Instant;
use gridpath::Grid;
use gridpath::mapf::crowd::{JamBody, JamPlan, JamSearch, TickBody};
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

/// A body as the untangler reads it.
pub(super) fn jam_body(b: &BodyDataItem<'_, '_>, now: f32) -> JamBody {
    let plannable = b.route.is_some() && b.agent.movement.unstaggered().is_none();
    JamBody {
        key: b.entity.to_bits(),
        at: b.progress.cell(),
        size: b.agent.size,
        moves: b.agent.speed > 0.0,
        target: b.target(),
        circling: plannable.then(|| b.motion.state.nearness.circling_for(now, b.agent.size)),
    }
}

/// Looks for a jam among `bodies` on `grid` ([`Crowd::untangle`]) and starts its search on
/// `thread`, and hands a search's answer to the untangler once it is done (or late).
pub(super) fn look_for_jams(
    crowd: &mut Crowd,
    grid: &Arc<Grid>,
    bodies: &[TickBody],
    thread: SearchThread,
) {
    let (now, untangler) = (crowd.clock, &mut crowd.runtime.untangler);
    if crowd.untangle && untangler.looks(now) {
        let jam: Vec<JamBody> = bodies.iter().map(|b| b.jam).collect();
        if let Some(search) = untangler.look(&jam, grid, now, crowd.ticks) {
            crowd.jam_search = Some(start(search, thread));
        }
    }
    if let Some(found) = crowd
        .jam_search
        .as_mut()
        .and_then(|s| s.answer(crowd.ticks))
    {
        crowd.runtime.untangler.found(found, now);
    }
}

/// Starts `search` on `thread`.
fn start(search: JamSearch, thread: SearchThread) -> JamSearching {
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
    fn answer(&mut self, ticks: u64) -> Option<Option<JamPlan>> {
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
