//! Grid lines, for the cells on screen, thinned to every k-th line when they would crowd closer
//! than a few pixels.

use super::groups::{DebugColors, NavGridGizmos};
use super::on_screen::{OnScreen, closed};
use crate::layout::CellShape;
use bevy::prelude::*;
use gridpath::Point;

/// Grid lines are kept at least this many pixels apart.
const MIN_SPACING_PX: f32 = 6.0;

pub(super) fn draw_grid(
    screen: OnScreen,
    colors: Res<DebugColors>,
    mut gizmos: Gizmos<NavGridGizmos>,
) {
    let Some(shown) = screen.cells() else {
        return;
    };
    let (min, max) = (shown.min, shown.max);
    // Every k-th line, k a power of two, so the lines stay legible when zoomed out.
    let mut k = 1;
    while (k as f32) * shown.cell_pixels < MIN_SPACING_PX && k < 1 << 16 {
        k *= 2;
    }
    if shown.nav.layout().shape != CellShape::Square {
        // Hexagons and diamonds: each cell's outline, when cells are big enough to tell apart.
        if shown.cell_pixels >= MIN_SPACING_PX {
            for y in min.y..=max.y {
                for x in min.x..=max.x {
                    let corners = shown.nav.layout().outline(Point::new(x, y), 1.0);
                    gizmos.linestrip_2d(closed(corners), colors.grid);
                }
            }
        }
        return;
    }
    let (w, h) = (shown.nav.width() as i32, shown.nav.height() as i32);
    let lines = |from: i32, to: i32, n: i32| (from..=to + 1).filter(move |&i| i % k == 0 || i == n);
    for x in lines(min.x, max.x, w) {
        let (from, to) = (shown.corner(x, min.y), shown.corner(x, max.y + 1));
        gizmos.line_2d(from, to, colors.grid);
    }
    for y in lines(min.y, max.y, h) {
        let (from, to) = (shown.corner(min.x, y), shown.corner(max.x + 1, y));
        gizmos.line_2d(from, to, colors.grid);
    }
}
