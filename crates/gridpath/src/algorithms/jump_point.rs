//! Jump point search (JPS): A* that skips the cells in between.
//!
//! On a grid where every cell costs the same, most cells have many equally short routes through
//! them, and A* wastes its time opening all of them. JPS (Harabor and Grastien, 2011) keeps one
//! *canonical* route instead: diagonal moves first, then straight ones. From a cell it only looks
//! in the directions such a route could continue, and instead of stepping one cell it *jumps*:
//! it runs along a straight line or a diagonal until it hits something interesting, a *jump
//! point*. A jump point is the goal, or a cell with a *forced neighbour*: a cell that only a turn
//! here can reach optimally, because a wall blocks the shortcut to it. Only jump points enter the
//! frontier, so JPS expands a small fraction of A*'s cells and returns the same optimal cost.
//!
//! This version follows the Moving AI rules: 8-way moves that never cut a corner. Under that rule
//! a diagonal arrival has no forced neighbours (both side cells were free), and a straight
//! arrival has one on each side whose cell *behind* is a wall. JPS needs every passable cell to
//! cost the same; on terrain costs [`crate::Search::begin`] refuses it with
//! [`crate::QueryError::Unsupported`] instead of returning a wrong path.

use super::Rules;
use crate::grid::Grid;
use crate::movement::DIAGONAL;
use crate::run_bits::RunLine;
use crate::search::frontier::Order;

pub(crate) const RULES: Rules = Rules {
    order: Order::Priority,
    relax: true,
    uses_heuristic: true,
};

pub(crate) const SUMMARY: &str = "A* that jumps along straight lines and diagonals and only \
     stops at cells where the route may turn. Same optimal cost as A* with far fewer expansions. \
     Needs 8-way moves that never cut corners and equal cell costs.";

/// Calls `visit(jump_point, x, y, distance)` for every successor of `node`, where `x` and `y` are
/// the jump point's column and row and `distance` is the octile length of the run to it.
///
/// `parent` is the jump point `node` was reached from (`None` for the start): the direction of
/// arrival decides which directions are worth a look.
///
/// One refinement over the 2011 algorithm (Harabor and Grastien's 2014 pruning): a cell on a
/// diagonal run whose straight runs find jump points is not itself put in the frontier. Its
/// straight jump points become successors of `node` directly, reached by "diagonal first, then
/// straight", and the diagonal run carries on. That saves one expansion per such cell, and the
/// path between two jump points is still fixed by their positions alone.
pub(crate) fn for_each_successor(
    grid: &Grid,
    node: usize,
    parent: Option<usize>,
    goal: usize,
    visit: impl FnMut(usize, usize, usize, f64),
) {
    let w = grid.width() as usize;
    let (x, y) = cell_at(node, w);
    let goal = cell_at(goal, w);
    let mut found = successor_reporter(w, (x, y), visit);
    for &(dx, dy) in directions_from(grid, (x, y), parent).as_slice() {
        if dx == 0 || dy == 0 {
            if let Some(j) = jump_straight(grid, x, y, dx, dy, goal) {
                found(j);
            }
        } else {
            jump_diagonal(grid, x, y, dx, dy, goal, &mut found);
        }
    }
}

/// The column and row of cell `index` on a grid `width` cells wide.
#[inline]
pub(super) fn cell_at(index: usize, width: usize) -> (i32, i32) {
    ((index % width) as i32, (index / width) as i32)
}

/// Turns a jump point found from `(x, y)` into the search's `visit(index, x, y, distance)`.
#[inline(always)]
pub(super) fn successor_reporter(
    width: usize,
    (x, y): (i32, i32),
    mut visit: impl FnMut(usize, usize, usize, f64),
) -> impl FnMut((i32, i32)) {
    move |(jx, jy)| {
        visit(
            jy as usize * width + jx as usize,
            jx as usize,
            jy as usize,
            octile(jx - x, jy - y),
        )
    }
}

/// The directions worth a look from the cell at `(x, y)`: all eight from the start, otherwise
/// those a canonical route may continue in after arriving from `parent`. JPS+ prunes the same way.
pub(super) fn directions_from(
    grid: &Grid,
    (x, y): (i32, i32),
    parent: Option<usize>,
) -> Directions {
    let mut dirs = Directions::default();
    match parent.map(|p| cell_at(p, grid.width() as usize)) {
        None => crate::movement::STEPS.iter().for_each(|&d| dirs.push(d)),
        Some((px, py)) => {
            let (dx, dy) = arrival_direction(x - px, y - py);
            pruned_directions(grid, x, y, dx, dy, &mut dirs);
        }
    }
    dirs
}

