//! Path requests, answered off the frame.
//!
//! A game puts a [`PathRequest`] on any entity. One service answers every request: it checks the
//! request at once (ends outside the grid or on a wall, or in regions that do not touch, fail
//! without a search, from [`gridpath::Components`]), then starts searches on Bevy's
//! `AsyncComputeTaskPool`, at most [`PathService::budget`] a frame and
//! [`PathService::max_in_flight`] at a time, oldest request first. Each search runs on a
//! snapshot of the grid ([`NavGrid::snapshot`]) and reuses a pooled [`Search`], so a warm
//! service allocates nothing per request.
//!
//! An answer comes back tagged with the grid revision it was planned on. If an edit since touched
//! its cells, it is thrown away and the request is searched again; otherwise the entity gets a
//! [`Route`] (and loses its request) or a [`PathFailed`] that says why.

use crate::classes::{ClassId, UnitClasses};
use crate::layout::CellShape;
use crate::nav_grid::NavGrid;
use crate::off_frame::{Pending, SearchThread};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use gridpath::jump_distances::Update;
use gridpath::{
    Algorithm, Components, GoalMode, Grid, Heuristic, Movement, Point, QueryError, Search,
    SearchConfig, SearchStatus, UnitClass,
};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// "Find me a way from `from` to `to`": put it on any entity. It is answered with a [`Route`] or
/// a [`PathFailed`], and removed then. Changing it while it waits keeps its place in the queue;
/// changing it while it is searched starts it again; removing it cancels it.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct PathRequest {
    /// The cell to start from.
    pub from: Point,
    /// The cell to reach.
    pub to: Point,
    /// How to search: the algorithm, the movement, the heuristic and its weight, and what to do
    /// with a goal on a wall or cut off ([`GoalMode`]). A\* on 8-way moves by default.
    ///
    /// A\* finds shortest routes; JPS and JPS+ find routes as short, faster on open maps of
    /// uniform cost; greedy best-first is faster still, and not shortest. Every one of the
    /// core's algorithms is accepted. Theta\* (any angle) answers with its turning points only,
    /// each in line of sight of the next: a [`GridAgent`] cannot walk that, so agents always ask
    /// for A\*. With [`GoalMode::ClosestReachable`] a goal on a wall or cut off is answered with
    /// a route to the reachable cell nearest it ([`Route::partial`]).
    ///
    /// [`GridAgent`]: crate::GridAgent
    pub config: SearchConfig,
    /// The unit's side in cells: it covers `size × size` cells from the cell it stands on, right
    /// and down, and is routed only where it fits ([`NavGrid::grid_for`]). `from`, `to` and the
    /// route's cells are where its top-left corner goes. 1 by default.
    pub size: u8,
    /// The kind of unit: which terrains it may enter and what each costs it, registered in
    /// [`crate::UnitClasses`]. [`ClassId::DEFAULT`]: the grid as it is.
    pub class: ClassId,
}

impl PathRequest {
    /// A request with the default search: A\* on 8-way moves that never cut a corner.
    pub fn new(from: Point, to: Point) -> Self {
        Self {
            from,
            to,
            config: SearchConfig::default(),
            size: 1,
            class: ClassId::DEFAULT,
        }
    }

    /// The same request for a unit of another class.
    pub fn with_class(self, class: ClassId) -> Self {
        Self { class, ..self }
    }

    /// The same request for a unit `size` cells across.
    pub fn with_size(self, size: u8) -> Self {
        Self { size, ..self }
    }

    /// The same request with another movement (and the best heuristic for it).
    pub fn with_movement(self, movement: Movement) -> Self {
        let config = SearchConfig {
            movement,
            heuristic: Heuristic::best_for(movement),
            ..self.config
        };
        Self { config, ..self }
    }

    /// The same request, answered by another search.
    pub fn with_algorithm(self, algorithm: Algorithm) -> Self {
        let config = SearchConfig {
            algorithm,
            ..self.config
        };
        Self { config, ..self }
    }

