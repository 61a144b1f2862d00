//! Routes and flow fields.

use super::{DebugColors, FlowFieldGizmos, OnScreen, RouteGizmos};
use crate::agents::AgentProgress;
use crate::flow::FlowFields;
use crate::requests::Route;
use bevy::prelude::*;
use gridpath::Point;

pub(super) fn draw_routes(
    screen: OnScreen,
    colors: Res<DebugColors>,
    routes: Query<(&Route, Option<&AgentProgress>)>,
    mut gizmos: Gizmos<RouteGizmos>,
) {
    let Some(nav) = screen.nav.as_deref() else {
        return;
    };
    let layout = nav.layout();
    for (route, progress) in &routes {
        let cells: &[Point] = match progress {
            Some(progress) => progress.remaining(route),
            None => &route.cells,
        };
        let mut points: Vec<Vec2> = cells.iter().map(|&p| layout.to_world(p)).collect();
        if let (Some(at), Some(first)) = (
            progress.and_then(AgentProgress::position),
            points.first_mut(),
        ) {
            *first = layout.cells_to_world(at); // from the agent, not the cell it left
        }
        gizmos.linestrip_2d(points, colors.route);
    }
}

/// An arrow on each cell on screen that can reach a field's destination.
pub(super) fn draw_flow_fields(
    screen: OnScreen,
    colors: Res<DebugColors>,
    fields: Res<FlowFields>,
    mut gizmos: Gizmos<FlowFieldGizmos>,
) {
    let Some(shown) = screen.cells() else {
        return;
    };
    let (layout, grid) = (shown.nav.layout(), shown.nav.grid());
    let tip = layout.step.abs().x * 0.2;
    for (_, _, field) in fields.iter() {
        for y in shown.min.y..=shown.max.y {
            for x in shown.min.x..=shown.max.x {
                let p = Point::new(x, y);
                if let Some(next) = field.next_step(grid, p) {
                    let from = layout.to_world(p);
                    let to = from + (layout.to_world(next) - from) * 0.45;
                    gizmos.arrow_2d(from, to, colors.flow).with_tip_length(tip);
                }
            }
        }
    }
}
