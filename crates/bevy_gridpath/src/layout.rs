//! Where the cells are in the world, for each shape of cell a tilemap draws: squares, hexagons
//! (pointy-top rows or flat-top columns, in any of bevy_ecs_tilemap's coordinate systems) and
//! the diamonds of an isometric map, diamond or staggered.
//!
//! A cell is indexed as its tile's `TilePos`; the layout turns that into the world position of
//! the tile's centre with the same formulas as bevy_ecs_tilemap (hexagons through axial
//! coordinates, Red Blob Games' "hex to pixel"; diamonds through the isometric basis), and back
//! with the same rounding (a hexagon's through cube coordinates), so a pointer falls in the cell
//! the tilemap draws under it.
//!
//! Agents glide between cell centres through *fractional* cells. On squares and diamonds
//! (staggered ones too: a staggered map is a diamond one sheared) a fraction maps linearly. In the offset layouts of hexagons (`RowOdd` and the like) every
//! other row is shifted half a cell: the layout maps a fraction of a row by interpolating that
//! shift between the rows it lies between, which puts every point of the segment between two
//! neighbouring cells' indices on the straight line between their centres.

use bevy::prelude::*;
use gridpath::Point;
use gridpath::hex::{AXIAL_STEPS, HexLayout, round_axial};

/// How far apart a hexagon map's rows (pointy-top) or columns (flat-top) are, as a share of the
/// grid size: three quarters of a hexagon's height (or width), as bevy_ecs_tilemap draws them
/// (its axial basis, √3/2, applied to the grid size already scaled by √3/2).
const ROW_SPACING: f32 = 0.75;

/// The shape of a map's cells, and so how their indices are placed in the world.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CellShape {
    /// Squares in rows and columns (`TilemapType::Square`).
    #[default]
    Square,
    /// Hexagons, in one of bevy_ecs_tilemap's coordinate systems (`TilemapType::Hexagon`).
    /// Search them with `Movement::Hex` of the same layout.
    Hex(HexLayout),
    /// A square grid turned 45° and flattened (`IsoCoordSystem::Diamond`): squares' neighbours,
    /// an isometric drawing.
    Diamond,
    /// The same diamonds, each row drawn half a tile right of the row below
    /// (`IsoCoordSystem::Staggered`): cell `(x, y)` is the diamond map's `(x, x + y)`. Search it
    /// with the staggered moves (`Movement::StaggeredFourWay`, `StaggeredEightWay`).
    Staggered,
}

impl CellShape {
    /// A position in cells as the diamond map's: sheared on a staggered map, else as it is.
    fn unsheared(self, cells: Vec2) -> Vec2 {
        match self {
            CellShape::Staggered => Vec2::new(cells.x, cells.y + cells.x),
            _ => cells,
        }
    }

    /// The inverse of [`CellShape::unsheared`].
    fn sheared(self, diamond: Vec2) -> Vec2 {
        match self {
            CellShape::Staggered => Vec2::new(diamond.x, diamond.y - diamond.x),
            _ => diamond,
        }
    }
}

/// Where the cells are in the world: the centre of cell (0, 0), the step between cells and
/// their shape. For squares `step` is the distance from one cell's centre to the next along x
/// and along y (a negative `step.y` makes rows run down the screen, as in Moving AI maps; the
/// default, positive, matches bevy_ecs_tilemap's `TilePos`). For hexagons and diamonds it is
/// the tilemap's grid size, used as bevy_ecs_tilemap uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridLayout {
    /// The world position of the centre of cell (0, 0).
    pub origin: Vec2,
    /// See the type's docs.
    pub step: Vec2,
    /// How cell indices are placed.
    pub shape: CellShape,
}

impl Default for GridLayout {
    /// One world unit per square cell, cell (0, 0) at the origin.
    fn default() -> Self {
        Self::square(Vec2::ZERO, Vec2::ONE)
    }
}

impl GridLayout {
    /// Square cells `size` wide, cell (0, 0) centred on `origin`.
    pub fn new(origin: Vec2, size: f32) -> Self {
        Self::square(origin, Vec2::splat(size))
    }

