//! Hexagonal grids: the six ways bevy_ecs_tilemap lays hexagons out on a rectangle of cells,
//! each cell's six neighbours, and the hex distance.
//!
//! A hex map is still a rectangle of cells indexed `(x, y)`, as a tilemap's `TilePos`; what the
//! layout changes is which cells touch. The maths is Red Blob Games' ("Hexagonal Grids",
//! Amit Patel, 2013–): every layout is converted to *axial* coordinates `(q, r)`, where the six
//! neighbours are always the same six offsets and the distance is that of the cube coordinates
//! `(q, r, −q − r)`:
//!
//! ```text
//! neighbours(q, r) = (q+1, r), (q, r+1), (q−1, r+1), (q−1, r), (q, r−1), (q+1, r−1)
//! distance(a, b)   = max(|Δq|, |Δr|, |Δq + Δr|)
//! ```
//!
//! The *offset* layouts shift every other row (pointy-top hexagons, `Row…`) or column
//! (flat-top, `Column…`) by half a cell; *odd* or *even* says which ones are shifted. Their
//! conversions are bevy_ecs_tilemap's own (`RowOddPos`, `ColEvenPos`, …), so a cell here is
//! the tile with the same `TilePos` there. The `Row` and `Column` layouts are axial already
//! (the map is a rhombus on screen).
//!
//! To search a hex map, move by [`Movement::Hex`](crate::movement::Movement::Hex): every search but jump
//! point search, JPS+ and Theta\* (defined for squares; they refuse, saying why) runs on it,
//! with [`Heuristic::Hex`](crate::heuristic::Heuristic::Hex), the exact hex distance, as A\*'s best guess.
//!
//! ```
//! use gridpath::hex::HexLayout;
//! use gridpath::{Algorithm, Grid, Movement, Point, SearchConfig, find_path};
//!
//! // Pointy-top hexagons, odd rows shifted right; a wall across the middle but for x = 4.
//! let grid = Grid::from_ascii(&[".....", ".....", "####.", ".....", "....."]).unwrap();
//! let config = SearchConfig::astar(Movement::Hex(HexLayout::RowOdd));
//! let found = find_path(&grid, Point::new(0, 0), Point::new(0, 4), &config).unwrap();
//! let path = found.path.unwrap();
//! assert!(path.cells.contains(&Point::new(4, 2)));
//! // Five steps to the gap and five back, as the hex distance counts them: a step to the row
//! // below goes half a cell left or right.
//! assert_eq!(path.cost, 10.0);
//! let gap = Point::new(4, 2);
//! assert_eq!(HexLayout::RowOdd.distance(Point::new(0, 0), gap), 5);
//! let jps = config.with_algorithm(Algorithm::JumpPoint);
//! assert!(find_path(&grid, Point::new(0, 0), Point::new(0, 4), &jps).is_err());
//! ```

use crate::grid::Point;

/// How hexagons are laid out on a rectangle of cells: bevy_ecs_tilemap's `HexCoordSystem`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HexLayout {
    /// Pointy-top hexagons in rows, the even rows shifted half a cell.
    RowEven,
    /// Pointy-top hexagons in rows, the odd rows shifted half a cell (Red Blob's "odd-r").
    #[default]
    RowOdd,
    /// Flat-top hexagons in columns, the even columns shifted half a cell.
    ColumnEven,
    /// Flat-top hexagons in columns, the odd columns shifted half a cell ("odd-q").
    ColumnOdd,
    /// Pointy-top hexagons, cells in axial coordinates: the map is a rhombus.
    Row,
    /// Flat-top hexagons, cells in axial coordinates: the map is a rhombus.
    Column,
}

