//! Agents' routes, asked of the plugin's path service ([`bevy_gridpath::PathService`]) exactly
//! as a game would: an agent that needs a route gets a [`PathRequest`]; the service checks it,
//! searches it on Bevy's `AsyncComputeTaskPool` against a snapshot of the grid (oldest request
//! first, [`AgentSettings::budget`] a frame), throws away and searches again an answer an edit
//! overtook, and answers with a route ([`Answer`]) or a [`PathFailed`]. This module only decides
//! where each agent goes and takes the answers into its [`Route`].

use super::route::{Route, RouteState};
use super::stats::AgentStats;
use super::{AgentGoal, AgentSettings, Steering};
use crate::planner::PlannerSettings;
use crate::world::agents::{Agent, AgentPos, random_free_cell_near};
use crate::world::generators::rng::Rng;
use crate::world::markers::{Goal, MarkerCell};
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use bevy_gridpath::{PathFailed, PathFailure, PathRequest, PathService, Route as Answer};
use gridpath::{Grid, Movement, Point};

/// Picks wanderers' targets.
#[derive(Resource)]
pub struct WanderRng(pub Rng);

impl Default for WanderRng {
    fn default() -> Self {
        Self(Rng::new(0x3A9D))
    }
}

/// The cell to plan from: the one the agent is heading for when it may still go there, else the
/// one it stands on. Planning from the next cell lets it keep walking while the search runs.
pub fn plan_from(route: &Route, pos: AgentPos, grid: &Grid, movement: Movement) -> Point {
    let here = pos.cell();
    match route.heading() {
        Some(next) if route.state == RouteState::Walking && !route.hold => {
            if next == here || movement.step_cost(grid, here, next).is_some() {
                next
            } else {
                here
            }
        }
        _ => here,
    }
}

/// Asks the service for routes for the agents that asked longest ago, a frame's budget of them:
/// the service starts that many searches a frame, so a request waits little there, and the cell
/// it plans from is still near the agent when its route comes back.
pub(super) fn start_requests(
    settings: Res<AgentSettings>,
    planner: Res<PlannerSettings>,
    nav: Res<NavGrid>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut service: ResMut<PathService>,
    mut rng: ResMut<WanderRng>,
    mut agents: Query<(Entity, &AgentPos, &mut Route), With<Agent>>,
    mut commands: Commands,
) {
    if service.budget != settings.budget {
        service.budget = settings.budget;
    }
    let flow_chasing =
        settings.goal == AgentGoal::Chase && settings.steering == Steering::FlowField;
    let mut waiting: Vec<(u64, Entity)> = agents
        .iter()
        .filter(|(_, _, r)| !r.in_flight)
        .filter_map(|(e, _, r)| Some((r.wanted?, e)))
        .collect();
    waiting.sort_unstable();
    let movement = planner.search.movement;
    for (_, entity) in waiting.into_iter().take(settings.budget.max(1)) {
        let Ok((_, &pos, mut route)) = agents.get_mut(entity) else {
            continue;
        };
        route.wanted = None;
        if flow_chasing {
            continue; // the flow field steers it: no search
        }
        let to = match settings.goal {
            AgentGoal::Chase => goal.0,
            AgentGoal::Wander => match route.target.filter(|t| nav.is_passable(*t)) {
                Some(t) if route.state != RouteState::Arrived => t,
                _ => match random_free_cell_near(&mut rng.0, &nav, pos.cell()) {
                    Some(t) => t,
                    None => continue,
                },
            },
        };
        let from = plan_from(&route, pos, nav.grid(), movement);
        route.in_flight = true;
        route.target = Some(to);
        if route.state == RouteState::Arrived {
            route.state = RouteState::Waiting;
        }
        let request = PathRequest::new(from, to).with_movement(movement);
        commands.entity(entity).insert(request);
    }
}

/// How many stops in a row a wanderer tries before it calls itself stuck: one without a way may
/// lie in a walled-off room, and another may not.
const WANDER_TRIES: u32 = 3;

/// Takes the service's answers into the agents' routes.
pub(super) fn collect_routes(
    settings: Res<AgentSettings>,
    service: Res<PathService>,
    mut stats: ResMut<AgentStats>,
    mut agents: Query<
        (Entity, &mut Route, Option<&mut Answer>, Option<&PathFailed>),
        Or<(With<Answer>, With<PathFailed>)>,
    >,
    mut commands: Commands,
) {
    stats.discarded = service.stats().discarded;
    for (entity, mut route, answer, failed) in &mut agents {
        commands.entity(entity).remove::<(Answer, PathFailed)>();
        route.in_flight = false;
        if let Some(mut answer) = answer {
            stats.planned(answer.micros);
            adopt(&mut route, &mut answer);
            continue;
        }
        match failed.map(|f| f.reason) {
            Some(PathFailure::Cancelled) | None => route.want(),
            Some(_) => {
                route.failures += 1;
                route.clear();
                if settings.goal == AgentGoal::Wander && route.failures < WANDER_TRIES {
                    route.target = None; // somewhere else, then
                    route.state = RouteState::Waiting;
                    route.want();
                } else {
                    route.state = RouteState::Stuck;
                }
            }
        }
    }
}

/// The agent walked on while the search ran: it joins the new route where it is heading.
fn adopt(route: &mut Route, answer: &mut Answer) {
    let from = answer.request.from;
    let start = match route
        .heading()
        .filter(|_| route.state == RouteState::Walking)
    {
        Some(h) if h != from => answer.cells.iter().position(|&c| c == h),
        _ => Some(0),
    };
    match start {
        Some(k) => {
            let (cells, costs) = (
                std::mem::take(&mut answer.cells),
                std::mem::take(&mut answer.costs),
            );
            route.adopt(cells, costs, answer.request.to);
            route.next = k;
        }
        None => route.want(),
    }
}
