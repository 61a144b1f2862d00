//! Plan files in and out, in the result format of the field (`gridpath::mapf::parse_result`):
//! a plan LaCAM, lacam3 or any other solver wrote can be opened and played, and ours saved for
//! their visualisers and validators.
//!
//! A plan file is hostile input like a map: it is read up to a limit, parsed with a one-line
//! error naming the line, and checked by the validator on the map on screen before it is shown.
//! A file that fails leaves the plan on screen as it was.

use super::plan::{MapfPlan, ShownPlan};
use super::playback::Playback;
use crate::frame::AppSystems;
use crate::notices::Notices;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::mapf::{MapfResult, parse_result, write_result};
use std::path::PathBuf;

/// The largest plan file the player reads: 64 MiB (a thousand agents for several thousand steps).
pub const MAX_PLAN_BYTES: u64 = 64 << 20;

/// The most agents the player shows.
pub const MAX_PLAN_AGENTS: usize = 10_000;

/// Open a plan file from disk.
#[derive(Message, Clone, Debug)]
pub struct OpenPlanFile(pub PathBuf);

/// Play a plan handed over as text (a file the web page read): its name, its text.
#[derive(Message, Clone, Debug)]
pub struct OpenPlanText(pub String, pub String);

/// Save the plan on screen.
#[derive(Message, Clone, Debug)]
pub struct SavePlanFile(pub PathBuf);

/// Close the plan on screen.
#[derive(Message, Clone, Debug)]
pub struct ClosePlan;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<OpenPlanFile>()
        .add_message::<OpenPlanText>()
        .add_message::<SavePlanFile>()
        .add_message::<ClosePlan>()
        .add_systems(
            Update,
            (open_plans, save_plans, close_plans)
                .chain()
                .in_set(AppSystems::Plan),
        );
}

/// Opens each plan asked for: a file (native), a text (a test, or a file the web page read).
fn open_plans(
    mut files: MessageReader<OpenPlanFile>,
    mut texts: MessageReader<OpenPlanText>,
    nav: Option<Res<NavGrid>>,
    mut shown: ResMut<ShownPlan>,
    mut playback: ResMut<Playback>,
    mut notices: ResMut<Notices>,
) {
    let mut asked: Vec<(String, Result<String, String>)> = Vec::new();
    for OpenPlanFile(path) in files.read() {
        asked.push(super::plan::read_asked(path, MAX_PLAN_BYTES));
    }
    let handed = texts
        .read()
        .map(|OpenPlanText(n, t)| (n.clone(), t.clone()));
    let page = crate::browser::take_opened_plans().into_iter();
    asked.extend(handed.chain(page).map(|(name, text)| (name, Ok(text))));
    for (name, text) in asked {
        let opened = text.and_then(|text| {
            let nav = nav.as_ref().ok_or("there is no map yet.")?;
            let result = parse_result(&text).map_err(|e| e.to_string())?;
            plan_of(result, &name, nav)
        });
        match opened {
            Ok(plan) => {
                notices.info(format!("Playing {name}: {}.", plan.figures()));
                playback.restart();
                shown.0 = Some(plan);
            }
            Err(why) => {
                let stays = if shown.0.is_some() {
                    "the plan on screen stays"
                } else {
                    "nothing was opened"
                };
                notices.error(format!("Could not play {name} ({stays}): {why}"));
            }
        }
    }
}

/// The plan of a result file, if it is solved and valid on the map `nav` lays out.
fn plan_of(result: MapfResult, name: &str, nav: &NavGrid) -> Result<MapfPlan, String> {
    let moves = super::plan::moves_on(nav)?;
    if !result.solved {
        return Err("the file says its solver found no plan (solved=0).".into());
    }
    if result.starts.len() > MAX_PLAN_AGENTS {
        return Err(format!(
            "it has {} agents; the player shows at most {MAX_PLAN_AGENTS}.",
            result.starts.len()
        ));
    }
    // A lifelong run's goals change as its agents reach them: its moves are checked, and each
    // agent's square is where it ends.
    let ends = result.final_cells();
    let mut plan = MapfPlan::checked(nav.grid(), moves, result.starts, ends, result.plan)
        .map_err(|e| format!("it is not a valid plan on this map: {e}."))?;
    plan.title = match result.tasks_finished {
        Some(n) => format!(
            "{name}, by {}: {n} tasks (lifelong)",
            shown_solver(&result.solver)
        ),
        None => format!("{name}, by {}", shown_solver(&result.solver)),
    };
    plan.comp_time = result.comp_time;
    plan.solver = result.solver;
    Ok(plan)
}

/// A solver's name as a file gives it, made safe to show: short, with no control characters.
fn shown_solver(solver: &str) -> String {
    let name: String = solver
        .chars()
        .filter(|c| !c.is_control())
        .take(40)
        .collect();
    if name.is_empty() {
        "an unnamed solver".into()
    } else {
        name
    }
}

fn save_plans(
    mut requests: MessageReader<SavePlanFile>,
    shown: Res<ShownPlan>,
    map: Res<crate::world::map_load::CurrentMap>,
    mut notices: ResMut<Notices>,
) {
    for SavePlanFile(path) in requests.read() {
        let Some(plan) = &shown.0 else {
            notices.error("There is no multi-agent plan to save.");
            continue;
        };
        let c = &plan.costs;
        let text = write_result(&MapfResult {
            map_file: map.name.clone(),
            solver: plan.solver.clone(),
            solved: true,
            soc: Some(c.soc),
            soc_lb: Some(c.soc_lb),
            makespan: Some(c.makespan),
            makespan_lb: Some(c.makespan_lb),
            comp_time: plan.comp_time,
            starts: plan.starts.clone(),
            goals: plan.goals.clone(),
            plan: plan.plan.clone(),
            tasks_finished: None,
        });
        #[cfg(target_arch = "wasm32")]
        let written = crate::browser::download(&crate::world::map_files::file_name(path), &text);
        #[cfg(not(target_arch = "wasm32"))]
        let written = std::fs::write(path, text);
        match written {
            Ok(()) => notices.info(format!("Saved the plan to {}.", path.display())),
            Err(e) => notices.error(format!("Could not save to {}: {e}", path.display())),
        }
    }
}

fn close_plans(mut requests: MessageReader<ClosePlan>, mut shown: ResMut<ShownPlan>) {
    if requests.read().count() > 0 {
        shown.0 = None;
    }
}