    /// The same request with every search setting given.
    pub fn with_config(self, config: SearchConfig) -> Self {
        Self { config, ..self }
    }

    /// How units move on its route.
    pub fn movement(&self) -> Movement {
        self.config.movement
    }
}

/// Put it beside a [`PathRequest`] to have the request searched in this [`Search`], and get the
/// search back with the answer: what it explored, its open list and (with
/// [`SearchConfig::record_trace`]) its trace, for a view that teaches or debugs. A D\* Lite
/// search handed back again repairs what it learnt instead of starting over, and JPS+ keeps its
/// table. Such a request is always handed to its search, even when the grid's regions already
/// say there is no way, so that the search is always of the last query. While the search runs
/// the component holds `None`; a request removed meanwhile drops its search.
#[derive(Component, Default)]
pub struct OwnSearch(pub Option<Search>);

/// What bringing JPS+'s table of jump distances up to date cost before a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableWork {
    /// What was done: nothing, a repair after a few edits, or a rebuild.
    pub update: Update,
    /// How long it took, in microseconds.
    pub micros: f64,
}

impl TableWork {
    /// Brings JPS+'s table in `search` up to date for `grid`, and says what that took; `None`
    /// for the other algorithms, which precompute nothing.
    pub fn prepare(search: &mut Search, grid: &Grid, config: &SearchConfig) -> Option<TableWork> {
        (config.algorithm == Algorithm::JumpPointPlus).then(|| {
            let began = Instant::now();
            let update = search.prepare(grid, config);
            let micros = began.elapsed().as_secs_f64() * 1e6;
            TableWork { update, micros }
        })
    }
}

/// "repaired after 1 wall change (312 entries) in 45 µs", or "up to date" alone.
impl fmt::Display for TableWork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.update {
            Update::Unchanged => write!(f, "{}", self.update),
            update => write!(f, "{update} in {}", duration(self.micros)),
        }
    }
}

/// "45 µs", or "1.2 ms" from a millisecond on.
fn duration(micros: f64) -> String {
    if micros >= 1000.0 {
        format!("{:.1} ms", micros / 1000.0)
    } else {
        format!("{micros:.0} µs")
    }
}

/// The answer to a [`PathRequest`]: the cells from its start to its goal.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Route {
    /// From the request's `from` to its `to`, both included.
    pub cells: Vec<Point>,
    /// The cost of the way from `cells[0]` to each cell (cell costs times step lengths).
    pub costs: Vec<f64>,
    /// The request it answers.
    pub request: PathRequest,
    /// The grid revision it was planned on ([`NavGrid::revision`]).
    pub revision: u64,
    /// It ends at the reachable cell nearest the goal, not at the goal (only with
    /// [`GoalMode::ClosestReachable`]).
    pub partial: bool,
    /// How its search went: for a profiler or a teaching view, not needed to walk it.
    pub stats: SearchStats,
}

/// How a [`Route`]'s (or a [`PathFailed`]'s) search went. A game walks its route without it; a
/// profiler, or a view that teaches how searches work (as the playground's panel does), reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// How long the search ran, in microseconds (on the task pool, not in the frame).
    pub micros: f64,
    /// Cells it expanded.
    pub expanded: usize,
    /// JPS+'s table work before the search; `None` for the other algorithms.
    pub table: Option<TableWork>,
    /// Earlier answers to this request thrown away because an edit overtook them.
    pub overtaken: u32,
}

impl Route {
    /// The cost of the whole route.
    pub fn cost(&self) -> f64 {
        self.costs.last().copied().unwrap_or(0.0)
    }
}

/// Why a [`PathRequest`] has no route.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathFailure {
    /// There is no [`NavGrid`] resource yet.
    NoGrid,
    /// The start is outside the grid.
    StartOutside,
    /// The goal is outside the grid.
    GoalOutside,
    /// The start is a wall.
    StartBlocked,
    /// The goal is a wall.
    GoalBlocked,
    /// Walls cut the goal off from the start.
    Unreachable,
    /// A unit of one cell could get there, but no gap on the way (or no room at one end) is
    /// wide enough for the unit's size.
    TooNarrow,
    /// The request was removed while it was searched.
    Cancelled,
    /// The search cannot answer it with these settings (JPS on terrain costs, a weight below 1,
    /// a start on a terrain its class may not enter).
    Refused(QueryError),
    /// Its [`ClassId`] was never registered in [`crate::UnitClasses`].
    UnknownClass,
}

