//! One search loop for every algorithm, resumable one expansion at a time.
//!
//! [`Search`] owns all of its working memory and reuses it, so a game can re-plan every frame
//! without allocating. It can run a query to the end ([`Search::find_path`], [`Search::run`]) or
//! one expansion at a time ([`Search::step`]) so that a visualiser can show it thinking.
//!
//! The loop is spread over a few methods because it must be resumable: [`Search::begin`] puts the
//! start in the frontier, [`Search::step`] takes one cell out and expands it, and `finish` lays
//! out the path. For the same algorithm written as one plain function, read
//! [`crate::textbook::astar`]: a test checks that the two agree.

pub(crate) mod frontier;
pub(crate) mod nodes;
mod opener;
mod query;
mod types;

use crate::algorithms::{Algorithm, jump_point, jump_point_plus, theta_star};
use crate::bidirectional::{Bidirectional, Ordering};
use crate::components::Components;
use crate::grid::{Grid, Point};
use crate::heuristic::Heuristic;
use crate::incremental::DStarLite;
use crate::jump_distances::{JumpDistances, Update};
use frontier::Frontier;
use nodes::{NO_PARENT, NodeTable};
use opener::Opener;
pub(crate) use query::check_ends;
use query::{Query, check_applicable, point_at};

pub use nodes::NodeState;
pub use types::{
    GoalMode, NodeInfo, Path, QueryError, SearchConfig, SearchResult, SearchStatus, Step,
    TraceEvent,
};

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
    /// The grid's regions, relabelled only when its walls change: "no path" without a search.
    components: Components,
    /// JPS+'s table of jump distances, repaired when the grid's walls change.
    jumps: JumpDistances,
    query: Option<Query>,
    status: SearchStatus,
    expanded: usize,
    current: Option<usize>,
    path: Vec<Point>,
    /// Scratch for laying out the path: the chain of parent links, start first.
    waypoints: Vec<Point>,
    trace: Vec<TraceEvent>,
    /// The bidirectional algorithms' two searches: this loop hands their queries over whole.
    both_ways: Bidirectional,
    /// D* Lite's state, kept from one query to the next so that it can repair its last plan.
    incremental: DStarLite,
}

