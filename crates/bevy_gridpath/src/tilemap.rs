//! bevy_ecs_tilemap levels (the `tilemap` feature): a tile with [`crate::Obstacle`] walls its
//! cell and one with [`crate::CellCost`] sets its cost; the tile's `TilePos` is its cell, so
//! tiles need no `CellPos`. [`NavGrid::for_tilemap`] makes a grid the size of a square tilemap,
//! placed where the map is drawn.

use crate::nav_grid::{GridLayout, NavGrid};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use gridpath::GridError;

impl GridLayout {
    /// Where the tiles of a square tilemap are in the world: its grid size, anchor and transform
    /// (a translation; rotation and scale are not followed).
    pub fn for_tilemap(
        size: &TilemapSize,
        grid_size: &TilemapGridSize,
        tile_size: &TilemapTileSize,
        anchor: &TilemapAnchor,
        transform: &Transform,
    ) -> Self {
        let square = TilemapType::Square;
        let at =
            |x, y| TilePos { x, y }.center_in_world(size, grid_size, tile_size, &square, anchor);
        let origin = at(0, 0);
        Self {
            origin: origin + transform.translation.truncate(),
            step: Vec2::new(grid_size.x, grid_size.y),
        }
    }
}

impl NavGrid {
    /// An open grid the size of a square tilemap, placed where it is drawn. Insert it before the
    /// tiles get their [`crate::Obstacle`]s (or spawn them after), so each wall is seen.
    pub fn for_tilemap(
        size: &TilemapSize,
        grid_size: &TilemapGridSize,
        tile_size: &TilemapTileSize,
        anchor: &TilemapAnchor,
        transform: &Transform,
    ) -> Result<Self, GridError> {
        let layout = GridLayout::for_tilemap(size, grid_size, tile_size, anchor, transform);
        Ok(Self::new(size.x, size.y)?.with_layout(layout))
    }
}
