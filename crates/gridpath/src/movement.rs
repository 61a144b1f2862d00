//! Which moves a unit may make from a cell, and what each one costs.
//!
//! A straight step costs the entry cost of the cell it enters; a diagonal step costs √2 times
//! that ([`DIAGONAL`]), because it covers √2 times the distance. Diagonals bring one more
//! question: may a unit squeeze past the corner of a wall? The [`CornerRule`] answers it.

use crate::grid::{Grid, Point};
use crate::hex::HexLayout;
use crate::unit_class::{EntryCosts, UnitClass};
use std::fmt;

/// What a diagonal step costs on a cost-1 cell: √2, as the nearest multiple of 2⁻³⁰
/// (1.41421356238425, 1.1 · 10⁻¹¹ above √2), so that **sums of costs are exact**.
///
/// Why not [`std::f64::consts::SQRT_2`]? A* breaks ties between equal priorities `f = g + h` in
/// favour of the larger `g` (see the search's frontier), and ties are everywhere on a grid: every
/// order of the same straight and diagonal steps costs the same. With the float nearest √2, sums
/// that are equal in exact arithmetic differ in their last bits (`1 + √2 + √2` is not
/// `√2 + √2 + 1` in floating point), so the tie-break rarely applies and A* expands 4–19 % more
/// cells on the Moving AI maps (89 % more on an open arena). A multiple of 2⁻³⁰ times an integer
/// is exact in an `f64`, and so is any sum of them below 2²³ (8 million), so here two routes with
/// the same steps cost exactly the same, and the heuristics ([`crate::heuristic::Heuristic::Octile`]) use the
/// same constant.
///
/// The price is tiny and never changes which path is cheapest: a cost is off by 1.1 · 10⁻¹¹ per
/// diagonal step (10⁻⁸ over a thousand), far below the 10⁻⁴ the benchmarks check; and two
/// different costs `a + b·√2` (integers `a`, `b`) with `|b|` below 50,000 differ by more than
/// 10⁻⁵, far more than that error, so the order of any two paths is the true one.
pub const DIAGONAL: f64 = 1_518_500_250.0 / (1u64 << 30) as f64;

/// May a diagonal step pass the corner of a blocked cell?
///
/// A diagonal step from `(x, y)` to `(x+1, y+1)` brushes past two cells: `(x+1, y)` and
/// `(x, y+1)`. The rule decides how many of them may be blocked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CornerRule {
    /// Both side cells must be free: a unit never clips a wall. This is the Moving AI benchmark
    /// rule, and the one jump point search here supports.
    #[default]
    NeverCut,
    /// At most one side cell may be blocked: a unit may cut one corner, but never squeeze
    /// diagonally between two walls.
    CutOneCorner,
    /// The side cells do not matter: a unit can slip diagonally between two walls.
    CutAlways,
}

impl CornerRule {
    /// Every rule, for a menu.
    pub const ALL: [CornerRule; 3] = [Self::NeverCut, Self::CutOneCorner, Self::CutAlways];

    /// Is a diagonal step allowed, given whether each of its two side cells is free?
    #[inline]
    pub fn allows(self, side_a_free: bool, side_b_free: bool) -> bool {
        match self {
            CornerRule::NeverCut => side_a_free && side_b_free,
            CornerRule::CutOneCorner => side_a_free || side_b_free,
            CornerRule::CutAlways => true,
        }
    }

    /// Its name, for a menu.
    pub fn label(self) -> &'static str {
        match self {
            CornerRule::NeverCut => "never cut corners",
            CornerRule::CutOneCorner => "cut one corner",
            CornerRule::CutAlways => "cut any corner",
        }
    }
}

