//! One search loop for every algorithm, resumable one expansion at a time.
//!
//! [`Search`] owns all of its working memory and reuses it, so a game can re-plan every frame
//! without allocating. It can run a query to the end ([`Search::find_path`], [`Search::run`]) or
//! one expansion at a time ([`Search::step`]) so that a visualiser can show it thinking.

mod closest;
pub(crate) mod frontier;
pub(crate) mod nodes;

use crate::algorithms::{Algorithm, jump_point};
use crate::grid::{Grid, Point};
use crate::heuristic::Heuristic;
use crate::movement::{CornerRule, Movement};
use frontier::Frontier;
use nodes::{NO_PARENT, NodeTable};
use std::fmt;

pub use nodes::NodeState;

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
    pub algorithm: Algorithm,
    pub movement: Movement,
    pub heuristic: Heuristic,
    /// Weighted A* multiplies the heuristic by this; it must be finite and at least 1. The other
    /// algorithms ignore it.
    pub weight: f64,
    pub goal_mode: GoalMode,
    /// Record every open and close in [`Search::trace`]. Off, it costs one branch per cell.
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
    StartOutside(Point),
    GoalOutside(Point),
    StartBlocked(Point),
    /// Only in [`GoalMode::MustBeFree`].
    GoalBlocked(Point),
    /// The algorithm cannot answer this query correctly (jump point search on terrain costs, say).
    Unsupported {
        algorithm: Algorithm,
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
    /// Begun, not finished: call [`Search::step`] or [`Search::run`].
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
    pub fn is_finished(self) -> bool {
        matches!(self, Self::Found | Self::Partial | Self::NoPath)
    }
}

/// What one call to [`Search::step`] did.
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
    Opened(Point),
    Closed(Point),
}

/// A path from start to goal.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// Every cell from the start to the goal, both included. Consecutive cells are neighbours.
    pub cells: Vec<Point>,
    /// The sum of the step costs.
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

#[derive(Clone, Copy, Debug)]
struct Query {
    config: SearchConfig,
    start: usize,
    /// Where the search is heading: the goal, or the nearest reachable cell to it.
    target: usize,
    /// The target's column and row, kept so the heuristic needs no division.
    target_x: usize,
    target_y: usize,
    requested_goal: Point,
    width: usize,
    len: usize,
    /// The heuristic is multiplied by this (the cheapest cell cost) to stay admissible.
    h_scale: f64,
    retargeted: bool,
}

impl Query {
    /// The heuristic estimate from the cell at column `x`, row `y` to the target.
    #[inline]
    fn heuristic(&self, x: usize, y: usize) -> f64 {
        let dx = x.abs_diff(self.target_x) as f64;
        let dy = y.abs_diff(self.target_y) as f64;
        self.h_scale * self.config.heuristic.estimate(dx, dy)
    }

    /// [`Query::heuristic`] by cell index, or 0 for algorithms that ignore it.
    fn heuristic_at(&self, i: usize) -> f64 {
        if self.config.algorithm.uses_heuristic() {
            self.heuristic(i % self.width, i / self.width)
        } else {
            0.0
        }
    }

    fn aim_at(&mut self, target: usize) {
        self.target = target;
        self.target_x = target % self.width;
        self.target_y = target / self.width;
    }

    #[inline]
    fn priority(&self, g: f64, h: f64) -> f64 {
        self.config.algorithm.priority(g, h, self.config.weight)
    }
}

/// A reusable, resumable grid search. See the [module docs](self).
///
/// ```
/// use gridpath::{Grid, Point, Search, SearchConfig};
///
/// let grid = Grid::from_ascii(&[
///     "....",
///     ".##.",
///     "....",
/// ]).unwrap();
/// let mut search = Search::new();
/// let result = search
///     .find_path(&grid, Point::new(0, 1), Point::new(3, 1), &SearchConfig::default())
///     .unwrap();
/// let path = result.path.unwrap();
/// // Around the wall. A diagonal would clip a wall corner, so all five steps are straight.
/// assert_eq!(path.cells.len(), 6);
/// assert_eq!(path.cost, 5.0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Search {
    nodes: NodeTable,
    frontier: Frontier,
    reach: closest::Reach,
    query: Option<Query>,
    status: SearchStatus,
    expanded: usize,
    current: Option<usize>,
    path: Vec<Point>,
    /// Scratch for laying out the path: the chain of parent links, start first.
    waypoints: Vec<Point>,
    trace: Vec<TraceEvent>,
}

impl Search {
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs a whole query and returns an owned result. To avoid even the one allocation of the
    /// returned path, use [`Search::begin`], [`Search::run`] and [`Search::path`].
    pub fn find_path(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        config: &SearchConfig,
    ) -> Result<SearchResult, QueryError> {
        self.begin(grid, start, goal, config)?;
        self.run(grid);
        Ok(SearchResult {
            path: self.cost().map(|cost| Path {
                cells: self.path.clone(),
                cost,
                partial: self.status == SearchStatus::Partial,
            }),
            expanded: self.expanded,
        })
    }

