//! The live planner: it re-plans on a repeating timer (1 s by default, as in the tutorials this
//! grew from), at once on request, on a settings change and on a new map, and stores the outcome
//! in [`Plan`]. Step mode pauses it.
//!
//! **Off the frame.** A corner-to-corner search on 512×512 takes about 20 ms: a frame that waited
//! for it would stutter once a second. So on big maps the search runs on Bevy's
//! `AsyncComputeTaskPool`, against a snapshot of the grid ([`NavGrid::snapshot`], shared, not
//! copied), and the frame goes on showing the previous plan until the new one comes back. The
//! result carries the grid revision it was searched on: if an edit since then touches its path,
//! it is thrown away and asked for again, never shown. Small maps plan inline instead
//! ([`PlanOffFrame`]): their searches take well under a millisecond, and a plan made in the same
//! frame as the click that asked for it is simpler to follow (and to test).
//!
//! **No allocation.** The planner owns two pairs of searches (one to search, one to check
//! optimality): the one on show, and the one a new plan runs in. They swap when a plan is
//! accepted, so re-planning reuses their memory.

use super::optimality::{Optimality, judge};
use super::plan::{Plan, TableWork, prepare_table, store};
use super::query::PlanQuery;
use super::{INTERVAL_RANGE, PlanSystems, PlannerMode};
use crate::world::map_load::MapLoaded;
use crate::world::nav::NavGrid;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use gridpath::jump_distances::Update;
use gridpath::{Algorithm, Grid, Point, QueryError, Search, SearchConfig, SearchStatus};
use std::time::Duration;

/// Plan now instead of at the next tick (the "Re-plan now" button).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ReplanNow;

/// Maps with at least this many cells are planned off the frame; smaller ones inline. The
/// default puts 128×128 (16,384 cells, under a millisecond to search) inline and 256×256 off.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanOffFrame {
    pub from_cells: usize,
}

impl Default for PlanOffFrame {
    fn default() -> Self {
        Self { from_cells: 32_768 }
    }
}

#[derive(Resource)]
struct ReplanTimer(Timer);

/// A search and the search that checks its optimality: the memory one plan needs.
#[derive(Default)]
struct Searches {
    search: Search,
    check: Search,
}

/// What to plan, and on which revision of the grid.
#[derive(Clone, Copy)]
struct Request {
    start: Point,
    goal: Point,
    config: SearchConfig,
    revision: u64,
    off_frame: bool,
}

/// A finished plan, inline or from a task: the searches it ran in, and what they found.
struct Planned {
    request: Request,
    searches: Searches,
    outcome: Result<SearchStatus, QueryError>,
    micros: f64,
    table: Option<TableWork>,
    optimality: Optimality,
    fresh_astar: Option<usize>,
}

/// The live planner's searches, and the plan it is waiting for.
#[derive(Resource)]
pub struct Planner {
    /// The last accepted plan's searches: what is drawn.
    shown: Searches,
    /// The searches the next plan runs in; `None` while a task holds them.
    spare: Option<Searches>,
    in_flight: Option<Task<Planned>>,
    /// A re-plan was asked for and has not started yet.
    wanted: bool,
    /// Whether the shown query was accepted (a refused one has nothing to draw).
    accepted: bool,
    /// Bumped on every accepted plan: what is drawn follows it.
    revision: u64,
}

impl Default for Planner {
    fn default() -> Self {
        Self {
            shown: Searches::default(),
            spare: Some(Searches::default()),
            in_flight: None,
            wanted: true, // the first plan, once a map is there
            accepted: false,
            revision: 0,
        }
    }
}