    /// Square cells `step` apart (x and y), cell (0, 0) centred on `origin`.
    pub fn square(origin: Vec2, step: Vec2) -> Self {
        Self {
            origin,
            step,
            shape: CellShape::Square,
        }
    }

    /// Hexagons of a tilemap of grid size `grid`, cell (0, 0) centred on `origin`.
    pub fn hex(origin: Vec2, grid: Vec2, layout: HexLayout) -> Self {
        Self {
            origin,
            step: grid,
            shape: CellShape::Hex(layout),
        }
    }

    /// The hex layout of a hexagon map.
    pub fn hex_layout(&self) -> Option<HexLayout> {
        match self.shape {
            CellShape::Hex(h) => Some(h),
            _ => None,
        }
    }

    /// The world position of a cell's centre.
    pub fn to_world(&self, p: Point) -> Vec2 {
        self.cells_to_world(Vec2::new(p.x as f32, p.y as f32))
    }

    /// A position in cells (fractions between centres) as a world position.
    pub fn cells_to_world(&self, cells: Vec2) -> Vec2 {
        let s = self.step;
        self.origin
            + match self.shape {
                CellShape::Square => s * cells,
                CellShape::Diamond | CellShape::Staggered => {
                    let d = self.shape.unsheared(cells);
                    Vec2::new(0.5 * s.x * (d.x + d.y), 0.5 * s.y * (d.y - d.x))
                }
                CellShape::Hex(h) => project(h, s, to_axial(h, cells)),
            }
    }

    /// A world position in cells (fractions between centres): the inverse of
    /// [`GridLayout::cells_to_world`].
    pub fn world_to_cells(&self, world: Vec2) -> Vec2 {
        let (d, s) = (world - self.origin, self.step);
        match self.shape {
            CellShape::Square => d / s,
            CellShape::Diamond | CellShape::Staggered => {
                let (u, v) = (d.x / s.x, d.y / s.y);
                self.shape.sheared(Vec2::new(u - v, u + v))
            }
            CellShape::Hex(h) => from_axial(h, unproject(h, s, d)),
        }
    }

    /// The cell whose tile holds a world position (it may lie outside the grid), rounded as
    /// bevy_ecs_tilemap's `TilePos::from_world_pos` rounds.
    pub fn cell_at(&self, world: Vec2) -> Point {
        match self.shape {
            CellShape::Square | CellShape::Diamond | CellShape::Staggered => {
                // A staggered map rounds on the diamond map (bevy_ecs_tilemap's `StaggeredPos`
                // goes through `DiamondPos`), then shears.
                let diamond = self.shape.unsheared(self.world_to_cells(world));
                let c = self.shape.sheared((diamond + 0.5).floor());
                Point::new(c.x as i32, c.y as i32)
            }
            CellShape::Hex(h) => {
                let a = unproject(h, self.step, world - self.origin);
                h.from_axial(round_axial(f64::from(a.x), f64::from(a.y)))
            }
        }
    }

    /// The smallest and largest cell coordinates of the cells a world rectangle shows (not
    /// clamped to a grid): those under its four corners bound them on squares; a hexagon's row
    /// may stick out half a cell and a diamond map is turned, so one more each way there.
    pub fn cells_under(&self, area: Rect) -> (Point, Point) {
        let corners = [
            area.min,
            area.max,
            Vec2::new(area.min.x, area.max.y),
            Vec2::new(area.max.x, area.min.y),
        ];
        let cells = corners.map(|c| self.cell_at(c));
        let pad = i32::from(self.shape != CellShape::Square);
        let (mut lo, mut hi) = (cells[0], cells[0]);
        for c in cells {
            lo = Point::new(lo.x.min(c.x), lo.y.min(c.y));
            hi = Point::new(hi.x.max(c.x), hi.y.max(c.y));
        }
        (
            Point::new(lo.x - pad, lo.y - pad),
            Point::new(hi.x + pad, hi.y + pad),
        )
    }

