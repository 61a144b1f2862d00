//! Jams PIBT cannot undo, solved whole ([`gridpath::mapf::crowd::Untangler`]): the bodies read
//! for it, and its search run off the frame.

use super::body::BodyDataItem;
use super::clock::Crowd;
use super::jam_search::start;
use crate::off_frame::SearchThread;
use gridpath::Grid;
use gridpath::mapf::crowd::{JamBody, TickBody};
use std::sync::Arc;

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
