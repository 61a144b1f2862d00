//! bevy_ecs_tilemap levels (the `tilemap` feature): a tile with [`crate::Obstacle`] walls its
//! cell and one with [`crate::CellCost`] sets its cost; the tile's `TilePos` is its cell, so
//! tiles need no `CellPos`. [`NavGrid::for_tilemap`] makes a grid the size of a tilemap, its
//! cells placed where the map draws its tiles: squares, hexagons in any of the six coordinate
//! systems, or isometric diamonds, diamond or staggered.

use crate::layout::{CellShape, GridLayout};
use crate::nav_grid::NavGrid;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use gridpath::hex::HexLayout;
use gridpath::{GridError, Movement};
use std::fmt;

/// Why a tilemap gets no nav grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TilemapGridError {
    /// The map's size is not a grid's (see [`GridError`]).
    Grid(GridError),
}

impl fmt::Display for TilemapGridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TilemapGridError::Grid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TilemapGridError {}

impl From<GridError> for TilemapGridError {
    fn from(e: GridError) -> Self {
        TilemapGridError::Grid(e)
    }
}

/// The shape of a tilemap's cells.
pub fn cell_shape(map_type: &TilemapType) -> CellShape {
    match map_type {
        TilemapType::Square => CellShape::Square,
        TilemapType::Hexagon(system) => CellShape::Hex(hex_layout(*system)),
        TilemapType::Isometric(IsoCoordSystem::Diamond) => CellShape::Diamond,
        TilemapType::Isometric(IsoCoordSystem::Staggered) => CellShape::Staggered,
    }
}

/// The core's name for a hex coordinate system.
pub fn hex_layout(system: HexCoordSystem) -> HexLayout {
    match system {
        HexCoordSystem::RowEven => HexLayout::RowEven,
        HexCoordSystem::RowOdd => HexLayout::RowOdd,
        HexCoordSystem::ColumnEven => HexLayout::ColumnEven,
        HexCoordSystem::ColumnOdd => HexLayout::ColumnOdd,
        HexCoordSystem::Row => HexLayout::Row,
        HexCoordSystem::Column => HexLayout::Column,
    }
}

/// How agents move on a map of this shape: between touching hexagons on a hex map, else
/// `square` (4- or 8-way, the game's choice), sheared on a staggered map.
pub fn movement_for(shape: CellShape, square: Movement) -> Movement {
    match shape {
        CellShape::Hex(h) => Movement::Hex(h),
        CellShape::Staggered => square.unstaggered().unwrap_or(square).staggered(),
        CellShape::Square | CellShape::Diamond => square.unstaggered().unwrap_or(square),
    }
}

impl GridLayout {
    /// Where the tiles of a tilemap are in the world: its type, grid size, anchor and transform
    /// (a translation; rotation and scale are not followed). Cell (0, 0) is placed by
    /// bevy_ecs_tilemap's own `center_in_world`.
    pub fn for_tilemap(
        map_type: &TilemapType,
        size: &TilemapSize,
        grid_size: &TilemapGridSize,
        tile_size: &TilemapTileSize,
        anchor: &TilemapAnchor,
        transform: &Transform,
    ) -> Self {
        let zero = TilePos { x: 0, y: 0 };
        let origin = zero.center_in_world(size, grid_size, tile_size, map_type, anchor);
        Self {
            origin: origin + transform.translation.truncate(),
            step: Vec2::new(grid_size.x, grid_size.y),
            shape: cell_shape(map_type),
        }
    }
}

impl NavGrid {
    /// An open grid the size of a tilemap, its cells placed where the map draws them. Insert it
    /// before the tiles get their [`crate::Obstacle`]s (or spawn them after), so each wall is
    /// seen. On a hex or staggered map, give agents [`movement_for`] the layout's shape.
    pub fn for_tilemap(
        map_type: &TilemapType,
        size: &TilemapSize,
        grid_size: &TilemapGridSize,
        tile_size: &TilemapTileSize,
        anchor: &TilemapAnchor,
        transform: &Transform,
    ) -> Result<Self, TilemapGridError> {
        let layout =
            GridLayout::for_tilemap(map_type, size, grid_size, tile_size, anchor, transform);
        Ok(Self::new(size.x, size.y)?.with_layout(layout))
    }
}
