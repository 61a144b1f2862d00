//! The facade: one reusable, resumable search for every algorithm.
//! The story is on [`Search`].

use crate::algorithms::check_applicable;
use crate::components::Components;
use crate::engines::Engine;
use crate::engines::best_first::BestFirst;
use crate::engines::bidirectional::{Bidirectional, Ordering};
use crate::engines::incremental::DStarLite;
use crate::grid::{Grid, Point};
use crate::jump_distances::Update;
use crate::movement::Movement;
use crate::unit_class::{AnyCosts, UnitClass};
use crate::vocabulary::{
    Algorithm, GoalMode, NodeInfo, Path, QueryError, SearchConfig, SearchResult, SearchStatus,
    Step, TraceEvent, check_ends, point_at,
};

/// One reusable, resumable search for every algorithm.
///
/// It checks a query, decides where it heads, and hands it to the engine that runs its
/// algorithm: the best-first loop (nine algorithms), the bidirectional search, or D* Lite (see
/// `engines`). It can run a query to the end ([`Search::find_path`], [`Search::run`]) or one
/// expansion at a time ([`Search::step`]), so that a visualiser can show it thinking. It owns all
/// of its working memory and reuses it, so a game can re-plan every frame without allocating.
///
/// **Goal modes are decided here, once, for every engine.** In [`GoalMode::ClosestReachable`] a
/// query heads for the goal, or, when the goal is on a wall or cut off from the start, for the
/// reachable cell nearest it, and then ends `Partial`:
/// - a goal on a wall is re-aimed at once;
/// - run whole, a goal in another region than the start ([`Components`]) is re-aimed before any
///   cell is expanded (and in [`GoalMode::MustBeFree`] answered "no path" at once);
/// - stepped, the best-first loop finds out by searching: when it runs out of cells, the facade
///   re-aims it and it starts again, so a visualiser shows it finding out;
/// - the engines that search back from the goal are aimed before they start: from a cut-off goal
///   they would explore the goal's side of the wall, not the start's.
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
    /// The query as the facade sees it; each engine keeps its own view.
    query: Option<Query>,
    /// The grid's regions, relabelled only when its walls change: "no path", and the nearest
    /// reachable cell, without a search.
    regions: Components,
    /// The same for the query's unit class, whose regions are not the walls' alone.
    class_regions: Components,
    best_first: BestFirst,
    both_ways: Bidirectional,
    /// D* Lite's state, kept from one query to the next so that it can repair its last plan.
    incremental: DStarLite,
    /// The unit class the next query reads the grid as ([`Search::set_class`]).
    class: Option<UnitClass>,
    /// The class the current query reads the grid as: `None` also for a class that changes
    /// nothing on its grid.
    query_class: Option<UnitClass>,
}

/// One query: its settings, its ends as cell indices, and where it heads now.
#[derive(Clone, Copy, Debug)]
struct Query {
    config: SearchConfig,
    start: usize,
    requested_goal: Point,
    /// The goal, or once re-aimed the reachable cell nearest it.
    target: usize,
    retargeted: bool,
    /// Cells the engine expanded before it was re-aimed (a stepped search that found out).
    expanded_before: usize,
    width: usize,
    len: usize,
}

impl Search {
    /// A search with no memory yet: it grows to the first grid it searches, and keeps it.
    pub fn new() -> Self {
        Self::default()
    }

    /// A search that reads every grid as `class` does ([`Search::set_class`]).
    pub fn with_class(class: UnitClass) -> Self {
        Self {
            class: Some(class),
            ..Self::default()
        }
    }