/// The six neighbours' offsets in axial coordinates, in bevy_ecs_tilemap's order
/// (`HexDirection::Zero` to `Five`).
pub const AXIAL_STEPS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// The six steps `(dx, dy)` to the neighbours of a cell of a hex map, in the order of
/// [`AXIAL_STEPS`], for each kind of cell: in a row layout, rows whose neighbours above and
/// below are in columns `x − 1` and `x` (`ROW_LEFT`) or `x` and `x + 1` (`ROW_RIGHT`); in a
/// column layout, columns whose neighbours left and right are in rows `y − 1` and `y`
/// (`COLUMN_UP`) or `y` and `y + 1` (`COLUMN_DOWN`); in an axial layout, every cell.
const ROW_LEFT: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1)];
const ROW_RIGHT: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (0, -1), (1, -1)];
const COLUMN_UP: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const COLUMN_DOWN: [(i32, i32); 6] = [(1, 1), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0)];

impl HexLayout {
    /// Every layout, for a menu or a test that tries them all.
    pub const ALL: [HexLayout; 6] = [
        HexLayout::RowEven,
        HexLayout::RowOdd,
        HexLayout::ColumnEven,
        HexLayout::ColumnOdd,
        HexLayout::Row,
        HexLayout::Column,
    ];

    /// Pointy-top (rows) or flat-top (columns)?
    pub fn pointy_top(self) -> bool {
        matches!(
            self,
            HexLayout::RowEven | HexLayout::RowOdd | HexLayout::Row
        )
    }

    /// The axial coordinates `(q, r)` of cell `p`.
    pub fn to_axial(self, p: Point) -> (i32, i32) {
        match self {
            HexLayout::RowOdd => (p.x - p.y / 2, p.y),
            HexLayout::RowEven => (p.x - half_up(p.y), p.y),
            HexLayout::ColumnOdd => (p.x, p.y - p.x / 2),
            HexLayout::ColumnEven => (p.x, p.y - half_up(p.x)),
            HexLayout::Row | HexLayout::Column => (p.x, p.y),
        }
    }

    /// The cell at axial coordinates `(q, r)`.
    pub fn from_axial(self, (q, r): (i32, i32)) -> Point {
        match self {
            HexLayout::RowOdd => Point::new(q + r / 2, r),
            HexLayout::RowEven => Point::new(q + half_up(r), r),
            HexLayout::ColumnOdd => Point::new(q, r + q / 2),
            HexLayout::ColumnEven => Point::new(q, r + half_up(q)),
            HexLayout::Row | HexLayout::Column => Point::new(q, r),
        }
    }

    /// The six cells that touch `p` (some may lie off the map), in the order of
    /// [`AXIAL_STEPS`].
    pub fn neighbours(self, p: Point) -> [Point; 6] {
        let (q, r) = self.to_axial(p);
        AXIAL_STEPS.map(|(dq, dr)| self.from_axial((q + dq, r + dr)))
    }

