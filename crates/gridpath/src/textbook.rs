//! A* as the textbooks write it: one function, read top to bottom.
//!
//! [`crate::search::Search`] runs the same algorithm, but spread over resumable steps so that a
//! visualiser can pause it, with its memory kept between searches and its heap entries packed
//! into integers for speed. This version allocates its tables afresh on every call and keeps a
//! plain [`BinaryHeap`] of entries: it is the one to read first, to copy, or to check a hand-worked
//! search against. A property test (`tests/textbook.rs`) checks, on thousands of random grids,
//! that the two return the same cost and the same path.

use crate::grid::{Grid, Point};
use crate::heuristic::Heuristic;
use crate::movement::Movement;
use crate::vocabulary::Path;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A least-cost path from `start` to `goal` by A*, or `None` when there is none (or when either
/// end is off the grid or on a wall).
///
/// The heuristic must never overestimate under `movement` (see
/// [`Heuristic::is_admissible_for`]) for the path to be a least-cost one.
///
/// ```
/// use gridpath::{Grid, Heuristic, Movement, Point, textbook};
///
/// let grid = Grid::from_ascii(&["....", ".##.", "...."]).unwrap();
/// let path = textbook::astar(&grid, Point::new(0, 1), Point::new(3, 1), Movement::FourWay,
///                            Heuristic::Manhattan).unwrap();
/// assert_eq!(path.cost, 5.0);
/// ```
pub fn astar(
    grid: &Grid,
    start: Point,
    goal: Point,
    movement: Movement,
    heuristic: Heuristic,
) -> Option<Path> {
    if !grid.is_passable(start) || !grid.is_passable(goal) {
        return None;
    }
    // h: the estimate of the cost still to go. The heuristic counts steps on cost-1 cells;
    // scaled by the cheapest cell's cost it still never overestimates.
    let cheapest = f64::from(grid.min_cost());
    let h = |p: Point| cheapest * heuristic.between(movement, p, goal);
    // Per cell: the cheapest cost from the start found so far (g), where that route came from,
    // and whether the cell has been expanded (is "closed").
    let index = |p: Point| grid.index_of(p).unwrap_or(0); // only ever called on cells of the grid
    let mut g = vec![f64::INFINITY; grid.len()];
    let mut came_from: Vec<Option<Point>> = vec![None; grid.len()];
    let mut closed = vec![false; grid.len()];
    // The open list: cells reached but not expanded, cheapest estimated total (f = g + h) first.
    let mut open = BinaryHeap::new();
    g[index(start)] = 0.0;
    open.push(Open::new(start, 0.0, h(start)));

    while let Some(Open { cell, .. }) = open.pop() {
        if closed[index(cell)] {
            continue; // an old entry: the cell was reached again more cheaply and expanded already
        }
        closed[index(cell)] = true;
        if cell == goal {
            return Some(walk_back(&came_from, goal, g[index(goal)], &index));
        }
        for (next, step_cost) in movement.neighbors(grid, cell) {
            let through_cell = g[index(cell)] + step_cost;
            if closed[index(next)] || through_cell >= g[index(next)] {
                continue; // no better than the route we know
            }
            g[index(next)] = through_cell;
            came_from[index(next)] = Some(cell);
            open.push(Open::new(next, through_cell, h(next)));
        }
    }
    None // the open list ran dry: the goal cannot be reached
}

/// The path to `goal`, by following each cell back to the cell it was reached from.
fn walk_back(
    came_from: &[Option<Point>],
    goal: Point,
    cost: f64,
    index: &impl Fn(Point) -> usize,
) -> Path {
    let mut cells = vec![goal];
    while let Some(previous) = came_from[index(cells[cells.len() - 1])] {
        cells.push(previous);
    }
    cells.reverse();
    Path {
        cells,
        cost,
        partial: false,
    }
}

/// An entry of the open list: a cell, the cost `g` it was reached at, and `f = g + h`.
struct Open {
    cell: Point,
    g: f64,
    f: f64,
}

impl Open {
    fn new(cell: Point, g: f64, h: f64) -> Self {
        Self { cell, g, f: g + h }
    }
}

/// The order the open list hands cells back in. [`BinaryHeap`] pops its *greatest* entry, so
/// "greater" here means "expand sooner":
/// 1. the lowest `f`;
/// 2. among equal `f`, the larger `g`: the cell further along its route, so the search pushes on
///    towards the goal instead of widening;
/// 3. then the cell first in reading order (top row first, then left column).
///
/// These are [`crate::search::Search`]'s tie-breaks too, so the two expand the same cells in the same
/// order. (It compares `g` at single precision, to pack an entry into 128 bits; so does this.)
impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        let reading_order = |p: Point| (p.y, p.x);
        other
            .f
            .total_cmp(&self.f)
            .then((self.g as f32).total_cmp(&(other.g as f32)))
            .then(reading_order(other.cell).cmp(&reading_order(self.cell)))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Open {}
