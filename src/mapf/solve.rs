//! Solving an instance on the map on screen, off the frame: the map stays live while LaCAM
//! searches (a 1,000-agent warehouse takes seconds). One solve at a time; the panel waits for it.

use super::improve::{Improving, Progress};
use super::plan::{MapfPlan, ShownPlan};
use crate::frame::AppSystems;
use crate::notices::Notices;
use crate::world::nav::NavGrid;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use gridpath::mapf::{
    AnytimeLimits, Instance, LacamOutcome, solve_anytime, solve_with_lacam, solve_with_pibt,
};
use gridpath::movingai::parse_scen;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The most agents the panel offers (the benchmark's instances go up to 1,000).
pub const MAX_MAPF_AGENTS: usize = 2_000;

/// PIBT is not complete: it gets this many steps to bring every agent to its goal.
const PIBT_STEPS: usize = 5_000;

/// Which solver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MapfSolver {
    /// Complete, and quick: a search over configurations that asks PIBT for each next one.
    #[default]
    Lacam,
    /// One greedy step of every agent at a time: quickest, but it can cycle and never finish.
    Pibt,
}

impl MapfSolver {
    pub fn name(self) -> &'static str {
        match self {
            Self::Lacam => "LaCAM",
            Self::Pibt => "PIBT",
        }
    }

    /// As the result format names solvers.
    fn key(self) -> &'static str {
        match self {
            Self::Lacam => "gridpath-lacam",
            Self::Pibt => "gridpath-pibt",
        }
    }
}

/// Where the agents' starts and goals come from.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSource {
    /// Distinct random starts and goals in the map's largest region.
    Random,
    /// The first N lines of a benchmark scenario file (its name, its text).
    Scenario { name: String, text: String },
}

/// What the panel asks for: its settings are kept here between solves.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct MapfSettings {
    pub agents: usize,
    /// Take the starts and goals from a scenario rather than at random.
    pub from_scenario: bool,
    pub solver: MapfSolver,
    /// Seconds LaCAM may search.
    pub time_limit: f32,
    /// Keep making LaCAM's plan cheaper until the time limit (not on the web: one thread).
    pub improve: bool,
    pub seed: u64,
}

impl Default for MapfSettings {
    fn default() -> Self {
        Self {
            agents: 100,
            from_scenario: false,
            solver: MapfSolver::Lacam,
            time_limit: 10.0,
            improve: !cfg!(target_arch = "wasm32"),
            seed: 1,
        }
    }
}

/// Solve an instance of the map on screen.
#[derive(Message, Clone, Debug)]
pub struct SolveMapf {
    pub source: AgentSource,
    pub settings: MapfSettings,
}

/// Open a scenario file from disk for the agents' starts and goals.
#[derive(Message, Clone, Debug)]
pub struct OpenScenarioFile(pub PathBuf);

/// The scenario file opened last, read and checked: its name, its text, how many agents it has.
#[derive(Resource, Default, Clone, Debug)]
pub struct OpenedScenario(pub Option<(String, String, usize)>);

/// The solve under way, if any.
#[derive(Resource, Default)]
pub struct Solving {
    task: Option<Task<Result<MapfPlan, String>>>,
    began: Option<Instant>,
}

