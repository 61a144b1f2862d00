//! Field of view and line of sight: symmetric shadowcasting on squares, hex lines on hexagons.

use super::cell_set::CellSet;
use crate::grid::{Grid, Point};
use crate::hex::HexLayout;
use crate::movement::Movement;
use crate::staggered;

/// Every cell a unit sees from its cell within a radius, on any shape of map.
///
/// On squares it is Albert Ford's *symmetric shadowcasting* ("Symmetric Shadowcasting", 2020):
/// the four quarters round the unit are scanned row by row outwards, each row between a start
/// and an end slope; a wall narrows the slopes of the rows behind it, and a scan splits in two
/// round a wall in the middle of a row. The rule it computes, exactly (slopes are kept as
/// fractions of integers):
///
/// - a **floor** cell is seen when the straight line from the unit's centre to the cell's centre
///   passes through no wall, each wall taken as the diamond inscribed in its cell, and two walls
///   side by side joined where their diamonds touch (so a line may graze a lone wall's corner,
///   and two walls touching at a corner leave a gap to see through, but a straight wall has no
///   chinks). The rule is the same both ways: a sees b exactly when b sees a, so a unit that can see an enemy
///   can always be seen by it;
/// - a **wall** is seen when any part of its diamond is lit: standing in a convex room, every wall
///   of the room is seen.
///
/// Ford's scan drops a ray that grazes the outer corner of a wall at the end of a row; this one
/// follows it on, so that the rule above holds exactly (a property test checks it against a
/// brute-force line test on thousands of random maps). The radius is round (a cell
/// `dx² + dy² ≤ radius²` away). A staggered isometric map is a square
/// grid sheared ([`crate::staggered`]): it is scanned as that grid. On hexagons a cell is seen
/// when Red Blob Games' line to it ([`HexLayout::line`]) crosses no wall before it, the line
/// always drawn from the cell of lower index so that sight is symmetric there too; the radius is
/// the hex distance.
///
/// The memory is kept from one computation to the next.
#[derive(Clone, Debug, Default)]
pub struct FieldOfView {
    width: u32,
    seen: CellSet,
    cells: Vec<u32>,
}

impl FieldOfView {
    /// An empty field of view.
    pub fn new() -> Self {
        Self::default()
    }

    /// Computes what a unit at `from` sees within `radius` under `movement`'s shape of map. A
    /// unit off the grid sees nothing; a unit on a wall sees as if it stood on floor.
    pub fn compute(&mut self, grid: &Grid, movement: Movement, from: Point, radius: u32) {
        self.seen.clear_cells(&self.cells);
        if self.width != grid.width() {
            self.seen = CellSet::default();
            self.width = grid.width();
        }
        self.cells.clear();
        if !grid.contains(from) {
            return;
        }
        let r = i64::from(radius.min(1 << 20));
        match movement {
            Movement::Hex(layout) => self.hexagons(grid, layout, from, r),
            Movement::StaggeredFourWay | Movement::StaggeredEightWay(_) => {
                let on_map = |p: Point| staggered::from_square(p);
                self.shadowcast(grid, staggered::to_square(from), r, on_map);
            }
            _ => self.shadowcast(grid, from, r, |p| p),
        }
    }

    /// Is `p` seen?
    pub fn is_visible(&self, p: Point) -> bool {
        p.x >= 0
            && p.y >= 0
            && (p.x as u32) < self.width
            && self
                .seen
                .contains(p.y as usize * self.width as usize + p.x as usize)
    }