    /// Checks a query and sets the search up to run it. Nothing is expanded yet.
    pub fn begin(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        config: &SearchConfig,
    ) -> Result<(), QueryError> {
        let start_index = grid
            .index_of(start)
            .ok_or(QueryError::StartOutside(start))?;
        let goal_index = grid.index_of(goal).ok_or(QueryError::GoalOutside(goal))?;
        if !grid.is_passable(start) {
            return Err(QueryError::StartBlocked(start));
        }
        let goal_blocked = !grid.is_passable(goal);
        if goal_blocked && config.goal_mode == GoalMode::MustBeFree {
            return Err(QueryError::GoalBlocked(goal));
        }
        check_applicable(grid, config)?;

        let width = grid.width() as usize;
        self.query = Some(Query {
            config: *config,
            start: start_index,
            target: goal_index,
            target_x: goal_index % width,
            target_y: goal_index / width,
            requested_goal: goal,
            width,
            len: grid.len(),
            h_scale: f64::from(grid.min_cost()),
            retargeted: false,
        });
        self.expanded = 0;
        self.trace.clear();
        if goal_blocked {
            self.retarget(grid);
        }
        self.restart();
        Ok(())
    }

    /// Expands at most one cell. Returns what it did.
    pub fn step(&mut self, grid: &Grid) -> Step {
        match self.advance(grid) {
            Some(node) => Step::Expanded(grid.point_of(node)),
            None => Step::Finished(self.status),
        }
    }

    /// The loop body: expands one cell and returns its index, or `None` once finished.
    fn advance(&mut self, grid: &Grid) -> Option<usize> {
        let query = self.query.as_ref()?;
        if self.status != SearchStatus::Running {
            return None;
        }
        if grid.len() != query.len || grid.width() as usize != query.width {
            // The grid was swapped under a running search: give up rather than misread it.
            self.finish(SearchStatus::NoPath);
            return None;
        }
        let (record_trace, retargeted, target) =
            (query.config.record_trace, query.retargeted, query.target);
        let can_retarget = query.config.goal_mode == GoalMode::ClosestReachable && !retargeted;
        let node = loop {
            match self.frontier.pop() {
                Some(node) if self.nodes.is_closed(node) => continue, // stale: expanded already
                Some(node) => break node,
                None if can_retarget => {
                    self.retarget(grid);
                    self.restart();
                    return self.advance(grid);
                }
                None => {
                    self.finish(SearchStatus::NoPath);
                    return None;
                }
            }
        };
        self.nodes.close(node);
        self.expanded += 1;
        self.current = Some(node);
        if record_trace {
            self.trace.push(TraceEvent::Closed(grid.point_of(node)));
        }
        if node == target {
            self.finish(if retargeted {
                SearchStatus::Partial
            } else {
                SearchStatus::Found
            });
        } else {
            self.expand(grid, node);
        }
        Some(node)
    }

    /// Expands up to `max_expansions` cells, so that a frame never stalls on a large map.
    /// Returns the status afterwards (still [`SearchStatus::Running`] if the budget ran out).
    pub fn step_many(&mut self, grid: &Grid, max_expansions: usize) -> SearchStatus {
        for _ in 0..max_expansions {
            if self.advance(grid).is_none() {
                break;
            }
        }
        self.status
    }

    /// Runs the search to the end and returns how it ended.
    pub fn run(&mut self, grid: &Grid) -> SearchStatus {
        while self.advance(grid).is_some() {}
        self.status
    }

    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// Cells expanded so far.
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// The path found, start to goal; empty unless the status is `Found` or `Partial`.
    pub fn path(&self) -> &[Point] {
        &self.path
    }

    /// The cost of [`Search::path`], once there is one.
    pub fn cost(&self) -> Option<f64> {
        let query = self.query?;
        matches!(self.status, SearchStatus::Found | SearchStatus::Partial)
            .then(|| self.nodes.g(query.target))
    }

    /// The cell the search is heading for: the goal, or in a partial search the nearest
    /// reachable cell to it.
    pub fn target(&self) -> Option<Point> {
        self.query.map(|q| point_at(q.target, q.width))
    }

    /// The cell expanded last.
    pub fn current(&self) -> Option<Point> {
        let query = self.query?;
        self.current.map(|i| point_at(i, query.width))
    }

