//! The flow field's arrows: on each cell, the step a unit there would take towards the goal.
//! Zoomed out, only every k-th cell in each direction has one, so that arrows stay apart.

use super::groups::FlowGizmos;
use crate::planner::flow::GoalField;
use crate::view::palette;
use crate::world::layout::TILE;
use bevy::prelude::*;
use bevy_gridpath::GridLayout;
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
            let centre = layout.to_world(p);
            let towards = towards(layout, p, next);
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

/// The arrow's direction on screen: towards the next cell's centre as drawn, so along the
/// diamonds on an isometric map and at 60° on hexagons, not as the cells' coordinates run.
fn towards(layout: &GridLayout, from: Point, next: Point) -> Vec2 {
    (layout.to_world(next) - layout.to_world(from)).normalize_or_zero()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::layout::MapLayout;
    use gridpath::movingai::MapShape;

    #[test]
    fn an_arrow_points_to_the_next_cell_as_drawn() {
        let (p, east) = (Point::new(3, 3), Point::new(4, 3));
        let squares = MapLayout::new(8, 8).grid();
        assert_eq!(towards(&squares, p, east), Vec2::X);
        // On diamonds the next cell along a row lies along a diamond's side, half as steep as
        // wide: not straight to the right, as the row's coordinates run.
        let diamonds = MapLayout::shaped(8, 8, MapShape::Isometric).grid();
        let step = towards(&diamonds, p, east);
        assert!(((step.y / step.x).abs() - 0.5).abs() < 1e-3, "{step}");
        // On pointy hexagons a step to the next row is 60° from the row, not 45°.
        let hexes = MapLayout::shaped(8, 8, MapShape::Hex(gridpath::hex::HexLayout::RowOdd)).grid();
        let down = towards(&hexes, p, Point::new(3, 4));
        let angle = down.y.atan2(down.x).to_degrees().abs();
        assert!(
            (angle - 60.0).abs() < 3.0 || (angle - 120.0).abs() < 3.0,
            "{angle}"
        );
    }
}