    /// The cells seen, in no particular order.
    pub fn cells(&self) -> impl Iterator<Item = Point> + '_ {
        let w = self.width.max(1) as usize;
        self.cells
            .iter()
            .map(move |&i| Point::new((i as usize % w) as i32, (i as usize / w) as i32))
    }

    fn reveal(&mut self, grid: &Grid, p: Point) {
        if let Some(i) = grid.index_of(p)
            && self.seen.insert(grid.len(), i)
        {
            self.cells.push(i as u32);
        }
    }

    /// Symmetric shadowcasting round `origin`, a cell of the square grid whose cell `p` is the
    /// map's cell `on_map(p)`. Off the map is a wall.
    fn shadowcast(
        &mut self,
        grid: &Grid,
        origin: Point,
        radius: i64,
        on_map: impl Fn(Point) -> Point,
    ) {
        self.reveal(grid, on_map(origin));
        let is_wall = |p: Point| !grid.is_passable(on_map(p));
        // The four quarters, each as (depth, column) → square cell.
        let quarters: [fn(Point, i64, i64) -> Point; 4] = [
            |o, d, c| Point::new(o.x + c as i32, o.y - d as i32),
            |o, d, c| Point::new(o.x + d as i32, o.y + c as i32),
            |o, d, c| Point::new(o.x + c as i32, o.y + d as i32),
            |o, d, c| Point::new(o.x - d as i32, o.y + c as i32),
        ];
        let mut rows = Vec::new();
        for cell_at in quarters {
            rows.push(Row {
                depth: 1,
                start: Slope::new(-1, 1),
                end: Slope::new(1, 1),
            });
            while let Some(mut row) = rows.pop() {
                if row.depth > radius {
                    continue;
                }
                let (first, last) = (row.start.round_up(row.depth), row.end.round_down(row.depth));
                let wall_at = |col: i64| is_wall(cell_at(origin, row.depth, col));
                if first > last {
                    // A row of no width, a ray between two cells: a joint of two walls stops it.
                    if !(wall_at(last) && wall_at(first)) {
                        rows.push(row.deeper());
                    }
                    continue;
                }
                grazing_rays(row, first, last, wall_at, &mut rows);
                let mut previous_wall = None;
                for col in first..=last {
                    let square = cell_at(origin, row.depth, col);
                    let wall = is_wall(square);
                    let in_radius = row.depth * row.depth + col * col <= radius * radius;
                    if in_radius && (wall || row.is_symmetric(col)) {
                        self.reveal(grid, on_map(square));
                    }
                    if previous_wall == Some(true) && !wall {
                        row.start = Slope::left_edge(row.depth, col);
                    }
                    if previous_wall == Some(false) && wall {
                        rows.push(Row {
                            depth: row.depth + 1,
                            start: row.start,
                            end: Slope::left_edge(row.depth, col),
                        });
                    }
                    previous_wall = Some(wall);
                }
                if previous_wall == Some(false) {
                    rows.push(row.deeper());
                }
            }
        }
    }

    /// Every hexagon within `radius` of `from` whose line from it crosses no wall.
    fn hexagons(&mut self, grid: &Grid, layout: HexLayout, from: Point, radius: i64) {
        let (q0, r0) = layout.to_axial(from);
        let radius = radius.min(i64::from(grid.width() + grid.height())) as i32;
        for dq in -radius..=radius {
            for dr in (-radius).max(-dq - radius)..=radius.min(-dq + radius) {
                let p = layout.from_axial((q0 + dq, r0 + dr));
                if grid.contains(p) && hex_line_clear(grid, layout, from, p) {
                    self.reveal(grid, p);
                }
            }
        }
    }
}

/// The rays along a row's start or end that graze the outer corner of a wall at the row's end:
/// they pass on (Ford's scan would drop them) as rows of no width, unless that corner is a joint
/// with the next wall.
fn grazing_rays(
    row: Row,
    first: i64,
    last: i64,
    wall_at: impl Fn(i64) -> bool,
    rows: &mut Vec<Row>,
) {
    let edges = [
        (row.start, first, 2 * first - 1, first - 1),
        (row.end, last, 2 * last + 1, last + 1),
    ];
    for (edge, col, corner, beyond) in edges {
        // The edge's column at this depth is the corner's: 2 · depth · slope = corner.
        if wall_at(col) && 2 * row.depth * edge.num == corner * edge.den && !wall_at(beyond) {
            rows.push(Row {
                start: edge,
                end: edge,
                ..row.deeper()
            });
        }
    }
}

