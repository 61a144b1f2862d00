//! Is a path a least-cost one? Guaranteed by the settings, or checked against Dijkstra's
//! algorithm. The live plan and the comparison judge with the same rule and the same tolerance.

use gridpath::{Algorithm, GoalMode, Grid, Point, Search, SearchConfig, SearchStatus};

/// How a path's cost compares with the least cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Optimality {
    /// No path to judge.
    #[default]
    Unknown,
    /// The algorithm guarantees it (optimal algorithm, admissible heuristic).
    Guaranteed,
    /// Checked: Dijkstra finds the same cost.
    Confirmed,
    /// Checked: Dijkstra finds this cheaper cost.
    Worse { optimal: f64 },
    /// An any-angle path (Theta*), beside the least cost of a path of grid moves: it is not held
    /// to the grid's optimum but measured against it, to show what straight segments save.
    AnyAngle { grid_optimal: f64 },
}

/// Two path costs are the same when they differ by no more than float rounding: sums of √2
/// steps taken in another order differ in their last bits.
pub fn same_cost(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.max(1.0)
}

/// Whether `config` is sure to return a least-cost path: an optimal algorithm with, if it uses
/// one, an admissible heuristic.
pub fn guarantees_optimal(config: &SearchConfig) -> bool {
    config.algorithm.is_optimal()
        && (!config.algorithm.uses_heuristic()
            || config.heuristic.is_admissible_for(config.movement))
}

/// Judges a path's cost: guaranteed by the settings, or checked against Dijkstra's algorithm
/// heading for the same cell (for a partial path, the nearest reachable one). An any-angle path
/// is set beside Dijkstra's grid path.
pub fn judge(
    config: &SearchConfig,
    grid: &Grid,
    (start, target): (Point, Point),
    cost: f64,
    check: &mut Search,
) -> Optimality {
    if guarantees_optimal(config) && !config.algorithm.is_any_angle() {
        return Optimality::Guaranteed;
    }
    let dijkstra = SearchConfig {
        algorithm: Algorithm::Dijkstra,
        goal_mode: GoalMode::MustBeFree,
        record_trace: false,
        ..*config
    };
    match check
        .begin(grid, start, target, &dijkstra)
        .map(|()| check.run(grid))
    {
        Ok(SearchStatus::Found) => {
            let optimal = check.cost().unwrap_or(cost);
            if config.algorithm.is_any_angle() {
                Optimality::AnyAngle {
                    grid_optimal: optimal,
                }
            } else if same_cost(cost, optimal) {
                Optimality::Confirmed
            } else {
                Optimality::Worse { optimal }
            }
        }
        _ => Optimality::Unknown,
    }
}
