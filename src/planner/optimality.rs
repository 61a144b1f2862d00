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

/// The search that checks a path: Dijkstra's algorithm under the same moves, heading for the
/// path's own end.
pub fn dijkstra_check(config: &SearchConfig) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Dijkstra,
        goal_mode: GoalMode::MustBeFree,
        record_trace: false,
        ..*config
    }
}

/// Does a path found with `config` need checking against Dijkstra (to judge it, or to set an
/// any-angle path beside the grid's least cost)?
pub fn needs_check(config: &SearchConfig) -> bool {
    !guarantees_optimal(config) || config.algorithm.is_any_angle()
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
    if !needs_check(config) {
        return Optimality::Guaranteed;
    }
    let optimal = check
        .begin(grid, start, target, &dijkstra_check(config))
        .map(|()| check.run(grid))
        .ok()
        .filter(|s| *s == SearchStatus::Found)
        .and_then(|_| check.cost());
    verdict(config, cost, optimal)
}

/// The judgement of a path of cost `cost`, given Dijkstra's least cost to its end (`None`: it
/// found none, and there is nothing to say).
pub fn verdict(config: &SearchConfig, cost: f64, optimal: Option<f64>) -> Optimality {
    match optimal {
        Some(optimal) if config.algorithm.is_any_angle() => Optimality::AnyAngle {
            grid_optimal: optimal,
        },
        Some(optimal) if same_cost(cost, optimal) => Optimality::Confirmed,
        Some(optimal) => Optimality::Worse { optimal },
        None => Optimality::Unknown,
    }
}