/// The last step's direction on a "diagonal first, then straight" run of `(dx, dy)`: straight
/// along the longer axis, or diagonal when the run is a pure diagonal.
fn arrival_direction(dx: i32, dy: i32) -> (i32, i32) {
    match dx.abs().cmp(&dy.abs()) {
        std::cmp::Ordering::Greater => (dx.signum(), 0),
        std::cmp::Ordering::Less => (0, dy.signum()),
        std::cmp::Ordering::Equal => (dx.signum(), dy.signum()),
    }
}

/// Length of a diagonal-then-straight run covering `(dx, dy)`.
fn octile(dx: i32, dy: i32) -> f64 {
    let (a, b) = (dx.unsigned_abs(), dy.unsigned_abs());
    f64::from(a.max(b) - a.min(b)) + f64::from(a.min(b)) * DIAGONAL
}

/// The directions a canonical route may continue in, after arriving at `(x, y)` moving `(dx, dy)`.
fn pruned_directions(grid: &Grid, x: i32, y: i32, dx: i32, dy: i32, out: &mut Directions) {
    let free = |x, y| grid.is_free(x, y);
    if dx != 0 && dy != 0 {
        // Diagonal arrival: carry on diagonally, or turn to one of its two straight parts.
        out.push((dx, 0));
        out.push((0, dy));
        out.push((dx, dy));
    } else if dx != 0 {
        out.push((dx, 0));
        for side in [-1, 1] {
            // The wall behind a side cell forced us to come this way to reach it.
            if !free(x - dx, y + side) && free(x, y + side) {
                out.push((0, side));
                out.push((dx, side));
            }
        }
    } else {
        out.push((0, dy));
        for side in [-1, 1] {
            if !free(x + side, y - dy) && free(x + side, y) {
                out.push((side, 0));
                out.push((side, dy));
            }
        }
    }
}

/// Runs from `(x, y)` in the straight direction `(dx, dy)` and returns the first jump point, or
/// `None` when the run ends at a wall or the edge of the map.
///
/// A cell on a run east is a jump point when it is the goal, or when a side cell is free but the
/// cell behind that side cell (one step west) is a wall: then only a turn here reaches the side
/// cell optimally. [`jump_straight_cell_by_cell`] says exactly that, one cell at a time; this
/// version gives the same answers 64 cells at a time (Harabor and Grastien's "block-based"
/// jumps): the grid keeps, for each direction, one bit per cell saying whether a run stops
/// there (see `run_bits.rs`), so the jump is a search for the first set bit. A run west or north
/// reads mirrored lines, where it runs forwards too, and a vertical run reads the transposed grid.
///
/// `inline(always)`: JPS makes about 28 straight jumps per expansion, and the compiler's own
/// choice was a call each time. Inlined, JPS runs 23–34 % fewer instructions on the Moving AI
/// maps (see `benches/callgrind.sh`).
#[inline(always)]
fn jump_straight(
    grid: &Grid,
    x: i32,
    y: i32,
    dx: i32,
    dy: i32,
    goal: (i32, i32),
) -> Option<(i32, i32)> {
    let mirror = |p: i32, length: u32| length as i32 - 1 - p;
    let jump = |line: RunLine, from: i32, goal: Option<i32>| {
        let (stop, jump_point) = line.first_stop(from)?;
        match goal {
            // The goal ends any run that reaches it: before the stop, or at it.
            Some(g) if g > from && g <= stop => Some(g),
            _ => jump_point.then_some(stop), // else a jump point, or a wall that ended the run
        }
    };
    match (dx, dy) {
        (1, _) => {
            jump(grid.row_run(y, false), x, (goal.1 == y).then_some(goal.0)).map(|jx| (jx, y))
        }
        (-1, _) => {
            let (w, goal) = (grid.width(), (goal.1 == y).then_some(goal.0));
            let j = jump(
                grid.row_run(y, true),
                mirror(x, w),
                goal.map(|g| mirror(g, w)),
            );
            j.map(|jx| (mirror(jx, w), y))
        }
        (_, 1) => jump(
            grid.column_run(x, false),
            y,
            (goal.0 == x).then_some(goal.1),
        )
        .map(|jy| (x, jy)),
        _ => {
            let (h, goal) = (grid.height(), (goal.0 == x).then_some(goal.1));
            let j = jump(
                grid.column_run(x, true),
                mirror(y, h),
                goal.map(|g| mirror(g, h)),
            );
            j.map(|jy| (x, mirror(jy, h)))
        }
    }
}

