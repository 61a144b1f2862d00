//! One query as the search loop sees it: the settings, the start and the target as cell indices,
//! and the heuristic towards the target. Also the check that an algorithm applies to a grid.

use super::types::{QueryError, SearchConfig};
use crate::algorithms::Algorithm;
use crate::grid::{Grid, Point};
use crate::heuristic::axis_distance;
use crate::movement::{CornerRule, Movement};

#[derive(Clone, Copy, Debug)]
pub(super) struct Query {
    pub(super) config: SearchConfig,
    pub(super) start: usize,
    /// Where the search is heading: the goal, or the nearest reachable cell to it.
    pub(super) target: usize,
    /// The target's column and row, kept so the heuristic needs no division.
    pub(super) target_x: usize,
    pub(super) target_y: usize,
    pub(super) requested_goal: Point,
    pub(super) width: usize,
    pub(super) len: usize,
    /// The heuristic is multiplied by this (the cheapest cell cost) to stay admissible.
    pub(super) h_scale: f64,
    pub(super) retargeted: bool,
}

impl Query {
    /// The heuristic estimate from the cell at column `x`, row `y` to the target.
    #[inline]
    pub(super) fn heuristic(&self, x: usize, y: usize) -> f64 {
        let dx = axis_distance(x, self.target_x);
        let dy = axis_distance(y, self.target_y);
        self.h_scale * self.config.heuristic.estimate_cells(dx, dy)
    }

    /// [`Query::heuristic`] by cell index, or 0 for algorithms that ignore it.
    pub(super) fn heuristic_at(&self, i: usize) -> f64 {
        if self.config.algorithm.uses_heuristic() {
            self.heuristic(i % self.width, i / self.width)
        } else {
            0.0
        }
    }

    /// The target's column and row.
    #[inline]
    pub(super) fn target_cell(&self) -> (i32, i32) {
        (self.target_x as i32, self.target_y as i32)
    }

    pub(super) fn aim_at(&mut self, target: usize) {
        self.target = target;
        self.target_x = target % self.width;
        self.target_y = target / self.width;
    }

    #[inline]
    pub(super) fn priority(&self, g: f64, h: f64) -> f64 {
        self.config.algorithm.priority(g, h, self.config.weight)
    }
}

/// Jump point search's preconditions, checked before it runs instead of failing silently.
pub(super) fn check_applicable(grid: &Grid, config: &SearchConfig) -> Result<(), QueryError> {
    let algorithm = config.algorithm;
    if algorithm == Algorithm::WeightedAStar && !(config.weight >= 1.0 && config.weight.is_finite())
    {
        return Err(QueryError::BadWeight(config.weight));
    }
    if algorithm.is_jump_point_search() {
        if config.movement != Movement::EightWay(CornerRule::NeverCut) {
            return Err(QueryError::Unsupported {
                algorithm,
                reason: "it needs 8-way moves that never cut corners",
            });
        }
        if !grid.is_uniform_cost() {
            return Err(QueryError::Unsupported {
                algorithm,
                reason: "it needs every passable cell to cost the same (this map has terrain costs)",
            });
        }
    }
    if algorithm.is_any_angle() {
        if config.movement == Movement::EightWay(CornerRule::CutOneCorner)
            || config.movement == Movement::EightWay(CornerRule::CutAlways)
        {
            return Err(QueryError::Unsupported {
                algorithm,
                reason: "its straight segments may not cut corners, so neither may its moves",
            });
        }
        if !grid.is_uniform_cost() {
            return Err(QueryError::Unsupported {
                algorithm,
                reason: "a straight segment has no single cost on terrain (this map has terrain costs)",
            });
        }
    }
    Ok(())
}

#[inline]
pub(super) fn point_at(i: usize, width: usize) -> Point {
    Point::new((i % width) as i32, (i / width) as i32)
}

/// The checks every query starts with: both ends on the grid, the start free, and, when
/// `goal_must_be_free` (searches that start from the goal), the goal free. Returns their indices.
pub(crate) fn check_ends(
    grid: &Grid,
    start: Point,
    goal: Point,
    goal_must_be_free: bool,
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
    Ok((s, t))
}
