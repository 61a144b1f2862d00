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
//! cost the same; on terrain costs [`crate::search::Search::begin`] refuses it with
//! [`crate::vocabulary::QueryError::Unsupported`] instead of returning a wrong path.

use super::rules::Rules;
use crate::grid::Grid;
use crate::movement::{DIAGONAL, STEPS};
use crate::run_bits::RunLine;
use crate::vocabulary::frontier::Order;

pub(crate) const RULES: Rules = Rules {
    order: Order::Priority,
    relax: true,
    uses_heuristic: true,
};

/// Calls `visit(jump_point, x, y, distance)` for every successor of `node`, where `x` and `y` are
/// the jump point's column and row and `distance` is the octile length of the run to it.
///
/// `parent` is the jump point `node` was reached from (`None` for the start): the direction of
/// arrival decides which directions are worth a look. `goal` is the goal's column and row.
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
    goal: (i32, i32),
    visit: impl FnMut(usize, usize, usize, f64),
) {
    let w = grid.width() as usize;
    let (x, y) = cell_at(node, w);
    let mut found = successor_reporter(w, (x, y), visit);
    for (dx, dy) in directions_from(grid, (x, y), parent) {
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
/// those a canonical route may continue in after arriving from `parent`.
pub(super) fn directions_from(
    grid: &Grid,
    (x, y): (i32, i32),
    parent: Option<usize>,
) -> Directions {
    let arrival = arrival(x, y, parent, grid.width() as usize);
    pruned(arrival, grid.free_neighbours(x, y))
}

/// How the search arrived at `(x, y)` from `parent`, as an index into [`PRUNED`]: the last step
/// of the "diagonal first, then straight" run, `(dy + 1) * 3 + (dx + 1)`. The start, which has
/// no parent, is the centre, 4, where every direction is worth a look.
#[inline(always)]
pub(super) fn arrival(x: i32, y: i32, parent: Option<usize>, width: usize) -> usize {
    let Some((px, py)) = parent.map(|p| cell_at(p, width)) else {
        return 4;
    };
    let (dx, dy) = (x - px, y - py);
    // A longer run along one axis ends straight along it; an equal one ends diagonally.
    let (sx, sy) = match dx.abs().cmp(&dy.abs()) {
        std::cmp::Ordering::Greater => (dx.signum(), 0),
        std::cmp::Ordering::Less => (0, dy.signum()),
        std::cmp::Ordering::Equal => (dx.signum(), dy.signum()),
    };
    ((sy + 1) * 3 + sx + 1) as usize
}

/// The directions a canonical route may continue in, after `arrival` (see [`arrival`]) at a
/// cell whose free neighbours are `free` (see [`Grid::free_neighbours`]): one table read.
#[inline(always)]
pub(super) fn pruned(arrival: usize, free: u8) -> Directions {
    Directions(PRUNED[arrival][free as usize])
}

/// [`pruned`]'s table, for every arrival and every neighbourhood: 2.3 KiB, worked out by
/// [`prune`] when the crate is compiled. With the neighbourhood read as three words of the
/// padded rows (JPS) or one stored byte (JPS+), choosing the directions costs a few dozen
/// instructions where testing the cells one by one, with bounds checks, cost about a hundred.
static PRUNED: [[u8; 256]; 9] = {
    let mut table = [[0; 256]; 9];
    let mut arrival = 0;
    while arrival < 9 {
        let mut free = 0;
        while free < 256 {
            let (dx, dy) = ((arrival % 3) as i32 - 1, (arrival / 3) as i32 - 1);
            table[arrival][free] = prune(dx, dy, free as u8);
            free += 1;
        }
        arrival += 1;
    }
    table
};

/// The pruning rule: the directions a canonical route may continue in after a step `(dx, dy)`
/// (none, `(0, 0)`, for the start) into a cell whose free neighbours are `free`.
const fn prune(dx: i32, dy: i32, free: u8) -> u8 {
    if dx == 0 && dy == 0 {
        return u8::MAX; // the start: every direction
    }
    let mut out = step_bit(dx, dy);
    if dx != 0 && dy != 0 {
        // Diagonal arrival: carry on diagonally, or turn to one of its two straight parts.
        return out | step_bit(dx, 0) | step_bit(0, dy);
    }
    let mut side = -1;
    while side <= 1 {
        // The wall behind a side cell forced us to come this way to reach it.
        if dx != 0 && !has(free, -dx, side) && has(free, 0, side) {
            out |= step_bit(0, side) | step_bit(dx, side);
        }
        if dy != 0 && !has(free, side, -dy) && has(free, side, 0) {
            out |= step_bit(side, 0) | step_bit(side, dy);
        }
        side += 2;
    }
    out
}

/// Is neighbour `(dx, dy)` free, in a neighbourhood's bits (see [`Grid::free_neighbours`])?
const fn has(free: u8, dx: i32, dy: i32) -> bool {
    // Row by row, skipping the centre.
    let k = (dy + 1) * 3 + dx + 1;
    let k = if k > 4 { k - 1 } else { k };
    free & 1 << k != 0
}

/// The bit of step `(dx, dy)` (each −1, 0 or 1, not both 0) in a [`Directions`] set: its index
/// in [`STEPS`].
const fn step_bit(dx: i32, dy: i32) -> u8 {
    // STEPS's index of each step, at (dy + 1) * 3 + (dx + 1); the centre is no step.
    const INDEX: [u32; 9] = [7, 0, 4, 3, 8, 1, 6, 2, 5];
    match INDEX[((dy + 1) * 3 + dx + 1) as usize] {
        8 => 0,
        k => 1 << k,
    }
}

/// Length of a diagonal-then-straight run covering `(dx, dy)`.
fn octile(dx: i32, dy: i32) -> f64 {
    let (a, b) = (dx.unsigned_abs(), dy.unsigned_abs());
    f64::from(a.max(b) - a.min(b)) + f64::from(a.min(b)) * DIAGONAL
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
    straight_run(grid, x, y, dx, dy, goal).jump_point
}

/// What a straight jump found: its jump point, and whether the run got past its first cell's
/// wall test (the diagonal run reuses that instead of testing the cell again).
struct StraightRun {
    jump_point: Option<(i32, i32)>,
    first_cell_free: bool,
}

/// [`jump_straight`], also saying whether the first cell ahead is free.
#[inline(always)]
fn straight_run(grid: &Grid, x: i32, y: i32, dx: i32, dy: i32, goal: (i32, i32)) -> StraightRun {
    let mirror = |p: i32, length: u32| length as i32 - 1 - p;
    let jump = |line: RunLine, from: i32, goal: Option<i32>| {
        let Some((stop, stop_free)) = line.first_stop(from) else {
            return (None, false);
        };
        let jump_point = match goal {
            // The goal ends any run that reaches it: before the stop, or at it.
            Some(g) if g > from && g <= stop => Some(g),
            _ => stop_free.then_some(stop), // else a jump point, or a wall that ended the run
        };
        // Every wall is a stop: a first cell that is not one is free.
        (jump_point, stop > from + 1 || stop_free)
    };
    let (jump_point, first_cell_free) = match (dx, dy) {
        (1, _) => {
            let (j, free) = jump(grid.row_run(y, false), x, (goal.1 == y).then_some(goal.0));
            (j.map(|jx| (jx, y)), free)
        }
        (-1, _) => {
            let (w, goal) = (grid.width(), (goal.1 == y).then_some(goal.0));
            let (j, free) = jump(
                grid.row_run(y, true),
                mirror(x, w),
                goal.map(|g| mirror(g, w)),
            );
            (j.map(|jx| (mirror(jx, w), y)), free)
        }
        (_, 1) => {
            let (j, free) = jump(
                grid.column_run(x, false),
                y,
                (goal.0 == x).then_some(goal.1),
            );
            (j.map(|jy| (x, jy)), free)
        }
        _ => {
            let (h, goal) = (grid.height(), (goal.0 == x).then_some(goal.1));
            let (j, free) = jump(
                grid.column_run(x, true),
                mirror(y, h),
                goal.map(|g| mirror(g, h)),
            );
            (j.map(|jy| (x, mirror(jy, h))), free)
        }
    };
    StraightRun {
        jump_point,
        first_cell_free,
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
    // Never cut a corner: both cells beside a diagonal step must be free. For the first step
    // that takes two wall tests; after it, the two straight runs out of each cell have just
    // tested the next step's side cells, their first cells.
    let (mut across_free, mut down_free) = (free(x + dx, y), free(x, y + dy));
    // With both of those free, the cell ahead is on the map: its index is a plain sum, and its
    // test one read.
    let w = grid.width() as usize;
    let step = dy as isize * w as isize + dx as isize;
    let mut index = y as usize * w + x as usize;
    loop {
        if !across_free || !down_free {
            return;
        }
        index = index.wrapping_add_signed(step);
        if grid.raw_cost(index) == 0 {
            return;
        }
        x += dx;
        y += dy;
        if (x, y) == goal {
            found((x, y));
            return;
        }
        let across = straight_run(grid, x, y, dx, 0, goal);
        if let Some(j) = across.jump_point {
            found(j);
        }
        let down = straight_run(grid, x, y, 0, dy, goal);
        if let Some(j) = down.jump_point {
            found(j);
        }
        (across_free, down_free) = (across.first_cell_free, down.first_cell_free);
    }
}

/// A set of the eight directions, one bit each in [`STEPS`] order (straight ones first), so
/// that choosing them costs a few bit operations and walking them allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Directions(u8);

impl Directions {
    /// Does the set hold the direction [`STEPS`]`[k]`?
    #[inline(always)]
    pub(super) fn has(self, k: usize) -> bool {
        self.0 & (1 << k) != 0
    }
}

impl Iterator for Directions {
    type Item = (i32, i32);

    #[inline]
    fn next(&mut self) -> Option<(i32, i32)> {
        let k = self.0.trailing_zeros() as usize;
        let step = *STEPS.get(k)?;
        self.0 &= self.0 - 1;
        Some(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::grid::Point;
    use proptest::prelude::*;

    #[test]
    fn a_direction_set_holds_each_step_once_in_steps_order() {
        for (k, &(dx, dy)) in STEPS.iter().enumerate() {
            assert_eq!(step_bit(dx, dy), 1 << k);
        }
        assert_eq!(step_bit(0, 0), 0);
        assert_eq!(Directions(u8::MAX).collect::<Vec<_>>(), STEPS);
        let turns = Directions(step_bit(1, 1) | step_bit(-1, 0) | step_bit(0, -1));
        assert_eq!(turns.collect::<Vec<_>>(), [(0, -1), (-1, 0), (1, 1)]);
    }

    /// The pruning table says what the rule says, on the cases the module docs describe.
    #[test]
    fn pruning_keeps_the_natural_and_the_forced_directions() {
        let directions = |grid: &Grid, parent: Option<(i32, i32)>| {
            let parent = parent.map(|(x, y)| y as usize * 3 + x as usize);
            directions_from(grid, (1, 1), parent).collect::<Vec<_>>()
        };
        let open = Grid::from_ascii(&["...", "...", "..."]).unwrap();
        assert_eq!(directions(&open, None), STEPS, "the start looks everywhere");
        assert_eq!(
            directions(&open, Some((0, 1))),
            [(1, 0)],
            "east: straight on"
        );
        assert_eq!(directions(&open, Some((0, 0))), [(1, 0), (0, 1), (1, 1)]);
        // A wall behind the cell north of a run east forces a turn north and north-east.
        let corner = Grid::from_ascii(&["#..", "...", "..."]).unwrap();
        assert_eq!(
            directions(&corner, Some((0, 1))),
            [(0, -1), (1, 0), (1, -1)]
        );
        // And arriving south, the same wall behind the cell west of the run forces west.
        assert_eq!(
            directions(&corner, Some((1, 0))),
            [(0, 1), (-1, 0), (-1, 1)]
        );
        // The wall behind a side cell forces nothing if that side cell is a wall too.
        let both = Grid::from_ascii(&["##.", "...", "..."]).unwrap();
        assert_eq!(directions(&both, Some((0, 1))), [(1, 0)]);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        /// The bit scan and the cell-by-cell walk find the same jump point, on random grids
        /// wide and tall enough for runs longer than one 64-bit word; and the scan knows whether
        /// the first cell ahead is free.
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
            let run = straight_run(&grid, x, y, dx, dy, (g.x, g.y));
            prop_assert_eq!(
                run.jump_point,
                jump_straight_cell_by_cell(&grid, x, y, dx, dy, (g.x, g.y)),
                "from ({}, {}) towards ({}, {}), goal {}", x, y, dx, dy, g
            );
            // What the diagonal run takes from it instead of testing the cell itself.
            prop_assert_eq!(run.first_cell_free, grid.is_free(x + dx, y + dy));
        }
    }
}