impl Solving {
    /// Seconds since the running solve began, if one is running.
    pub fn running_for(&self) -> Option<f32> {
        self.task.as_ref()?;
        self.began.map(|b| b.elapsed().as_secs_f32())
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SolveMapf>()
        .add_message::<OpenScenarioFile>()
        .init_resource::<MapfSettings>()
        .init_resource::<OpenedScenario>()
        .init_resource::<Solving>()
        .init_resource::<Improving>()
        .add_message::<super::improve::ShowCheaperPlan>()
        .add_systems(
            Update,
            (
                open_scenarios,
                start_solving,
                super::improve::hear_progress,
                finish_solving,
            )
                .chain()
                .in_set(AppSystems::Plan),
        );
}

/// Reads each scenario file asked for (or handed over by the web page) and keeps the last good one;
/// a bad one is said in one line and the one kept before stays.
fn open_scenarios(
    mut files: MessageReader<OpenScenarioFile>,
    mut opened: ResMut<OpenedScenario>,
    mut notices: ResMut<Notices>,
) {
    let mut asked: Vec<(String, Result<String, String>)> = Vec::new();
    for OpenScenarioFile(path) in files.read() {
        asked.push(super::plan::read_asked(
            path,
            gridpath::movingai::MAX_SCEN_BYTES,
        ));
    }
    let page = crate::browser::take_opened_scenarios().into_iter();
    asked.extend(page.map(|(name, text)| (name, Ok(text))));
    for (name, text) in asked {
        let read = text.and_then(|text| {
            let lines = parse_scen(&text).map_err(|e| e.to_string())?.len();
            Ok((text, lines))
        });
        match read {
            Ok((text, lines)) => {
                notices.info(format!("Opened {name}: up to {lines} agents."));
                opened.0 = Some((name, text, lines));
            }
            Err(why) => notices.error(format!("Could not open {name}: {why}")),
        }
    }
}

fn start_solving(
    mut requests: MessageReader<SolveMapf>,
    nav: Option<Res<NavGrid>>,
    mut solving: ResMut<Solving>,
    mut improving: ResMut<Improving>,
    mut notices: ResMut<Notices>,
) {
    for request in requests.read() {
        let Some(nav) = &nav else {
            continue;
        };
        // A request that cannot be solved says why, whether or not a solve is running (one
        // may run for its whole time limit, improving its plan).
        match instance(nav, request) {
            Ok(_) if solving.task.is_some() => {
                notices.warn("A multi-agent plan is being solved already: wait for it.");
            }
            Ok((instance, title)) => {
                let settings = request.settings.clone();
                let anytime =
                    (settings.solver == MapfSolver::Lacam && settings.improve).then(|| {
                        let (starts, goals) = (instance.starts.clone(), instance.goals.clone());
                        improving.begin(title.clone(), starts, goals, instance.moves)
                    });
                let task = AsyncComputeTaskPool::get()
                    .spawn(async move { solve(&instance, &settings, title, anytime) });
                solving.task = Some(task);
                solving.began = Some(Instant::now());
            }
            Err(why) => notices.error(format!("Cannot solve: {why}")),
        }
    }
}

/// The instance a request asks for, and its title; why not, in one line.
fn instance(nav: &NavGrid, request: &SolveMapf) -> Result<(Instance, String), String> {
    let moves = super::plan::moves_on(nav)?;
    let grid = nav.grid().clone();
    let n = request.settings.agents;
    let solver = request.settings.solver.name();
    match &request.source {
        AgentSource::Random => {
            let seed = request.settings.seed;
            let instance =
                Instance::random_with(grid, moves, n, seed).map_err(|e| e.to_string())?;
            Ok((
                instance,
                format!("{solver}: {n} random agents, seed {seed}"),
            ))
        }
        AgentSource::Scenario { name, text } => {
            let scenarios = parse_scen(text).map_err(|e| format!("{name}: {e}"))?;
            let instance = Instance::from_scenarios(grid, &scenarios, n)
                .map_err(|e| format!("{name}: {e}"))?
                .with_moves(moves);
            Ok((
                instance,
                format!("{solver}: the first {n} agents of {name}"),
            ))
        }
    }
}

/// Runs the solver, and checks its plan with the validator. `anytime`: LaCAM goes on making
/// its plan cheaper until the time limit or the stop flag, and reports there.
fn solve(
    instance: &Instance,
    settings: &MapfSettings,
    title: String,
    anytime: Option<(Arc<Mutex<Progress>>, Arc<AtomicBool>)>,
) -> Result<MapfPlan, String> {
    let began = Instant::now();
    let mut optimal = false;
    let plan = match settings.solver {
        MapfSolver::Pibt => {
            let run = solve_with_pibt(instance, PIBT_STEPS, settings.seed);
            if !run.solved {
                return Err(format!(
                    "PIBT did not bring every agent to its goal in {PIBT_STEPS} steps (it is not \
                     complete: try LaCAM)."
                ));
            }
            run.plan
        }
        MapfSolver::Lacam => {
            let limit = Duration::from_secs_f32(settings.time_limit.max(0.1));
            let outcome = match &anytime {
                Some((shared, stop)) => {
                    // The frame keeps one core; the solver refines on the others (at least one).
                    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                    let limits = AnytimeLimits {
                        time_limit: limit,
                        threads: cores.saturating_sub(1).max(1),
                        stop: Some(stop),
                    };
                    let run = solve_anytime(instance, settings.seed, limits, |m, better| {
                        let mut progress = shared.lock().unwrap_or_else(PoisonError::into_inner);
                        progress.heard(m, better.plan());
                    });
                    optimal = run.optimal;
                    run.outcome
                }
                None => solve_with_lacam(instance, limit, settings.seed).0,
            };
            match outcome {
                LacamOutcome::Solved(plan) => plan,
                LacamOutcome::NoSolution => {
                    return Err("no plan exists: LaCAM tried every configuration.".into());
                }
                LacamOutcome::TimedOut => {
                    return Err(format!(
                        "LaCAM found no plan in {:.0} s.",
                        settings.time_limit
                    ));
                }
            }
        }
    };
    let comp_time = began.elapsed().as_secs_f64() * 1000.0;
    let (starts, goals) = (instance.starts.clone(), instance.goals.clone());
    let mut checked = MapfPlan::checked(&instance.grid, instance.moves, starts, goals, plan)
        .map_err(|e| format!("the solver's plan is invalid (a bug): {e}"))?;
    checked.title = title;
    checked.comp_time = Some(comp_time);
    checked.solver = settings.solver.key().into();
    checked.optimal = optimal;
    Ok(checked)
}

fn finish_solving(
    mut solving: ResMut<Solving>,
    mut improving: ResMut<Improving>,
    nav: Option<Res<NavGrid>>,
    mut shown: ResMut<ShownPlan>,
    mut playback: ResMut<super::playback::Playback>,
    mut notices: ResMut<Notices>,
) {
    let Some(task) = &mut solving.task else {
        return;
    };
    let Some(result) = check_ready(task) else {
        return;
    };
    solving.task = None;
    let improved = improving.running();
    improving.end();
    match result {
        // The map was edited, or replaced, while the solver worked.
        Ok(plan) if nav.is_none_or(|nav| plan.crosses_a_wall(&nav)) => {
            notices.warn("The map changed while the agents were solved: solve again.");
        }
        // Improved: the best plan takes over where the time-line is, unless it is on already.
        Ok(plan) if improved => {
            let on_screen = shown.0.as_ref().map(|s| s.costs.soc);
            if on_screen.is_none_or(|soc| plan.costs.soc < soc) {
                notices.info(format!("The best plan. {}.", plan.figures()));
                super::improve::swap_in(plan, &mut shown, &mut playback, on_screen.is_none());
            } else if let Some(shown) = shown.0.as_mut().filter(|_| plan.optimal) {
                shown.optimal = true;
                let why = if shown.costs.soc == shown.costs.soc_lb {
                    "every agent arrives as soon as its distance allows"
                } else {
                    "LaCAM* tried every cheaper way"
                };
                notices.info(format!("The plan on screen is optimal: {why}."));
            }
        }
        Ok(plan) => {
            notices.info(format!("{}. {}.", plan.title, plan.figures()));
            playback.restart();
            shown.0 = Some(plan);
        }
        Err(why) => notices.error(format!("No multi-agent plan: {why}")),
    }
}
