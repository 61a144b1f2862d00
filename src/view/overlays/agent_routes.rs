//! Each agent's remaining route, a thin line in its colour from where it is to its target, and a
//! red ring around an agent that is stuck. Flow-field chasers have no route of their own: theirs
//! is the field's way from where they stand (its first cells).

use super::{AgentRouteGizmos, OnScreen};
use crate::agents::{AgentGoal, AgentSettings, Route, RouteState, Steering};
use crate::planner::flow::GoalField;
use crate::view::palette;
use crate::world::agents::{Agent, AgentPos};
use crate::world::layout::TILE;
use crate::world::nav::NavGrid;
use bevy::prelude::*;

/// The most cells of a flow-field chaser's way drawn.
const FLOW_ROUTE_CELLS: usize = 64;

pub(super) fn draw_agent_routes(
    screen: OnScreen,
    settings: Res<AgentSettings>,
    goal_field: Res<GoalField>,
    nav: Option<Res<NavGrid>>,
    agents: Query<(&Agent, &AgentPos, &Route)>,
    mut gizmos: Gizmos<AgentRouteGizmos>,
) {
    let (Some(on_screen), Some(nav)) = (screen.cells(), nav) else {
        return;
    };
    let layout = on_screen.layout;
    let flow = settings.goal == AgentGoal::Chase && settings.steering == Steering::FlowField;
    for (agent, pos, route) in &agents {
        if route.state == RouteState::Stuck {
            let ring = Isometry2d::from_translation(layout.position_of(pos.0));
            gizmos.circle_2d(ring, TILE * 0.7, palette::STUCK);
            continue;
        }
        if !settings.show_routes {
            continue;
        }
        let color = Color::hsla(agent.hue, 0.8, 0.6, 0.7);
        let here = std::iter::once(layout.position_of(pos.0));
        if flow {
            let grid = nav.grid();
            let way =
                std::iter::successors(Some(pos.cell()), |&p| goal_field.field.next_step(grid, p));
            let cells = way.skip(1).take(FLOW_ROUTE_CELLS);
            gizmos.linestrip_2d(here.chain(cells.map(|c| layout.cell_center(c))), color);
        } else if let Some(rest) = route.cells.get(route.next..) {
            gizmos.linestrip_2d(
                here.chain(rest.iter().map(|&c| layout.cell_center(c))),
                color,
            );
        }
    }
}