/// The neighbourhood a unit moves in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Movement {
    /// North, east, south and west only ("von Neumann" neighbourhood).
    FourWay,
    /// The four straight moves plus the four diagonals ("Moore" neighbourhood).
    EightWay(CornerRule),
    /// The six neighbours of a hexagon, the map laid out as the [`HexLayout`] says. Every step
    /// costs the entry cost of the cell it enters: the centres of touching hexagons are all
    /// the same distance apart.
    Hex(HexLayout),
    /// A staggered isometric map's four tiles that share a side ([`crate::staggered`]): 4-way
    /// moves on the square grid the map is a shear of.
    StaggeredFourWay,
    /// A staggered isometric map's eight touching tiles, past corners as the rule says: 8-way
    /// moves on the square grid the map is a shear of.
    StaggeredEightWay(CornerRule),
}

impl Default for Movement {
    /// Eight-way moves that never cut corners: the Moving AI benchmark's rules.
    fn default() -> Self {
        Movement::EightWay(CornerRule::NeverCut)
    }
}

impl fmt::Display for Movement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Movement::FourWay => write!(f, "4-way"),
            Movement::EightWay(rule) => write!(f, "8-way, {}", rule.label()),
            Movement::Hex(layout) => write!(f, "{}", layout.label()),
            Movement::StaggeredFourWay => write!(f, "staggered 4-way"),
            Movement::StaggeredEightWay(rule) => write!(f, "staggered 8-way, {}", rule.label()),
        }
    }
}

/// The eight compass steps as `(dx, dy)`, y pointing down: straight moves first, then diagonals.
/// Searches visit neighbours in this order, which is one part of what makes them deterministic.
pub const STEPS: [(i32, i32); 8] = [
    (0, -1),  // north
    (1, 0),   // east
    (0, 1),   // south
    (-1, 0),  // west
    (1, -1),  // north-east
    (1, 1),   // south-east
    (-1, 1),  // south-west
    (-1, -1), // north-west
];

impl Movement {
    /// Square moves with diagonals? (A hex map has none: its six steps all cost the same.)
    pub fn allows_diagonals(self) -> bool {
        matches!(self, Movement::EightWay(_) | Movement::StaggeredEightWay(_))
    }

    /// The moves of the square grid a staggered map is a shear of ([`crate::staggered`]), or
    /// `None` off a staggered map.
    pub fn unstaggered(self) -> Option<Movement> {
        match self {
            Movement::StaggeredFourWay => Some(Movement::FourWay),
            Movement::StaggeredEightWay(rule) => Some(Movement::EightWay(rule)),
            _ => None,
        }
    }

    /// The same moves on a staggered map: the inverse of [`Movement::unstaggered`] (a hex
    /// map's stay as they are).
    pub fn staggered(self) -> Movement {
        match self {
            Movement::FourWay => Movement::StaggeredFourWay,
            Movement::EightWay(rule) => Movement::StaggeredEightWay(rule),
            other => other,
        }
    }

    /// How much a step's `dx` adds to its `dy` on the square grid under the map: 1 on a
    /// staggered map (a shear), else 0.
    #[inline]
    fn shear(self) -> i32 {
        i32::from(self.unstaggered().is_some())
    }

    /// How many columns and rows apart `a` and `b` are on the square grid under the map (on a
    /// staggered map, between the sheared cells): what the square heuristics measure.
    #[inline]
    pub fn axis_distances(self, a: Point, b: Point) -> (u32, u32) {
        let k = self.shear();
        (a.x.abs_diff(b.x), (a.y + k * a.x).abs_diff(b.y + k * b.x))
    }

    /// Is the step `(dx, dy)` between neighbours a diagonal, crossing a corner of the square
    /// grid (sheared, on a staggered map)? A hex map has none.
    #[inline]
    pub(crate) fn is_diagonal(self, dx: i32, dy: i32) -> bool {
        self.allows_diagonals() && dx != 0 && dy + self.shear() * dx != 0
    }

    /// What a step `(dx, dy)` between two neighbouring cells costs, into a cell of entry cost
    /// `entry`: `√2 · entry` on a diagonal ([`Movement::is_diagonal`]), else `entry`, as every
    /// step of a hex map does, though many change both x and y. The backward searches price
    /// the steps into a cell with it.
    #[inline]
    pub(crate) fn step_into(self, entry: f64, (dx, dy): (i32, i32)) -> f64 {
        if self.is_diagonal(dx, dy) {
            entry * DIAGONAL
        } else {
            entry
        }
    }

