//! Re-planning: on a repeating timer (1 s by default, as in the tutorials this grew from), or at
//! once on request, the planner searches from the start marker's cell to the goal marker's cell
//! and stores the outcome in [`Plan`].
//!
//! The planner keeps one [`gridpath::Search`] for the life of the app, so re-planning reuses its
//! memory instead of allocating.

use crate::AppSystems;
use crate::markers::{Goal, MarkerCell, Start};
use crate::nav::NavGrid;
use bevy::prelude::*;
use gridpath::{Point, QueryError, Search, SearchConfig, SearchStatus};
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

/// The outcome of the last plan.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub status: PlanStatus,
    /// Cells from start to goal; empty without a path.
    pub path: Vec<Point>,
    pub cost: f64,
    pub expanded: usize,
    /// Wall-clock time of the search, in microseconds.
    pub micros: f64,
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

/// The planner's reusable search.
#[derive(Resource, Default)]
pub struct Planner(pub Search);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlannerSettings>()
        .init_resource::<Plan>()
        .init_resource::<Planner>()
        .insert_resource(ReplanTimer(Timer::from_seconds(1.0, TimerMode::Repeating)))
        .add_message::<ReplanNow>()
        .add_systems(Update, replan.in_set(AppSystems::Plan));
}

/// Plans when the timer fires, when asked to, when the settings change, and once at the start.
fn replan(
    time: Res<Time>,
    settings: Res<PlannerSettings>,
    mut timer: ResMut<ReplanTimer>,
    mut requests: MessageReader<ReplanNow>,
    nav: Option<Res<NavGrid>>,
    start: Single<&MarkerCell, With<Start>>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut planner: ResMut<Planner>,
    mut plan: ResMut<Plan>,
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
    if !(ticked || asked || settings.is_changed() || plan.count == 0) {
        return;
    }
    if asked || settings.is_changed() {
        timer.0.reset(); // the next timed re-plan is a full interval after this one
    }
    let began = Instant::now();
    let outcome = planner
        .0
        .begin(nav.grid(), start.0, goal.0, &settings.search);
    let status = outcome.map(|()| planner.0.run(nav.grid()));
    let micros = began.elapsed().as_secs_f64() * 1e6;
    store(&mut plan, &planner.0, status, micros);
}

fn store(plan: &mut Plan, search: &Search, status: Result<SearchStatus, QueryError>, micros: f64) {
    plan.count += 1;
    plan.micros = micros;
    plan.path.clear();
    plan.cost = 0.0;
    plan.expanded = search.expanded();
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
