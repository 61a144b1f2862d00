//! The flow field's arrows: on each cell, the step a unit there would take towards the goal.
//! Zoomed out, only every k-th cell in each direction has one, so that arrows stay apart.

use super::groups::FlowGizmos;
use crate::planner::flow::GoalField;
use crate::view::palette;
use crate::world::layout::TILE;
use bevy::prelude::*;
use bevy_gridpath::debug::OnScreen;
use gridpath::Point;

/// Arrows are drawn at least this far apart, in pixels.
const MIN_ARROW_SPACING_PX: f32 = 18.0;

pub(super) fn draw_flow(
    screen: OnScreen,
    goal_field: Res<GoalField>,
    mut gizmos: Gizmos<FlowGizmos>,
) {
    let Some(on_screen) = screen.cells() else {
        return;
    };
    let (nav, layout) = (on_screen.nav, on_screen.nav.layout());
    let every = (MIN_ARROW_SPACING_PX / on_screen.cell_pixels)
        .ceil()
        .max(1.0) as i32;
    let half = TILE * 0.32 * every as f32;
    let first = |min: i32| (min + every - 1) / every * every; // the first multiple of `every`
    for y in (first(on_screen.min.y)..=on_screen.max.y).step_by(every as usize) {
        for x in (first(on_screen.min.x)..=on_screen.max.x).step_by(every as usize) {
            let p = Point::new(x, y);
            let Some(next) = goal_field.field.next_step(nav.grid(), p) else {
                continue; // a wall, the goal, or cut off from it
            };
            // Towards the next cell's centre as drawn: along the diamonds on an isometric map.
            let centre = layout.to_world(p);
            let towards = (layout.to_world(next) - centre).normalize_or_zero();
            gizmos
                .arrow_2d(
                    centre - towards * half,
                    centre + towards * half,
                    palette::FLOW_ARROW,
                )
                .with_tip_length(TILE * 0.25 * every as f32);
        }
    }
}
