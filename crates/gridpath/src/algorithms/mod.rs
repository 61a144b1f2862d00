//! The search algorithms. They share one loop (see [`crate::Search`]):
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

use crate::search::frontier::Order;

pub mod astar;
pub mod breadth_first;
pub mod depth_first;
pub mod dijkstra;
pub mod greedy_best_first;
pub mod jump_point;
pub mod jump_point_plus;
pub mod theta_star;
pub mod weighted_astar;

/// What sets one algorithm apart from the others in the shared search loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// How the frontier orders cells.
    pub order: Order,
    /// When a cheaper route to a cell in the frontier turns up, take it? Cost-aware searches do;
    /// the others keep the first route they found.
    pub relax: bool,
    /// Does the priority use the heuristic? (Saves computing it when not.)
    pub uses_heuristic: bool,
}

/// A search algorithm. Every one can be run, or stepped, through [`crate::Search`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    BreadthFirst,
    DepthFirst,
    Dijkstra,
    GreedyBestFirst,
    #[default]
    AStar,
    WeightedAStar,
    JumpPoint,
    JumpPointPlus,
    ThetaStar,
    BidirectionalBreadthFirst,
    BidirectionalAStar,
    DStarLite,
}

impl Algorithm {
    pub const ALL: [Algorithm; 12] = [
        Self::BreadthFirst,
        Self::DepthFirst,
        Self::Dijkstra,
        Self::GreedyBestFirst,
        Self::AStar,
        Self::WeightedAStar,
        Self::JumpPoint,
        Self::JumpPointPlus,
        Self::ThetaStar,
        Self::BidirectionalBreadthFirst,
        Self::BidirectionalAStar,
        Self::DStarLite,
    ];

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
            // Their two frontiers live in `crate::bidirectional`; these rules say what they use.
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

    /// Does it always return a least-cost path (given an admissible heuristic, where it uses one)?
    pub fn is_optimal(self) -> bool {
        matches!(
            self,
            Algorithm::Dijkstra
                | Algorithm::AStar
                | Algorithm::JumpPoint
                | Algorithm::JumpPointPlus
                | Algorithm::BidirectionalAStar
                | Algorithm::DStarLite
        )
    }

    /// Is it jump point search (JPS or JPS+)? They need 8-way moves that never cut corners and
    /// a grid whose passable cells all cost the same.
    pub fn is_jump_point_search(self) -> bool {
        matches!(self, Algorithm::JumpPoint | Algorithm::JumpPointPlus)
    }

    /// Does it return an any-angle path: corners joined by straight segments, rather than a chain
    /// of neighbouring cells? Its cost is then the segments' Euclidean length (Theta*).
    pub fn is_any_angle(self) -> bool {
        self == Algorithm::ThetaStar
    }

    /// Does it search from both ends at once ([`crate::bidirectional`])?
    pub fn is_bidirectional(self) -> bool {
        matches!(
            self,
            Algorithm::BidirectionalBreadthFirst | Algorithm::BidirectionalAStar
        )
    }

    /// Does it take the heuristic into account?
    pub fn uses_heuristic(self) -> bool {
        self.rules().uses_heuristic
    }

    /// Does it take the heuristic weight into account?
    pub fn uses_weight(self) -> bool {
        self == Algorithm::WeightedAStar
    }

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::BreadthFirst => "Breadth-first",
            Algorithm::DepthFirst => "Depth-first",
            Algorithm::Dijkstra => "Dijkstra",
            Algorithm::GreedyBestFirst => "Greedy best-first",
            Algorithm::AStar => "A*",
            Algorithm::WeightedAStar => "Weighted A*",
            Algorithm::JumpPoint => "Jump point search",
            Algorithm::JumpPointPlus => "JPS+ (precomputed jumps)",
            Algorithm::ThetaStar => "Theta* (any angle)",
            Algorithm::BidirectionalBreadthFirst => "Bidirectional BFS",
            Algorithm::BidirectionalAStar => "Bidirectional A*",
            Algorithm::DStarLite => "D* Lite (repairs)",
        }
    }

    /// A short name for tables and command lines.
    pub fn key(self) -> &'static str {
        match self {
            Algorithm::BreadthFirst => "bfs",
            Algorithm::DepthFirst => "dfs",
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::GreedyBestFirst => "greedy",
            Algorithm::AStar => "astar",
            Algorithm::WeightedAStar => "wastar",
            Algorithm::JumpPoint => "jps",
            Algorithm::JumpPointPlus => "jpsplus",
            Algorithm::ThetaStar => "theta",
            Algorithm::BidirectionalBreadthFirst => "bibfs",
            Algorithm::BidirectionalAStar => "biastar",
            Algorithm::DStarLite => "dstarlite",
        }
    }

    /// Parses [`Algorithm::key`].
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.key() == key)
    }

    /// One or two sentences for a tooltip: what it does and whether it is optimal.
    pub fn description(self) -> &'static str {
        match self {
            Algorithm::BreadthFirst => breadth_first::SUMMARY,
            Algorithm::DepthFirst => depth_first::SUMMARY,
            Algorithm::Dijkstra => dijkstra::SUMMARY,
            Algorithm::GreedyBestFirst => greedy_best_first::SUMMARY,
            Algorithm::AStar => astar::SUMMARY,
            Algorithm::WeightedAStar => weighted_astar::SUMMARY,
            Algorithm::JumpPoint => jump_point::SUMMARY,
            Algorithm::JumpPointPlus => jump_point_plus::SUMMARY,
            Algorithm::ThetaStar => theta_star::SUMMARY,
            Algorithm::BidirectionalBreadthFirst => crate::bidirectional::BFS_SUMMARY,
            Algorithm::BidirectionalAStar => crate::bidirectional::ASTAR_SUMMARY,
            Algorithm::DStarLite => crate::incremental::SUMMARY,
        }
    }
}
