//! Wall outlines, readable at every zoom. Zoomed in, one box per wall. Zoomed out, a box per
//! cell (or a line per row of walls, as before) would paint a big map solid orange: instead the
//! outline follows the edges of the wall *regions* (where a wall meets floor), merged into long
//! runs, and fades as cells shrink; below two pixels a cell it leaves the walls to the wall tiles.

use super::{ObstacleGizmos, OnScreen};
use crate::view::palette;
use crate::world::layout::TILE;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::Point;

/// From this cell size (pixels) up, every wall gets its own box.
const MIN_OUTLINE_CELL_PX: f32 = 6.0;
/// Below this cell size, no outline at all: the wall tiles are the picture.
const MIN_EDGE_CELL_PX: f32 = 2.0;

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
    // asking for the obstacle entity would be a hash lookup per cell. Off the map is not a wall,
    // so the map's border outlines the walls along it.
    let grid = nav.grid();
    let inside =
        |x: i32, y: i32| x >= 0 && y >= 0 && x < grid.width() as i32 && y < grid.height() as i32;
    let walled = |x: i32, y: i32| inside(x, y) && !grid.is_passable(Point::new(x, y));
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
    if view.cell_pixels < MIN_EDGE_CELL_PX {
        return;
    }
    // Fully drawn at the box size, gone at the edge size.
    let fade = (view.cell_pixels - MIN_EDGE_CELL_PX) / (MIN_OUTLINE_CELL_PX - MIN_EDGE_CELL_PX);
    let color = palette::OBSTACLE.with_alpha(0.25 + 0.75 * fade);
    // The corner of cell (x, y) towards the top left, in world coordinates.
    let corner =
        |x: i32, y: i32| layout.cell_center(Point::new(x, y)) + Vec2::new(-TILE, TILE) / 2.0;
    // Horizontal edges: along the top of row y, wherever exactly one of rows y - 1 and y is a wall.
    for y in min.y..=max.y + 1 {
        for (from, to) in runs(min.x, max.x, |x| walled(x, y - 1) != walled(x, y)) {
            gizmos.line_2d(corner(from, y), corner(to + 1, y), color);
        }
    }
    // Vertical edges: along the left of column x.
    for x in min.x..=max.x + 1 {
        for (from, to) in runs(min.y, max.y, |y| walled(x - 1, y) != walled(x, y)) {
            gizmos.line_2d(corner(x, from), corner(x, to + 1), color);
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