impl fmt::Display for PathFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathFailure::NoGrid => "there is no NavGrid to search",
            PathFailure::StartOutside => "the start is outside the grid",
            PathFailure::GoalOutside => "the goal is outside the grid",
            PathFailure::StartBlocked => "the start is on a wall",
            PathFailure::GoalBlocked => "the goal is on a wall",
            PathFailure::Unreachable => "walls cut the goal off from the start",
            PathFailure::TooNarrow => "no gap is wide enough for the unit's size",
            PathFailure::Cancelled => "the request was cancelled",
            PathFailure::UnknownClass => "its class was never registered in UnitClasses",
            PathFailure::Refused(error) => return write!(f, "{error}"),
        })
    }
}

/// A request that has no route, and why.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct PathFailed {
    /// Why.
    pub reason: PathFailure,
    /// The request that failed.
    pub request: PathRequest,
    /// The same figures as a [`Route`]'s, of which a failure keeps only `overtaken` (the
    /// answers an edit overtook before it failed); its time and cells are 0.
    pub stats: SearchStats,
}

impl PathFailed {
    /// The core's reason for refusing the query before any search, with its cell: `None` when a
    /// search ran and found no way, or the request was cancelled or had no grid.
    pub fn refusal(&self) -> Option<QueryError> {
        let (from, to) = (self.request.from, self.request.to);
        match self.reason {
            PathFailure::StartOutside => Some(QueryError::StartOutside(from)),
            PathFailure::GoalOutside => Some(QueryError::GoalOutside(to)),
            PathFailure::StartBlocked => Some(QueryError::StartBlocked(from)),
            PathFailure::GoalBlocked => Some(QueryError::GoalBlocked(to)),
            PathFailure::Refused(error) => Some(error),
            PathFailure::NoGrid
            | PathFailure::Unreachable
            | PathFailure::TooNarrow
            | PathFailure::Cancelled
            | PathFailure::UnknownClass => None,
        }
    }
}

/// Counts of what the service did, since the app started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathStats {
    /// Searches started on the task pool.
    pub started: u64,
    /// Requests answered with a route.
    pub answered: u64,
    /// Requests that failed (most without a search).
    pub failed: u64,
    /// Answers thrown away because an edit touched them while they were searched.
    pub discarded: u64,
}

/// The one service that answers every [`PathRequest`].
#[derive(Resource)]
pub struct PathService {
    /// Searches started per frame at most (the others wait, oldest first).
    pub budget: usize,
    /// Searches running at once at most. The task pool runs a few at a time whatever this is;
    /// searches started beyond that only queue there, each holding memory the size of the grid
    /// (a thousand agents spawned at once on 512 × 512 held 1.6 GB, and each search was
    /// planned on a grid that was old by the time it ran). Waiting here, as a request, costs
    /// nothing, and is searched on the grid as it is when its turn comes.
    pub max_in_flight: usize,
    stats: PathStats,
    pool: Vec<Search>,
    /// The regions of the grid each size moves on: `regions[k - 1]` for size k.
    regions: Vec<Components>,
}

impl Default for PathService {
    fn default() -> Self {
        Self {
            budget: 64,
            max_in_flight: 16,
            stats: PathStats::default(),
            pool: Vec::new(),
            regions: Vec::new(),
        }
    }
}

impl PathService {
    /// What the service has done so far.
    pub fn stats(&self) -> PathStats {
        self.stats
    }

    /// Is there any way from `from` to `to` on the grid as it is now? Answered from the grid's
    /// regions, without a search (labelling them again after walls changed costs one pass over
    /// the grid, once).
    pub fn reachable(&mut self, nav: &NavGrid, from: Point, to: Point, movement: Movement) -> bool {
        let request = PathRequest::new(from, to).with_movement(movement);
        self.check(nav, &request).is_ok()
    }

