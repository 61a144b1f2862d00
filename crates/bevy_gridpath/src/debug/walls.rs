//! Walls, readable at every zoom. Zoomed in, a box per wall. Zoomed out, a box per cell would
//! paint a big map solid: instead the outline follows the edges of the wall *regions* (where a
//! wall meets floor), merged into long runs, and fades as cells shrink; below two pixels a cell
//! it draws nothing and leaves the walls to the game's own art.

use super::groups::{DebugColors, ObstacleGizmos};
use super::on_screen::{OnScreen, closed};
use crate::layout::CellShape;
use bevy::prelude::*;
use gridpath::Point;

/// From this cell size (pixels) up, every wall gets its own box.
const MIN_BOX_CELL_PX: f32 = 6.0;
/// Below this cell size, no outline at all.
const MIN_EDGE_CELL_PX: f32 = 2.0;
/// A box's side, as a share of the cell's: a margin of 1.5 pixels at 16-pixel cells, so that
/// neighbouring walls read as separate boxes.
const BOX: f32 = 13.0 / 16.0;

pub(super) fn draw_walls(
    screen: OnScreen,
    colors: Res<DebugColors>,
    mut gizmos: Gizmos<ObstacleGizmos>,
) {
    let Some(shown) = screen.cells() else {
        return;
    };
    let (min, max, layout) = (shown.min, shown.max, shown.nav.layout());
    // A blocked cell of the grid is exactly a cell with an obstacle: an array read. Off the grid
    // is not a wall, so the grid's border outlines the walls along it.
    let grid = shown.nav.grid();
    let walled = |x: i32, y: i32| {
        let p = Point::new(x, y);
        grid.contains(p) && !grid.is_passable(p)
    };
    if layout.shape != CellShape::Square {
        // Hexagons and diamonds: an outline per wall, shrunk as the boxes are, when cells are
        // big enough; smaller, the game's own tiles show the walls.
        if shown.cell_pixels >= MIN_BOX_CELL_PX {
            for y in min.y..=max.y {
                for x in min.x..=max.x {
                    if walled(x, y) {
                        let corners = layout.outline(Point::new(x, y), BOX);
                        gizmos.linestrip_2d(closed(corners), colors.wall);
                    }
                }
            }
        }
        return;
    }
    if shown.cell_pixels >= MIN_BOX_CELL_PX {
        let size = layout.step.abs() * BOX;
        for y in min.y..=max.y {
            for x in min.x..=max.x {
                if walled(x, y) {
                    let centre = layout.to_world(Point::new(x, y));
                    gizmos.rect_2d(centre, size, colors.wall);
                }
            }
        }
        return;
    }
    if shown.cell_pixels < MIN_EDGE_CELL_PX {
        return;
    }
    // Fully drawn at the box size, gone at the edge size.
    let fade = (shown.cell_pixels - MIN_EDGE_CELL_PX) / (MIN_BOX_CELL_PX - MIN_EDGE_CELL_PX);
    let color = colors
        .wall
        .with_alpha(colors.wall.alpha() * (0.25 + 0.75 * fade));
    // Edges along rows: between rows y - 1 and y, wherever exactly one of them is a wall.
    for y in min.y..=max.y + 1 {
        for (from, to) in runs(min.x, max.x, |x| walled(x, y - 1) != walled(x, y)) {
            gizmos.line_2d(shown.corner(from, y), shown.corner(to + 1, y), color);
        }
    }
    // Edges along columns: between columns x - 1 and x.
    for x in min.x..=max.x + 1 {
        for (from, to) in runs(min.y, max.y, |y| walled(x - 1, y) != walled(x, y)) {
            gizmos.line_2d(shown.corner(x, from), shown.corner(x, to + 1), color);
        }
    }
}

/// The maximal runs `from..=to` of `min..=max` where `on` holds.
fn runs(min: i32, max: i32, on: impl Fn(i32) -> bool) -> impl Iterator<Item = (i32, i32)> {
    let mut i = min;
    std::iter::from_fn(move || {
        while i <= max && !on(i) {
            i += 1;
        }
        if i > max {
            return None;
        }
        let from = i;
        while i <= max && on(i) {
            i += 1;
        }
        Some((from, i - 1))
    })
}

#[cfg(test)]
mod tests {
    use super::runs;

    #[test]
    fn runs_are_maximal() {
        let on = [false, true, true, false, true, false, false, true];
        let found: Vec<_> = runs(0, 7, |i| on[i as usize]).collect();
        assert_eq!(found, [(1, 2), (4, 4), (7, 7)]);
        assert_eq!(runs(0, 7, |_| false).count(), 0);
        assert_eq!(runs(3, 5, |_| true).collect::<Vec<_>>(), [(3, 5)]);
    }
}
