//! Wall outlines: one box per wall when cells are big enough to see, merged runs along each row
//! when zoomed out.

use super::{ObstacleGizmos, OnScreen};
use crate::view::palette;
use crate::world::layout::TILE;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::Point;

/// Below this cell size (pixels), obstacles are drawn as merged runs instead of one box each.
const MIN_OUTLINE_CELL_PX: f32 = 6.0;

pub(super) fn draw_obstacles(
    screen: OnScreen,
    nav: Option<Res<NavGrid>>,
    mut gizmos: Gizmos<ObstacleGizmos>,
) {
    let (Some(shown), Some(nav)) = (screen.cells(), nav) else {
        return;
    };
    let (layout, view, min, max) = (shown.layout, shown.view, shown.min, shown.max);
    // A blocked cell of the nav grid is exactly a cell with an obstacle: an array read, where
    // asking for the obstacle entity would be a hash lookup per cell.
    let grid = nav.grid();
    let walled = |x: i32, y: i32| !grid.is_passable(Point::new(x, y));
    if view.cell_pixels >= MIN_OUTLINE_CELL_PX {
        let size = Vec2::splat(TILE - 3.0);
        for y in min.y..=max.y {
            for x in min.x..=max.x {
                if walled(x, y) {
                    gizmos.rect_2d(
                        layout.cell_center(Point::new(x, y)),
                        size,
                        palette::OBSTACLE,
                    );
                }
            }
        }
        return;
    }
    // Zoomed out: one line along each run of walls in a row.
    for y in min.y..=max.y {
        let mut x = min.x;
        while x <= max.x {
            if !walled(x, y) {
                x += 1;
                continue;
            }
            let start = x;
            while x <= max.x && walled(x, y) {
                x += 1;
            }
            let a = layout.cell_center(Point::new(start, y)) - Vec2::new(TILE * 0.4, 0.0);
            let b = layout.cell_center(Point::new(x - 1, y)) + Vec2::new(TILE * 0.4, 0.0);
            gizmos.line_2d(a, b, palette::OBSTACLE);
        }
    }
}
