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
/// version gives the same answers but tests 64 cells at once on bit rows with [`scan`]
/// (Harabor and Grastien's "block-based" jumps), and on bit columns for a vertical run. A run
/// west or north reads the grid's mirrored lines, where it runs forwards too: one scan, with no
/// bit reversal.
///
/// `inline(always)`, here and on [`scan`]: JPS calls them about 28 times per expansion, and the
/// compiler's own choice was a call each time. Inlined, JPS runs 23–34 % fewer instructions on the
/// Moving AI maps (see `benches/callgrind.sh`).
#[inline(always)]
fn jump_straight(
    grid: &Grid,
    x: i32,
    y: i32,
    dx: i32,
    dy: i32,
    goal: (i32, i32),
) -> Option<(i32, i32)> {
    if dx != 0 {
        let (mirrored, goal) = (dx < 0, (goal.1 == y).then_some(goal.0));
        let rows = |row| grid.row_bits(row, mirrored);
        jump_on_line(rows, y, x, grid.width(), mirrored, goal).map(|jx| (jx, y))
    } else {
        let (mirrored, goal) = (dy < 0, (goal.0 == x).then_some(goal.1));
        let columns = |column| grid.column_bits(column, mirrored);
        jump_on_line(columns, x, y, grid.height(), mirrored, goal).map(|jy| (x, jy))
    }
}

/// The straight jump along line `line` (a row or a column) from position `from`, forwards, or on
/// the mirrored lines when the run goes backwards: position `p` is `length − 1 − p` there.
/// `lines(i)` gives line `i` as bits; `goal` is the goal's position if it is on this line.
#[inline(always)]
fn jump_on_line<'a>(
    lines: impl Fn(i32) -> &'a [u64],
    line: i32,
    from: i32,
    length: u32,
    mirrored: bool,
    goal: Option<i32>,
) -> Option<i32> {
    let along = |p: i32| if mirrored { length as i32 - 1 - p } else { p };
    let bits = [lines(line - 1), lines(line), lines(line + 1)];
    scan(bits, along(from), goal.map(along)).map(along)
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

/// The straight jump on bits, always forwards. `[side_a, line, side_b]` are the run's line and
/// the lines beside it, as padded bit lines (bit `i + 1` is position `i`, with a spare zero word at
/// the end); the run starts at `from` and goes towards higher positions. `goal` is the goal's
/// position if it lies on this line. Returns the position of the jump point.
#[inline(always)]
fn scan([side_a, line, side_b]: [&[u64]; 3], from: i32, goal: Option<i32>) -> Option<i32> {
    // `bit` is the padded index of the window's first position; `from` ≥ 0, so it is ≥ 2.
    let mut bit = from as usize + 2;
    loop {
        let free = window(line, bit);
        let (a, b) = (window(side_a, bit), window(side_b, bit));
        // The cells one step behind: the same lines, one bit earlier.
        let (a_behind, b_behind) = (window(side_a, bit - 1), window(side_b, bit - 1));
        let forced = (a & !a_behind) | (b & !b_behind);
        let stop = !free | forced;
        let k = stop.trailing_zeros() as usize; // 64 when nothing stops in this window
        let position = (bit - 1) as i32; // of the window's first bit
        if let Some(g) = goal {
            let offset = g - position;
            if (0..64).contains(&offset) && offset as usize <= k {
                return Some(g);
            }
        }
        if k < 64 {
            // A wall ends the run; a forced neighbour on a free cell is a jump point.
            return (free >> k & 1 == 1).then_some(position + k as i32);
        }
        bit += 64;
    }
}

/// The 64 bits of a padded line starting at bit `start`. The border of walls stops every run
/// before its line's last word, and the spare word after it makes `word + 1` always exist.
#[inline]
fn window(bits: &[u64], start: usize) -> u64 {
    let (word, offset) = (start / 64, (start % 64) as u32);
    // `high << 1 << (63 - offset)` is `high << (64 - offset)`, and 0 when `offset` is 0.
    (bits[word] >> offset) | (bits[word + 1] << 1 << (63 - offset))
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
