//! Walking: each agent moves towards the next cell of its route, at its speed divided by the cost
//! of the cell it stands on, so mud and water slow it visibly. Before each step it checks the
//! step is still legal on the grid as it is now (no wall, no corner the rules forbid); if not, it
//! goes back to the centre of its cell and waits for its new route. So it never enters a wall,
//! whatever a route planned on an older grid says.
//!
//! Chasers steered by the flow field have no route of their own: at each cell centre they take
//! the field's step towards the goal.

use super::route::{Facing, Route, RouteState};
use super::{AgentGoal, AgentSettings, Steering};
use crate::planner::PlannerSettings;
use crate::planner::flow::GoalField;
use crate::world::agents::{Agent, AgentPos};
use crate::world::markers::{Goal, MarkerCell};
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::{Cell, Grid, Point};

/// A cell centre as a position.
fn centre(p: Point) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

pub(super) fn walk(
    time: Res<Time>,
    nav: Res<NavGrid>,
    settings: Res<AgentSettings>,
    planner: Res<PlannerSettings>,
    goal_field: Res<GoalField>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut agents: Query<(&Agent, &mut AgentPos, &mut Route, &mut Facing)>,
) {
    let dt = time.delta_secs();
    let grid = nav.grid();
    let movement = planner.search.movement;
    let flow = (settings.goal == AgentGoal::Chase && settings.steering == Steering::FlowField)
        .then_some(&*goal_field)
        .filter(|f| f.is_for(movement));
    for (agent, mut pos, mut route, mut facing) in &mut agents {
        let mut budget = agent.speed * dt; // in cost-1 cells
        // A few cells per frame at most: enough for any speed the panel offers.
        for _ in 0..4 {
            if let Some(field) = flow {
                follow_field(&mut route, *pos, grid, field, goal.0);
            }
            let Some(next) = route.heading() else {
                break;
            };
            let here = pos.cell();
            let allowed = next == here || movement.step_cost(grid, here, next).is_some();
            let aim = if allowed { next } else { here };
            if !allowed {
                route.hold = true;
                route.want();
            }
            let cost = match grid.cell(here) {
                Some(Cell::Passable(c)) => c as f32,
                _ => 1.0,
            };
            let to_go = centre(aim) - pos.0;
            let distance = to_go.length();
            let reach = budget / cost;
            if distance > 1e-6 {
                facing.0 = to_go / distance;
            }
            if reach < distance {
                pos.0 += to_go / distance * reach;
                break;
            }
            pos.0 = centre(aim);
            budget -= distance * cost;
            if !allowed || route.hold {
                break; // wait here for the new route
            }
            route.next += 1;
        }
        if flow.is_none() && route.state == RouteState::Walking && route.next >= route.cells.len() {
            arrive(&mut route, settings.goal);
        }
    }
}

/// At the end of its route: a chaser waits at the goal, a wanderer asks for a new target.
fn arrive(route: &mut Route, goal: AgentGoal) {
    route.clear();
    route.state = RouteState::Arrived;
    if goal == AgentGoal::Wander {
        route.want();
    }
}

/// A flow-field chaser at a cell centre takes the field's next step (or has arrived, or is stuck).
fn follow_field(route: &mut Route, pos: AgentPos, grid: &Grid, field: &GoalField, goal: Point) {
    let here = pos.cell();
    if route.heading().is_some() && pos.0 != centre(here) {
        return; // still on its way to a cell
    }
    let step = field.field.next_step(grid, here);
    route.cells.clear();
    route.costs.clear();
    route.next = 1;
    route.target = Some(goal);
    route.hold = false;
    route.state = match step {
        Some(next) => {
            route.cells.extend([here, next]);
            RouteState::Walking
        }
        None if field.field.cost(here) == Some(0.0) => RouteState::Arrived,
        None => RouteState::Stuck,
    };
}

/// Flow-field chasers need the goal's field: ask the planner for it while there are any.
pub(super) fn ask_for_the_goal_field(
    settings: Res<AgentSettings>,
    agents: Query<(), With<Agent>>,
    mut goal_field: ResMut<GoalField>,
) {
    let wanted = settings.goal == AgentGoal::Chase
        && settings.steering == Steering::FlowField
        && !agents.is_empty();
    if goal_field.for_agents != wanted {
        goal_field.for_agents = wanted;
    }
}
