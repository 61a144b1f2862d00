//! The independent oracle: legal moves written apart from gridpath's neighbour code, the
//! `pathfinding` crate's Dijkstra over them with exact costs, and a step-by-step path check.
//! Shared by the property tests and the differential fuzz target (`fuzz/`), which includes this
//! file by path.

use gridpath::hex::HexLayout;
use gridpath::{Cell, CornerRule, DIAGONAL, Grid, Movement, Point, Search};
use std::cmp::Ordering;
use std::ops::Add;

/// An exact path cost `straight + diagonal·√2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Exact {
    pub straight: i64,
    pub diagonal: i64,
}

impl Exact {
    /// The cost as gridpath counts it, with its √2 ([`DIAGONAL`], within 10⁻¹¹ of the true one):
    /// the comparisons above stay exact, and the value can be compared to 10⁻⁹.
    pub fn value(self) -> f64 {
        self.straight as f64 + self.diagonal as f64 * DIAGONAL
    }
}

impl Add for Exact {
    type Output = Exact;
    fn add(self, o: Exact) -> Exact {
        Exact {
            straight: self.straight + o.straight,
            diagonal: self.diagonal + o.diagonal,
        }
    }
}

impl num_traits::Zero for Exact {
    fn zero() -> Self {
        Exact::default()
    }
    fn is_zero(&self) -> bool {
        *self == Exact::default()
    }
}

impl Ord for Exact {
    /// Compares `a1 + b1√2` with `a2 + b2√2`, i.e. `p = a1 − a2` with `q√2` where `q = b2 − b1`.
    fn cmp(&self, o: &Self) -> Ordering {
        let p = self.straight - o.straight;
        let q = o.diagonal - self.diagonal;
        match (p.signum(), q.signum()) {
            (0, 0) => Ordering::Equal,
            (ps, qs) if ps <= 0 && qs >= 0 => Ordering::Less,
            (ps, qs) if ps >= 0 && qs <= 0 => Ordering::Greater,
            // Same signs: compare squares, p² against 2q², flipping for negatives.
            (ps, _) => {
                let ord = (p * p).cmp(&(2 * q * q));
                if ps > 0 { ord } else { ord.reverse() }
            }
        }
    }
}

impl PartialOrd for Exact {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The six neighbours of a hexagon, as Red Blob Games' guide tabulates them for offset
/// coordinates ("oddr", "evenr", "oddq", "evenq"; y down, as here) and axial ones: written from
/// the guide, not from gridpath's tables.
fn red_blob_hex_steps(layout: HexLayout, p: Point) -> [(i32, i32); 6] {
    const ODD_R: [[(i32, i32); 6]; 2] = [
        [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)],
        [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)],
    ];
    const ODD_Q: [[(i32, i32); 6]; 2] = [
        [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)],
        [(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)],
    ];
    const AXIAL: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
    let (row, column) = ((p.y & 1) as usize, (p.x & 1) as usize);
    match layout {
        HexLayout::RowOdd => ODD_R[row],
        HexLayout::RowEven => ODD_R[1 - row], // even-r is odd-r with the parities swapped
        HexLayout::ColumnOdd => ODD_Q[column],
        HexLayout::ColumnEven => ODD_Q[1 - column],
        HexLayout::Row | HexLayout::Column => AXIAL,
    }
}

/// The legal moves out of `p`, written independently of gridpath's neighbour code.
pub fn oracle_moves(grid: &Grid, movement: Movement, p: Point) -> Vec<(Point, Exact)> {
    // A staggered map is bevy_ecs_tilemap's shear of a square grid: its tile (x, y) is that
    // grid's cell (x, x + y) (`StaggeredPos` into `DiamondPos`). Move on the square grid.
    let square = match movement {
        Movement::StaggeredFourWay => Some(Movement::FourWay),
        Movement::StaggeredEightWay(rule) => Some(Movement::EightWay(rule)),
        _ => None,
    };
    if let Some(square) = square {
        let tile = |q: Point| Point::new(q.x, q.y - q.x);
        let at = Point::new(p.x, p.y + p.x);
        return moves_on(|q| grid.cell(tile(q)), square, at)
            .into_iter()
            .map(|(q, cost)| (tile(q), cost))
            .collect();
    }
    moves_on(|q| grid.cell(q), movement, p)
}

