//! Planning: the live planner re-plans on a repeating timer (1 s by default, as in the tutorials
//! this grew from), or at once on request or on a settings change, and stores the outcome in
//! [`Plan`]. Step mode ([`stepping`]) pauses it and steps the search by hand instead; the
//! comparison ([`compare`]) runs every algorithm on the same query.
//!
//! The planner keeps one [`gridpath::Search`] for the life of the app, so re-planning reuses its
//! memory instead of allocating.

pub mod compare;
pub mod shown;
pub mod stepping;

use crate::AppSystems;
use crate::markers::{Goal, MarkerCell, Start};
use crate::nav::NavGrid;
use bevy::prelude::*;
use gridpath::{Algorithm, GoalMode, Grid, Point, QueryError, Search, SearchConfig, SearchStatus};
use shown::{ShownSearch, ShownSource};
use std::time::{Duration, Instant};

/// The shortest and longest re-plan intervals the UI offers.
pub const INTERVAL_RANGE: std::ops::RangeInclusive<f32> = 0.05..=5.0;

/// How and how often to plan.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct PlannerSettings {
    /// Seconds between re-plans.
    pub interval: f32,
    pub search: SearchConfig,
}

impl Default for PlannerSettings {
    fn default() -> Self {
        Self {
            interval: 1.0,
            search: SearchConfig::default(),
        }
    }
}

/// Re-planning live on the timer, or stepping by hand.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlannerMode {
    #[default]
    Live,
    Stepping,
}

/// Plan now instead of at the next tick (the "Re-plan now" button, a new map).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ReplanNow;

/// How the last plan ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PlanStatus {
    /// Nothing planned yet.
    #[default]
    Pending,
    Found,
    /// The goal was unreachable; the path ends at the nearest reachable cell.
    Partial,
    /// The goal cannot be reached.
    NoPath,
    /// The query was refused (a marker on a wall, an algorithm that does not apply...).
    Refused(String),
}

/// Is the path a least-cost one?
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Optimality {
    /// No path to judge.
    #[default]
    Unknown,
    /// The algorithm guarantees it (optimal algorithm, admissible heuristic).
    Guaranteed,
    /// Checked: Dijkstra finds the same cost.
    Confirmed,
    /// Checked: Dijkstra finds this cheaper cost.
    Worse { optimal: f64 },
}

/// The outcome of the last live plan.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub status: PlanStatus,
    pub algorithm: Algorithm,
    /// Cells from start to goal; empty without a path.
    pub path: Vec<Point>,
    pub cost: f64,
    pub expanded: usize,
    /// Wall-clock time of the search, in microseconds.
    pub micros: f64,
    pub optimality: Optimality,
    /// How many plans have been made: tests and the screenshot mode wait on it.
    pub count: u64,
}

impl Plan {
    pub fn has_path(&self) -> bool {
        !self.path.is_empty()
    }
}

#[derive(Resource)]
struct ReplanTimer(Timer);

/// The planner's reusable searches: one for the plan, one for the optimality check.
#[derive(Resource, Default)]
pub struct Planner {
    pub search: Search,
    check: Search,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlannerSettings>()
        .init_resource::<PlannerMode>()
        .init_resource::<Plan>()
        .init_resource::<Planner>()
        .init_resource::<ShownSearch>()
        .insert_resource(ReplanTimer(Timer::from_seconds(1.0, TimerMode::Repeating)))
        .add_message::<ReplanNow>()
        .add_systems(Update, replan.in_set(AppSystems::Plan));
    stepping::plugin(app);
    compare::plugin(app);
}

/// Whether `config` is sure to return a least-cost path: an optimal algorithm with, if it uses
/// one, an admissible heuristic.
pub fn guarantees_optimal(config: &SearchConfig) -> bool {
    config.algorithm.is_optimal()
        && (!config.algorithm.uses_heuristic()
            || config.heuristic.is_admissible_for(config.movement))
}