/// A query this loop hands over whole to another engine.
enum Engine<'a> {
    TwoWay(&'a Bidirectional),
    Incremental(&'a DStarLite),
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
                cells: self.path().to_vec(),
                cost,
                partial: self.status() == SearchStatus::Partial,
            }),
            expanded: self.expanded(),
        })
    }

    /// Checks a query and sets the search up to run it. Nothing is expanded yet.
    ///
    /// Both [`GoalMode`]s hold for every algorithm alike: in [`GoalMode::ClosestReachable`] a
    /// goal on a wall, or one the start cannot reach, gives a path to the reachable cell nearest
    /// it (the start itself when nothing else is reachable), and the search ends `Partial`.
    pub fn begin(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        config: &SearchConfig,
    ) -> Result<(), QueryError> {
        let (start_index, goal_index) = check_ends(grid, start, goal, false)?;
        let goal_blocked = !grid.is_passable(goal);
        if goal_blocked && config.goal_mode == GoalMode::MustBeFree {
            return Err(QueryError::GoalBlocked(goal));
        }
        check_applicable(grid, config)?;
        let width = grid.width() as usize;
        let mut config = *config;
        if config.algorithm.is_any_angle() {
            // Octile or Manhattan distances overestimate a path that may go straight.
            config.heuristic = Heuristic::Euclidean;
        }
        self.query = Some(Query {
            config,
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
        let from_the_goal = self.engine().is_some();
        if goal_blocked || (from_the_goal && !self.goal_reachable(grid)) {
            // This loop finds out that a free goal is cut off by searching (`advance`), or from
            // the regions before a whole run (`settle_unreachable`). An engine that searches back
            // from the goal is aimed first: from a cut-off goal it would explore the goal's side
            // of the wall, not the start's. The regions answer without a search.
            self.retarget(grid);
        }
        if let Some(query) = self.query
            && from_the_goal
        {
            let target = point_at(query.target, query.width);
            if let Err(refused) = self.begin_engine(grid, start, target, &config) {
                self.query = None; // both ends were checked above: not expected, but no half-query
                return Err(refused);
            }
        }
        self.restart();
        Ok(())
    }

    /// Whether the query's goal lies in the start's region; always true in
    /// [`GoalMode::MustBeFree`], where an unreachable goal is the answer "no path", not a reason
    /// to re-aim.
    fn goal_reachable(&mut self, grid: &Grid) -> bool {
        let Some(query) = self.query else {
            return true;
        };
        if query.config.goal_mode == GoalMode::MustBeFree {
            return true;
        }
        self.components.update(grid, query.config.movement);
        self.components.connected_at(query.start, query.target)
    }

    /// Hands a query to the engine that runs it whole: both ways, or D* Lite, towards `target`
    /// (the goal, or the nearest reachable cell to it).
    fn begin_engine(
        &mut self,
        grid: &Grid,
        start: Point,
        target: Point,
        config: &SearchConfig,
    ) -> Result<(), QueryError> {
        if config.algorithm.is_bidirectional() {
            let ordering = match config.algorithm {
                Algorithm::BidirectionalBreadthFirst => Ordering::BreadthFirst,
                _ => Ordering::AStar(config.heuristic),
            };
            self.both_ways.record_trace(config.record_trace);
            self.both_ways
                .begin(grid, start, target, config.movement, ordering)?;
        } else if config.algorithm == Algorithm::DStarLite {
            // Whatever changed since its last plan, it finds by comparing the map it saw.
            self.incremental.find_changes(grid);
            self.incremental.record_trace(config.record_trace);
            self.incremental
                .begin(grid, start, target, config.movement, config.heuristic)?;
        }
        Ok(())
    }

    /// Does now the work that a first query would otherwise do on its way: sizes the search's
    /// memory for the grid, labels the grid's regions and, for JPS+, makes its table of jump
    /// distances. Later queries on the same walls reuse all three, and after a few wall edits
    /// JPS+'s table is repaired rather than remade. Call it when a map is loaded, so that the
    /// first search costs no more than the next. Safe in the middle of a search. Returns what it
    /// did to JPS+'s table ([`Update::Unchanged`] for the other algorithms).
    pub fn prepare(&mut self, grid: &Grid, config: &SearchConfig) -> Update {
        self.nodes.reserve(grid.len());
        self.frontier.reserve(grid.len());
        self.components.update(grid, config.movement);
        if config.algorithm == Algorithm::JumpPointPlus {
            self.jumps.update(grid)
        } else {
            Update::Unchanged
        }
    }

    /// The two searches of a bidirectional algorithm, while one is the query: how far each side
    /// has come and where they meet, for a visualiser to draw both frontiers.
    pub fn bidirectional(&self) -> Option<&Bidirectional> {
        self.query
            .is_some_and(|q| q.config.algorithm.is_bidirectional())
            .then_some(&self.both_ways)
    }

    /// D* Lite's state, while it is the query: costs to the goal, and what the last repair fixed.
    pub fn incremental(&self) -> Option<&DStarLite> {
        self.query
            .is_some_and(|q| q.config.algorithm == Algorithm::DStarLite)
            .then_some(&self.incremental)
    }

    /// The engine running the query, when it is not this loop.
    fn engine(&self) -> Option<Engine<'_>> {
        match self.query.map(|q| q.config.algorithm)? {
            a if a.is_bidirectional() => Some(Engine::TwoWay(&self.both_ways)),
            Algorithm::DStarLite => Some(Engine::Incremental(&self.incremental)),
            _ => None,
        }
    }

    /// Expands at most one cell. Returns what it did.
    pub fn step(&mut self, grid: &Grid) -> Step {
        let engine_step = match self.engine() {
            Some(Engine::TwoWay(_)) => Some(self.both_ways.step(grid)),
            Some(Engine::Incremental(_)) => Some(self.incremental.step(grid)),
            None => None,
        };
        match engine_step {
            // An engine aimed at the nearest reachable cell finishes `Partial`, not `Found`.
            Some(Step::Finished(_)) => return Step::Finished(self.status()),
            Some(expanded) => return expanded,
            None => {}
        }
        self.refresh_jumps(grid);
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
                Some(node) if self.nodes.is_closed(node) => continue, // queued twice: expanded already
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
        if self.engine().is_some() {
            for _ in 0..max_expansions {
                if let Step::Finished(status) = self.step(grid) {
                    return status;
                }
            }
            return self.status();
        }
        self.refresh_jumps(grid);
        for _ in 0..max_expansions {
            if self.advance(grid).is_none() {
                break;
            }
        }
        self.status
    }

    /// Runs the search to the end and returns how it ended.
    ///
    /// A goal in another region than the start (see [`Components`]) is answered before any cell
    /// is expanded: no path, or in [`GoalMode::ClosestReachable`] the nearest reachable cell.
    /// [`Search::step`] does not ask, so that a visualiser still shows the search finding out.
    pub fn run(&mut self, grid: &Grid) -> SearchStatus {
        if let Some(query) = self.query.filter(|_| self.engine().is_some()) {
            // A goal in another region is "no path" without a search (closest-reachable
            // queries were aimed inside the start's region by `begin`).
            self.components.update(grid, query.config.movement);
            let fresh = self.expanded() == 0 && grid.len() == query.len;
            if fresh && !self.components.connected_at(query.start, query.target) {
                self.both_ways.give_up();
                self.incremental.give_up();
                return SearchStatus::NoPath;
            }
            while let Step::Expanded(_) = self.step(grid) {}
            return self.status();
        }
        self.refresh_jumps(grid);
        self.settle_unreachable(grid);
        while self.advance(grid).is_some() {}
        self.status
    }

    /// JPS+ reads its table on every expansion: if the walls were edited since [`Search::begin`]
    /// (a stepped search on a map being painted), bring it up to date first.
    fn refresh_jumps(&mut self, grid: &Grid) {
        if self
            .query
            .is_some_and(|q| q.config.algorithm == Algorithm::JumpPointPlus)
        {
            self.jumps.update(grid);
        }
    }

    /// Before a whole run of a fresh query: a target the start cannot reach is settled at once.
    fn settle_unreachable(&mut self, grid: &Grid) {
        let Some(query) = self.query else {
            return;
        };
        let fresh = self.status == SearchStatus::Running && self.expanded == 0;
        if !fresh || query.retargeted || grid.len() != query.len {
            return;
        }
        self.components.update(grid, query.config.movement);
        if self.components.connected_at(query.start, query.target) {
            return;
        }
        match query.config.goal_mode {
            GoalMode::MustBeFree => {
                self.finish(SearchStatus::NoPath);
            }
            GoalMode::ClosestReachable => {
                self.retarget(grid);
                self.restart();
            }
        }
    }

    pub fn status(&self) -> SearchStatus {
        let engine_status = match self.engine() {
            Some(Engine::TwoWay(b)) => b.status(),
            Some(Engine::Incremental(d)) => d.status(),
            None => return self.status,
        };
        // The engine found the cell it was aimed at; if that is not the goal, the path is partial.
        match engine_status {
            SearchStatus::Found if self.query.is_some_and(|q| q.retargeted) => {
                SearchStatus::Partial
            }
            status => status,
        }
    }

    /// Cells expanded so far (by both sides, for a bidirectional search).
    pub fn expanded(&self) -> usize {
        match self.engine() {
            Some(Engine::TwoWay(b)) => b.expanded(),
            Some(Engine::Incremental(d)) => d.expanded(),
            None => self.expanded,
        }
    }

    /// The path found, start to goal; empty unless the status is `Found` or `Partial`.
    pub fn path(&self) -> &[Point] {
        match self.engine() {
            Some(Engine::TwoWay(b)) => b.path(),
            Some(Engine::Incremental(d)) => d.path(),
            None => &self.path,
        }
    }

    /// The cost of [`Search::path`], once there is one.
    pub fn cost(&self) -> Option<f64> {
        match self.engine() {
            Some(Engine::TwoWay(b)) => return b.cost(),
            Some(Engine::Incremental(d)) => return d.found().map(|p| p.cost),
            None => {}
        }
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
        match self.engine() {
            Some(Engine::TwoWay(b)) => return b.current(),
            Some(Engine::Incremental(d)) => return d.current(),
            None => {}
        }
        let query = self.query?;
        self.current.map(|i| point_at(i, query.width))
    }

    /// Every open and close so far, in order, when [`SearchConfig::record_trace`] is on. A
    /// closest-reachable search that had to re-aim clears it and records the second phase.
    pub fn trace(&self) -> &[TraceEvent] {
        match self.engine() {
            Some(Engine::TwoWay(b)) => b.trace(),
            Some(Engine::Incremental(d)) => d.trace(),
            None => &self.trace,
        }
    }

    /// Number of cells in the frontier.
    pub fn frontier_len(&self) -> usize {
        match self.engine() {
            Some(Engine::TwoWay(b)) => b.frontier_len(),
            Some(Engine::Incremental(d)) => d.frontier_len(),
            None => self.frontier.len(),
        }
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
        match self.engine() {
            Some(Engine::TwoWay(b)) => return Some(two_way_node(b, p)),
            Some(Engine::Incremental(d)) => {
                let g = d.cost_to_goal(p);
                let h = q.heuristic_at(i);
                return Some(NodeInfo {
                    state: d.state(p),
                    g,
                    h,
                    f: g + h,
                    parent: None,
                });
            }
            None => {}
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

    /// Aims the search at the reachable cell nearest to the requested goal (in a straight line;
    /// ties to the lower index), found among the start's region. Finding it first and then
    /// searching for it, rather than remembering the closest cell while searching, works the same
    /// for every algorithm, even jump point search, which never looks at most cells.
    fn retarget(&mut self, grid: &Grid) {
        let Some(query) = self.query.as_mut() else {
            return;
        };
        self.components.update(grid, query.config.movement);
        let target = self
            .components
            .nearest_in_region(grid, query.start, query.requested_goal);
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
        self.frontier
            .reset(query.config.algorithm.rules().order, query.len);
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
        // Theta*'s second route starts at the parent: read its cost only for Theta* (this is
        // every search's innermost loop).
        let g_parent = match (query.config.algorithm, parent) {
            (Algorithm::ThetaStar, Some(p)) => self.nodes.g(p),
            _ => 0.0,
        };
        let Self {
            nodes,
            frontier,
            trace,
            jumps,
            ..
        } = self;
        let mut opener = Opener {
            nodes,
            frontier,
            trace,
            query,
            rules,
        };
        let unit = query.h_scale; // on a uniform grid every cell costs the cheapest cost
        // The jump searches report many successors from deep in their jump loops: `move`, so
        // the closure holds its numbers (and the opener's address) itself instead of the
        // address of each, two loads per number per successor (JPS+ 1 % fewer instructions).
        let offer_jump = {
            let opener = &mut opener;
            move |next, x, y, distance: f64| {
                opener.offer_jump_point(next, x, y, node, g_node + distance * unit)
            }
        };
        match query.config.algorithm {
            Algorithm::JumpPoint => {
                jump_point::for_each_successor(grid, node, parent, query.target_cell(), offer_jump)
            }
            Algorithm::JumpPointPlus => jump_point_plus::for_each_successor(
                grid,
                jumps,
                node,
                parent,
                query.target_cell(),
                offer_jump,
            ),
            Algorithm::ThetaStar => {
                query
                    .config
                    .movement
                    .for_each_neighbor(grid, node, |next, x, y, step_cost| {
                        match theta_star::shortcut(grid, parent, next) {
                            Some((p, distance)) => {
                                opener.offer_call(next, x, y, p, g_parent + distance * unit)
                            }
                            None => opener.offer_call(next, x, y, node, g_node + step_cost),
                        }
                    })
            }
            _ => query
                .config
                .movement
                .for_each_neighbor(grid, node, |next, x, y, step_cost| {
                    opener.offer(next, x, y, node, g_node + step_cost)
                }),
        }
    }

    /// Ends the search and, when it reached its target, writes out the path.
    ///
    /// Never inlined: it runs once per query, and inlined into the loop that calls it, it made
    /// that loop's code worse (A* +5 % instructions).
    #[inline(never)]
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
            if !query.config.algorithm.is_jump_point_search() {
                // Neighbours (or, for any-angle paths, corners joined by straight segments): the
                // chain is the path.
                self.path.extend_from_slice(&self.waypoints);
                return Step::Finished(status);
            }
            // Jump point search links jump points: fill in the run between two, diagonal first,
            // then straight. Each part is one `extend` of known length with a constant step, so
            // a cell costs a few instructions (stepping one cell at a time, and working out the
            // step's direction each time, cost 29 a cell).
            let mut cell = self.waypoints[0];
            self.path.push(cell);
            for &next in &self.waypoints[1..] {
                let (dx, dy) = (next.x - cell.x, next.y - cell.y);
                let (sx, sy) = (dx.signum(), dy.signum());
                let diagonal = dx.abs().min(dy.abs());
                let corner = Point::new(cell.x + diagonal * sx, cell.y + diagonal * sy);
                let diagonal_part =
                    (1..diagonal + 1).map(|k| Point::new(cell.x + k * sx, cell.y + k * sy));
                self.path.extend(diagonal_part);
                let (ax, ay) = if dx.abs() > dy.abs() {
                    (sx, 0)
                } else {
                    (0, sy)
                };
                let straight = dx.abs().max(dy.abs()) - diagonal;
                let straight_part =
                    (1..straight + 1).map(|k| Point::new(corner.x + k * ax, corner.y + k * ay));
                self.path.extend(straight_part);
                cell = next;
            }
        }
        Step::Finished(status)
    }
}

/// What a bidirectional search knows of a cell: the forward side's view if it reached the cell,
/// else the backward side's (g then counts from the goal).
fn two_way_node(b: &Bidirectional, p: Point) -> NodeInfo {
    use crate::bidirectional::Direction;
    let direction = match b.state(Direction::Forward, p) {
        NodeState::Unseen => Direction::Backward,
        _ => Direction::Forward,
    };
    let (g, parent) = b.reached(direction, p).unwrap_or((f64::INFINITY, None));
    let h = b.heuristic(direction, p);
    NodeInfo {
        state: b.state(direction, p),
        g,
        h,
        f: g + h,
        parent,
    }
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