/// [`oracle_moves`] on the cells `cell` gives.
fn moves_on(
    cell: impl Fn(Point) -> Option<Cell>,
    movement: Movement,
    p: Point,
) -> Vec<(Point, Exact)> {
    let free = |x: i32, y: i32| matches!(cell(Point::new(x, y)), Some(Cell::Passable(_)));
    let entry = |x: i32, y: i32| match cell(Point::new(x, y)) {
        Some(Cell::Passable(c)) => i64::from(c),
        _ => 0,
    };
    let mut out = Vec::new();
    if let Movement::Hex(layout) = movement {
        if !free(p.x, p.y) {
            return out;
        }
        for (dx, dy) in red_blob_hex_steps(layout, p) {
            let (x, y) = (p.x + dx, p.y + dy);
            if free(x, y) {
                let straight = entry(x, y);
                out.push((
                    Point::new(x, y),
                    Exact {
                        straight,
                        diagonal: 0,
                    },
                ));
            }
        }
        return out;
    }
    for dy in -1..=1 {
        for dx in -1..=1 {
            let (x, y) = (p.x + dx, p.y + dy);
            if (dx == 0 && dy == 0) || !free(x, y) {
                continue;
            }
            if dx == 0 || dy == 0 {
                out.push((
                    Point::new(x, y),
                    Exact {
                        straight: entry(x, y),
                        diagonal: 0,
                    },
                ));
                continue;
            }
            let Movement::EightWay(rule) = movement else {
                continue;
            };
            let (a, b) = (free(p.x + dx, p.y), free(p.x, p.y + dy));
            let ok = match rule {
                CornerRule::NeverCut => a && b,
                CornerRule::CutOneCorner => a || b,
                CornerRule::CutAlways => true,
            };
            if ok {
                out.push((
                    Point::new(x, y),
                    Exact {
                        straight: 0,
                        diagonal: entry(x, y),
                    },
                ));
            }
        }
    }
    out
}

/// Every cell reachable from `start`, by the oracle's own moves (a breadth-first flood).
pub fn oracle_reachable(grid: &Grid, movement: Movement, start: Point) -> Vec<Point> {
    pathfinding::prelude::bfs_reach(start, |&p| {
        oracle_moves(grid, movement, p).into_iter().map(|(q, _)| q)
    })
    .collect()
}

/// The reachable cell nearest `goal` in a straight line, ties to the lower index: what
/// closest-reachable mode promises.
pub fn oracle_nearest_reachable(
    grid: &Grid,
    movement: Movement,
    start: Point,
    goal: Point,
) -> Point {
    let index = |p: Point| p.y * grid.width() as i32 + p.x;
    oracle_reachable(grid, movement, start)
        .into_iter()
        .min_by_key(|p| {
            let (dx, dy) = (i64::from(p.x - goal.x), i64::from(p.y - goal.y));
            (dx * dx + dy * dy, index(*p))
        })
        .unwrap_or(start)
}

pub fn oracle_cost(grid: &Grid, movement: Movement, start: Point, goal: Point) -> Option<Exact> {
    pathfinding::prelude::dijkstra(&start, |&p| oracle_moves(grid, movement, p), |&p| p == goal)
        .map(|(_, cost)| cost)
}

/// The search's path is legal and its cost adds up.
pub fn check_path(grid: &Grid, movement: Movement, start: Point, goal: Point, search: &Search) {
    let cost = search
        .cost()
        .expect("a finished search with a path has a cost");
    check_steps(grid, movement, (start, goal), search.path(), cost);
}

/// `path` runs from `start` to `goal` by legal moves whose costs add up to `cost`.
pub fn check_steps(
    grid: &Grid,
    movement: Movement,
    (start, goal): (Point, Point),
    path: &[Point],
    cost: f64,
) {
    assert_eq!(path.first(), Some(&start));
    assert_eq!(path.last(), Some(&goal));
    let mut sum = 0.0;
    for pair in path.windows(2) {
        let step = movement.step_cost(grid, pair[0], pair[1]);
        sum += step.unwrap_or_else(|| panic!("illegal step {} → {} in {grid:?}", pair[0], pair[1]));
    }
    assert!(
        (sum - cost).abs() < 1e-6,
        "steps add to {sum}, reported {cost}"
    );
}