/// Judges a path's cost: guaranteed by the settings, or checked against Dijkstra's algorithm
/// heading for the same cell (for a partial path, the nearest reachable one).
pub fn judge(
    config: &SearchConfig,
    grid: &Grid,
    start: Point,
    target: Point,
    cost: f64,
    check: &mut Search,
) -> Optimality {
    if guarantees_optimal(config) {
        return Optimality::Guaranteed;
    }
    let dijkstra = SearchConfig {
        algorithm: Algorithm::Dijkstra,
        goal_mode: GoalMode::MustBeFree,
        record_trace: false,
        ..*config
    };
    match check
        .begin(grid, start, target, &dijkstra)
        .map(|()| check.run(grid))
    {
        Ok(SearchStatus::Found) => {
            let optimal = check.cost().unwrap_or(cost);
            if (cost - optimal).abs() <= 1e-9 * optimal.max(1.0) {
                Optimality::Confirmed
            } else {
                Optimality::Worse { optimal }
            }
        }
        _ => Optimality::Unknown,
    }
}

/// Plans when the timer fires, when asked to, when the settings change, and once at the start.
/// Step mode pauses it.
fn replan(
    time: Res<Time>,
    settings: Res<PlannerSettings>,
    mode: Res<PlannerMode>,
    mut timer: ResMut<ReplanTimer>,
    mut requests: MessageReader<ReplanNow>,
    nav: Option<Res<NavGrid>>,
    start: Single<&MarkerCell, With<Start>>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut planner: ResMut<Planner>,
    mut plan: ResMut<Plan>,
    mut shown: ResMut<ShownSearch>,
    comparison: Res<compare::Comparison>,
) {
    // Whole microseconds: 0.2_f32 is slightly above 0.2, and would make every fifth tick late.
    let seconds = settings
        .interval
        .clamp(*INTERVAL_RANGE.start(), *INTERVAL_RANGE.end());
    let interval = Duration::from_micros((f64::from(seconds) * 1e6).round() as u64);
    if timer.0.duration() != interval {
        timer.0.set_duration(interval);
    }
    let ticked = timer.0.tick(time.delta()).just_finished();
    let asked = requests.read().count() > 0;
    let Some(nav) = nav else {
        return; // no map yet
    };
    if *mode != PlannerMode::Live
        || !(ticked || asked || settings.is_changed() || mode.is_changed() || plan.count == 0)
    {
        return;
    }
    if asked || settings.is_changed() {
        timer.0.reset(); // the next timed re-plan is a full interval after this one
    }
    let config = SearchConfig {
        record_trace: true,
        ..settings.search
    };
    let Planner { search, check } = &mut *planner;
    let began = Instant::now();
    let outcome = search
        .begin(nav.grid(), start.0, goal.0, &config)
        .map(|()| search.run(nav.grid()));
    let micros = began.elapsed().as_secs_f64() * 1e6;
    store(&mut plan, search, &config, outcome, micros);
    if plan.has_path()
        && let Some(target) = search.target()
    {
        plan.optimality = judge(&config, nav.grid(), start.0, target, plan.cost, check);
    }
    // A selected comparison row stays on screen until the query changes.
    if comparison.selected.is_none() {
        match outcome {
            Ok(_) => shown.show(ShownSource::Live, search, nav.width(), nav.height()),
            Err(_) => shown.clear(ShownSource::Live),
        }
    }
}

fn store(
    plan: &mut Plan,
    search: &Search,
    config: &SearchConfig,
    status: Result<SearchStatus, QueryError>,
    micros: f64,
) {
    plan.count += 1;
    plan.algorithm = config.algorithm;
    plan.micros = micros;
    plan.path.clear();
    plan.cost = 0.0;
    plan.expanded = search.expanded();
    plan.optimality = Optimality::Unknown;
    plan.status = match status {
        Err(refused) => {
            plan.expanded = 0;
            PlanStatus::Refused(refused.to_string())
        }
        Ok(SearchStatus::Found | SearchStatus::Partial) => {
            plan.path.extend_from_slice(search.path());
            plan.cost = search.cost().unwrap_or(0.0);
            if search.status() == SearchStatus::Partial {
                PlanStatus::Partial
            } else {
                PlanStatus::Found
            }
        }
        Ok(_) => PlanStatus::NoPath,
    };
}
