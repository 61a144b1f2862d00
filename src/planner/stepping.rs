//! Step mode: the live planner pauses, and the search advances by hand, one cell or N at a time,
//! or as an animation at a chosen speed. This is the core's own resumable search
//! ([`gridpath::Search::step`]), not a replay of a finished one, so what you see is exactly the
//! order in which the algorithm works.
//!
//! A frame never does more than [`MAX_PER_FRAME`] expansions: a long "run to the end" on a big
//! map is spread over frames instead of stalling one. Moving a marker, editing the map or
//! changing a setting starts the search again from the new query.

use super::live::ReplanNow;
use super::query::{PlanQuery, QueryKey};
use super::settings::{PlanSystems, PlannerMode};
use crate::notices::Notices;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::{Search, SearchStatus};

/// The most expansions in one frame.
pub const MAX_PER_FRAME: usize = 2_000;

/// The animation speeds the UI offers, in expansions per second.
pub const SPEED_RANGE: std::ops::RangeInclusive<f32> = 1.0..=20_000.0;

/// Requests from the panel. Handled in `PreUpdate`, before Bevy applies state changes, so that
/// entering or leaving step mode takes effect in the same frame, as any other command does.
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
    query: Option<QueryKey>,
    /// Whether the query was accepted (a refused one has nothing to draw).
    accepted: bool,
    /// Bumped each time the search begins again, and each time it advances: what is drawn
    /// follows these.
    began: u64,
    advanced: u64,
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
            accepted: false,
            began: 0,
            advanced: 0,
        }
    }
}

impl Stepper {
    pub fn status(&self) -> SearchStatus {
        self.search.status()
    }

    /// The search to draw, with how many times it began and advanced; `None` when the query was
    /// refused.
    pub fn shown(&self) -> (Option<&Search>, u64, u64) {
        (
            self.accepted.then_some(&self.search),
            self.began,
            self.advanced,
        )
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Stepper>()
        .add_message::<StepCommand>()
        .add_systems(PreUpdate, step_commands)
        .add_systems(
            Update,
            (restart_on_change, advance)
                .chain()
                .in_set(PlanSystems::Search)
                .run_if(in_state(PlannerMode::Stepping)),
        );
}

fn step_commands(
    mut commands: MessageReader<StepCommand>,
    mut mode: ResMut<NextState<PlannerMode>>,
    mut stepper: ResMut<Stepper>,
    mut replan: MessageWriter<ReplanNow>,
) {
    for command in commands.read() {
        match command {
            StepCommand::Enter => {
                mode.set(PlannerMode::Stepping);
                stepper.query = None; // begin afresh
                stepper.playing = false;
                stepper.pending = 0;
            }
            StepCommand::Exit => {
                mode.set(PlannerMode::Live);
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
fn restart_on_change(query: PlanQuery, mut stepper: ResMut<Stepper>, mut notices: ResMut<Notices>) {
    let Some(grid) = query.grid() else { return };
    let key = query.key();
    if stepper.query == Some(key) && !query.map_changed() {
        return;
    }
    stepper.query = Some(key);
    stepper.pending = 0;
    stepper.carry = 0.0;
    stepper.began += 1;
    let config = query.traced_config();
    let began = stepper
        .search
        .begin(grid, query.start(), query.goal(), &config);
    stepper.accepted = began.is_ok();
    if let Err(e) = began {
        notices.warn(format!("Can't step: {e}."));
    }
}

/// Expands the cells due this frame, at most [`MAX_PER_FRAME`].
fn advance(time: Res<Time>, nav: Option<Res<NavGrid>>, mut stepper: ResMut<Stepper>) {
    let Some(nav) = nav else { return };
    if stepper.status() != SearchStatus::Running {
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
    stepper.advanced += 1;
}
