//! Each agent's remaining route, a thin line in its colour from where it is to its target, and a
//! red ring around an agent that is stuck. Flow-field chasers have no route of their own: theirs
//! is the shared field's way from where they stand (its first cells). All of it read from the
//! plugin's components, as a game's own overlay would.

use super::{AgentRouteGizmos, OnScreen};
use crate::agents::AgentSettings;
use crate::planner::PlannerSettings;
use crate::view::palette;
use crate::world::agents::{Agent, AgentPos};
use crate::world::layout::TILE;
use crate::world::markers::{Goal, MarkerCell};
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use bevy_gridpath::{AgentProgress, AgentStatus, FlowFields, Route};

/// The most cells of a flow-field chaser's way drawn.
const FLOW_ROUTE_CELLS: usize = 64;

type Walker<'a> = (
    &'a Agent,
    &'a AgentPos,
    &'a AgentStatus,
    &'a AgentProgress,
    Option<&'a Route>,
);

#[allow(clippy::too_many_arguments)]
pub(super) fn draw_agent_routes(
    screen: OnScreen,
    settings: Res<AgentSettings>,
    planner: Res<PlannerSettings>,
    fields: Res<FlowFields>,
    goal: Single<&MarkerCell, With<Goal>>,
    nav: Option<Res<NavGrid>>,
    agents: Query<Walker>,
    mut gizmos: Gizmos<AgentRouteGizmos>,
) {
    let (Some(on_screen), Some(nav)) = (screen.cells(), nav) else {
        return;
    };
    let layout = on_screen.layout;
    let field = settings
        .flow_chasing()
        .then(|| fields.get(goal.0, planner.search.movement))
        .flatten();
    for (agent, pos, status, progress, route) in &agents {
        if *status == AgentStatus::Stuck {
            let ring = Isometry2d::from_translation(layout.position_of(pos.0));
            gizmos.circle_2d(ring, TILE * 0.7, palette::STUCK);
            continue;
        }
        if !settings.show_routes {
            continue;
        }
        let color = Color::hsla(agent.hue, 0.8, 0.6, 0.7);
        let here = std::iter::once(layout.position_of(pos.0));
        if let Some(field) = field {
            let grid = nav.grid();
            let way = std::iter::successors(Some(progress.cell()), |&p| field.next_step(grid, p));
            let cells = way.skip(1).take(FLOW_ROUTE_CELLS);
            gizmos.linestrip_2d(here.chain(cells.map(|c| layout.cell_center(c))), color);
        } else if let Some(route) = route {
            // From the agent to the cell it heads for, and on.
            let rest = progress.remaining(route).iter().skip(1);
            gizmos.linestrip_2d(here.chain(rest.map(|&c| layout.cell_center(c))), color);
        }
    }
}