    /// The steps `(dx, dy)` from cell `at` (on the map: `x, y ≥ 0`) to its six neighbours, in
    /// the order of [`HexLayout::neighbours`]: a table for each parity of row or column, so
    /// that a search's inner loop needs no conversion.
    pub fn steps(self, at: Point) -> &'static [(i32, i32); 6] {
        let (odd_row, odd_column) = (at.y & 1 == 1, at.x & 1 == 1);
        match self {
            HexLayout::RowEven if odd_row => &ROW_LEFT,
            HexLayout::RowEven => &ROW_RIGHT,
            HexLayout::RowOdd if odd_row => &ROW_RIGHT,
            HexLayout::RowOdd => &ROW_LEFT,
            HexLayout::ColumnEven if odd_column => &COLUMN_UP,
            HexLayout::ColumnEven => &COLUMN_DOWN,
            HexLayout::ColumnOdd if odd_column => &COLUMN_DOWN,
            HexLayout::ColumnOdd => &COLUMN_UP,
            HexLayout::Row | HexLayout::Column => &AXIAL_STEPS,
        }
    }

    /// The fewest steps from `a` to `b` on an open hex map of this layout.
    pub fn distance(self, a: Point, b: Point) -> u32 {
        HexLayout::axial_distance(self.to_axial(a), self.to_axial(b))
    }

    /// The hex distance between two cells given by their axial coordinates.
    pub fn axial_distance((qa, ra): (i32, i32), (qb, rb): (i32, i32)) -> u32 {
        let (dq, dr) = (qa - qb, ra - rb);
        dq.unsigned_abs()
            .max(dr.unsigned_abs())
            .max((dq + dr).unsigned_abs())
    }

    /// The cells of a straight line from `a` to `b`, each touching the next: `distance + 1`
    /// cells (Red Blob Games' line drawing: step along the straight line in cube coordinates
    /// and round each point to its hexagon, nudged off the edges so that ties break the same
    /// way along the line). A wall painted along it has no gap between its hexagons.
    pub fn line(self, a: Point, b: Point) -> Vec<Point> {
        let n = self.distance(a, b);
        let ((qa, ra), (qb, rb)) = (self.to_axial(a), self.to_axial(b));
        let nudge = |v: i32| f64::from(v) + 1e-6;
        let (qa, ra, qb, rb) = (nudge(qa), nudge(ra) + 1e-6, nudge(qb), nudge(rb) + 1e-6);
        (0..=n)
            .map(|i| {
                let t = if n == 0 {
                    0.0
                } else {
                    f64::from(i) / f64::from(n)
                };
                let (q, r) = (qa + (qb - qa) * t, ra + (rb - ra) * t);
                self.from_axial(round_axial(q, r))
            })
            .collect()
    }

    /// Its name, for a menu.
    pub fn label(self) -> &'static str {
        match self {
            HexLayout::RowEven => "hex rows, even shifted",
            HexLayout::RowOdd => "hex rows, odd shifted",
            HexLayout::ColumnEven => "hex columns, even shifted",
            HexLayout::ColumnOdd => "hex columns, odd shifted",
            HexLayout::Row => "hex rows, axial",
            HexLayout::Column => "hex columns, axial",
        }
    }
}

/// The hexagon holding fractional axial coordinates `(q, r)`: round the three cube coordinates
/// and mend the one that moved most, so that they still sum to zero (Red Blob Games'
/// `cube_round`, as bevy_ecs_tilemap picks the tile under a point).
pub fn round_axial(q: f64, r: f64) -> (i32, i32) {
    let s = -q - r;
    let (rq, rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        ((-rr - rs) as i32, rr as i32)
    } else if dr > ds {
        (rq as i32, (-rq - rs) as i32)
    } else {
        (rq as i32, rr as i32)
    }
}