impl Planner {
    /// The last plan's search, to draw; `None` when the query was refused.
    pub fn shown(&self) -> Option<&Search> {
        self.accepted.then_some(&self.shown.search)
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Starts a plan: at once on a small grid, on the task pool on a big one.
    fn start(&mut self, nav: &NavGrid, request: Request, plan: &mut Plan) {
        let mut searches = self.spare.take().unwrap_or_default();
        if request.config.algorithm == Algorithm::DStarLite && !request.off_frame {
            // D* Lite repairs what it learnt last time: plan in the search that learnt it. (Off
            // the frame the shown search must stay as it is, so there each of the two keeps its
            // own D* Lite, and an edit is repaired by both in turn.)
            std::mem::swap(&mut searches.search, &mut self.shown.search);
        }
        if !request.off_frame {
            let planned = run(searches, nav.grid(), request);
            self.accept(planned, nav, plan);
        } else {
            let grid = nav.snapshot();
            let task =
                AsyncComputeTaskPool::get().spawn(async move { run(searches, &grid, request) });
            self.in_flight = Some(task);
        }
    }

    /// Takes the plan in flight if it has finished.
    fn collect(&mut self, nav: &NavGrid, plan: &mut Plan) {
        if let Some(task) = &mut self.in_flight
            && let Some(planned) = check_ready(task)
        {
            self.in_flight = None;
            self.accept(planned, nav, plan);
        }
    }

    /// Shows a finished plan, unless an edit since its search touches its path: then it is
    /// discarded and asked for again.
    fn accept(&mut self, planned: Planned, nav: &NavGrid, plan: &mut Plan) {
        let Planned {
            request,
            searches,
            outcome,
            micros,
            table,
            optimality,
            fresh_astar,
        } = planned;
        let path = match &outcome {
            Ok(_) => searches.search.path(),
            Err(_) => &[],
        };
        if nav.changed_under(request.revision, path) {
            plan.discarded += 1;
            self.spare = Some(searches);
            self.wanted = true;
            return;
        }
        self.spare = Some(std::mem::replace(&mut self.shown, searches));
        self.accepted = outcome.is_ok();
        self.revision += 1;
        let config = &request.config;
        let earlier = plan.table.filter(|_| plan.algorithm == config.algorithm);
        store(plan, &self.shown.search, config, outcome, micros);
        plan.optimality = optimality;
        plan.fresh_astar = fresh_astar;
        plan.off_frame = request.off_frame;
        // A table already up to date keeps showing the work it last did.
        plan.table = match table {
            Some(t) if t.update == Update::Unchanged => earlier.or(table),
            _ => table,
        };
    }
}

/// Plans `request` on `grid`, and judges the path found: the work of one plan, wherever it runs.
fn run(mut searches: Searches, grid: &Grid, request: Request) -> Planned {
    let Searches { search, check } = &mut searches;
    let config = request.config;
    let table = prepare_table(search, grid, &config);
    let began = Instant::now();
    let outcome = search
        .begin(grid, request.start, request.goal, &config)
        .map(|()| search.run(grid));
    let micros = began.elapsed().as_secs_f64() * 1e6;
    let optimality = match (&outcome, search.target(), search.cost()) {
        (Ok(SearchStatus::Found | SearchStatus::Partial), Some(target), Some(cost)) => {
            judge(&config, grid, (request.start, target), cost, check)
        }
        _ => Optimality::Unknown,
    };
    // A repair's expansions mean something beside a fresh search's.
    let fresh_astar = (config.algorithm == Algorithm::DStarLite)
        .then(|| {
            let astar = SearchConfig {
                algorithm: Algorithm::AStar,
                record_trace: false,
                ..config
            };
            check
                .find_path(grid, request.start, request.goal, &astar)
                .ok()
                .map(|r| r.expanded)
        })
        .flatten();
    Planned {
        request,
        searches,
        outcome,
        micros,
        table,
        optimality,
        fresh_astar,
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Plan>()
        .init_resource::<Planner>()
        .init_resource::<PlanOffFrame>()
        .insert_resource(ReplanTimer(Timer::from_seconds(1.0, TimerMode::Repeating)))
        .add_message::<ReplanNow>()
        .add_systems(
            Update,
            replan
                .in_set(PlanSystems::Search)
                .run_if(in_state(PlannerMode::Live)),
        );
}

/// Takes a finished plan, and starts one when the timer fires, when asked to, when the settings
/// or the map change, on coming back from step mode, and once at the start. A plan asked for
/// while one is in flight starts when that one comes back.
fn replan(
    time: Res<Time>,
    mode: Res<State<PlannerMode>>,
    query: PlanQuery,
    off_frame: Res<PlanOffFrame>,
    mut timer: ResMut<ReplanTimer>,
    mut requests: MessageReader<ReplanNow>,
    mut new_maps: MessageReader<MapLoaded>,
    mut planner: ResMut<Planner>,
    mut plan: ResMut<Plan>,
) {
    let ticked = tick(&mut timer.0, query.settings().interval, time.delta());
    let asked = requests.read().count() + new_maps.read().count() > 0;
    let Some(nav) = query.nav() else {
        return; // no map yet
    };
    if asked || query.settings_changed() {
        timer.0.reset(); // the next timed re-plan is a full interval after this one
    }
    if ticked || asked || query.settings_changed() || mode.is_changed() {
        planner.wanted = true;
    }
    planner.collect(nav, &mut plan);
    if planner.wanted && planner.in_flight.is_none() {
        planner.wanted = false;
        let request = Request {
            start: query.start(),
            goal: query.goal(),
            config: query.traced_config(),
            revision: nav.revision(),
            off_frame: nav.grid().len() >= off_frame.from_cells,
        };
        planner.start(nav, request, &mut plan);
    }
    plan.in_flight = planner.in_flight.is_some();
}

/// Advances the timer at the interval set (whole microseconds: 0.2_f32 is slightly above 0.2,
/// and would make every fifth tick late). Returns whether it fired.
fn tick(timer: &mut Timer, seconds: f32, delta: Duration) -> bool {
    let seconds = seconds.clamp(*INTERVAL_RANGE.start(), *INTERVAL_RANGE.end());
    let interval = Duration::from_micros((f64::from(seconds) * 1e6).round() as u64);
    if timer.duration() != interval {
        timer.set_duration(interval);
    }
    timer.tick(delta).just_finished()
}