/// The straight jump as its definition reads, one cell at a time: what [`jump_straight`]
/// computes 64 cells at once. The search uses the fast one; a test checks that they agree.
#[cfg_attr(not(test), allow(dead_code))]
fn jump_straight_cell_by_cell(
    grid: &Grid,
    mut x: i32,
    mut y: i32,
    dx: i32,
    dy: i32,
    goal: (i32, i32),
) -> Option<(i32, i32)> {
    let free = |x, y| grid.is_free(x, y);
    loop {
        x += dx;
        y += dy;
        if (x, y) == goal {
            return Some(goal); // the goal ends any run
        }
        if !free(x, y) {
            return None; // a wall or the edge of the map: nothing down this line
        }
        // A forced neighbour: a free cell beside the run whose own cell one step back is a wall.
        // Only a turn here reaches it by a shortest route.
        let (side_x, side_y) = (dy, dx); // a step sideways, square to the run
        let forced = [1, -1].into_iter().any(|s| {
            free(x + s * side_x, y + s * side_y) && !free(x + s * side_x - dx, y + s * side_y - dy)
        });
        if forced {
            return Some((x, y));
        }
    }
}

/// Runs from `(x, y)` diagonally in `(dx, dy)` until a wall or the edge, and reports every jump
/// point the straight runs out of its cells find (and the goal, if the run crosses it).
fn jump_diagonal(
    grid: &Grid,
    mut x: i32,
    mut y: i32,
    dx: i32,
    dy: i32,
    goal: (i32, i32),
    found: &mut impl FnMut((i32, i32)),
) {
    let free = |x, y| grid.is_free(x, y);
    loop {
        // Never cut a corner: both cells beside the diagonal step must be free.
        if !free(x + dx, y) || !free(x, y + dy) || !free(x + dx, y + dy) {
            return;
        }
        x += dx;
        y += dy;
        if (x, y) == goal {
            found((x, y));
            return;
        }
        if let Some(j) = jump_straight(grid, x, y, dx, 0, goal) {
            found(j);
        }
        if let Some(j) = jump_straight(grid, x, y, 0, dy, goal) {
            found(j);
        }
    }
}

/// Up to eight directions, without allocating.
#[derive(Default)]
pub(super) struct Directions {
    items: [(i32, i32); 8],
    len: usize,
}

impl Directions {
    fn push(&mut self, d: (i32, i32)) {
        self.items[self.len] = d;
        self.len += 1;
    }

    pub(super) fn as_slice(&self) -> &[(i32, i32)] {
        &self.items[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Point;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        /// The bit scan and the cell-by-cell walk find the same jump point, on random grids
        /// wide and tall enough for runs longer than one 64-bit word.
        #[test]
        fn the_bit_scan_agrees_with_the_cell_by_cell_jump(
            (w, h, walls) in (1u32..150, 1u32..150).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec(0u8..100, (w * h) as usize))
            }),
            wall_pct in 0u8..40,
            from in any::<usize>(),
            goal in any::<usize>(),
            direction in 0usize..4,
        ) {
            let mut grid = Grid::new(w, h).expect("small grid");
            for (i, roll) in walls.iter().enumerate() {
                grid.set_blocked(grid.point_of(i), *roll < wall_pct).expect("inside");
            }
            let at = |i: usize| grid.point_of(i % grid.len());
            let (Point { x, y }, g) = (at(from), at(goal));
            // Jumps start on free cells: clear it rather than reject the case (rejecting one in
            // five would run into proptest's limit of 1,024 rejects).
            grid.set_blocked(Point::new(x, y), false).expect("inside");
            let (dx, dy) = [(1, 0), (-1, 0), (0, 1), (0, -1)][direction];
            prop_assert_eq!(
                jump_straight(&grid, x, y, dx, dy, (g.x, g.y)),
                jump_straight_cell_by_cell(&grid, x, y, dx, dy, (g.x, g.y)),
                "from ({}, {}) towards ({}, {}), goal {}", x, y, dx, dy, g
            );
        }
    }
}