    /// Reads grids as `class` does from the next query on: its closed terrains are walls, and
    /// a cell costs its own cost times the class's factor for its terrain ([`UnitClass`]).
    /// `None`: the grid as it is. Changing it keeps the search's memory.
    ///
    /// ```
    /// use gridpath::{Grid, Point, Search, SearchConfig, Terrain, UnitClass};
    ///
    /// // A river across the middle row, but for a ford at its right end.
    /// let mut grid = Grid::new(5, 3).unwrap();
    /// for x in 0..4 {
    ///     grid.set_terrain(Point::new(x, 1), Terrain::WATER).unwrap();
    /// }
    /// let mut search = Search::new();
    /// let (from, to) = (Point::new(0, 0), Point::new(0, 2));
    /// let straight = search.find_path(&grid, from, to, &SearchConfig::default()).unwrap();
    /// assert_eq!(straight.path.unwrap().cost, 2.0);
    ///
    /// search.set_class(Some(UnitClass::new().without(Terrain::WATER)));
    /// let around = search.find_path(&grid, from, to, &SearchConfig::default()).unwrap();
    /// assert!(around.path.unwrap().cells.contains(&Point::new(4, 1)), "by the ford");
    /// ```
    pub fn set_class(&mut self, class: Option<UnitClass>) {
        self.class = class;
    }

    /// The class queries read the grid as, if any.
    pub fn class(&self) -> Option<&UnitClass> {
        self.class.as_ref()
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
        let class = self.class.as_ref();
        let (start_index, goal_index) = check_ends(grid, start, goal, false, class)?;
        let goal_closed = class.is_some_and(|c| c.entry_cost(grid, goal).is_none());
        let goal_blocked = !grid.is_passable(goal) || goal_closed;
        if goal_blocked && config.goal_mode == GoalMode::MustBeFree {
            return Err(match grid.is_passable(goal) {
                true => QueryError::GoalClosed(goal),
                false => QueryError::GoalBlocked(goal),
            });
        }
        check_applicable(grid, config, class)?;
        // A class that opens every terrain of this grid at factor 1 reads it as it is (unless
        // links are open, which it may read otherwise).
        let class = class.filter(|c| grid.has_open_links() || c.uniform_on(grid) != Some(1));
        self.query_class = class.cloned();
        let mut config = *config;
        if config.algorithm.is_any_angle() {
            // Octile or Manhattan distances overestimate a path that may go straight.
            config.heuristic = crate::heuristic::Heuristic::Euclidean;
        }
        self.query = Some(Query {
            config,
            start: start_index,
            requested_goal: goal,
            target: goal_index,
            retargeted: false,
            expanded_before: 0,
            width: grid.width() as usize,
            len: grid.len(),
        });
        let from_the_goal = searches_from_the_goal(config.algorithm);
        if goal_blocked || (from_the_goal && !self.goal_in_reach(grid)) {
            // Nothing expanded yet (the engine still holds the last query's count).
            self.retarget(grid, 0);
        }
        if let Err(refused) = self.begin_engine(grid) {
            self.query = None; // both ends were checked above: not expected, but no half-query
            return Err(refused);
        }
        Ok(())
    }

    /// Starts the query's engine from the start towards the current target.
    fn begin_engine(&mut self, grid: &Grid) -> Result<(), QueryError> {
        let Some(q) = self.query else {
            return Ok(());
        };
        let config = q.config;
        let (start, target) = (point_at(q.start, q.width), point_at(q.target, q.width));
        match config.algorithm {
            Algorithm::BidirectionalBreadthFirst | Algorithm::BidirectionalAStar => {
                let ordering = match config.algorithm {
                    Algorithm::BidirectionalBreadthFirst => Ordering::BreadthFirst,
                    _ => Ordering::AStar(config.heuristic),
                };
                self.both_ways.record_trace(config.record_trace);
                let class = self.query_class.as_ref();
                self.both_ways
                    .begin_as(grid, class, start, target, config.movement, ordering)
            }
            Algorithm::DStarLite => {
                // Whatever changed since its last plan, it finds by comparing the map it saw.
                self.incremental.find_changes(grid);
                self.incremental.record_trace(config.record_trace);
                let class = self.query_class.as_ref();
                self.incremental.begin_as(
                    grid,
                    class,
                    start,
                    target,
                    config.movement,
                    config.heuristic,
                )
            }
            _ => {
                let class = self.query_class.as_ref();
                self.best_first
                    .begin(grid, q.start, q.target, &config, class);
                Ok(())
            }
        }
    }

