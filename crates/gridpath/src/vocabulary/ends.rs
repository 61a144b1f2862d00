//! The checks every query starts with, whatever engine runs it.

use super::types::QueryError;
use crate::grid::{Grid, Point};
use crate::unit_class::UnitClass;

/// Both ends on the grid and the start free, and, when `goal_must_be_free` (searches that start
/// from the goal), the goal free; free to `class` too, when the query has one. Returns their
/// cell indices.
pub(crate) fn check_ends(
    grid: &Grid,
    start: Point,
    goal: Point,
    goal_must_be_free: bool,
    class: Option<&UnitClass>,
) -> Result<(usize, usize), QueryError> {
    let s = grid
        .index_of(start)
        .ok_or(QueryError::StartOutside(start))?;
    let t = grid.index_of(goal).ok_or(QueryError::GoalOutside(goal))?;
    if !grid.is_passable(start) {
        return Err(QueryError::StartBlocked(start));
    }
    if goal_must_be_free && !grid.is_passable(goal) {
        return Err(QueryError::GoalBlocked(goal));
    }
    if let Some(class) = class {
        if class.entry_cost(grid, start).is_none() {
            return Err(QueryError::StartClosed(start));
        }
        if goal_must_be_free && class.entry_cost(grid, goal).is_none() {
            return Err(QueryError::GoalClosed(goal));
        }
    }
    Ok((s, t))
}

/// The cell at row-major index `i` of a grid `width` cells wide.
#[inline]
pub(crate) fn point_at(i: usize, width: usize) -> Point {
    Point::new((i % width) as i32, (i / width) as i32)
}
