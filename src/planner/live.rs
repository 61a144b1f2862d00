//! The live planner: it re-plans on a repeating timer (1 s by default, as in the tutorials this
//! grew from), at once on request, on a settings change and on a new map, and stores the outcome
//! in [`Plan`]. Step mode pauses it.
//!
//! It keeps one [`gridpath::Search`] for the life of the app, so re-planning reuses its memory
//! instead of allocating.

use super::optimality::{Optimality, judge};
use super::query::PlanQuery;
use super::{INTERVAL_RANGE, PlanSystems, PlannerMode};
use crate::world::map_load::MapLoaded;
use bevy::prelude::*;
use gridpath::jump_distances::Update;
use gridpath::{Algorithm, Grid, Point, QueryError, Search, SearchConfig, SearchStatus};
use std::time::{Duration, Instant};

/// Plan now instead of at the next tick (the "Re-plan now" button).
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
    /// JPS+ only: the last work its table of jump distances needed (made, or repaired after
    /// edits); a re-plan on unchanged walls keeps showing it rather than "nothing to do".
    pub table: Option<TableWork>,
    /// How many plans have been made: tests and the screenshot mode wait on it.
    pub count: u64,
}

/// What JPS+'s precomputed table cost before a search: made, repaired after edits, or already up
/// to date. Shown beside the search's own time, since it is the price of JPS+'s speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableWork {
    pub update: Update,
    pub micros: f64,
}

/// "repaired after 1 wall change (312 entries) in 45 µs", or "up to date" alone.
impl std::fmt::Display for TableWork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.update {
            Update::Unchanged => write!(f, "{}", self.update),
            update if self.micros >= 1000.0 => {
                write!(f, "{update} in {:.1} ms", self.micros / 1000.0)
            }
            update => write!(f, "{update} in {:.0} µs", self.micros),
        }
    }
}

impl TableWork {
    /// The same in a few words, for a narrow column: "repaired in 45 µs".
    pub fn short(&self) -> String {
        let what = match self.update {
            Update::Unchanged => return "up to date".into(),
            Update::Repaired { .. } => "repaired",
            Update::Rebuilt => "built",
        };
        if self.micros >= 1000.0 {
            format!("{what} in {:.1} ms", self.micros / 1000.0)
        } else {
            format!("{what} in {:.0} µs", self.micros)
        }
    }
}

/// Brings JPS+'s table up to date before a timed search, and says what that took; `None` for
/// the other algorithms, which precompute nothing.
pub(super) fn prepare_table(
    search: &mut Search,
    grid: &Grid,
    config: &SearchConfig,
) -> Option<TableWork> {
    (config.algorithm == Algorithm::JumpPointPlus).then(|| {
        let began = Instant::now();
        let update = search.prepare(grid, config);
        let micros = began.elapsed().as_secs_f64() * 1e6;
        TableWork { update, micros }
    })
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
    /// Whether the last query was accepted (a refused one has nothing to draw).
    accepted: bool,
    /// Bumped on every plan: what is drawn follows it.
    revision: u64,
}

impl Planner {
    /// The last plan's search, to draw; `None` when the query was refused.
    pub fn shown(&self) -> Option<&Search> {
        self.accepted.then_some(&self.search)
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Plan>()
        .init_resource::<Planner>()
        .insert_resource(ReplanTimer(Timer::from_seconds(1.0, TimerMode::Repeating)))
        .add_message::<ReplanNow>()
        .add_systems(
            Update,
            replan
                .in_set(PlanSystems::Search)
                .run_if(in_state(PlannerMode::Live)),
        );
}

/// Plans when the timer fires, when asked to, when the settings or the map change, on coming
/// back from step mode, and once at the start.
fn replan(
    time: Res<Time>,
    mode: Res<State<PlannerMode>>,
    query: PlanQuery,
    mut timer: ResMut<ReplanTimer>,
    mut requests: MessageReader<ReplanNow>,
    mut new_maps: MessageReader<MapLoaded>,
    mut planner: ResMut<Planner>,
    mut plan: ResMut<Plan>,
) {
    let ticked = tick(&mut timer.0, query.settings().interval, time.delta());
    let asked = requests.read().count() + new_maps.read().count() > 0;
    let Some(grid) = query.grid() else {
        return; // no map yet
    };
    let changed = query.settings_changed() || mode.is_changed();
    if !(ticked || asked || changed || plan.count == 0) {
        return;
    }
    if asked || query.settings_changed() {
        timer.0.reset(); // the next timed re-plan is a full interval after this one
    }
    let config = query.traced_config();
    let Planner {
        search,
        check,
        accepted,
        revision,
    } = &mut *planner;
    *revision += 1;
    let table = prepare_table(search, grid, &config);
    let began = Instant::now();
    let outcome = search
        .begin(grid, query.start(), query.goal(), &config)
        .map(|()| search.run(grid));
    let micros = began.elapsed().as_secs_f64() * 1e6;
    *accepted = outcome.is_ok();
    let earlier = plan.table.filter(|_| plan.algorithm == config.algorithm);
    store(&mut plan, search, &config, outcome, micros);
    plan.table = match table {
        Some(t) if t.update == Update::Unchanged => earlier.or(table),
        _ => table,
    };
    if plan.has_path()
        && let Some(target) = search.target()
    {
        plan.optimality = judge(&config, grid, (query.start(), target), plan.cost, check);
    }
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