/// Half of `n`, an odd `n` rounded away from zero: bevy_ecs_tilemap's `ceiled_division_by_2`,
/// so that cells off the map (neighbours of its edge) are where its helpers put them too.
fn half_up(n: i32) -> i32 {
    if n < 0 { (n - 1) / 2 } else { (n + 1) / 2 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn odd_rows_are_shifted_right_in_the_odd_row_layout() {
        // Red Blob's "odd-r": from (1, 1), an odd row, the rows above and below touch columns
        // 1 and 2; from (1, 2), an even row, columns 0 and 1.
        let mut odd = HexLayout::RowOdd.neighbours(p(1, 1)).to_vec();
        odd.sort_by_key(|c| (c.y, c.x));
        assert_eq!(odd, [p(1, 0), p(2, 0), p(0, 1), p(2, 1), p(1, 2), p(2, 2)]);
        let mut even = HexLayout::RowOdd.neighbours(p(1, 2)).to_vec();
        even.sort_by_key(|c| (c.y, c.x));
        assert_eq!(even, [p(0, 1), p(1, 1), p(0, 2), p(2, 2), p(0, 3), p(1, 3)]);
    }

    #[test]
    fn the_layouts_convert_as_bevy_ecs_tilemap_does() {
        // Worked by hand from bevy_ecs_tilemap 0.19's `From<…Pos> for AxialPos`.
        assert_eq!(HexLayout::RowOdd.to_axial(p(4, 3)), (3, 3));
        assert_eq!(HexLayout::RowEven.to_axial(p(4, 3)), (2, 3));
        assert_eq!(HexLayout::ColumnOdd.to_axial(p(3, 4)), (3, 3));
        assert_eq!(HexLayout::ColumnEven.to_axial(p(3, 4)), (3, 2));
        assert_eq!(HexLayout::Row.to_axial(p(3, 4)), (3, 4));
        assert_eq!(half_up(-3), -2);
        assert_eq!(half_up(-2), -1);
        assert_eq!(half_up(3), 2);
    }

    #[test]
    fn the_step_tables_are_the_neighbours() {
        for layout in HexLayout::ALL {
            for y in 0..6 {
                for x in 0..6 {
                    let c = p(x, y);
                    // Off the map (x or y below 0) the tables and bevy_ecs_tilemap's rounding
                    // name different cells; on it, the same.
                    let on = |n: &Point| n.x >= 0 && n.y >= 0;
                    let near = layout.steps(c).map(|(dx, dy)| p(x + dx, y + dy));
                    let theirs = layout.neighbours(c);
                    for (a, b) in near.iter().zip(&theirs).filter(|(a, b)| on(a) || on(b)) {
                        assert_eq!(a, b, "{layout:?} at {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_layout_round_trips_and_its_neighbours_touch_back() {
        for layout in HexLayout::ALL {
            for y in -6..6 {
                for x in -6..6 {
                    let c = p(x, y);
                    assert_eq!(layout.from_axial(layout.to_axial(c)), c, "{layout:?}");
                    let near = layout.neighbours(c);
                    for (i, &n) in near.iter().enumerate() {
                        assert!(layout.neighbours(n).contains(&c), "{layout:?} {c} {n}");
                        assert_eq!(layout.distance(c, n), 1);
                        assert!(!near[..i].contains(&n), "{layout:?}: {n} twice");
                    }
                }
            }
        }
    }

    #[test]
    fn on_an_open_map_the_distance_is_the_fewest_steps() {
        // Breadth first over the neighbours on the map, from every cell of rectangles up to
        // 9 × 9: the hex distance is exact there, so it is an exact heuristic on open ground
        // and never overestimates round walls.
        for layout in HexLayout::ALL {
            for (w, h) in [(1, 1), (2, 5), (5, 2), (4, 4), (9, 7), (7, 9)] {
                let on = |c: Point| (0..w).contains(&c.x) && (0..h).contains(&c.y);
                for from in (0..h).flat_map(|y| (0..w).map(move |x| p(x, y))) {
                    let mut steps = std::collections::HashMap::from([(from, 0u32)]);
                    let mut queue = std::collections::VecDeque::from([from]);
                    while let Some(c) = queue.pop_front() {
                        for n in layout.neighbours(c) {
                            if on(n) && !steps.contains_key(&n) {
                                steps.insert(n, steps[&c] + 1);
                                queue.push_back(n);
                            }
                        }
                    }
                    assert_eq!(steps.len(), (w * h) as usize, "{layout:?}: not connected");
                    for (&to, &d) in &steps {
                        assert_eq!(
                            layout.distance(from, to),
                            d,
                            "{layout:?} {w}x{h} {from} {to}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_line_is_hex_distance_plus_one_cells_each_touching_the_next() {
        for layout in HexLayout::ALL {
            for (a, b) in [
                ((0, 0), (7, 3)),
                ((5, 6), (0, 1)),
                ((2, 2), (2, 2)),
                ((1, 8), (9, 0)),
            ] {
                let (a, b) = (p(a.0, a.1), p(b.0, b.1));
                let line = layout.line(a, b);
                assert_eq!(line.len() as u32, layout.distance(a, b) + 1, "{layout:?}");
                assert_eq!((line[0], line[line.len() - 1]), (a, b));
                for pair in line.windows(2) {
                    assert!(
                        layout.neighbours(pair[0]).contains(&pair[1]),
                        "{layout:?} {line:?}"
                    );
                }
            }
        }
    }
}
