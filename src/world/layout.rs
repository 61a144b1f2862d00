//! Where cells are in the world: the one place that converts between grid cells and world
//! positions, so the tilemap, the markers, the overlays and the mouse all agree.
//!
//! Cells follow the Moving AI convention, `(0, 0)` top-left and `y` growing downwards. Bevy's
//! world has `y` growing upwards. The map is centred on the world origin.
//!
//! A map's cells are squares, hexagons or isometric diamonds ([`MapShape`]). The conversions are
//! the plugin's [`GridLayout`] (bevy_ecs_tilemap's own formulas), laid out so that rows run down
//! the screen; [`MapLayout::tiles`] says how the tilemap must index and place its tiles to draw
//! each cell where the layout puts it.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::{HexCoordSystem, IsoCoordSystem, TilePos, TilemapType};
use bevy_gridpath::GridLayout;
use gridpath::Point;
use gridpath::hex::HexLayout;
use gridpath::movingai::MapShape;

/// The side of one square cell in world units (one world unit is one pixel at zoom 1).
pub const TILE: f32 = 16.0;

/// The size of the current map, in cells, and the shape of its cells.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct MapLayout {
    pub width: u32,
    pub height: u32,
    pub shape: MapShape,
    /// Where the cells are, worked out once: every drawing asks for cell centres every frame.
    grid: GridLayout,
    /// The world rectangle the map's tiles cover.
    rect: Rect,
}

/// How the tilemap draws a map: its type, the tile (and grid) size in pixels, and each cell's
/// tile position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileLayout {
    pub map_type: TilemapType,
    pub tile: Vec2,
    /// The tilemap's size in tiles (a diamond map's is turned: height × width).
    pub size: UVec2,
    shape: MapShape,
    height: u32,
}

impl TileLayout {
    /// The tile that draws cell `p`.
    pub fn tile_pos(&self, p: Point) -> TilePos {
        match self.shape {
            // A diamond's rows run along the tilemap's x: transposed, the map reads as on squares.
            MapShape::Isometric => TilePos {
                x: p.y as u32,
                y: p.x as u32,
            },
            // Tilemap rows count up from the bottom; grid rows count down from the top.
            _ => TilePos {
                x: p.x as u32,
                y: self.height - 1 - p.y as u32,
            },
        }
    }
}

/// The shapes the playground draws: every shape but the axial hex layouts (whose maps are
/// rhombi, which bevy_ecs_tilemap cannot draw with rows running down).
pub fn drawable(shape: MapShape) -> bool {
    !matches!(shape, MapShape::Hex(HexLayout::Row | HexLayout::Column))
}

impl MapLayout {
    /// A map of square cells.
    pub fn new(width: u32, height: u32) -> Self {
        Self::shaped(width, height, MapShape::Octile)
    }

    /// A map of cells of this shape.
    pub fn shaped(width: u32, height: u32, shape: MapShape) -> Self {
        let mut layout = Self {
            width,
            height,
            shape,
            grid: GridLayout::default(),
            rect: Rect::default(),
        };
        // The drawing centred on the world origin.
        let unplaced = layout.grid_at(Vec2::ZERO);
        let centre = layout.bounds_of(&unplaced).center();
        layout.grid = layout.grid_at(-centre);
        layout.rect = layout.bounds_of(&layout.grid);
        layout
    }

    /// The tile's size in pixels: a square [`TILE`] wide; a pointy-top hexagon as wide, a
    /// flat-top one as high (both nearly regular); a diamond twice as wide as high.
    fn tile(&self) -> Vec2 {
        match self.shape {
            MapShape::Octile => Vec2::splat(TILE),
            MapShape::Isometric => Vec2::new(2.0 * TILE, TILE),
            MapShape::Hex(h) if h.pointy_top() => Vec2::new(TILE, TILE + 2.0),
            MapShape::Hex(_) => Vec2::new(TILE + 2.0, TILE),
        }
    }

    /// The plugin's layout of the cells, with cell (0, 0) at `origin`.
    fn grid_at(&self, origin: Vec2) -> GridLayout {
        let t = self.tile();
        match self.shape {
            MapShape::Octile => GridLayout::square(origin, Vec2::new(t.x, -t.y)),
            MapShape::Isometric => GridLayout {
                origin,
                step: Vec2::new(t.x, -t.y),
                shape: bevy_gridpath::CellShape::Diamond,
            },
            MapShape::Hex(h) => GridLayout::hex(origin, Vec2::new(t.x, -t.y), h),
        }
    }

    /// The plugin's layout of the cells: the map's drawing centred on the world origin.
    pub fn grid(&self) -> GridLayout {
        self.grid
    }

    /// The world rectangle the cells' tiles of `grid` cover: that of the cells along the edges.
    fn bounds_of(&self, grid: &GridLayout) -> Rect {
        let (w, h) = (self.width as i32, self.height as i32);
        let edge = (0..w)
            .flat_map(|x| [Point::new(x, 0), Point::new(x, h - 1)])
            .chain((0..h).flat_map(|y| [Point::new(0, y), Point::new(w - 1, y)]));
        let mut rect = Rect::from_center_size(grid.to_world(Point::new(0, 0)), Vec2::ZERO);
        for p in edge {
            for corner in grid.outline(p, 1.0) {
                rect = rect.union_point(corner);
            }
        }
        rect
    }