    /// The hex layout, for moves on a hex map.
    pub fn hex(self) -> Option<HexLayout> {
        match self {
            Movement::Hex(layout) => Some(layout),
            _ => None,
        }
    }

    /// The steps `(dx, dy)` out of `from` this movement may take, walls aside: [`STEPS`]' first
    /// four or all eight, or a hexagon's six.
    pub(crate) fn steps(self, from: Point) -> &'static [(i32, i32)] {
        match self {
            Movement::FourWay => &STEPS[..4],
            Movement::EightWay(_) => &STEPS,
            Movement::Hex(layout) => layout.steps(from),
            Movement::StaggeredFourWay => &crate::staggered::STEPS[..4],
            Movement::StaggeredEightWay(_) => &crate::staggered::STEPS,
        }
    }

    /// The cost of one step from `from` to `to`, or `None` when the step is not a legal move:
    /// not a neighbour, off the grid, into a wall, or past a corner the rule forbids.
    pub fn step_cost(self, grid: &Grid, from: Point, to: Point) -> Option<f64> {
        self.step_cost_by(grid, grid, from, to)
    }

    /// [`Movement::step_cost`] for one unit class: a terrain the class may not enter is a wall
    /// to it, for the step's corners too.
    pub fn step_cost_as(
        self,
        grid: &Grid,
        class: &UnitClass,
        from: Point,
        to: Point,
    ) -> Option<f64> {
        self.step_cost_by(grid, class.on(grid), from, to)
    }

    /// [`Movement::step_cost`], reading the entry costs from `costs`.
    pub(crate) fn step_cost_by(
        self,
        grid: &Grid,
        costs: impl EntryCosts,
        from: Point,
        to: Point,
    ) -> Option<f64> {
        let open = |p: Point| grid.index_of(p).is_some_and(|i| costs.entry(i) != 0);
        // On a staggered map, the step on the square grid it is a shear of.
        let k = self.shear();
        let (dx, dy) = (to.x - from.x, to.y - from.y + k * (to.x - from.x));
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) || !open(from) {
            return None;
        }
        let entry = match costs.entry(grid.index_of(to)?) {
            0 => return None,
            cost => f64::from(cost),
        };
        if let Movement::Hex(layout) = self {
            return layout.steps(from).contains(&(dx, dy)).then_some(entry);
        }
        if dx == 0 || dy == 0 {
            return Some(entry);
        }
        let (Movement::EightWay(rule) | Movement::StaggeredEightWay(rule)) = self else {
            return None;
        };
        // The two cells the diagonal brushes past, (dx, 0) and (0, dy) on the square grid.
        let side_a = open(Point::new(from.x + dx, from.y - k * dx));
        let side_b = open(Point::new(from.x, from.y + dy));
        rule.allows(side_a, side_b).then_some(entry * DIAGONAL)
    }

    /// Every legal move out of `from`, with its cost, in [`STEPS`] order (on a hex map, in the
    /// order of [`HexLayout::neighbours`]).
    pub fn neighbors(self, grid: &Grid, from: Point) -> impl Iterator<Item = (Point, f64)> + '_ {
        self.steps(from).iter().filter_map(move |&(dx, dy)| {
            let to = Point::new(from.x + dx, from.y + dy);
            self.step_cost(grid, from, to).map(|cost| (to, cost))
        })
    }

    /// Every legal move out of `from`, in [`STEPS`] order: [`Movement::neighbors`] without the
    /// costs, read from the grid's bit rows instead of its cost array. A crowd asks this of each
    /// of its bodies at every step, at cells spread over the whole map; between steps the cost
    /// array falls out of the cache and the bit rows, a thirty-second of its size, do not.
    /// Always inlined: with a staggered map's case in it the compiler stopped inlining it, and
    /// the crowd's step ran 2.4 % more instructions (1,000 steps of 500 agents on the room map).
    #[inline(always)]
    pub fn moves(self, grid: &Grid, from: Point) -> impl Iterator<Item = Point> + use<> {
        let free = grid.free_block(from.x, from.y);
        let is_free = move |dx: i32, dy: i32| free & 1 << (3 * (dy + 1) + dx + 1) != 0;
        // A staggered map's corner steps (±1, ∓2) reach past the block round the cell: its
        // legal steps are worked out apart, out of the square grids' way.
        let staggered = self.unstaggered().is_some();
        let sheared = if staggered {
            self.staggered_moves(grid, from)
        } else {
            0
        };
        let steps = if is_free(0, 0) { self.steps(from) } else { &[] };
        steps.iter().enumerate().filter_map(move |(k, &(dx, dy))| {
            let legal = if staggered {
                sheared & 1 << k != 0
            } else {
                is_free(dx, dy)
                    && (dx == 0
                        || dy == 0
                        || matches!(self, Movement::Hex(_))
                        || matches!(self, Movement::EightWay(rule)
                            if rule.allows(is_free(dx, 0), is_free(0, dy))))
            };
            legal.then(|| Point::new(from.x + dx, from.y + dy))
        })
    }

    /// The searches' hot loop: calls `visit(index, x, y, step_cost)` for every legal move out of
    /// the cell at `index`, in [`STEPS`] order (on a hex map, [`HexLayout::steps`] order), where
    /// `x` and `y` are the neighbour's column and row. Same answers as [`Movement::neighbors`],
    /// on indices.
    #[inline(always)]
    pub(crate) fn for_each_neighbor(
        self,
        grid: &Grid,
        index: usize,
        visit: impl FnMut(usize, usize, usize, f64),
    ) {
        self.for_each_neighbor_by(grid, grid, index, visit)
    }

    /// [`Movement::for_each_neighbor`], reading the entry costs from `costs` (a unit class's
    /// view of the grid, say).
    ///
    /// Why one long function: it is the searches' innermost loop, which must compile into the
    /// loop that calls it; pieces of it behind closures were left out of line for a class's
    /// view (A\* through a class ran 21 % more instructions a cell).
    #[inline]
    pub(crate) fn for_each_neighbor_by(
        self,
        grid: &Grid,
        costs: impl EntryCosts,
        index: usize,
        mut visit: impl FnMut(usize, usize, usize, f64),
    ) {
        if let Movement::StaggeredFourWay | Movement::StaggeredEightWay(_) = self {
            return self.for_each_staggered(grid, costs, index, visit);
        }
        let w = grid.width() as usize;
        let (x, y) = (index % w, index / w);
        let has_n = y > 0;
        let has_s = y + 1 < grid.height() as usize;
        let has_w = x > 0;
        let has_e = x + 1 < w;
        // Gather first, visit after: one call site lets the compiler inline `visit` into this
        // loop, which matters in the searches' innermost loop. Hex maps gather here too: with
        // their own call site, even out of line, A* ran 19 % more instructions on square maps.
        let mut found = [(0usize, 0usize, 0usize, 0.0f64); 8];
        let mut count = 0;
        let mut add = |i: usize, x: usize, y: usize, c: f64| {
            found[count] = (i, x, y, c);
            count += 1;
        };

        if let Movement::Hex(layout) = self {
            for &(dx, dy) in layout.steps(Point::new(x as i32, y as i32)) {
                let (tx, ty) = (
                    x.wrapping_add_signed(dx as isize),
                    y.wrapping_add_signed(dy as isize),
                );
                if tx < w && ty < grid.height() as usize {
                    let target = ty * w + tx;
                    let c = costs.entry(target);
                    if c != 0 {
                        add(target, tx, ty, f64::from(c));
                    }
                }
            }
        } else {
            let n = if has_n { costs.entry(index - w) } else { 0 };
            let e = if has_e { costs.entry(index + 1) } else { 0 };
            let s = if has_s { costs.entry(index + w) } else { 0 };
            let west = if has_w { costs.entry(index - 1) } else { 0 };
            if n != 0 {
                add(index - w, x, y - 1, f64::from(n));
            }
            if e != 0 {
                add(index + 1, x + 1, y, f64::from(e));
            }
            if s != 0 {
                add(index + w, x, y + 1, f64::from(s));
            }
            if west != 0 {
                add(index - 1, x - 1, y, f64::from(west));
            }

            if let Movement::EightWay(rule) = self {
                // A macro, not a closure: through a class's view the closure was not inlined
                // (A* through a class ran 21 % more instructions per cell).
                macro_rules! diagonal {
                    ($exists:expr, $dx:expr, $dy:expr, $side_a:expr, $side_b:expr) => {
                        if $exists && rule.allows($side_a != 0, $side_b != 0) {
                            let (tx, ty) = (x.wrapping_add_signed($dx), y.wrapping_add_signed($dy));
                            let target = ty * w + tx;
                            let c = costs.entry(target);
                            if c != 0 {
                                add(target, tx, ty, f64::from(c) * DIAGONAL);
                            }
                        }
                    };
                }
                diagonal!(has_n && has_e, 1, -1, n, e);
                diagonal!(has_s && has_e, 1, 1, s, e);
                diagonal!(has_s && has_w, -1, 1, s, west);
                diagonal!(has_n && has_w, -1, -1, n, west);
            }
        }
        for &(i, x, y, c) in &found[..count] {
            visit(i, x, y, c);
        }
    }

    /// The legal steps out of `from` on a staggered map, as bits in [`Movement::steps`] order:
    /// the readable version's, out of line.
    #[cold]
    #[inline(never)]
    fn staggered_moves(self, grid: &Grid, from: Point) -> u8 {
        let mut legal = 0;
        for (k, &(dx, dy)) in self.steps(from).iter().enumerate() {
            let to = Point::new(from.x + dx, from.y + dy);
            if self.step_cost(grid, from, to).is_some() {
                legal |= 1 << k;
            }
        }
        legal
    }

    /// [`Movement::for_each_neighbor`] on a staggered map: the readable moves, as indices.
    #[cold]
    #[inline(never)]
    fn for_each_staggered(
        self,
        grid: &Grid,
        costs: impl EntryCosts,
        index: usize,
        mut visit: impl FnMut(usize, usize, usize, f64),
    ) {
        let (w, from) = (grid.width() as usize, grid.point_of(index));
        for &(dx, dy) in self.steps(from) {
            let to = Point::new(from.x + dx, from.y + dy);
            if let Some(c) = self.step_cost_by(grid, costs, from, to) {
                let (x, y) = (to.x as usize, to.y as usize);
                visit(y * w + x, x, y, c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(grid: &Grid, movement: Movement, from: Point) -> Vec<(Point, f64)> {
        movement.neighbors(grid, from).collect()
    }

    /// Squares (4-way and 8-way under every corner rule), the same sheared onto a staggered
    /// map, and the six hex layouts.
    fn every_movement() -> Vec<Movement> {
        let squares = [Movement::FourWay]
            .into_iter()
            .chain(CornerRule::ALL.map(Movement::EightWay));
        squares
            .clone()
            .chain(squares.map(Movement::staggered))
            .chain(HexLayout::ALL.map(Movement::Hex))
            .collect()
    }

    #[test]
    fn staggered_moves_are_the_square_moves_sheared() {
        use crate::staggered::{from_square, to_square};
        // Each tile on the square grid the map is a shear of (tile (x, y) is cell (x, x + y)),
        // every other cell of it a wall.
        let tiles = Grid::from_ascii(&["..#.", ".2..", "#..3", "..#."]).unwrap();
        let mut square = Grid::new(4, 7).unwrap();
        for y in 0..7 {
            for x in 0..4 {
                let cell = tiles.cell(from_square(Point::new(x, y)));
                square
                    .set(Point::new(x, y), cell.unwrap_or(crate::grid::Cell::Blocked))
                    .unwrap();
            }
        }
        for movement in every_movement()
            .into_iter()
            .filter_map(Movement::unstaggered)
        {
            for i in 0..tiles.len() {
                let p = tiles.point_of(i);
                let sheared: Vec<(Point, f64)> = moves(&square, movement, to_square(p))
                    .into_iter()
                    .map(|(q, c)| (from_square(q), c))
                    .collect();
                assert_eq!(
                    moves(&tiles, movement.staggered(), p),
                    sheared,
                    "{movement} at {p}"
                );
            }
        }
    }

    #[test]
    fn four_way_has_no_diagonals() {
        let g = Grid::new(3, 3).unwrap();
        let m = moves(&g, Movement::FourWay, Point::new(1, 1));
        assert_eq!(m.len(), 4);
        assert!(m.iter().all(|&(_, c)| c == 1.0));
    }

    #[test]
    fn corner_rules() {
        // The centre's north side is a wall; its north-east diagonal brushes past it.
        let g = Grid::from_ascii(&["...", "#.#", "..."]).unwrap();
        let c = Point::new(1, 1);
        let diag = |rule| {
            moves(&g, Movement::EightWay(rule), c)
                .into_iter()
                .filter(|(p, _)| p.x != c.x && p.y != c.y)
                .count()
        };
        // West and east are walls: every diagonal has exactly one blocked side.
        assert_eq!(diag(CornerRule::NeverCut), 0);
        assert_eq!(diag(CornerRule::CutOneCorner), 4);
        assert_eq!(diag(CornerRule::CutAlways), 4);

        // Squeezing between two walls.
        let g = Grid::from_ascii(&[".#", "#."]).unwrap();
        let (a, b) = (Point::new(0, 0), Point::new(1, 1));
        assert_eq!(
            Movement::EightWay(CornerRule::CutOneCorner).step_cost(&g, a, b),
            None
        );
        assert_eq!(
            Movement::EightWay(CornerRule::CutAlways).step_cost(&g, a, b),
            Some(DIAGONAL)
        );
    }

    #[test]
    fn hot_loop_matches_the_readable_version() {
        let g = Grid::from_ascii(&[".#3.", "..#.", "9...", "#.2."]).unwrap();
        for movement in every_movement() {
            for i in 0..g.len() {
                let from = g.point_of(i);
                if !g.is_passable(from) {
                    continue;
                }
                let mut fast = Vec::new();
                movement.for_each_neighbor(&g, i, |j, x, y, c| {
                    assert_eq!(g.point_of(j), Point::new(x as i32, y as i32));
                    fast.push((g.point_of(j), c))
                });
                assert_eq!(fast, moves(&g, movement, from), "{movement} from {from}");
            }
        }
    }

    use proptest::prelude::*;

    proptest! {
        /// The moves read from the bit rows are the readable version's, on a grid edited cell
        /// by cell (the bit rows must follow every edit), from every cell, walls and cells
        /// just outside the map included.
        #[test]
        fn moves_from_the_bit_rows_match_the_readable_version(
            (w, h, edits) in (1u32..70, 1u32..6).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec((0..w, 0..h, 0u32..3), 0..120))
            }),
        ) {
            let mut g = Grid::new(w, h).unwrap();
            for (x, y, cost) in edits {
                let cell = if cost == 0 { crate::grid::Cell::Blocked } else { crate::grid::Cell::Passable(cost) };
                g.set(Point::new(x as i32, y as i32), cell).unwrap();
            }
            for movement in every_movement() {
                for y in -1..=h as i32 {
                    for x in -1..=w as i32 {
                        let from = Point::new(x, y);
                        let readable: Vec<Point> =
                            movement.neighbors(&g, from).map(|(p, _)| p).collect();
                        let fast: Vec<Point> = movement.moves(&g, from).collect();
                        prop_assert_eq!(fast, readable, "{} from {}", movement, from);
                    }
                }
            }
        }
    }

    #[test]
    fn diagonal_costs_root_two_times_entry_cost() {
        let g = Grid::from_ascii(&["..", ".4"]).unwrap();
        let cost = Movement::default().step_cost(&g, Point::new(0, 0), Point::new(1, 1));
        assert_eq!(cost, Some(4.0 * DIAGONAL));
    }
}