    /// How many moves long the straight glide from `a` to `b` is (fractional cells on one
    /// segment between neighbours): its length on squares and diamonds (on the diamond map, for
    /// a staggered one), its hex distance on hexagons, where every neighbour is one move away.
    pub fn moves_between(&self, a: Vec2, b: Vec2) -> f32 {
        match self.shape {
            CellShape::Square | CellShape::Diamond | CellShape::Staggered => {
                (self.shape.unsheared(b) - self.shape.unsheared(a)).length()
            }
            CellShape::Hex(h) => {
                let d = to_axial(h, b) - to_axial(h, a);
                (d.x.abs() + d.y.abs() + (d.x + d.y).abs()) / 2.0
            }
        }
    }

    /// The corners of a cell's tile in the world, in order round it: four for squares and
    /// diamonds, six for hexagons. `scale` shrinks the outline towards the centre (1: the
    /// tile's own edges).
    pub fn outline(&self, p: Point, scale: f32) -> Vec<Vec2> {
        let centre = self.to_world(p);
        let corners: Vec<Vec2> = match self.shape {
            CellShape::Square | CellShape::Diamond | CellShape::Staggered => {
                let d = self.shape.unsheared(Vec2::new(p.x as f32, p.y as f32));
                [(-1., -1.), (1., -1.), (1., 1.), (-1., 1.)]
                    .iter()
                    .map(|&(dx, dy)| {
                        let at = self.shape.sheared(d + Vec2::new(dx, dy) / 2.0);
                        self.cells_to_world(at)
                    })
                    .collect()
            }
            CellShape::Hex(h) => {
                // A hexagon's corner is where it meets two neighbours: the mean of the three
                // centres, in any affine drawing of the grid.
                let (q, r) = h.to_axial(p);
                let axial = Vec2::new(q as f32, r as f32);
                (0..6)
                    .map(|k| {
                        let (a, b) = (AXIAL_STEPS[k], AXIAL_STEPS[(k + 1) % 6]);
                        let to = Vec2::new((a.0 + b.0) as f32, (a.1 + b.1) as f32) / 3.0;
                        self.origin + project(h, self.step, axial + to)
                    })
                    .collect()
            }
        };
        corners
            .into_iter()
            .map(|c| centre + (c - centre) * scale)
            .collect()
    }
}

/// Fractional offset coordinates as fractional axial ones: the shift of a row (or column) is
/// interpolated between the two it lies between (see the module docs).
fn to_axial(h: HexLayout, cells: Vec2) -> Vec2 {
    let axial = |x: i32, y: i32| {
        let (q, r) = h.to_axial(Point::new(x, y));
        Vec2::new(q as f32, r as f32)
    };
    if h.pointy_top() {
        let (y0, t) = (cells.y.floor(), cells.y - cells.y.floor());
        let shift = axial(0, y0 as i32).x * (1.0 - t) + axial(0, y0 as i32 + 1).x * t;
        Vec2::new(cells.x + shift, cells.y)
    } else {
        let (x0, t) = (cells.x.floor(), cells.x - cells.x.floor());
        let shift = axial(x0 as i32, 0).y * (1.0 - t) + axial(x0 as i32 + 1, 0).y * t;
        Vec2::new(cells.x, cells.y + shift)
    }
}

/// The inverse of [`to_axial`]: a row's (or column's) index is the same in both.
fn from_axial(h: HexLayout, axial: Vec2) -> Vec2 {
    if h.pointy_top() {
        let shift = to_axial(h, Vec2::new(0.0, axial.y)).x;
        Vec2::new(axial.x - shift, axial.y)
    } else {
        let shift = to_axial(h, Vec2::new(axial.x, 0.0)).y;
        Vec2::new(axial.x, axial.y - shift)
    }
}

/// bevy_ecs_tilemap's projection of axial coordinates (`project_row` for pointy-top hexagons,
/// `project_col` for flat-top ones).
fn project(h: HexLayout, grid: Vec2, a: Vec2) -> Vec2 {
    if h.pointy_top() {
        Vec2::new(grid.x * (a.x + 0.5 * a.y), ROW_SPACING * grid.y * a.y)
    } else {
        Vec2::new(ROW_SPACING * grid.x * a.x, grid.y * (0.5 * a.x + a.y))
    }
}

