//! Where cells are in the world: the one place that converts between grid cells and world
//! positions, so the tilemap, the markers, the overlays and the mouse all agree.
//!
//! Cells follow the Moving AI convention, `(0, 0)` top-left and `y` growing downwards. Bevy's
//! world has `y` growing upwards. The map is centred on the world origin.

use bevy::prelude::*;
use gridpath::Point;

/// The side of one cell in world units (one world unit is one pixel at zoom 1).
pub const TILE: f32 = 16.0;

/// The size of the current map, in cells.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapLayout {
    pub width: u32,
    pub height: u32,
}

impl MapLayout {
    pub fn new(width: u32, height: u32) -> Self {
        Self { width, height }
    }

    /// The map's size in world units.
    pub fn world_size(&self) -> Vec2 {
        Vec2::new(self.width as f32, self.height as f32) * TILE
    }

    /// The world position of a cell's centre.
    pub fn cell_center(&self, p: Point) -> Vec2 {
        let half = self.world_size() / 2.0;
        Vec2::new(
            (p.x as f32 + 0.5) * TILE - half.x,
            half.y - (p.y as f32 + 0.5) * TILE,
        )
    }

    /// The world position of a point in cell units (`(3.0, 4.0)` is the centre of cell (3, 4)),
    /// as agents have.
    pub fn position_of(&self, cells: Vec2) -> Vec2 {
        let half = self.world_size() / 2.0;
        Vec2::new(
            (cells.x + 0.5) * TILE - half.x,
            half.y - (cells.y + 0.5) * TILE,
        )
    }

    /// The cell under a world position. It may lie outside the map: check with
    /// [`MapLayout::contains`].
    pub fn cell_at(&self, world: Vec2) -> Point {
        let half = self.world_size() / 2.0;
        let x = ((world.x + half.x) / TILE).floor();
        let y = ((half.y - world.y) / TILE).floor();
        // Clamp far-away positions so the conversion to i32 stays meaningful.
        let clamp = |v: f32| v.clamp(i32::MIN as f32 / 2.0, i32::MAX as f32 / 2.0) as i32;
        Point::new(clamp(x), clamp(y))
    }

    pub fn contains(&self, p: Point) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height
    }

    /// The world rectangle covered by the map.
    pub fn world_rect(&self) -> Rect {
        Rect::from_center_size(Vec2::ZERO, self.world_size())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_and_back() {
        let layout = MapLayout::new(5, 3);
        for y in 0..3 {
            for x in 0..5 {
                let p = Point::new(x, y);
                assert_eq!(layout.cell_at(layout.cell_center(p)), p);
            }
        }
        // Top-left cell is up and to the left of the origin.
        let c = layout.cell_center(Point::new(0, 0));
        assert!(c.x < 0.0 && c.y > 0.0);
        assert!(!layout.contains(layout.cell_at(Vec2::new(-100.0, 0.0))));
        assert!(!layout.contains(layout.cell_at(Vec2::new(0.0, 1e30))));
    }
}
