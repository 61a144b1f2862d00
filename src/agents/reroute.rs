//! Who needs a new route, and only they. An edit re-routes an agent when the cells it changed lie
//! on what is left of the agent's route (or at a corner the route cuts past), or when a cell made
//! cheaper or freed lies close enough to shorten it; a moved goal re-routes the chasers; new
//! settings re-route everyone. A stuck agent tries again after any edit.

use super::route::{Route, RouteState};
use super::stats::AgentStats;
use super::{AgentGoal, AgentSettings, Steering};
use crate::notices::Notices;
use crate::planner::PlannerSettings;
use crate::world::agents::{Agent, AgentPos};
use crate::world::markers::{Goal, MarkerCell};
use crate::world::nav::NavGrid;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use gridpath::{Grid, Heuristic, Movement, Point};
use std::collections::VecDeque;

/// What the agents last saw: the grid's revision, the goal, the settings.
#[derive(Resource, Default)]
pub struct Seen {
    revision: u64,
    goal: Option<Point>,
    settings: Option<(AgentSettings, Movement)>,
}

/// An agent under a newly painted wall moves to the nearest free cell: it never stands in a wall.
pub(super) fn push_off_walls(
    nav: Res<NavGrid>,
    mut agents: Query<(&mut AgentPos, &mut Route), With<Agent>>,
    mut stats: ResMut<AgentStats>,
    mut notices: ResMut<Notices>,
) {
    // Every frame, not only after an edit: undo may bring an agent back where a wall now stands.
    let mut pushed = 0;
    for (mut pos, mut route) in &mut agents {
        if nav.is_passable(pos.cell()) {
            continue;
        }
        if let Some(free) = nearest_free(nav.grid(), pos.cell()) {
            *pos = AgentPos::at(free);
            route.clear();
            route.want();
            pushed += 1;
        }
    }
    if pushed > 0 {
        stats.pushed += pushed;
        notices.info(format!(
            "A wall was painted under {pushed} agent{}: moved to the nearest free cell.",
            if pushed == 1 { "" } else { "s" }
        ));
    }
}

/// The passable cell nearest to `from` in steps (breadth-first over the 8 neighbours, walls
/// included), or `None` on a map with no free cell.
pub fn nearest_free(grid: &Grid, from: Point) -> Option<Point> {
    let mut seen = HashSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        if grid.is_passable(p) {
            return Some(p);
        }
        for (dx, dy) in gridpath::STEPS {
            let q = Point::new(p.x + dx, p.y + dy);
            if grid.contains(q) && seen.insert(q) {
                queue.push_back(q);
            }
        }
    }
    None
}

/// Marks the agents an edit, a goal move or a settings change affects.
pub(super) fn notice_changes(
    nav: Res<NavGrid>,
    settings: Res<AgentSettings>,
    planner: Res<PlannerSettings>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut seen: ResMut<Seen>,
    mut agents: Query<(&AgentPos, &mut Route), With<Agent>>,
) {
    let movement = planner.search.movement;
    let now = (settings.clone(), movement);
    let settings_changed = seen.settings.as_ref() != Some(&now);
    let goal_moved = seen.goal != Some(goal.0);
    let edited = seen.revision != nav.revision();
    // The cells changed since last frame; `None` when too many to tell (re-route everyone).
    let changed: Option<HashSet<Point>> = nav
        .changes_since(seen.revision)
        .map(|changes| changes.collect());
    seen.revision = nav.revision();
    seen.goal = Some(goal.0);
    seen.settings = Some(now);
    if !(settings_changed || goal_moved || edited) {
        return;
    }
    let chasing = settings.goal == AgentGoal::Chase;
    let flow = chasing && settings.steering == Steering::FlowField;
    for (&pos, mut route) in &mut agents {
        let affected = if settings_changed {
            // New targets or moves: start afresh (the flow field needs no search at all).
            route.clear();
            route.target = None;
            route.state = RouteState::Waiting;
            true
        } else if flow {
            false // the flow field is redone for the goal and the walls
        } else {
            (goal_moved && chasing)
                || (edited && route.state == RouteState::Stuck)
                || (edited && edit_affects(&route, pos, changed.as_ref(), &nav, movement))
        };
        if affected {
            if edited && changed.as_ref().is_none_or(|c| route.touches(c)) {
                route.hold = true; // the rest of the way may be walled: stop at the next cell
            }
            route.want();
        }
    }
}

/// Does an edit affect this agent's route? Yes if a changed cell is on what is left of it (or at
/// a corner it cuts past); or if a changed cell is now passable and a detour through it could be
/// shorter than the rest of the route: h(agent, c) + h(c, target) < what is left, with the
/// heuristic scaled by the cheapest cost, so it never rules out a real improvement.
fn edit_affects(
    route: &Route,
    pos: AgentPos,
    changed: Option<&HashSet<Point>>,
    nav: &NavGrid,
    movement: Movement,
) -> bool {
    let Some(changed) = changed else {
        return true;
    };
    if route.state != RouteState::Walking {
        return false;
    }
    if route.touches(changed) {
        return true;
    }
    let (Some(target), here) = (route.target, pos.cell()) else {
        return false;
    };
    let grid = nav.grid();
    let scale = f64::from(grid.min_cost());
    let h = Heuristic::best_for(movement);
    let estimate = |a: Point, b: Point| {
        scale * h.estimate(f64::from((a.x - b.x).abs()), f64::from((a.y - b.y).abs()))
    };
    let left = route.remaining_cost();
    changed
        .iter()
        .any(|&c| grid.is_passable(c) && estimate(here, c) + estimate(c, target) < left - 1e-9)
}
