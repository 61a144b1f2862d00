//! Step mode: the live planner pauses, and the search advances by hand, one cell or N at a time,
//! or as an animation at a chosen speed. This is the core's own resumable search
//! ([`gridpath::Search::step`]), not a replay of a finished one, so what you see is exactly the
//! order in which the algorithm works.
//!
//! A frame never does more than [`MAX_PER_FRAME`] expansions: a long "run to the end" on a big
//! map is spread over frames instead of stalling one. Moving a marker, editing the map or
//! changing a setting starts the search again from the new query.

use super::shown::{ShownSearch, ShownSource};
use super::{PlannerMode, PlannerSettings, ReplanNow};
use crate::AppSystems;
use crate::markers::{Goal, MarkerCell, Start};
use crate::nav::NavGrid;
use crate::notice::Notices;
use bevy::prelude::*;
use gridpath::{Point, Search, SearchConfig, SearchStatus};

/// The most expansions in one frame.
pub const MAX_PER_FRAME: usize = 2_000;

/// The animation speeds the UI offers, in expansions per second.
pub const SPEED_RANGE: std::ops::RangeInclusive<f32> = 1.0..=20_000.0;

#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepCommand {
    /// Pause the live planner and begin a search to step through.
    Enter,
    /// Back to live re-planning.
    Exit,
    /// Expand this many cells (over several frames if need be).
    Step(usize),
    Play,
    Pause,
    /// Expand until the search ends.
    RunToEnd,
    /// Begin the same query again.
    Restart,
}

/// The search being stepped through.
#[derive(Resource)]
pub struct Stepper {
    pub search: Search,
    pub playing: bool,
    /// Expansions per second while playing.
    pub speed: f32,
    /// How many cells "Step N" expands.
    pub batch: usize,
    /// Expansions asked for and not done yet.
    pending: usize,
    /// Fractional expansions carried between frames while playing.
    carry: f32,
    /// The query the search answers: a different one restarts it.
    query: Option<(Point, Point, SearchConfig)>,
}

impl Default for Stepper {
    fn default() -> Self {
        Self {
            search: Search::new(),
            playing: false,
            speed: 30.0,
            batch: 10,
            pending: 0,
            carry: 0.0,
            query: None,
        }
    }
}

impl Stepper {
    pub fn status(&self) -> SearchStatus {
        self.search.status()
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Stepper>()
        .add_message::<StepCommand>()
        .add_systems(
            Update,
            (step_commands, restart_on_change, advance)
                .chain()
                .in_set(AppSystems::Plan),
        );
}

fn step_commands(
    mut commands: MessageReader<StepCommand>,
    mut mode: ResMut<PlannerMode>,
    mut stepper: ResMut<Stepper>,
    mut replan: MessageWriter<ReplanNow>,
) {
    for command in commands.read() {
        match command {
            StepCommand::Enter => {
                *mode = PlannerMode::Stepping;
                stepper.query = None; // begin afresh
                stepper.playing = false;
                stepper.pending = 0;
            }
            StepCommand::Exit => {
                *mode = PlannerMode::Live;
                stepper.playing = false;
                stepper.pending = 0;
                replan.write(ReplanNow);
            }
            StepCommand::Step(n) => stepper.pending = stepper.pending.saturating_add(*n),
            StepCommand::Play => stepper.playing = true,
            StepCommand::Pause => {
                stepper.playing = false;
                stepper.pending = 0;
            }
            StepCommand::RunToEnd => stepper.pending = usize::MAX,
            StepCommand::Restart => {
                stepper.query = None;
                stepper.pending = 0;
            }
        }
    }
}

/// (Re)begins the search when step mode starts or the query changes.
fn restart_on_change(
    mode: Res<PlannerMode>,
    settings: Res<PlannerSettings>,
    nav: Option<Res<NavGrid>>,
    start: Single<&MarkerCell, With<Start>>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut stepper: ResMut<Stepper>,
    mut shown: ResMut<ShownSearch>,
    mut notices: ResMut<Notices>,
) {
    let Some(nav) = nav else { return };
    if *mode != PlannerMode::Stepping {
        return;
    }
    let config = SearchConfig {
        record_trace: true,
        ..settings.search
    };
    let query = (start.0, goal.0, config);
    if stepper.query == Some(query) && !nav.is_changed() {
        return;
    }
    stepper.query = Some(query);
    stepper.pending = 0;
    stepper.carry = 0.0;
    match stepper.search.begin(nav.grid(), start.0, goal.0, &config) {
        Ok(()) => shown.show(
            ShownSource::Stepping,
            &stepper.search,
            nav.width(),
            nav.height(),
        ),
        Err(e) => {
            notices.warn(format!("Can't step: {e}."));
            shown.clear(ShownSource::Stepping);
        }
    }
}

/// Expands the cells due this frame, at most [`MAX_PER_FRAME`].
fn advance(
    time: Res<Time>,
    mode: Res<PlannerMode>,
    nav: Option<Res<NavGrid>>,
    mut stepper: ResMut<Stepper>,
    mut shown: ResMut<ShownSearch>,
) {
    let Some(nav) = nav else { return };
    if *mode != PlannerMode::Stepping || stepper.status() != SearchStatus::Running {
        stepper.playing &= stepper.status() == SearchStatus::Running;
        return;
    }
    let mut due = stepper.pending;
    if stepper.playing {
        let carry = stepper.carry + stepper.speed * time.delta_secs();
        let whole = carry.floor();
        stepper.carry = carry - whole;
        due = due.saturating_add(whole as usize);
    }
    let now = due.min(MAX_PER_FRAME);
    if now == 0 {
        return;
    }
    stepper.search.step_many(nav.grid(), now);
    // This frame's expansions count first against the steps asked for, then against playing.
    let from_pending = now.min(stepper.pending);
    stepper.pending -= from_pending;
    if stepper.status() != SearchStatus::Running {
        stepper.pending = 0;
        stepper.playing = false;
    }
    shown.follow(&stepper.search);
}
