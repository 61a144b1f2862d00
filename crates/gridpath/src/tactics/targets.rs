//! Routes that end where a tactic says: within range of a goal, or away from threats.

use super::blockers::Blockers;
use super::range::MovementRange;
use super::sight::FieldOfView;
use crate::grid::{Grid, Point};
use crate::movement::Movement;
use crate::vocabulary::Path;

/// How close a route must end to its goal ([`MovementRange::approach`]): within `steps` moves
/// of it as the crow flies ([`steps_between`], walls aside: an archer's range), and, with
/// `sight`, seeing it ([`super::can_see`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Within {
    /// The most moves between the route's end and the goal, walls aside.
    pub steps: u32,
    /// Must the route's end also see the goal?
    pub sight: bool,
}

/// How many moves apart `a` and `b` are with no wall in the way: on squares, Manhattan (4-way)
/// or Chebyshev (8-way) distance; on a staggered map, the same between the square cells under
/// it; on hexagons, the hex distance.
pub fn steps_between(movement: Movement, a: Point, b: Point) -> u32 {
    if let Some(layout) = movement.hex() {
        return layout.distance(a, b);
    }
    let (dx, dy) = movement.axis_distances(a, b);
    if movement.allows_diagonals() {
        dx.max(dy)
    } else {
        dx + dy
    }
}

impl MovementRange {
    /// The cheapest route from `from` to a cell [`Within`] range of `goal`: it stops where an
    /// archer can shoot, not on the goal (often an enemy's cell, closed in `blockers`). Dijkstra
    /// stopped at the first cell that qualifies, so no cheaper one exists. `None` when no
    /// reachable cell qualifies.
    pub fn approach(
        &mut self,
        grid: &Grid,
        movement: Movement,
        from: Point,
        goal: Point,
        within: Within,
        blockers: &Blockers,
    ) -> Option<Path> {
        // Sight is symmetric: the cells that see the goal are those the goal sees.
        let seen = within.sight.then(|| {
            let mut fov = FieldOfView::new();
            fov.compute(
                grid,
                movement,
                goal,
                within.steps.saturating_mul(2).saturating_add(1),
            );
            fov
        });
        let found = self.search(grid, movement, &[from], f64::INFINITY, blockers, |i| {
            let p = grid.point_of(i);
            steps_between(movement, p, goal) <= within.steps
                && seen.as_ref().is_none_or(|fov| fov.is_visible(p))
        })?;
        self.path_to(grid.point_of(found))
    }

    /// The cheapest route to the cell within `budget` of `from` that is farthest from the
    /// threats: a Dijkstra map of the threats' walk (`threats`, computed once for every unit
    /// that flees with [`MovementRange::compute_from`] from the threats' cells) read at every
    /// cell in range. A cell no threat can reach is the farthest of all; ties go to the cell
    /// cheaper to reach, then to the lower index. `None` when `from` is a wall or off the grid.
    pub fn flee(
        &mut self,
        grid: &Grid,
        movement: Movement,
        from: Point,
        threats: &MovementRange,
        budget: f64,
        blockers: &Blockers,
    ) -> Option<Path> {
        self.compute(grid, movement, from, budget, blockers);
        let danger = |p: Point| threats.cost(p).unwrap_or(f64::INFINITY);
        let (best, _) = self.cells().max_by(|&(a, cost_a), &(b, cost_b)| {
            danger(a)
                .total_cmp(&danger(b))
                .then(cost_b.total_cmp(&cost_a))
                .then((b.y, b.x).cmp(&(a.y, a.x)))
        })?;
        self.path_to(best)
    }
}
