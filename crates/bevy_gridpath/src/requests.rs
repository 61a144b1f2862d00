//! Path requests, answered off the frame.
//!
//! A game puts a [`PathRequest`] on any entity. One service answers every request: it checks the
//! request at once (ends outside the grid or on a wall, or in regions that do not touch, fail
//! without a search, from [`gridpath::Components`]), then starts searches on Bevy's
//! `AsyncComputeTaskPool`, at most [`PathService::budget`] a frame, oldest request first. Each
//! search runs on a snapshot of the grid ([`NavGrid::snapshot`]) and reuses a pooled
//! [`Search`], so a warm service allocates nothing per request.
//!
//! An answer comes back tagged with the grid revision it was planned on. If an edit since touched
//! its cells, it is thrown away and the request is searched again; otherwise the entity gets a
//! [`Route`] (and loses its request) or a [`PathFailed`] that says why.

use crate::nav_grid::NavGrid;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use gridpath::{
    Algorithm, Components, Grid, Movement, Point, QueryError, Search, SearchConfig, SearchStatus,
};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// "Find me a way from `from` to `to`": put it on any entity. It is answered with a [`Route`] or
/// a [`PathFailed`], and removed then. Changing it while it is searched starts it again; removing
/// it cancels it.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct PathRequest {
    /// The cell to start from.
    pub from: Point,
    /// The cell to reach.
    pub to: Point,
    /// How units move: 4-way, or 8-way with a rule for corners.
    pub movement: Movement,
    /// The search that answers it: A\* by default (shortest routes). JPS and JPS+ find routes
    /// as short, faster on open maps of uniform cost; greedy best-first is faster still, and not
    /// shortest. Every one of the core's algorithms is accepted. Theta\* (any angle) answers with
    /// its turning points only, each in line of sight of the next: a [`GridAgent`] cannot walk
    /// that, so agents always ask for A\*.
    ///
    /// [`GridAgent`]: crate::GridAgent
    pub algorithm: Algorithm,
}

impl PathRequest {
    /// A request with the default movement (8-way, never cutting a corner).
    pub fn new(from: Point, to: Point) -> Self {
        Self {
            from,
            to,
            movement: Movement::default(),
            algorithm: Algorithm::AStar,
        }
    }

    /// The same request with another movement.
    pub fn with_movement(self, movement: Movement) -> Self {
        Self { movement, ..self }
    }

    /// The same request, answered by another search.
    pub fn with_algorithm(self, algorithm: Algorithm) -> Self {
        Self { algorithm, ..self }
    }

    /// The core's settings for its search.
    fn config(&self) -> SearchConfig {
        SearchConfig {
            algorithm: self.algorithm,
            ..SearchConfig::astar(self.movement)
        }
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
    /// How long its search ran, in microseconds (on the task pool, not in the frame).
    pub micros: f64,
}

impl Route {
    /// The cost of the whole route.
    pub fn cost(&self) -> f64 {
        self.costs.last().copied().unwrap_or(0.0)
    }
}

/// Why a [`PathRequest`] has no route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// The request was removed while it was searched.
    Cancelled,
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
            PathFailure::Cancelled => "the request was cancelled",
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
    stats: PathStats,
    pool: Vec<Search>,
    regions: Components,
}