/// Can `a` see `b`? The rule of [`FieldOfView`] for one pair of floor cells, with no radius:
/// on squares (and staggered maps), no wall's inscribed diamond, nor the joint of two walls side
/// by side, crossed by the line between the centres; on hexagons, no wall on the hex line between them. Either cell off the grid: no.
pub fn can_see(grid: &Grid, movement: Movement, a: Point, b: Point) -> bool {
    if !grid.contains(a) || !grid.contains(b) {
        return false;
    }
    match movement {
        Movement::Hex(layout) => hex_line_clear(grid, layout, a, b),
        Movement::StaggeredFourWay | Movement::StaggeredEightWay(_) => {
            let wall = |p: Point| !grid.is_passable(staggered::from_square(p));
            diamonds_clear(staggered::to_square(a), staggered::to_square(b), wall)
        }
        _ => diamonds_clear(a, b, |p| !grid.is_passable(p)),
    }
}

/// No wall strictly between `a` and `b` on the hex line, drawn from the one of lower index.
fn hex_line_clear(grid: &Grid, layout: HexLayout, a: Point, b: Point) -> bool {
    let (a, b) = if (a.y, a.x) <= (b.y, b.x) {
        (a, b)
    } else {
        (b, a)
    };
    let line = layout.line(a, b);
    let inner = line.get(1..line.len().saturating_sub(1)).unwrap_or(&[]);
    inner.iter().all(|&p| grid.is_passable(p))
}

/// Does the segment between the centres of `a` and `b` miss the open diamond inscribed in every
/// wall cell other than `a` and `b`? Only the cells it passes through can hold such a diamond;
/// each is tested exactly, in integers.
fn diamonds_clear(a: Point, b: Point, is_wall: impl Fn(Point) -> bool) -> bool {
    if a == b {
        return true;
    }
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    // Walk along the longer axis; at each step the segment spans at most three cells across.
    let (long, short) = if dx.abs() >= dy.abs() {
        (dx, dy)
    } else {
        (dy, dx)
    };
    let across = |t: i32, s: i32| {
        if dx.abs() >= dy.abs() {
            Point::new(a.x + t, a.y + s)
        } else {
            Point::new(a.x + s, a.y + t)
        }
    };
    let sign = long.signum();
    for k in 0..=long.abs() {
        let t = k * sign;
        // Where the segment is across at t, short · t / long, rounded down: a diamond it
        // crosses within half a cell of t is within a cell of that.
        let mid = if long == 0 {
            0
        } else {
            (i64::from(short) * i64::from(t) * i64::from(sign)).div_euclid(i64::from(long.abs()))
                as i32
        };
        for s in mid - 1..=mid + 1 {
            let p = across(t, s);
            if !is_wall(p) {
                continue;
            }
            let joined = |q: Point| is_wall(q) && through_joint(a, b, p, q);
            if (p != a && p != b && crosses_diamond(a, b, p))
                || joined(Point::new(p.x + 1, p.y))
                || joined(Point::new(p.x, p.y + 1))
            {
                return false;
            }
        }
    }
    true
}

/// Does the segment between the centres of `a` and `b` pass through the joint of the diamonds of
/// `w` and `next`, walls side by side: the middle of their shared side? (Shadowcasting scans a
/// row of walls as one: no gap opens where two diamonds of it touch.)
fn through_joint(a: Point, b: Point, w: Point, next: Point) -> bool {
    let (jx, jy) = (i64::from(w.x + next.x), i64::from(w.y + next.y)); // doubled
    let (ax, ay) = (2 * i64::from(a.x), 2 * i64::from(a.y));
    let (dx, dy) = (2 * i64::from(b.x) - ax, 2 * i64::from(b.y) - ay);
    let (ex, ey) = (jx - ax, jy - ay);
    dx * ey == dy * ex && (0..=dx * dx + dy * dy).contains(&(dx * ex + dy * ey))
}