    /// How the tilemap draws this map.
    pub fn tiles(&self) -> TileLayout {
        let flipped_parity = self.height.is_multiple_of(2);
        let map_type = match self.shape {
            MapShape::Octile => TilemapType::Square,
            MapShape::Isometric => TilemapType::Isometric(IsoCoordSystem::Diamond),
            // Counting rows from the bottom flips a row's parity when the height is even, and
            // turns columns shifted down into columns shifted up.
            MapShape::Hex(h) => TilemapType::Hexagon(match (h, flipped_parity) {
                (HexLayout::RowOdd, false) | (HexLayout::RowEven, true) => HexCoordSystem::RowOdd,
                (HexLayout::RowEven, false) | (HexLayout::RowOdd, true) => HexCoordSystem::RowEven,
                (HexLayout::ColumnOdd, _) => HexCoordSystem::ColumnEven,
                (HexLayout::ColumnEven, _) => HexCoordSystem::ColumnOdd,
                (HexLayout::Row, _) => HexCoordSystem::Row,
                (HexLayout::Column, _) => HexCoordSystem::Column,
            }),
        };
        let size = match self.shape {
            MapShape::Isometric => UVec2::new(self.height, self.width),
            _ => UVec2::new(self.width, self.height),
        };
        TileLayout {
            map_type,
            tile: self.tile(),
            size,
            shape: self.shape,
            height: self.height,
        }
    }

    /// The map's size in world units.
    pub fn world_size(&self) -> Vec2 {
        self.world_rect().size()
    }

    /// The world position of a cell's centre.
    pub fn cell_center(&self, p: Point) -> Vec2 {
        self.grid.to_world(p)
    }

    /// The world position of a point in cell units (`(3.0, 4.0)` is the centre of cell (3, 4)),
    /// as agents have.
    pub fn position_of(&self, cells: Vec2) -> Vec2 {
        self.grid.cells_to_world(cells)
    }

    /// The cell under a world position. It may lie outside the map: check with
    /// [`MapLayout::contains`].
    pub fn cell_at(&self, world: Vec2) -> Point {
        // Clamp far-away positions so the conversion to i32 stays meaningful.
        let far = 1e9;
        self.grid
            .cell_at(world.clamp(Vec2::splat(-far), Vec2::splat(far)))
    }

    pub fn contains(&self, p: Point) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height
    }

    /// The world rectangle covered by the map.
    pub fn world_rect(&self) -> Rect {
        self.rect
    }

    /// The corners of a tile, from its centre, in world units (y up).
    pub fn tile_corners(&self) -> Vec<Vec2> {
        let p = Point::new(0, 0);
        let centre = self.cell_center(p);
        self.outline(p, 1.0)
            .into_iter()
            .map(|c| c - centre)
            .collect()
    }

    /// The corners of a cell's tile, round it (4 or 6), shrunk towards its centre by `scale`.
    pub fn outline(&self, p: Point, scale: f32) -> Vec<Vec2> {
        self.grid.outline(p, scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_and_back() {
        for shape in MapShape::ALL.into_iter().filter(|&s| drawable(s)) {
            let layout = MapLayout::shaped(5, 3, shape);
            for y in 0..3 {
                for x in 0..5 {
                    let p = Point::new(x, y);
                    assert_eq!(layout.cell_at(layout.cell_center(p)), p, "{shape:?}");
                }
            }
            assert!(
                layout.world_rect().center().length() < 1e-3,
                "{shape:?} centred"
            );
            assert!(!layout.contains(layout.cell_at(Vec2::new(-1000.0, 0.0))));
            assert!(!layout.contains(layout.cell_at(Vec2::new(0.0, 1e30))));
        }
        // Top-left cell is up and to the left of the origin.
        let layout = MapLayout::new(5, 3);
        let c = layout.cell_center(Point::new(0, 0));
        assert!(c.x < 0.0 && c.y > 0.0);
        assert_eq!(c, Vec2::new(-2.0 * TILE, TILE));
    }

    #[test]
    fn the_tilemap_draws_each_cell_where_the_layout_puts_it() {
        // Placed so that cell (0, 0)'s tile lands on its centre, every tile lands on its cell's.
        use bevy_ecs_tilemap::prelude::*;
        for shape in MapShape::ALL.into_iter().filter(|&s| drawable(s)) {
            for (w, h) in [(5, 3), (4, 6)] {
                let layout = MapLayout::shaped(w, h, shape);
                let tiles = layout.tiles();
                let size = TilemapSize {
                    x: tiles.size.x,
                    y: tiles.size.y,
                };
                let grid = TilemapGridSize {
                    x: tiles.tile.x,
                    y: tiles.tile.y,
                };
                let tile = TilemapTileSize {
                    x: tiles.tile.x,
                    y: tiles.tile.y,
                };
                let at = |p: Point| {
                    let t = tiles.tile_pos(p);
                    t.center_in_world(&size, &grid, &tile, &tiles.map_type, &TilemapAnchor::None)
                };
                let shift = layout.cell_center(Point::new(0, 0)) - at(Point::new(0, 0));
                for y in 0..h as i32 {
                    for x in 0..w as i32 {
                        let p = Point::new(x, y);
                        let drawn = at(p) + shift;
                        let d = drawn.distance(layout.cell_center(p));
                        assert!(d < 1e-3, "{shape:?} {w}×{h}: {p} drawn {d} away");
                    }
                }
            }
        }
    }
}
