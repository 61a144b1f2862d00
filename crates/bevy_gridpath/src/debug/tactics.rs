//! Ranges and fields of view.

use super::groups::{DebugColors, RouteColor, TacticsGizmos};
use super::on_screen::OnScreen;
use crate::tactics::{
    Answer, ApproachRequest, FleeRequest, NearestRequest, RangeRequest, SightRequest,
};
use bevy::prelude::*;

/// Each range's cells outlined (in the entity's [`RouteColor`], a little smaller, if it has
/// one), the unit's own cell smaller still; each field of view's cells marked
/// with a small dot; each tactic's route (nearest, approach, flee) as a line.
pub(super) fn draw_tactics(
    screen: OnScreen,
    colors: Res<DebugColors>,
    ranges: Query<(&Answer<RangeRequest>, Option<&RouteColor>)>,
    sights: Query<&Answer<SightRequest>>,
    nearest: Query<&Answer<NearestRequest>>,
    approaches: Query<&Answer<ApproachRequest>>,
    flights: Query<&Answer<FleeRequest>>,
    mut gizmos: Gizmos<TacticsGizmos>,
) {
    let Some(nav) = screen.nav() else {
        return;
    };
    let layout = nav.layout();
    for (range, own) in &ranges {
        // A range in its entity's own colour is drawn a little smaller, so that where two
        // ranges cover the same cells (a unit's and the enemy it is shown beside) both show.
        let (color, size) = own.map_or((colors.range, 0.85), |c| (c.0, 0.65));
        for (p, _) in range.answer.cells() {
            let scale = if p == range.request.from { 0.45 } else { size };
            gizmos.linestrip_2d(closed(layout.outline(p, scale)), color);
        }
    }
    let routes = (nearest.iter().map(|a| &a.answer))
        .chain(approaches.iter().map(|a| &a.answer))
        .chain(flights.iter().map(|a| &a.answer));
    for route in routes.flatten() {
        let cells = route.cells.iter().map(|&p| layout.to_world(p));
        gizmos.linestrip_2d(cells, colors.range);
    }
    let dot = layout.step.abs().min_element() * 0.12;
    for sight in &sights {
        for p in sight.answer.cells() {
            let at = Isometry2d::from_translation(layout.to_world(p));
            gizmos.circle_2d(at, dot, colors.sight);
        }
    }
}

/// An outline's corners, back to the first.
fn closed(mut corners: Vec<Vec2>) -> Vec<Vec2> {
    if let Some(&first) = corners.first() {
        corners.push(first);
    }
    corners
}
