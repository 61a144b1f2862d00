//! The live planner: it re-plans on a repeating timer (1 s by default, as in the tutorials this
//! grew from), at once on request, on a settings change and on a new map, and stores the outcome
//! in [`Plan`]. Step mode pauses it.
//!
//! **A path request, as in any game.** The plan between the markers is asked of the plugin's
//! [`PathService`], like the agents' routes: the same checks, searches and costs. The request
//! brings its own [`Search`] ([`OwnSearch`]) and gets it back with the answer, because the
//! teaching overlays draw what that search explored, and D\* Lite repairs in the search that
//! learnt. Small maps are answered in the frame ([`PathService::search_now`]): their searches
//! take well under a millisecond, and a plan made in the same frame as the click that asked for it
//! is simpler to follow (and to test). Big maps ([`PlanOffFrame`]) put the request on an entity:
//! a search across 512×512 takes about 20 ms, so it runs on the task pool, against a snapshot of
//! the grid, while the frame goes on showing the previous plan. An answer an edit overtook is
//! thrown away and searched again by the service, never shown.
//!
//! **Is it the least cost?** After the plan, the same service answers the checks: Dijkstra's cost
//! to the path's end ([`super::optimality`]), and beside a D\* Lite repair, a fresh A\*'s work.
//! In the frame on a small map; off it, one request after another, on a big one.
//!
//! **No allocation.** The planner owns three searches: the one on show, the one a new plan runs
//! in (they swap when a plan is accepted), and the one that checks.

use super::optimality::{Optimality, dijkstra_check, judge, needs_check, verdict};
use super::plan::{Plan, store};
use super::query::PlanQuery;
use super::settings::{INTERVAL_RANGE, PlanSystems, PlannerMode};
use crate::world::map_load::MapLoaded;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use bevy_gridpath::{OwnSearch, PathFailed, PathRequest, PathService, Route, RouteColor};
use gridpath::jump_distances::Update;
use gridpath::{Algorithm, Point, QueryError, Search, SearchConfig, SearchStatus};
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

/// The entity whose path request is the live plan off the frame (and then its checks).
#[derive(Component)]
struct LivePlan;

/// What the entity's request asks, off the frame.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Asked {
    /// The plan itself.
    Plan,
    /// Dijkstra's least cost to the end of plan number `plan`, to judge it.
    Optimality { plan: u64 },
    /// A fresh A\*'s expansions beside plan number `plan` (a D\* Lite repair).
    FreshAStar { plan: u64 },
}

/// The live planner's searches, and what it waits for.
#[derive(Resource)]
pub struct Planner {
    /// The last accepted plan's search: what is drawn.
    shown: Search,
    /// The search the next plan runs in; `None` while a request off the frame holds it.
    spare: Option<Search>,
    /// Checks plans in the frame.
    check: Search,
    /// The entity that asks off the frame, once there is one.
    entity: Option<Entity>,
    /// What its request asks, while it is answered.
    asked: Option<(Asked, PathRequest)>,
    /// Checks of the shown plan still to ask, off the frame.
    checks: Vec<(Asked, PathRequest)>,
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
            shown: Search::new(),
            spare: Some(Search::new()),
            check: Search::new(),
            entity: None,
            asked: None,
            checks: Vec::new(),
            wanted: true, // the first plan, once a map is there
            accepted: false,
            revision: 0,
        }
    }
}

/// The answer to a plan, as the service gave it.
type Answer = Result<Route, PathFailed>;

/// The live plan's entity, as the service answered it.
type Answers<'w, 's> = Query<
    'w,
    's,
    (
        Option<&'static Route>,
        Option<&'static PathFailed>,
        &'static mut OwnSearch,
    ),
    With<LivePlan>,
>;