    /// Whether the goal lies in the start's region; always true in [`GoalMode::MustBeFree`],
    /// where an unreachable goal is the answer "no path", not a reason to re-aim.
    fn goal_in_reach(&mut self, grid: &Grid) -> bool {
        let Some(q) = self.query else {
            return true;
        };
        if q.config.goal_mode == GoalMode::MustBeFree {
            return true;
        }
        self.in_reach(grid, q.config.movement, q.start, q.target)
    }

    /// Whether a unit at the cell `start` can reach the cell `target`: in one region, or on a
    /// grid with links, in a region the links lead to.
    fn in_reach(&mut self, grid: &Grid, movement: Movement, start: usize, target: usize) -> bool {
        match self.linked_reach(grid, movement, start) {
            None => self.regions_for(grid, movement).connected_at(start, target),
            Some(reached) => {
                let label = self.regions_for(grid, movement).label_at(target);
                reached.contains(&label)
            }
        }
    }

    /// On a grid with open links, the regions `start` reaches through them (see
    /// [`Components::reached_by_links`]); `None` on a grid without.
    fn linked_reach(&mut self, grid: &Grid, movement: Movement, start: usize) -> Option<Vec<u32>> {
        if !grid.has_open_links() {
            return None;
        }
        let class = self.query_class.clone();
        let regions = self.regions_for(grid, movement);
        Some(regions.reached_by_links(grid, AnyCosts::of(grid, class.as_ref()), start))
    }

    /// The regions the query moves in, brought up to date: the walls', or its class's.
    fn regions_for(&mut self, grid: &Grid, movement: Movement) -> &Components {
        match &self.query_class {
            None => {
                self.regions.update(grid, movement);
                &self.regions
            }
            Some(class) => {
                self.class_regions.update_as(grid, class, movement);
                &self.class_regions
            }
        }
    }

    /// Aims the query at the reachable cell nearest to the requested goal (in a straight line;
    /// ties to the lower index), found among the start's region. Finding it first and then
    /// searching for it, rather than remembering the closest cell while searching, works the
    /// same for every engine, even jump point search, which never looks at most cells.
    /// `expanded` is what the query expanded before (0 unless a stepped search found out).
    fn retarget(&mut self, grid: &Grid, expanded: usize) {
        let Some(mut q) = self.query else {
            return;
        };
        let movement = q.config.movement;
        q.target = match self.linked_reach(grid, movement, q.start) {
            None => {
                self.regions_for(grid, movement)
                    .nearest_in_region(grid, q.start, q.requested_goal)
            }
            Some(reached) => self.regions_for(grid, movement).nearest_in(
                grid,
                &reached,
                q.start,
                q.requested_goal,
            ),
        };
        q.retargeted = true;
        q.expanded_before = expanded;
        self.query = Some(q);
    }

    /// After the engine ran out of cells: in closest-reachable mode the goal is cut off, so aim
    /// at the nearest reachable cell and begin again. Returns whether it did.
    fn re_aim_after_no_path(&mut self, grid: &Grid) -> bool {
        let can = self.query.is_some_and(|q| {
            q.config.goal_mode == GoalMode::ClosestReachable && !q.retargeted && q.len == grid.len()
        });
        if !can || self.engine().status() != SearchStatus::NoPath {
            return false;
        }
        self.retarget(grid, self.engine().expanded());
        self.begin_engine(grid).is_ok()
    }