    /// Answers `request` now, in the frame, searching in `search`: the same checks, search and
    /// costs as a request put on an entity, for a small grid whose answer is wanted at once, or
    /// a tool. As with [`OwnSearch`], the request is always handed to `search`, which keeps what
    /// it explored.
    pub fn search_now(
        &mut self,
        nav: &NavGrid,
        request: &PathRequest,
        search: &mut Search,
    ) -> Result<Route, PathFailed> {
        self.search_now_as(nav, &UnitClasses::default(), request, search)
    }

    /// [`PathService::search_now`] for a request of any class registered in `classes`.
    pub fn search_now_as(
        &mut self,
        nav: &NavGrid,
        classes: &UnitClasses,
        request: &PathRequest,
        search: &mut Search,
    ) -> Result<Route, PathFailed> {
        self.stats.started += 1;
        let answer = match ClassGrid::for_request(nav, classes, request) {
            Ok(on) => search_for(search, &on, *request, nav.revision(), false),
            Err(reason) => Err(reason),
        };
        self.count(answer.map_err(|reason| failed(reason, request, 0)))
    }

    /// Counts an answer given.
    fn count(&mut self, answer: Result<Route, PathFailed>) -> Result<Route, PathFailed> {
        match &answer {
            Ok(_) => self.stats.answered += 1,
            Err(_) => self.stats.failed += 1,
        }
        answer
    }

    /// Why a request cannot have a route, found without a search. A unit bigger than one cell
    /// that would have a route if it were one cell is [`PathFailure::TooNarrow`].
    fn check(&mut self, nav: &NavGrid, request: &PathRequest) -> Result<(), PathFailure> {
        let size = request.size.max(1);
        let (movement, shape) = (request.movement(), nav.layout().shape);
        let hex = movement.hex().is_some() || matches!(shape, CellShape::Hex(_));
        let staggered = movement.unstaggered().is_some() || shape == CellShape::Staggered;
        let reason = if hex {
            "units bigger than one cell are not defined on hexagons yet"
        } else {
            "units bigger than one cell are not defined on staggered maps yet"
        };
        if size > 1 && (hex || staggered) {
            return Err(PathFailure::Refused(QueryError::Unsupported {
                algorithm: request.config.algorithm,
                reason,
            }));
        }
        let checked = self.check_on(nav.grid(), 1, request);
        if size == 1 || checked.is_err() {
            return checked;
        }
        match self.check_on(&nav.grid_for(size), size, request) {
            Ok(()) => Ok(()),
            Err(_) => Err(PathFailure::TooNarrow),
        }
    }

    /// Checks `request` on the grid as it is now ([`PathService::check`]): notes it on the
    /// ticket if it can be answered, else fails it.
    fn answerable(
        &mut self,
        nav: &NavGrid,
        entity: Entity,
        request: &PathRequest,
        ticket: &mut RequestTicket,
        commands: &mut Commands,
    ) -> bool {
        match self.check(nav, request) {
            Ok(()) => {
                ticket.checked = Some((*request, nav.revision()));
                true
            }
            Err(reason) => {
                self.refuse(commands, entity, request, ticket, reason);
                false
            }
        }
    }

    /// Fails a request without a search.
    fn refuse(
        &mut self,
        commands: &mut Commands,
        entity: Entity,
        request: &PathRequest,
        ticket: &RequestTicket,
        reason: PathFailure,
    ) {
        let answer = Err(failed(reason, request, ticket.overtaken));
        if let Err(failed) = self.count(answer) {
            commands
                .entity(entity)
                .remove::<(PathRequest, RequestTicket, Route)>()
                .insert(failed);
        }
    }