impl Planner {
    /// The last plan's search, to draw; `None` when the query was refused.
    pub fn shown(&self) -> Option<&Search> {
        self.accepted.then_some(&self.shown)
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Is a plan or a check of it being searched, or waiting to be?
    fn busy(&self) -> bool {
        self.asked.is_some() || !self.checks.is_empty()
    }

    /// Plans at once on a small grid; asks off the frame on a big one.
    fn start(
        &mut self,
        nav: &NavGrid,
        request: PathRequest,
        off_frame: bool,
        service: &mut PathService,
        plan: &mut Plan,
        commands: &mut Commands,
    ) {
        let mut search = self.spare.take().unwrap_or_default();
        if !off_frame {
            if request.config.algorithm == Algorithm::DStarLite {
                // D* Lite repairs what it learnt last time: plan in the search that learnt it.
                // (Off the frame the shown search must stay as it is, so there each of the two
                // keeps its own D* Lite, and an edit is repaired by both in turn.)
                std::mem::swap(&mut search, &mut self.shown);
            }
            let answer = service.search_now(nav, &request, &mut search);
            self.accept(search, answer, plan, false);
            let Some(end) = self.shown_end(plan) else {
                return;
            };
            let config = &request.config;
            let (grid, start) = (nav.grid(), request.from);
            plan.optimality = judge(config, grid, (start, end), plan.cost, &mut self.check);
            if config.algorithm == Algorithm::DStarLite {
                let astar = fresh_astar(request);
                let found = service.search_now(nav, &astar, &mut self.check);
                plan.fresh_astar = found.ok().map(|r| r.stats.expanded);
            }
            return;
        }
        let entity = *self.entity.get_or_insert_with(|| {
            // Its answer is drawn with its search, by the path overlay: not as a route.
            let unseen = RouteColor(Color::NONE);
            commands
                .spawn((LivePlan, Name::new("Live plan"), unseen))
                .id()
        });
        commands
            .entity(entity)
            .remove::<(Route, PathFailed)>()
            .insert((request, OwnSearch(Some(search))));
        self.asked = Some((Asked::Plan, request));
    }

    /// Takes what the service answered off the frame: the plan (then asks for its checks, one
    /// at a time), or a check.
    fn collect(
        &mut self,
        nav: &NavGrid,
        answers: &mut Answers,
        plan: &mut Plan,
        commands: &mut Commands,
    ) {
        let (Some(entity), Some((asked, request))) = (self.entity, self.asked) else {
            return;
        };
        let Ok((route, failed, mut own)) = answers.get_mut(entity) else {
            return;
        };
        let answer = match (route, failed) {
            (Some(route), _) => Ok(route.clone()),
            (None, Some(failed)) => Err(*failed),
            (None, None) => return, // still searching
        };
        commands.entity(entity).remove::<(Route, PathFailed)>();
        self.asked = None;
        match asked {
            Asked::Plan => {
                let search = own.0.take().unwrap_or_default();
                // An edit since the service took the answer (this frame's, before planning)
                // may touch it: the plan is never shown then, but asked for again.
                // (A partial path is overtaken by any edit, which may open the way.)
                let overtaken = answer.as_ref().is_ok_and(|r| {
                    nav.changed_under(r.revision, if r.partial { &[] } else { &r.cells })
                });
                if overtaken {
                    plan.discarded += 1;
                    self.spare = Some(search);
                    self.wanted = true;
                } else {
                    self.accept(search, answer, plan, true);
                    self.checks = self.checks_for(request, plan);
                }
            }
            // A check counts only if it was searched on the grid the plan was.
            Asked::Optimality { plan: count } if count == plan.count => {
                let config = &request.config;
                let optimal = answer.ok().filter(|r| plan.revision == Some(r.revision));
                plan.optimality = verdict(config, plan.cost, optimal.map(|r| r.cost()));
            }
            Asked::FreshAStar { plan: count } if count == plan.count => {
                let fresh = answer.ok().filter(|r| plan.revision == Some(r.revision));
                plan.fresh_astar = fresh.map(|r| r.stats.expanded);
            }
            _ => {} // a check of a plan since replaced
        }
        if let Some((asked, request)) = self.checks.pop() {
            commands.entity(entity).insert(request);
            self.asked = Some((asked, request));
        }
    }

    /// The checks a plan made off the frame needs, last first: the optimality check, and a fresh
    /// A* beside a D* Lite repair.
    fn checks_for(&self, request: PathRequest, plan: &mut Plan) -> Vec<(Asked, PathRequest)> {
        let mut checks = Vec::new();
        let config = &request.config;
        if config.algorithm == Algorithm::DStarLite {
            checks.push((Asked::FreshAStar { plan: plan.count }, fresh_astar(request)));
        }
        if let Some(end) = self.shown_end(plan) {
            if needs_check(config) {
                let dijkstra =
                    PathRequest::new(request.from, end).with_config(dijkstra_check(config));
                checks.push((Asked::Optimality { plan: plan.count }, dijkstra));
            } else {
                plan.optimality = Optimality::Guaranteed;
            }
        }
        checks
    }

    /// Where the shown plan's path ends (the goal, or the cell nearest it), if it has one.
    fn shown_end(&self, plan: &Plan) -> Option<Point> {
        plan.has_path().then(|| self.shown.target()).flatten()
    }

    /// Shows a finished plan: its search becomes the shown one.
    fn accept(&mut self, search: Search, answer: Answer, plan: &mut Plan, off_frame: bool) {
        let request = match &answer {
            Ok(route) => route.request,
            Err(failed) => failed.request,
        };
        let outcome: Result<SearchStatus, QueryError> = match &answer {
            Ok(_) => Ok(search.status()),
            Err(failed) => failed.refusal().map_or(Ok(SearchStatus::NoPath), Err),
        };
        self.spare = Some(std::mem::replace(&mut self.shown, search));
        self.accepted = outcome.is_ok();
        self.revision += 1;
        let config = &request.config;
        let earlier = plan.table.filter(|_| plan.algorithm == config.algorithm);
        let micros = answer.as_ref().map_or(0.0, |r| r.stats.micros);
        store(plan, &self.shown, config, outcome, micros);
        let table = answer.as_ref().ok().and_then(|r| r.stats.table);
        // A table already up to date keeps showing the work it last did.
        plan.table = match table {
            Some(t) if t.update == Update::Unchanged => earlier.or(table),
            _ => table,
        };
        let overtaken = match &answer {
            Ok(route) => route.stats.overtaken,
            Err(failed) => failed.stats.overtaken,
        };
        plan.discarded += u64::from(overtaken);
        plan.revision = answer.as_ref().ok().map(|r| r.revision);
        plan.fresh_astar = None;
        plan.off_frame = off_frame;
    }
}

/// A fresh A* on the same query, to set beside a D* Lite repair: what the repair saved.
fn fresh_astar(request: PathRequest) -> PathRequest {
    request.with_config(SearchConfig {
        algorithm: Algorithm::AStar,
        record_trace: false,
        ..request.config
    })
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
/// while one (or a check of it) is searched starts when that one comes back.
#[allow(clippy::too_many_arguments)]
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
    mut service: ResMut<PathService>,
    mut answers: Answers,
    mut commands: Commands,
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
    planner.collect(nav, &mut answers, &mut plan, &mut commands);
    if planner.wanted && !planner.busy() {
        planner.wanted = false;
        let request =
            PathRequest::new(query.start(), query.goal()).with_config(query.traced_config());
        let off = nav.grid().len() >= off_frame.from_cells;
        planner.start(nav, request, off, &mut service, &mut plan, &mut commands);
    }
    plan.in_flight = planner.busy();
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
