//! The twelve algorithms by name: what each is called, what it promises, and what it needs.
//! Facts every layer may ask; how each one searches is in the engines above
//! ([`crate::algorithms`] for the nine of the best-first loop, [`crate::bidirectional`],
//! [`crate::incremental`]).

/// A search algorithm. Every one can be run, or stepped, through [`crate::search::Search`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Breadth-first search: fewest steps, blind to costs.
    BreadthFirst,
    /// Depth-first search: any path, not a short one.
    DepthFirst,
    /// Dijkstra's algorithm: the cheapest path, no heuristic.
    Dijkstra,
    /// Greedy best-first search: the lowest heuristic first; fast, not optimal.
    GreedyBestFirst,
    #[default]
    /// A*: the cheapest path, guided by the heuristic.
    AStar,
    /// Weighted A*: the heuristic weighted; within `weight` times the cheapest.
    WeightedAStar,
    /// Jump point search: A* on uniform-cost grids, jumping over symmetric paths.
    JumpPoint,
    /// JPS+: jump point search with its jumps precomputed (and repaired after edits).
    JumpPointPlus,
    /// Theta*: any-angle paths, corners joined by line of sight.
    ThetaStar,
    /// Breadth-first from both ends.
    BidirectionalBreadthFirst,
    /// A* from both ends.
    BidirectionalAStar,
    /// D* Lite: repairs its plan after edits instead of searching again.
    DStarLite,
}

impl Algorithm {
    /// Every algorithm, in the order a menu lists them.
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
        !matches!(
            self,
            Algorithm::BreadthFirst
                | Algorithm::DepthFirst
                | Algorithm::Dijkstra
                | Algorithm::BidirectionalBreadthFirst
        )
    }

    /// Does it take the heuristic weight into account?
    pub fn uses_weight(self) -> bool {
        self == Algorithm::WeightedAStar
    }

    /// Its name, for a menu or a table.
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

    /// One or two sentences for a tooltip: what it does and whether it is optimal. Each
    /// algorithm's page (`crate::algorithms`, `crate::bidirectional`, `crate::incremental`) says more.
    pub fn description(self) -> &'static str {
        match self {
            Algorithm::BreadthFirst => {
                "Expands cells in the order they were reached, in rings around \
                 the start. Fewest steps, but blind to costs: optimal only on 4-way grids of equal cost."
            }
            Algorithm::DepthFirst => {
                "Always expands the newest cell, diving deep before backing up. \
                 Finds a path if one exists, usually a long and winding one. Never optimal: it is here to \
                 show why order matters."
            }
            Algorithm::Dijkstra => {
                "Expands the cheapest cell so far first. Optimal with any \
                 terrain costs, but searches in every direction equally."
            }
            Algorithm::GreedyBestFirst => {
                "Expands the cell that looks closest to the goal (by the \
                 heuristic) first. Very fast on open ground, but not optimal: it can hug a wall into a long \
                 detour."
            }
            Algorithm::AStar => {
                "Expands the cell with the lowest cost so far plus estimated \
                 cost to go (f = g + h). Optimal when the heuristic never overestimates, and expands far \
                 fewer cells than Dijkstra."
            }
            Algorithm::WeightedAStar => {
                "A* with the heuristic multiplied by a weight w ≥ 1: fewer \
                 cells expanded, and the path costs at most w × the optimal cost."
            }
            Algorithm::JumpPoint => {
                "A* that jumps along straight lines and diagonals and only \
                 stops at cells where the route may turn. Same optimal cost as A* with far fewer expansions. \
                 Needs 8-way moves that never cut corners and equal cell costs."
            }
            Algorithm::JumpPointPlus => {
                "Jump point search with every jump precomputed: a table of \
                 distances to the next jump point, made once and repaired after edits. The same expansions \
                 as JPS, each far cheaper. Same conditions as JPS."
            }
            Algorithm::ThetaStar => {
                "A* that lets a cell take its grandparent as parent when it \
                 can see it, so paths turn at any angle. Shorter than any grid path, though not always the \
                 shortest possible. Needs equal cell costs and no corner cutting."
            }
            Algorithm::BidirectionalBreadthFirst => {
                "Breadth-first from both ends at once, meeting in the \
                 middle: fewest moves, about half the cells on open ground. Ignores terrain costs."
            }
            Algorithm::BidirectionalAStar => {
                "A* from both ends at once, each aimed at the other; \
                 stops once no route can beat the best meeting found. Optimal, like A*."
            }
            Algorithm::DStarLite => {
                "Searches back from the goal and keeps what it learnt: after \
                 an edit it repairs only the costs the edit made wrong, and the start may move for free. \
                 Optimal; its first search is like A*'s."
            }
        }
    }
}