    /// [`PathService::check`] on the grid of one size.
    fn check_on(
        &mut self,
        grid: &Grid,
        size: u8,
        request: &PathRequest,
    ) -> Result<(), PathFailure> {
        let (from, to) = (request.from, request.to);
        if !grid.contains(from) {
            return Err(PathFailure::StartOutside);
        }
        if !grid.contains(to) {
            return Err(PathFailure::GoalOutside);
        }
        if !grid.is_passable(from) {
            return Err(PathFailure::StartBlocked);
        }
        if request.config.goal_mode == GoalMode::ClosestReachable {
            return Ok(()); // a goal on a wall or cut off has a nearest reachable cell
        }
        if !grid.is_passable(to) {
            return Err(PathFailure::GoalBlocked);
        }
        if grid.has_open_links() {
            return Ok(()); // links join regions, perhaps one way: the search finds out
        }
        let k = usize::from(size) - 1;
        if self.regions.len() <= k {
            self.regions.resize_with(k + 1, Components::new);
        }
        self.regions[k].update(grid, request.movement());
        if !self.regions[k].connected(grid, from, to) {
            return Err(PathFailure::Unreachable);
        }
        Ok(())
    }
}

fn failed(reason: PathFailure, request: &PathRequest, overtaken: u32) -> PathFailed {
    PathFailed {
        reason,
        request: *request,
        stats: SearchStats {
            overtaken,
            ..SearchStats::default()
        },
    }
}

/// A search running for an entity's request.
#[derive(Component)]
pub(crate) struct PathTask {
    task: Pending<Answer>,
    request: PathRequest,
}

/// The order requests came in (the oldest is served first), and how many of a request's answers
/// an edit overtook.
#[derive(Component, Clone, Copy, Debug)]
pub(crate) struct RequestTicket {
    order: u64,
    overtaken: u32,
    /// The request as last found answerable ([`PathService::check`]), and on which revision.
    checked: Option<(PathRequest, u64)>,
}

/// What a search on the task pool hands back: its answer, and the search to pool or return.
struct Answer {
    search: Search,
    own: bool,
    revision: u64,
    result: Result<Route, PathFailure>,
}

/// Cancelled requests are dropped and answers collected in `collect`, and searches started in
/// `start` (the plugin puts it after `collect` and after the agents have asked).
pub(crate) fn plugin(app: &mut App, collect: impl SystemSet, start: impl SystemSet) {
    app.init_resource::<PathService>()
        .init_resource::<UnitClasses>()
        .add_observer(take_a_ticket)
        .add_systems(
            Update,
            (
                (cancel_removed, collect_answers).chain().in_set(collect),
                start_requests.in_set(start),
            ),
        );
}

/// A new request takes its place in the queue; one changed before it is answered keeps it.
fn take_a_ticket(insert: On<Add, PathRequest>, mut commands: Commands) {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let ticket = RequestTicket {
        order: NEXT.fetch_add(1, Ordering::Relaxed),
        overtaken: 0,
        checked: None,
    };
    commands.entity(insert.entity).insert(ticket);
}

/// A request removed while searched: the search is dropped (which cancels it) and the entity
/// told so.
fn cancel_removed(
    orphans: Query<(Entity, &PathTask, &RequestTicket), Without<PathRequest>>,
    mut commands: Commands,
) {
    for (entity, task, ticket) in &orphans {
        commands
            .entity(entity)
            .remove::<(PathTask, RequestTicket)>()
            .insert(failed(
                PathFailure::Cancelled,
                &task.request,
                ticket.overtaken,
            ));
    }
}

