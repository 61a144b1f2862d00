//! The words of a search: its settings ([`SearchConfig`]), why a query can be refused
//! ([`QueryError`]), where a search stands ([`SearchStatus`]), and what it hands back ([`Path`],
//! [`SearchResult`], [`NodeInfo`], [`TraceEvent`]).

use super::algorithm::Algorithm;
use super::nodes::NodeState;
use crate::grid::Point;
use crate::heuristic::Heuristic;
use crate::movement::Movement;
use std::fmt;

/// What to do when the goal is blocked or cannot be reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GoalMode {
    /// A blocked goal is an error ([`QueryError::GoalBlocked`]); an unreachable one gives no path.
    #[default]
    MustBeFree,
    /// Go as near as possible: when the goal is blocked or unreachable, return a path to the
    /// reachable cell nearest to it (straight-line distance; ties go to the lower cell index),
    /// flagged as partial.
    ClosestReachable,
}

/// Everything that shapes a search, apart from the grid and the two end points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Which search.
    pub algorithm: Algorithm,
    /// Which moves.
    pub movement: Movement,
    /// The heuristic (for the algorithms that use one).
    pub heuristic: Heuristic,
    /// Weighted A* multiplies the heuristic by this; it must be finite and at least 1. The other
    /// algorithms ignore it.
    pub weight: f64,
    /// What a goal on a wall, or cut off, gets.
    pub goal_mode: GoalMode,
    /// Record every open and close in [`crate::search::Search::trace`]. Off, it costs one branch per cell.
    pub record_trace: bool,
}

impl Default for SearchConfig {
    /// A* on 8-way moves that never cut corners, with the octile heuristic.
    fn default() -> Self {
        Self::astar(Movement::default())
    }
}

impl SearchConfig {
    /// A* with the best admissible heuristic for `movement`.
    pub fn astar(movement: Movement) -> Self {
        Self {
            algorithm: Algorithm::AStar,
            movement,
            heuristic: Heuristic::best_for(movement),
            weight: 1.5,
            goal_mode: GoalMode::MustBeFree,
            record_trace: false,
        }
    }

    /// The same settings with another algorithm.
    pub fn with_algorithm(self, algorithm: Algorithm) -> Self {
        Self { algorithm, ..self }
    }
}

/// Why a query was refused before any search began.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueryError {
    /// The start is off the grid.
    StartOutside(Point),
    /// The goal is off the grid.
    GoalOutside(Point),
    /// The start is a wall.
    StartBlocked(Point),
    /// Only in [`GoalMode::MustBeFree`].
    GoalBlocked(Point),
    /// The start's terrain is closed to the query's unit class ([`crate::UnitClass`]).
    StartClosed(Point),
    /// The goal's terrain is closed to the query's unit class; only in [`GoalMode::MustBeFree`].
    GoalClosed(Point),
    /// The algorithm cannot answer this query correctly (jump point search on terrain costs, say).
    Unsupported {
        /// The algorithm.
        algorithm: Algorithm,
        /// Why it cannot.
        reason: &'static str,
    },
    /// The weighted-A* weight is below 1 or not a number.
    BadWeight(f64),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::StartOutside(p) => write!(f, "the start {p} is outside the map"),
            QueryError::GoalOutside(p) => write!(f, "the goal {p} is outside the map"),
            QueryError::StartBlocked(p) => write!(f, "the start {p} is on a wall"),
            QueryError::GoalBlocked(p) => write!(f, "the goal {p} is on a wall"),
            QueryError::StartClosed(p) => {
                write!(
                    f,
                    "the start {p} is on terrain this unit class may not enter"
                )
            }
            QueryError::GoalClosed(p) => {
                write!(
                    f,
                    "the goal {p} is on terrain this unit class may not enter"
                )
            }
            QueryError::Unsupported { algorithm, reason } => {
                write!(f, "{} does not apply here: {reason}", algorithm.name())
            }
            QueryError::BadWeight(w) => write!(f, "the heuristic weight must be ≥ 1, not {w}"),
        }
    }
}

impl std::error::Error for QueryError {}

/// Where a search stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SearchStatus {
    /// No query has begun.
    #[default]
    Idle,
    /// Begun, not finished: call [`crate::search::Search::step`] or [`crate::search::Search::run`].
    Running,
    /// Reached the goal.
    Found,
    /// The goal was blocked or unreachable; reached the nearest reachable cell instead
    /// ([`GoalMode::ClosestReachable`] only).
    Partial,
    /// The goal cannot be reached from the start.
    NoPath,
}

impl SearchStatus {
    /// Has the search ended (found, partial or no path)?
    pub fn is_finished(self) -> bool {
        matches!(self, Self::Found | Self::Partial | Self::NoPath)
    }
}

/// What one call to [`crate::search::Search::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Expanded this cell (took it out of the frontier and opened its neighbours).
    Expanded(Point),
    /// The search is over, with this status.
    Finished(SearchStatus),
}

/// One entry of the trace: a cell entering the frontier, or leaving it to be expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceEvent {
    /// The cell entered the frontier.
    Opened(Point),
    /// The cell left it, to be expanded.
    Closed(Point),
}

/// A path from start to goal.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// Every cell from the start to the goal, both included. Consecutive cells are neighbours,
    /// except for an any-angle algorithm ([`Algorithm::is_any_angle`]): then they are the corners
    /// of a polyline, and each sees the next ([`crate::line_of_sight()`]).
    pub cells: Vec<Point>,
    /// The sum of the step costs (for an any-angle path, its Euclidean length times the cell cost).
    pub cost: f64,
    /// True when the goal could not be reached and this path ends at the reachable cell nearest
    /// to it ([`GoalMode::ClosestReachable`]).
    pub partial: bool,
}

/// The answer to a query.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// `None` when the goal cannot be reached.
    pub path: Option<Path>,
    /// How many cells were expanded (for JPS: jump points), over both phases of a
    /// closest-reachable search.
    pub expanded: usize,
}

/// What a visualiser wants to know about one cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeInfo {
    /// Open, closed, or not reached.
    pub state: NodeState,
    /// Cost of the best route found from the start (meaningful once opened).
    pub g: f64,
    /// The heuristic estimate to the goal, already scaled by the cheapest cell cost (0 for
    /// algorithms that do not use one).
    pub h: f64,
    /// The value the frontier orders by: g + h for A*, g for Dijkstra, h for greedy, and so on.
    pub f: f64,
    /// The cell this one was reached from.
    pub parent: Option<Point>,
}

impl NodeInfo {
    /// A cell no search has reached.
    pub(crate) const UNSEEN: NodeInfo = NodeInfo {
        state: NodeState::Unseen,
        g: f64::INFINITY,
        h: 0.0,
        f: f64::INFINITY,
        parent: None,
    };
}