    /// Every open and close so far, in order, when [`SearchConfig::record_trace`] is on. A
    /// closest-reachable search that had to re-aim clears it and records the second phase.
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }

    /// Number of entries in the frontier (a priority queue may hold stale duplicates).
    pub fn frontier_len(&self) -> usize {
        self.frontier.len()
    }

    /// What the search knows about one cell, or `None` when it is outside the grid or no query
    /// has begun.
    pub fn node(&self, p: Point) -> Option<NodeInfo> {
        let q = self.query?;
        if p.x < 0 || p.y < 0 || p.x as usize >= q.width {
            return None;
        }
        let i = p.y as usize * q.width + p.x as usize;
        if i >= q.len {
            return None;
        }
        let state = self.nodes.state(i);
        let g = if state == NodeState::Unseen {
            f64::INFINITY
        } else {
            self.nodes.g(i)
        };
        let h = q.heuristic_at(i);
        Some(NodeInfo {
            state,
            g,
            h,
            f: q.priority(g, h),
            parent: self
                .nodes
                .parent(i)
                .filter(|_| state != NodeState::Unseen)
                .map(|j| point_at(j, q.width)),
        })
    }

    /// The query's settings, once one has begun.
    pub fn config(&self) -> Option<&SearchConfig> {
        self.query.as_ref().map(|q| &q.config)
    }

    /// Aims the search at the reachable cell nearest to the requested goal.
    fn retarget(&mut self, grid: &Grid) {
        let Some(query) = self.query.as_mut() else {
            return;
        };
        let target = self.reach.nearest_reachable(
            grid,
            query.config.movement,
            query.start,
            query.requested_goal,
        );
        query.aim_at(target);
        query.retargeted = true;
        self.trace.clear();
    }

    /// Empties the frontier and node table and puts the start in.
    fn restart(&mut self) {
        let Some(query) = self.query else {
            return;
        };
        self.nodes.reset(query.len);
        self.frontier.reset(query.config.algorithm.rules().order);
        self.path.clear();
        self.current = None;
        self.status = SearchStatus::Running;
        let h = query.heuristic_at(query.start);
        self.nodes.open(query.start, 0.0, NO_PARENT);
        self.frontier.push(query.start, query.priority(0.0, h), 0.0);
        if query.config.record_trace {
            self.trace
                .push(TraceEvent::Opened(point_at(query.start, query.width)));
        }
    }

    /// Opens every successor of `node` that is new, or (for cost-aware algorithms) newly cheaper.
    fn expand(&mut self, grid: &Grid, node: usize) {
        let Some(query) = self.query.as_ref() else {
            return;
        };
        let rules = query.config.algorithm.rules();
        let g_node = self.nodes.g(node);
        let parent = self.nodes.parent(node);
        let Self {
            nodes,
            frontier,
            trace,
            ..
        } = self;
        let mut offer = |next: usize, x: usize, y: usize, step_cost: f64| {
            let g = g_node + step_cost;
            match nodes.state_and_g(next) {
                (NodeState::Unseen, _) => {}
                // Seen before: only a cost-aware search takes a cheaper route, and never to a
                // closed cell (with a consistent heuristic its cost is already final).
                (NodeState::Open, known) if rules.relax && g < known => {}
                _ => return,
            }
            nodes.open(next, g, node as u32);
            let h = if rules.uses_heuristic {
                query.heuristic(x, y)
            } else {
                0.0
            };
            frontier.push(next, query.priority(g, h), g);
            if query.config.record_trace {
                trace.push(TraceEvent::Opened(point_at(next, query.width)));
            }
        };
        if query.config.algorithm == Algorithm::JumpPoint {
            let unit = query.h_scale; // on a uniform grid every cell costs the cheapest cost
            jump_point::for_each_successor(
                grid,
                node,
                parent,
                query.target,
                |next, x, y, distance| offer(next, x, y, distance * unit),
            );
        } else {
            query.config.movement.for_each_neighbor(grid, node, offer);
        }
    }

    /// Ends the search and, when it reached its target, writes out the path.
    fn finish(&mut self, status: SearchStatus) -> Step {
        self.status = status;
        self.path.clear();
        let Some(query) = self.query else {
            return Step::Finished(status);
        };
        if matches!(status, SearchStatus::Found | SearchStatus::Partial) {
            // Walk the parent links back from the target, then lay the path out forwards.
            let mut at = Some(query.target);
            self.waypoints.clear();
            while let Some(i) = at {
                self.waypoints.push(point_at(i, query.width));
                at = self.nodes.parent(i);
            }
            self.waypoints.reverse();
            self.path.push(self.waypoints[0]);
            for &next in &self.waypoints[1..] {
                // Neighbours for most algorithms. Jump point search links jump points: fill in
                // the run between them, diagonal first, then straight.
                let mut cell = self.path[self.path.len() - 1];
                while cell != next {
                    cell = Point::new(
                        cell.x + (next.x - cell.x).signum(),
                        cell.y + (next.y - cell.y).signum(),
                    );
                    self.path.push(cell);
                }
            }
        }
        Step::Finished(status)
    }
}

/// Jump point search's preconditions, checked before it runs instead of failing silently.
fn check_applicable(grid: &Grid, config: &SearchConfig) -> Result<(), QueryError> {
    let algorithm = config.algorithm;
    if algorithm == Algorithm::WeightedAStar && !(config.weight >= 1.0 && config.weight.is_finite())
    {
        return Err(QueryError::BadWeight(config.weight));
    }
    if algorithm == Algorithm::JumpPoint {
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
    Ok(())
}

#[inline]
fn point_at(i: usize, width: usize) -> Point {
    Point::new((i % width) as i32, (i / width) as i32)
}

/// Runs one query with a fresh [`Search`]. For repeated queries keep a `Search` and reuse it.
pub fn find_path(
    grid: &Grid,
    start: Point,
    goal: Point,
    config: &SearchConfig,
) -> Result<SearchResult, QueryError> {
    Search::new().find_path(grid, start, goal, config)
}