/// Takes finished searches: kept if nothing they depend on changed, searched again if not.
fn collect_answers(
    nav: Option<Res<NavGrid>>,
    classes: Res<UnitClasses>,
    mut service: ResMut<PathService>,
    mut tasks: Query<(
        Entity,
        &mut PathTask,
        &PathRequest,
        &mut RequestTicket,
        Option<&mut OwnSearch>,
    )>,
    mut commands: Commands,
) {
    for (entity, mut task, request, mut ticket, own) in &mut tasks {
        let Some(answer) = task.task.take() else {
            continue;
        };
        match own {
            Some(mut own) if answer.own => own.0 = Some(answer.search),
            _ => service.pool.push(answer.search),
        }
        let mut entity = commands.entity(entity);
        entity.remove::<PathTask>();
        let Some(nav) = nav.as_deref() else {
            continue; // answered below, once a grid is back
        };
        // No way, or only part of the way, may be overtaken by any edit: it may open the way.
        let cells = match &answer.result {
            Ok(route) if !route.partial => &route.cells[..],
            _ => &[],
        };
        let class = classes.get(request.class).ok().flatten();
        if *request != task.request
            || nav.changed_under_unit_as(answer.revision, cells, request.size, class)
        {
            service.stats.discarded += 1;
            ticket.overtaken += 1;
            continue; // searched again, keeping its place in the queue
        }
        entity.remove::<(PathRequest, RequestTicket, PathFailed)>();
        match service.count(
            answer
                .result
                .map_err(|reason| failed(reason, request, ticket.overtaken)),
        ) {
            Ok(route) => {
                let stats = SearchStats {
                    overtaken: ticket.overtaken,
                    ..route.stats
                };
                entity.insert(Route { stats, ..route });
            }
            Err(failed) => {
                entity.remove::<Route>().insert(failed);
            }
        }
    }
}

/// Fails at once what cannot be answered, then starts searches for the oldest requests, up to the
/// frame's budget.
///
/// A request is checked when it comes (or changes); after an edit, one still waiting is checked
/// again only when its turn comes. (Checking every waiting request again at every edit cost up
/// to 9 ms in the frame of a wall stroke, with thousands of bodies waiting for routes.)
///
/// Why one long function: the two passes (check what came, then start the oldest within the
/// budget) read the same queries, the budget and the grid of each request's class and size; as
/// helpers they would pass them all along.
fn start_requests(
    nav: Option<Res<NavGrid>>,
    mut service: ResMut<PathService>,
    mut waiting: Query<
        (
            Entity,
            &PathRequest,
            &mut RequestTicket,
            Option<&mut OwnSearch>,
        ),
        Without<PathTask>,
    >,
    running: Query<(), With<PathTask>>,
    thread: Res<SearchThread>,
    classes: Res<UnitClasses>,
    mut commands: Commands,
) {
    if waiting.is_empty() {
        return;
    }
    let Some(nav) = nav else {
        for (entity, request, ticket, _) in &waiting {
            service.refuse(&mut commands, entity, request, ticket, PathFailure::NoGrid);
        }
        return;
    };
    let mut queue = Vec::new();
    for (entity, request, mut ticket, own) in &mut waiting {
        // A request with its own search is searched whatever the regions say.
        let seen = ticket.checked.is_some_and(|(r, _)| r == *request);
        if own.is_some()
            || seen
            || service.answerable(&nav, entity, request, &mut ticket, &mut commands)
        {
            queue.push((ticket.order, entity));
        }
    }
    queue.sort_unstable();
    let room = service
        .max_in_flight
        .max(1)
        .saturating_sub(running.iter().len());
    let mut budget = service.budget.max(1).min(room);
    for (_, entity) in queue {
        if budget == 0 {
            break;
        }
        let Ok((_, &request, mut ticket, own)) = waiting.get_mut(entity) else {
            continue;
        };
        let stale = ticket.checked != Some((request, nav.revision()));
        if own.is_none()
            && stale
            && !service.answerable(&nav, entity, &request, &mut ticket, &mut commands)
        {
            continue;
        }
        let on = match ClassGrid::for_request(&nav, &classes, &request) {
            Ok(on) => on,
            Err(reason) => {
                service.refuse(&mut commands, entity, &request, &ticket, reason);
                continue;
            }
        };
        budget -= 1;
        let (mut search, own) = match own.and_then(|mut own| own.0.take()) {
            Some(search) => (search, true),
            None => (service.pool.pop().unwrap_or_default(), false),
        };
        let revision = nav.revision();
        let task = Pending::start(*thread, move || {
            // The service checked that the goal is in reach on the walls, unless the request
            // has its own (a class's regions, and links, are the search's to find).
            let checked = !own && on.class.is_none() && !on.grid.has_open_links();
            let result = search_for(&mut search, &on, request, revision, checked);
            Answer {
                search,
                own,
                revision,
                result,
            }
        });
        service.stats.started += 1;
        commands.entity(entity).insert(PathTask { task, request });
    }
}

