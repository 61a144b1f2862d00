//! The nine algorithms of the best-first loop ([`crate::search::Search`] runs them through
//! `engines::best_first`): breadth-first, depth-first, Dijkstra, greedy best-first, A*, weighted
//! A*, jump point search, JPS+ and Theta*. They share one loop:
//!
//! ```text
//! put start in the frontier
//! while the frontier is not empty:
//!     take the next cell out of the frontier       ← the algorithms differ here...
//!     if it is the goal: done
//!     for each neighbour of it:                      ← ...and JPS differs here
//!         if the neighbour is new (or now cheaper, for the cost-aware ones):
//!             remember where we came from, put it in the frontier
//! ```
//!
//! Each file below explains one algorithm and holds the one or two rules that make it itself.

use crate::grid::Grid;
use crate::movement::{CornerRule, Movement};
use crate::unit_class::UnitClass;
pub use crate::vocabulary::Algorithm;
use crate::vocabulary::{QueryError, SearchConfig};

pub mod astar;
pub mod breadth_first;
pub mod depth_first;
pub mod dijkstra;
pub mod greedy_best_first;
pub mod jump_point;
pub mod jump_point_plus;
mod rules;
pub mod theta_star;
pub mod weighted_astar;

pub(crate) use rules::Rules;

impl Algorithm {
    pub(crate) fn rules(self) -> Rules {
        match self {
            Algorithm::BreadthFirst => breadth_first::RULES,
            Algorithm::DepthFirst => depth_first::RULES,
            Algorithm::Dijkstra => dijkstra::RULES,
            Algorithm::GreedyBestFirst => greedy_best_first::RULES,
            Algorithm::AStar => astar::RULES,
            Algorithm::WeightedAStar => weighted_astar::RULES,
            Algorithm::JumpPoint => jump_point::RULES,
            Algorithm::JumpPointPlus => jump_point_plus::RULES,
            Algorithm::ThetaStar => theta_star::RULES,
            // Not run by this loop (see `crate::bidirectional`, `crate::incremental`): the rules
            // say how their own frontiers order cells, for a visualiser's f values.
            Algorithm::BidirectionalBreadthFirst => breadth_first::RULES,
            Algorithm::BidirectionalAStar => astar::RULES,
            Algorithm::DStarLite => astar::RULES,
        }
    }

    /// The key the frontier orders by (lowest first), from the cost so far `g`, the heuristic
    /// estimate `h` and the weighted-A* weight `w`. Ignored by the queue and the stack.
    #[inline]
    pub(crate) fn priority(self, g: f64, h: f64, w: f64) -> f64 {
        match self {
            Algorithm::BreadthFirst
            | Algorithm::DepthFirst
            | Algorithm::BidirectionalBreadthFirst => g,
            Algorithm::Dijkstra => dijkstra::priority(g),
            Algorithm::GreedyBestFirst => greedy_best_first::priority(h),
            Algorithm::AStar
            | Algorithm::JumpPoint
            | Algorithm::JumpPointPlus
            | Algorithm::ThetaStar
            | Algorithm::BidirectionalAStar
            | Algorithm::DStarLite => astar::priority(g, h),
            Algorithm::WeightedAStar => weighted_astar::priority(g, h, w),
        }
    }
}

/// Jump point search's preconditions, checked before it runs instead of failing silently: on the
/// grid, and for the query's unit class, if it has one.
pub(crate) fn check_applicable(
    grid: &Grid,
    config: &SearchConfig,
    class: Option<&UnitClass>,
) -> Result<(), QueryError> {
    let algorithm = config.algorithm;
    if algorithm == Algorithm::WeightedAStar && !(config.weight >= 1.0 && config.weight.is_finite())
    {
        return Err(QueryError::BadWeight(config.weight));
    }
    // Jumps and lines of sight run along the rows and columns of squares.
    let any_angle = algorithm.is_any_angle();
    let other_shape = match config.movement {
        Movement::Hex(_) if any_angle => {
            Some("its straight segments are lines of sight across squares, which a hex map has not")
        }
        Movement::Hex(_) => {
            Some("its jumps prune the symmetric paths of a square grid, not a hex map's (use A*)")
        }
        Movement::StaggeredFourWay | Movement::StaggeredEightWay(_) if any_angle => {
            Some("its lines of sight run across rows and columns of squares, not a staggered map's")
        }
        Movement::StaggeredFourWay | Movement::StaggeredEightWay(_) => {
            Some("its jumps run along rows and columns of squares, not a staggered map's (use A*)")
        }
        Movement::FourWay | Movement::EightWay(_) => None,
    };
    if let Some(reason) = other_shape.filter(|_| algorithm.is_jump_point_search() || any_angle) {
        return Err(QueryError::Unsupported { algorithm, reason });
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
    if let Some(reason) = grid
        .has_open_links()
        .then(|| why_no_links(algorithm))
        .flatten()
    {
        return Err(QueryError::Unsupported { algorithm, reason });
    }
    let uneven_class = class.is_some_and(|c| c.uniform_on(grid).is_none());
    if (algorithm.is_jump_point_search() || any_angle) && uneven_class {
        return Err(QueryError::Unsupported {
            algorithm,
            reason: "it needs every cell of this map to cost the unit class the same, with no \
                     terrain closed to it (use A*)",
        });
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

/// Why `algorithm` cannot search a grid with open links, if it cannot.
fn why_no_links(algorithm: Algorithm) -> Option<&'static str> {
    match algorithm {
        _ if algorithm.is_jump_point_search() => {
            Some("its jumps run along rows and columns and never take a link (use A*)")
        }
        Algorithm::ThetaStar => Some("its straight segments never take a link (use A*)"),
        Algorithm::DStarLite => Some("its repairs do not take links yet (use A*)"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vocabulary's fact and the loop's rule must agree.
    #[test]
    fn the_rules_use_the_heuristic_when_the_algorithm_says_so() {
        for algorithm in Algorithm::ALL {
            assert_eq!(
                algorithm.rules().uses_heuristic,
                algorithm.uses_heuristic(),
                "{algorithm:?}"
            );
        }
    }
}
