//! A LaCAM plan made cheaper while the user watches (`gridpath::mapf::solve_anytime`): the first
//! plan is shown the moment it is found, the solver goes on refining it off the frame until the
//! time limit (or until the user stops it), and each cheaper plan waits until the user asks
//! for it, or the solve ends, to replace the one being played.

use super::plan::{MapfPlan, ShownPlan};
use crate::notices::Notices;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::Point;
use gridpath::mapf::{Milestone, Moves};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// What the solver thread hands over: each cost and when, and the cheapest plan not yet taken.
#[derive(Default)]
pub struct Progress {
    milestones: Vec<Milestone>,
    latest: Option<(u64, Vec<Vec<Point>>)>,
}

impl Progress {
    /// Called by the solver for the first plan and each cheaper one.
    pub fn heard(&mut self, milestone: Milestone, plan: Vec<Vec<Point>>) {
        self.milestones.push(milestone);
        self.latest = Some((milestone.soc, plan));
    }
}

/// The improving solve, as the panel sees it.
#[derive(Resource, Default)]
pub struct Improving {
    shared: Option<Arc<Mutex<Progress>>>,
    stop: Option<Arc<AtomicBool>>,
    /// What each plan shown is: its title, the agents' starts and goals, and their moves.
    about: Option<(String, Vec<Point>, Vec<Point>, Moves)>,
    /// The costs heard so far: (seconds, sum of costs).
    costs: Vec<[f64; 2]>,
    /// A cheaper plan than the one shown is waiting: its sum of costs.
    waiting: Option<u64>,
    running: bool,
}

impl Improving {
    /// A new solve: the channel its thread reports on and its stop flag.
    pub fn begin(
        &mut self,
        title: String,
        starts: Vec<Point>,
        goals: Vec<Point>,
        moves: Moves,
    ) -> (Arc<Mutex<Progress>>, Arc<AtomicBool>) {
        let shared = Arc::new(Mutex::new(Progress::default()));
        let stop = Arc::new(AtomicBool::new(false));
        *self = Self {
            shared: Some(shared.clone()),
            stop: Some(stop.clone()),
            about: Some((title, starts, goals, moves)),
            costs: Vec::new(),
            waiting: None,
            running: true,
        };
        (shared, stop)
    }

    /// The solve ended: its plan is the best.
    pub fn end(&mut self) {
        self.running = false;
        self.waiting = None;
    }

    /// (seconds, sum of costs) of the first plan and each cheaper one.
    pub fn costs(&self) -> &[[f64; 2]] {
        &self.costs
    }

    /// The sum of costs of a cheaper plan than the one shown, waiting to be shown.
    pub fn waiting(&self) -> Option<u64> {
        self.waiting
    }

    /// Still improving?
    pub fn running(&self) -> bool {
        self.running
    }

    /// Tells the solver to stop and hand back its best plan.
    pub fn stop(&self) {
        if let Some(stop) = &self.stop {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Show the cheaper plan waiting.
#[derive(Message, Clone, Copy, Debug)]
pub struct ShowCheaperPlan;

/// Reads what the solver reported: the first plan is shown at once; a cheaper one waits, unless
/// the user asked for it.
pub(super) fn hear_progress(
    mut improving: ResMut<Improving>,
    mut asked: MessageReader<ShowCheaperPlan>,
    nav: Option<Res<NavGrid>>,
    mut shown: ResMut<ShownPlan>,
    mut playback: ResMut<super::playback::Playback>,
    mut notices: ResMut<Notices>,
) {
    let asked = asked.read().count() > 0;
    let Some(shared) = improving.shared.clone() else {
        return;
    };
    let first = improving.costs.is_empty();
    let (heard, latest) = {
        let mut progress = shared.lock().unwrap_or_else(PoisonError::into_inner);
        let heard: Vec<[f64; 2]> = progress.milestones[improving.costs.len()..]
            .iter()
            .map(|m| [m.at.as_secs_f64(), m.soc as f64])
            .collect();
        let first = improving.costs.is_empty() && !heard.is_empty();
        let take = first || asked;
        (heard, if take { progress.latest.take() } else { None })
    };
    improving.costs.extend(heard);
    match latest {
        Some((_, plan)) => {
            improving.waiting = None;
            let at = improving.costs.last().map_or(0.0, |c| c[0] * 1000.0);
            if let Some(plan) = checked(&improving, plan, at, nav.as_deref(), &mut notices) {
                let said = match first {
                    true => format!("{}. {}.", plan.title, plan.figures()),
                    false => format!("A cheaper plan. {}.", plan.figures()),
                };
                notices.info(said);
                swap_in(plan, &mut shown, &mut playback, first);
            }
        }
        None => {
            let best = improving.costs.last().map(|c| c[1] as u64);
            let on_screen = shown.0.as_ref().map(|p| p.costs.soc);
            improving.waiting = best.filter(|&b| on_screen.is_some_and(|s| b < s));
        }
    }
}

/// A plan the solver reported, checked on the map on screen, found `at` milliseconds.
fn checked(
    improving: &Improving,
    plan: Vec<Vec<Point>>,
    at: f64,
    nav: Option<&NavGrid>,
    notices: &mut Notices,
) -> Option<MapfPlan> {
    let (Some((title, starts, goals, moves)), Some(nav)) = (&improving.about, nav) else {
        return None;
    };
    match MapfPlan::checked(nav.grid(), *moves, starts.clone(), goals.clone(), plan) {
        Ok(mut plan) if !plan.crosses_a_wall(nav) => {
            plan.title = title.clone();
            plan.solver = "gridpath-lacam".into();
            plan.comp_time = Some(at);
            Some(plan)
        }
        Ok(_) => {
            notices.warn("The map changed while the agents were solved: solve again.");
            None
        }
        Err(why) => {
            notices.error(format!("The solver's plan is invalid (a bug): {why}"));
            None
        }
    }
}

/// Puts `plan` on screen. A first plan plays from the start; a cheaper one of the same agents
/// takes over where the time-line is (it may end sooner), playing or paused as it was.
pub(super) fn swap_in(
    plan: MapfPlan,
    shown: &mut ShownPlan,
    playback: &mut super::playback::Playback,
    first: bool,
) {
    if first {
        playback.restart();
    } else {
        playback.time = playback.time.min(plan.last_step() as f32);
    }
    shown.0 = Some(plan);
}

/// A solve whose panel is gone (the app closed, or a test ended) stops: its thread would
/// otherwise refine until the time limit for no one.
impl Drop for Improving {
    fn drop(&mut self) {
        self.stop();
    }
}