impl Default for PathService {
    fn default() -> Self {
        Self {
            budget: 64,
            stats: PathStats::default(),
            pool: Vec::new(),
            regions: Components::new(),
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
        self.check(nav.grid(), &request).is_ok()
    }

    /// Why a request cannot have a route, found without a search.
    fn check(&mut self, grid: &Grid, request: &PathRequest) -> Result<(), PathFailure> {
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
        if !grid.is_passable(to) {
            return Err(PathFailure::GoalBlocked);
        }
        self.regions.update(grid, request.movement);
        if !self.regions.connected(grid, from, to) {
            return Err(PathFailure::Unreachable);
        }
        Ok(())
    }
}

/// A search running for an entity's request.
#[derive(Component)]
pub(crate) struct PathTask {
    task: Task<Answer>,
    request: PathRequest,
}

/// The order requests came in: the oldest is served first.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct RequestTicket(u64);

/// What a search hands back.
struct Answer {
    search: Search,
    revision: u64,
    micros: f64,
    result: Result<(Vec<Point>, Vec<f64>), PathFailure>,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PathService>()
        .add_observer(take_a_ticket)
        .add_systems(
            Update,
            (cancel_removed, collect_answers, start_requests)
                .chain()
                .in_set(crate::GridPathSystems::Plan),
        );
}

fn take_a_ticket(insert: On<Insert, PathRequest>, mut commands: Commands) {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let ticket = RequestTicket(NEXT.fetch_add(1, Ordering::Relaxed));
    commands.entity(insert.entity).insert(ticket);
}

/// A request removed while searched: the search is dropped (which cancels it) and the entity
/// told so.
fn cancel_removed(
    orphans: Query<(Entity, &PathTask), Without<PathRequest>>,
    mut commands: Commands,
) {
    for (entity, task) in &orphans {
        let failed = PathFailed {
            reason: PathFailure::Cancelled,
            request: task.request,
        };
        commands
            .entity(entity)
            .remove::<(PathTask, RequestTicket)>()
            .insert(failed);
    }
}

/// Takes finished searches: kept if nothing they depend on changed, searched again if not.
fn collect_answers(
    nav: Option<Res<NavGrid>>,
    mut service: ResMut<PathService>,
    mut tasks: Query<(Entity, &mut PathTask, &PathRequest)>,
    mut commands: Commands,
) {
    for (entity, mut task, request) in &mut tasks {
        let Some(answer) = check_ready(&mut task.task) else {
            continue;
        };
        service.pool.push(answer.search);
        let mut entity = commands.entity(entity);
        entity.remove::<PathTask>();
        let Some(nav) = nav.as_deref() else {
            continue; // answered below, once a grid is back
        };
        let cells = answer.result.as_ref().map_or(&[][..], |(c, _)| c);
        if *request != task.request || nav.changed_under(answer.revision, cells) {
            service.stats.discarded += 1;
            continue; // searched again, keeping its place in the queue
        }
        entity.remove::<(PathRequest, RequestTicket, PathFailed)>();
        match answer.result {
            Ok((cells, costs)) => {
                service.stats.answered += 1;
                entity.insert(Route {
                    cells,
                    costs,
                    request: *request,
                    revision: answer.revision,
                    micros: answer.micros,
                });
            }
            Err(reason) => {
                service.stats.failed += 1;
                entity.remove::<Route>().insert(PathFailed {
                    reason,
                    request: *request,
                });
            }
        }
    }
}

/// Fails at once what cannot be answered, then starts searches for the oldest requests, up to the
/// frame's budget.
pub(crate) fn start_requests(
    nav: Option<Res<NavGrid>>,
    mut service: ResMut<PathService>,
    waiting: Query<(Entity, &PathRequest, &RequestTicket), Without<PathTask>>,
    mut commands: Commands,
) {
    if waiting.is_empty() {
        return;
    }
    let mut queue = Vec::new();
    for (entity, request, ticket) in &waiting {
        let checked = match nav.as_deref() {
            Some(nav) => service.check(nav.grid(), request),
            None => Err(PathFailure::NoGrid),
        };
        match checked {
            Ok(()) => queue.push((*ticket, entity, *request)),
            Err(reason) => {
                service.stats.failed += 1;
                commands
                    .entity(entity)
                    .remove::<(PathRequest, RequestTicket, Route)>()
                    .insert(PathFailed {
                        reason,
                        request: *request,
                    });
            }
        }
    }
    let Some(nav) = nav else {
        return;
    };
    queue.sort_unstable_by_key(|(ticket, ..)| *ticket);
    let pool = AsyncComputeTaskPool::get();
    for (_, entity, request) in queue.into_iter().take(service.budget.max(1)) {
        let search = service.pool.pop().unwrap_or_default();
        let (grid, revision) = (nav.snapshot(), nav.revision());
        let task = pool.spawn(async move { search_for(search, grid, request, revision) });
        service.stats.started += 1;
        commands.entity(entity).insert(PathTask { task, request });
    }
}

/// Plans one route on a snapshot of the grid; runs on a task-pool thread.
fn search_for(mut search: Search, grid: Arc<Grid>, request: PathRequest, revision: u64) -> Answer {
    let began = Instant::now();
    let config = request.config();
    let status = search
        .begin(&grid, request.from, request.to, &config)
        .map(|()| search.run(&grid));
    let result = match status {
        Ok(SearchStatus::Found) => {
            let cells = search.path().to_vec();
            let costs = if request.algorithm.is_any_angle() {
                // Not neighbours: the search's own cost to each turning point.
                let g = |p| search.node(p).map_or(0.0, |n| n.g);
                cells.iter().map(|&p| g(p)).collect()
            } else {
                costs_along(&grid, &cells, request.movement)
            };
            Ok((cells, costs))
        }
        Ok(_) => Err(PathFailure::Unreachable),
        Err(QueryError::StartBlocked(_)) => Err(PathFailure::StartBlocked),
        Err(QueryError::GoalBlocked(_)) => Err(PathFailure::GoalBlocked),
        Err(QueryError::StartOutside(_)) => Err(PathFailure::StartOutside),
        Err(_) => Err(PathFailure::GoalOutside),
    };
    Answer {
        search,
        revision,
        micros: began.elapsed().as_secs_f64() * 1e6,
        result,
    }
}

/// The cost from the first cell to each cell of a path.
pub(crate) fn costs_along(grid: &Grid, cells: &[Point], movement: Movement) -> Vec<f64> {
    let mut total = 0.0;
    let mut costs = Vec::with_capacity(cells.len());
    for (i, &p) in cells.iter().enumerate() {
        if i > 0 {
            total += movement.step_cost(grid, cells[i - 1], p).unwrap_or(0.0);
        }
        costs.push(total);
    }
    costs
}
