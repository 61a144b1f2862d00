//! The tactics view's lesson on the map: the way to the goal with a ring where each turn ends
//! (dark the first, pink the later ones), and a small red hexagon or square on each cell in
//! range where an enemy's zone of control ends a move. The range's outlines and the dots of
//! what the unit sees are the debug plugin's (`TacticsGizmos`), drawn from the plugin's answers.

use crate::planner::tactics::TacticsLesson;
use crate::view::palette;
use crate::world::layout::TILE;
use bevy::prelude::*;
use bevy_gridpath::TacticsGizmos;
use bevy_gridpath::debug::OnScreen;

pub(super) fn draw_turns_and_zones(
    screen: OnScreen,
    lesson: Res<TacticsLesson>,
    mut gizmos: Gizmos<TacticsGizmos>,
) {
    let Some(nav) = screen.nav() else {
        return;
    };
    let layout = nav.layout();
    for &p in &lesson.zones {
        let outline = layout.outline(p, 0.4);
        let closed = outline.iter().chain(outline.first()).copied();
        gizmos.linestrip_2d(closed, palette::ZONE);
    }
    let Some(route) = &lesson.route else {
        return;
    };
    let world = route.cells.iter().map(|&p| layout.to_world(p));
    gizmos.linestrip_2d(world, palette::TURN_END);
    for (n, turn) in lesson.turns.iter().enumerate() {
        let Some(&cell) = route.cells.get(turn.at) else {
            continue;
        };
        let color = if n == 0 {
            palette::TURN_END
        } else {
            palette::LATER_TURN_END
        };
        let at = Isometry2d::from_translation(layout.to_world(cell));
        gizmos.circle_2d(at, TILE * 0.5, color);
    }
}