/// Does the segment from `a`'s centre to `b`'s centre pass through the open diamond inscribed in
/// cell `w` (the points within a Manhattan distance under ½ of its centre)? The distance along
/// the segment is convex and piecewise linear, so its least value is at an end or where the
/// segment crosses `w`'s row or column: each a fraction `p / q`, compared in integers.
pub(crate) fn crosses_diamond(a: Point, b: Point, w: Point) -> bool {
    let (ax, ay, wx, wy) = (
        i64::from(a.x),
        i64::from(a.y),
        i64::from(w.x),
        i64::from(w.y),
    );
    let (dx, dy) = (i64::from(b.x) - ax, i64::from(b.y) - ay);
    // 2 · |segment(p/q) − w|₁ < q, all times q.
    let inside = |p: i64, q: i64| {
        2 * ((ax * q + p * dx - wx * q).abs() + (ay * q + p * dy - wy * q).abs()) < q
    };
    let crossing = |from: i64, to: i64, d: i64| {
        // t = (to − from) / d, as p / q with q > 0, if it lies on the segment.
        let (p, q) = if d < 0 {
            (from - to, -d)
        } else {
            (to - from, d)
        };
        (d != 0 && (0..=q).contains(&p)).then_some((p, q))
    };
    inside(0, 1)
        || inside(1, 1)
        || crossing(ax, wx, dx).is_some_and(|(p, q)| inside(p, q))
        || crossing(ay, wy, dy).is_some_and(|(p, q)| inside(p, q))
}

/// A slope `num / den` (den > 0): the column a line from the unit crosses at each depth.
#[derive(Clone, Copy, Debug)]
struct Slope {
    num: i64,
    den: i64,
}

impl Slope {
    fn new(num: i64, den: i64) -> Self {
        Self { num, den }
    }

    /// The slope through the left corner of the diamond in cell `col` at `depth`:
    /// `(2 · col − 1) / (2 · depth)`, where its shadow starts (or a gap after a wall does).
    fn left_edge(depth: i64, col: i64) -> Self {
        Self::new(2 * col - 1, 2 * depth)
    }

    /// `depth · slope` rounded to the nearest column, halves up.
    fn round_up(self, depth: i64) -> i64 {
        (2 * depth * self.num + self.den).div_euclid(2 * self.den)
    }

    /// `depth · slope` rounded to the nearest column, halves down.
    fn round_down(self, depth: i64) -> i64 {
        -(-2 * depth * self.num + self.den).div_euclid(2 * self.den)
    }
}

/// One row of a quarter's scan: the cells at `depth` between two slopes.
#[derive(Clone, Copy, Debug)]
struct Row {
    depth: i64,
    start: Slope,
    end: Slope,
}

impl Row {
    /// The row behind this one, between the same slopes.
    fn deeper(self) -> Row {
        Row {
            depth: self.depth + 1,
            ..self
        }
    }

    /// Is the centre of the cell at `col` between the row's slopes (ends included)? Floor cells
    /// are lit only then, which makes sight symmetric.
    fn is_symmetric(&self, col: i64) -> bool {
        col * self.start.den >= self.depth * self.start.num
            && col * self.end.den <= self.depth * self.end.num
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(rows: &[&str], from: Point, radius: u32) -> Vec<String> {
        let grid = Grid::from_ascii(rows).expect("a map");
        let mut fov = FieldOfView::new();
        fov.compute(&grid, Movement::FourWay, from, radius);
        (0..grid.height() as i32)
            .map(|y| {
                (0..grid.width() as i32)
                    .map(|x| {
                        match (
                            fov.is_visible(Point::new(x, y)),
                            rows[y as usize].as_bytes()[x as usize],
                        ) {
                            (true, b'#') => '#',
                            (true, _) => 'o',
                            (false, _) => ' ',
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn in_a_convex_room_every_wall_is_seen() {
        let room = ["#######", "#.....#", "#.....#", "#######"];
        assert_eq!(
            seen(&room, Point::new(1, 1), 10),
            room.map(|r| r.replace('.', "o"))
        );
    }

    #[test]
    fn a_pillar_casts_a_shadow_that_widens() {
        let map = [
            ".........",
            "....#....",
            ".........",
            ".........",
            ".........",
        ];
        let view = seen(&map, Point::new(4, 0), 10);
        assert_eq!(view[1], "oooo#oooo");
        assert_eq!(view[2], "oooo oooo");
        assert_eq!(view[4], "ooo   ooo");
    }
}