/// The grid a request is searched on, and the class it is read as: the nav grid (or a size's)
/// and the request's class; for a unit of a class bigger than one cell, the grid of that class
/// and size, read as it is.
struct ClassGrid {
    grid: Arc<Grid>,
    class: Option<UnitClass>,
}

impl ClassGrid {
    fn for_request(
        nav: &NavGrid,
        classes: &UnitClasses,
        request: &PathRequest,
    ) -> Result<Self, PathFailure> {
        let class = classes
            .get(request.class)
            .map_err(|_| PathFailure::UnknownClass)?;
        Ok(match class {
            Some(class) if request.size > 1 => ClassGrid {
                grid: nav.grid_for_as(class, request.size),
                class: None,
            },
            class => ClassGrid {
                grid: nav.grid_for(request.size),
                class: class.cloned(),
            },
        })
    }
}

/// Plans one route; on a task-pool thread, or in the frame ([`PathService::search_now`]).
/// `checked`: the service has found the goal in the start's region already
/// ([`Search::run_reachable`]).
fn search_for(
    search: &mut Search,
    on: &ClassGrid,
    request: PathRequest,
    revision: u64,
    checked: bool,
) -> Result<Route, PathFailure> {
    let (grid, class) = (&*on.grid, on.class.as_ref());
    search.set_class(class.cloned());
    let config = request.config;
    let table = TableWork::prepare(search, grid, &config);
    let began = Instant::now();
    let status = search
        .begin(grid, request.from, request.to, &config)
        .map(|()| {
            if checked {
                search.run_reachable(grid)
            } else {
                search.run(grid)
            }
        });
    let micros = began.elapsed().as_secs_f64() * 1e6;
    let partial = match status {
        Ok(SearchStatus::Found) => false,
        Ok(SearchStatus::Partial) => true,
        Ok(_) => return Err(PathFailure::Unreachable),
        Err(QueryError::StartBlocked(_)) => return Err(PathFailure::StartBlocked),
        Err(QueryError::GoalBlocked(_)) => return Err(PathFailure::GoalBlocked),
        Err(QueryError::StartOutside(_)) => return Err(PathFailure::StartOutside),
        Err(QueryError::GoalOutside(_)) => return Err(PathFailure::GoalOutside),
        Err(error) => return Err(PathFailure::Refused(error)),
    };
    let cells = search.path().to_vec();
    let costs = if config.algorithm.is_any_angle() {
        // Not neighbours: the search's own cost to each turning point.
        let g = |p| search.node(p).map_or(0.0, |n| n.g);
        cells.iter().map(|&p| g(p)).collect()
    } else {
        costs_along(grid, class, &cells, config.movement)
    };
    Ok(Route {
        cells,
        costs,
        request,
        revision,
        partial,
        stats: SearchStats {
            micros,
            expanded: search.expanded(),
            table,
            overtaken: 0,
        },
    })
}

/// The cost from the first cell to each cell of a path (for a unit of `class`, if any).
pub(crate) fn costs_along(
    grid: &Grid,
    class: Option<&UnitClass>,
    cells: &[Point],
    movement: Movement,
) -> Vec<f64> {
    let mut total = 0.0;
    let mut costs = Vec::with_capacity(cells.len());
    for (i, &p) in cells.iter().enumerate() {
        if i > 0 {
            let (from, to) = (cells[i - 1], p);
            let step = match class {
                None => movement.step_cost(grid, from, to),
                Some(class) => movement.step_cost_as(grid, class, from, to),
            };
            // Not a move: a link (the cheaper, where a link joins two neighbours).
            let link = grid.link_cost(from, to, class);
            let step = match (step, link) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            total += step.unwrap_or(0.0);
        }
        costs.push(total);
    }
    costs
}
