//! Grid lines, culled to the visible part of the map, and thinned to every k-th line when they
//! would crowd closer than a few pixels.

use super::{GridGizmos, OnScreen};
use crate::view::palette;
use crate::world::layout::TILE;
use bevy::prelude::*;
use gridpath::Point;

/// Grid lines are kept at least this many pixels apart.
const MIN_GRID_SPACING_PX: f32 = 6.0;

pub(super) fn draw_grid(screen: OnScreen, mut gizmos: Gizmos<GridGizmos>) {
    let Some(shown) = screen.cells() else {
        return;
    };
    let (layout, view, min, max) = (shown.layout, shown.view, shown.min, shown.max);
    // Every k-th line, k a power of two, so lines stay legible when zoomed out.
    let mut k = 1;
    while (k as f32) * view.cell_pixels < MIN_GRID_SPACING_PX && k < 1 << 16 {
        k *= 2;
    }
    let rect = layout.world_rect();
    let half = rect.size() / 2.0;
    let (top, bottom) = (
        layout.cell_center(Point::new(0, min.y)).y + TILE / 2.0,
        layout.cell_center(Point::new(0, max.y)).y - TILE / 2.0,
    );
    let (left, right) = (
        layout.cell_center(Point::new(min.x, 0)).x - TILE / 2.0,
        layout.cell_center(Point::new(max.x, 0)).x + TILE / 2.0,
    );
    let lines =
        |from: i32, to: i32, n: u32| (from..=to + 1).filter(move |&i| i % k == 0 || i == n as i32);
    for x in lines(min.x, max.x, layout.width) {
        let wx = x as f32 * TILE - half.x;
        gizmos.line_2d(Vec2::new(wx, top), Vec2::new(wx, bottom), palette::GRID);
    }
    for y in lines(min.y, max.y, layout.height) {
        let wy = half.y - y as f32 * TILE;
        gizmos.line_2d(Vec2::new(left, wy), Vec2::new(right, wy), palette::GRID);
    }
}