/// The inverse of [`project`].
fn unproject(h: HexLayout, grid: Vec2, world: Vec2) -> Vec2 {
    if h.pointy_top() {
        let r = world.y / (ROW_SPACING * grid.y);
        Vec2::new(world.x / grid.x - 0.5 * r, r)
    } else {
        let q = world.x / (ROW_SPACING * grid.x);
        Vec2::new(q, world.y / grid.y - 0.5 * q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_layout_maps_cells_to_the_world_and_back() {
        let layout = GridLayout::square(Vec2::new(-100.0, 50.0), Vec2::new(16.0, -16.0));
        let p = Point::new(3, 2);
        assert_eq!(layout.to_world(p), Vec2::new(-52.0, 18.0));
        assert_eq!(layout.cell_at(layout.to_world(p) + Vec2::splat(7.0)), p);
    }

    #[test]
    fn a_glide_between_neighbouring_hexagons_is_straight_and_one_move_long() {
        for h in HexLayout::ALL {
            let layout = GridLayout::hex(Vec2::new(5.0, -3.0), Vec2::new(20.0, 23.0), h);
            for y in 0..4 {
                for x in 0..4 {
                    let a = Point::new(x, y);
                    for b in h.neighbours(a) {
                        let (wa, wb) = (layout.to_world(a), layout.to_world(b));
                        let cells = |p: Point| Vec2::new(p.x as f32, p.y as f32);
                        let (ca, cb) = (cells(a), cells(b));
                        for t in [0.25, 0.5, 0.8] {
                            let on_line = wa.lerp(wb, t);
                            let glided = layout.cells_to_world(ca.lerp(cb, t));
                            assert!(on_line.distance(glided) < 1e-3, "{h:?} {a} → {b} at {t}");
                            let back = layout.world_to_cells(glided);
                            assert!(back.distance(ca.lerp(cb, t)) < 1e-4, "{h:?} inverse");
                        }
                        let moves = layout.moves_between(ca, cb);
                        assert!((moves - 1.0).abs() < 1e-5, "{h:?} {a} → {b}: {moves}");
                        assert_eq!(layout.cell_at(wa.lerp(wb, 0.4)), a);
                    }
                }
            }
        }
    }

    #[test]
    fn a_staggered_tile_shares_a_side_with_four_tiles_and_a_corner_with_four_more() {
        let layout = GridLayout {
            origin: Vec2::new(3.0, -7.0),
            step: Vec2::new(32.0, 16.0),
            shape: CellShape::Staggered,
        };
        let p = Point::new(4, 3);
        let mine = layout.outline(p, 1.0);
        let shared_with = |dx: i32, dy: i32| {
            let theirs = layout.outline(Point::new(p.x + dx, p.y + dy), 1.0);
            mine.iter()
                .filter(|c| theirs.iter().any(|d| c.distance(*d) < 1e-3))
                .count()
        };
        for (k, &(dx, dy)) in gridpath::staggered::STEPS.iter().enumerate() {
            let want = if k < 4 { 2 } else { 1 };
            assert_eq!(shared_with(dx, dy), want, "step ({dx}, {dy})");
        }
        // In its own row, a tile's neighbours are a whole tile to the left and right.
        let right = layout.to_world(Point::new(p.x + 1, p.y)) - layout.to_world(p);
        assert!(right.distance(Vec2::new(32.0, 0.0)) < 1e-4, "{right}");
        let a = Vec2::new(4.0, 3.0);
        let glide = layout.moves_between(a, a + Vec2::new(1.0, -1.0));
        assert!((glide - 1.0).abs() < 1e-5, "a side is one move: {glide}");
    }

    #[test]
    fn a_hexagon_has_six_corners_each_shared_with_two_neighbours() {
        let layout = GridLayout::hex(Vec2::ZERO, Vec2::new(16.0, 18.0), HexLayout::ColumnOdd);
        let p = Point::new(2, 3);
        let mine = layout.outline(p, 1.0);
        assert_eq!(mine.len(), 6);
        for n in HexLayout::ColumnOdd.neighbours(p) {
            let theirs = layout.outline(n, 1.0);
            let shared = mine
                .iter()
                .filter(|c| theirs.iter().any(|d| c.distance(*d) < 1e-3))
                .count();
            assert_eq!(shared, 2, "{n}");
        }
    }
}