    /// Does now the work that a first query would otherwise do on its way: sizes the search's
    /// memory for the grid, labels the grid's regions and, for JPS+, makes its table of jump
    /// distances. Later queries on the same walls reuse all three, and after a few wall edits
    /// JPS+'s table is repaired rather than remade. Call it when a map is loaded, so that the
    /// first search costs no more than the next. Safe in the middle of a search. Returns what it
    /// did to JPS+'s table ([`Update::Unchanged`] for the other algorithms).
    pub fn prepare(&mut self, grid: &Grid, config: &SearchConfig) -> Update {
        self.regions.update(grid, config.movement);
        if let Some(class) = self
            .class
            .as_ref()
            .filter(|c| grid.has_open_links() || c.uniform_on(grid) != Some(1))
        {
            self.class_regions.update_as(grid, class, config.movement);
        }
        self.best_first.prepare(grid, config)
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

    /// The engine that runs the query's algorithm (the best-first loop before any query).
    fn engine(&self) -> &dyn Engine {
        match self.query.map(|q| q.config.algorithm) {
            Some(a) if a.is_bidirectional() => &self.both_ways,
            Some(Algorithm::DStarLite) => &self.incremental,
            _ => &self.best_first,
        }
    }

    fn engine_mut(&mut self) -> &mut dyn Engine {
        match self.query.map(|q| q.config.algorithm) {
            Some(a) if a.is_bidirectional() => &mut self.both_ways,
            Some(Algorithm::DStarLite) => &mut self.incremental,
            _ => &mut self.best_first,
        }
    }

    /// Expands at most one cell. Returns what it did.
    pub fn step(&mut self, grid: &Grid) -> Step {
        if self.query.is_none() {
            return Step::Finished(SearchStatus::Idle);
        }
        let mut step = self.engine_mut().step(grid);
        if matches!(step, Step::Finished(_)) && self.re_aim_after_no_path(grid) {
            step = self.engine_mut().step(grid);
        }
        match step {
            Step::Finished(_) => Step::Finished(self.status()),
            expanded => expanded,
        }
    }

    /// Expands up to `max_expansions` cells, so that a frame never stalls on a large map.
    /// Returns the status afterwards (still [`SearchStatus::Running`] if the budget ran out).
    pub fn step_many(&mut self, grid: &Grid, max_expansions: usize) -> SearchStatus {
        if self.query.is_none() {
            return SearchStatus::Idle;
        }
        self.engine_mut().step_many(grid, max_expansions);
        self.re_aim_after_no_path(grid);
        self.status()
    }

    /// Runs the search to the end and returns how it ended.
    ///
    /// A goal in another region than the start (see [`Components`]) is answered before any cell
    /// is expanded: no path, or in [`GoalMode::ClosestReachable`] the nearest reachable cell.
    /// [`Search::step`] does not ask, so that a visualiser still shows the search finding out.
    pub fn run(&mut self, grid: &Grid) -> SearchStatus {
        if self.query.is_none() {
            return SearchStatus::Idle;
        }
        self.settle_unreachable(grid);
        self.engine_mut().run(grid);
        if self.re_aim_after_no_path(grid) {
            self.engine_mut().run(grid);
        }
        self.status()
    }

    /// [`Search::run`] for a caller that has already found the goal in the start's region, with
    /// region labels of its own for the same walls (a path service checks every request before
    /// it hands it to one of its pooled searches). It skips labelling the regions here: a pass
    /// over every cell whenever the walls change, or whenever this search is handed a grid other
    /// than its last (a unit of another size), which each of the pool's searches would otherwise
    /// redo. A query in [`GoalMode::ClosestReachable`] needs the regions to re-aim, and runs as
    /// [`Search::run`] does.
    ///
    /// ```
    /// use gridpath::{Grid, Point, Search, SearchConfig, SearchStatus};
    /// let grid = Grid::from_ascii(&["....", ".##.", "...."]).unwrap();
    /// let (from, to) = (Point::new(0, 0), Point::new(3, 2));
    /// let mut search = Search::default();
    /// search.begin(&grid, from, to, &SearchConfig::default()).unwrap();
    /// assert_eq!(search.run_reachable(&grid), SearchStatus::Found);
    /// assert_eq!(search.path().last(), Some(&to));
    /// ```
    pub fn run_reachable(&mut self, grid: &Grid) -> SearchStatus {
        match self.query {
            None => SearchStatus::Idle,
            Some(q) if q.config.goal_mode == GoalMode::ClosestReachable => self.run(grid),
            Some(_) => {
                self.engine_mut().run(grid);
                self.status()
            }
        }
    }

    /// Before a whole run of a fresh query: a target the start cannot reach is settled at once.
    fn settle_unreachable(&mut self, grid: &Grid) {
        let Some(q) = self.query else {
            return;
        };
        let engine = self.engine();
        let fresh = engine.status() == SearchStatus::Running && engine.expanded() == 0;
        if !fresh || q.retargeted || grid.len() != q.len {
            return;
        }
        if self.in_reach(grid, q.config.movement, q.start, q.target) {
            return;
        }
        match q.config.goal_mode {
            GoalMode::MustBeFree => self.engine_mut().give_up(),
            GoalMode::ClosestReachable => {
                self.retarget(grid, 0);
                if self.begin_engine(grid).is_err() {
                    self.engine_mut().give_up();
                }
            }
        }
    }

    /// Where the search stands. An engine that reached the cell it was re-aimed at says
    /// `Found`; the query says `Partial`.
    pub fn status(&self) -> SearchStatus {
        match self.engine().status() {
            SearchStatus::Found if self.query.is_some_and(|q| q.retargeted) => {
                SearchStatus::Partial
            }
            status => status,
        }
    }

    /// Cells expanded so far (by both sides, for a bidirectional search; over both phases of a
    /// stepped closest-reachable search that had to re-aim).
    pub fn expanded(&self) -> usize {
        let before = self.query.map_or(0, |q| q.expanded_before);
        before + self.engine().expanded()
    }

    /// The path found, start to target; empty unless the status is `Found` or `Partial`.
    pub fn path(&self) -> &[Point] {
        self.engine().path()
    }

    /// The cost of [`Search::path`], once there is one.
    pub fn cost(&self) -> Option<f64> {
        self.engine().cost()
    }

    /// The cell the search is heading for: the goal, or in a partial search the nearest
    /// reachable cell to it.
    pub fn target(&self) -> Option<Point> {
        self.query.map(|q| point_at(q.target, q.width))
    }

    /// The cell expanded last.
    pub fn current(&self) -> Option<Point> {
        self.engine().current()
    }

    /// Every open and close so far, in order, when [`SearchConfig::record_trace`] is on. A
    /// closest-reachable search that had to re-aim records its second phase only.
    pub fn trace(&self) -> &[TraceEvent] {
        self.engine().trace()
    }

    /// Number of cells in the frontier.
    pub fn frontier_len(&self) -> usize {
        self.engine().frontier_len()
    }

    /// What the search knows about one cell, or `None` when it is outside the grid or no query
    /// has begun.
    pub fn node(&self, p: Point) -> Option<NodeInfo> {
        let q = self.query?;
        let inside = p.x >= 0 && p.y >= 0 && (p.x as usize) < q.width;
        let inside = inside && (p.y as usize * q.width + p.x as usize) < q.len;
        inside.then(|| self.engine().node(p))
    }

    /// The query's settings, once one has begun.
    pub fn config(&self) -> Option<&SearchConfig> {
        self.query.as_ref().map(|q| &q.config)
    }
}

/// Does this algorithm's engine search back from the goal (so it must be aimed before it starts)?
fn searches_from_the_goal(algorithm: Algorithm) -> bool {
    algorithm.is_bidirectional() || algorithm == Algorithm::DStarLite
}

/// [`find_path`] for one unit class: `class`'s closed terrains are walls, and each cell costs
/// its own cost times the class's factor for its terrain. For repeated queries keep a
/// [`Search`] ([`Search::with_class`]) and reuse it.
pub fn find_path_as(
    grid: &Grid,
    class: &UnitClass,
    start: Point,
    goal: Point,
    config: &SearchConfig,
) -> Result<SearchResult, QueryError> {
    Search::with_class(class.clone()).find_path(grid, start, goal, config)
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
