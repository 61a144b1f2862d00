//! Routes and flow fields.

use super::groups::{DebugColors, FlowFieldGizmos, RouteColor, RouteGizmos};
use super::on_screen::OnScreen;
use crate::agent::{AgentProgress, AgentStatus, Destination, GridAgent};
use crate::flow::{FlowFields, SharedFlow};
use crate::requests::Route;
use bevy::prelude::*;
use gridpath::Point;

/// The most cells of a flow agent's way drawn.
const FLOW_WAY_CELLS: usize = 64;

type Drawn<'a> = (
    Option<&'a Route>,
    Option<&'a AgentProgress>,
    Option<&'a AgentStatus>,
    Option<&'a RouteColor>,
    Option<(&'a GridAgent, &'a Destination)>,
    Has<SharedFlow>,
    Option<&'a GridAgent>,
);

pub(super) fn draw_routes(
    screen: OnScreen,
    colors: Res<DebugColors>,
    fields: Res<FlowFields>,
    routes: Query<Drawn, Or<(With<Route>, With<GridAgent>)>>,
    mut gizmos: Gizmos<RouteGizmos>,
    // One list for every route, kept between frames.
    mut points: Local<Vec<Vec2>>,
) {
    let Some(nav) = screen.nav() else {
        return;
    };
    let (layout, grid) = (nav.layout(), nav.grid());
    let ring = layout.step.abs().x * 0.7;
    // Asked once a frame: the routes of a grid without links are drawn as they always were.
    let linked = grid.has_open_links();
    for (route, progress, status, color, heading, flows, agent) in &routes {
        // A unit bigger than one cell is drawn, ringed and routed from the middle of what it
        // covers.
        let offset = agent.map_or(Vec2::ZERO, GridAgent::centre_offset);
        let at = progress
            .and_then(AgentProgress::position)
            .map(|at| at + offset);
        if let (Some(AgentStatus::Stuck), Some(at)) = (status, at) {
            let centre = Isometry2d::from_translation(layout.cells_to_world(at));
            let size = agent.map_or(1.0, |a| f32::from(a.size.max(1)));
            gizmos.circle_2d(centre, ring * size, colors.stuck);
            continue;
        }
        let world = |p: Point| layout.cells_to_world(Vec2::new(p.x as f32, p.y as f32) + offset);
        points.clear();
        match (route, progress, heading) {
            // A flow agent's way: its destination's field, from where it stands.
            (_, Some(progress), Some((agent, destination))) if flows => {
                if !gizmos.config_ext.flow_ways {
                    continue;
                }
                let Some(field) = fields.get(destination.0, agent.movement) else {
                    continue;
                };
                let way =
                    std::iter::successors(Some(progress.cell()), |&p| field.next_step(grid, p));
                points.extend(way.take(FLOW_WAY_CELLS).map(world));
            }
            (Some(route), Some(progress), _) => {
                points.extend(progress.remaining(route).iter().copied().map(world));
            }
            (Some(route), None, _) => points.extend(route.cells.iter().copied().map(world)),
            (None, ..) => continue,
        }
        if let (Some(at), Some(first)) = (at, points.first_mut()) {
            *first = layout.cells_to_world(at); // from the agent, not the cell it left
        }
        // Converted once, not at every vertex (an `Hsla` costs three `powf`s), and only for a
        // way drawn.
        let color = LinearRgba::from(color.map_or(colors.route, |c| c.0));
        let movement = route.map(|r| r.request.movement());
        if let (true, Some(movement), Some(progress)) = (linked, movement, progress) {
            // The cells drawn, again (not kept for every route: only on a grid with links).
            let cells: Vec<Point> = match route {
                Some(route) if !flows => progress.remaining(route).to_vec(),
                _ => Vec::new(),
            };
            let takes_link =
                |a: Point, b: Point| movement.step_cost(grid, a, b).is_none() && a != b;
            let ends = (ring * 0.6, colors.link);
            draw_taking_links(&mut gizmos, &points, &cells, takes_link, ends, color);
            points.clear();
        } else {
            gizmos.linestrip_2d(points.drain(..), color);
        }
    }
}

/// A route on a grid with links: its line broken where it takes one (drawn by
/// [`super::links`]), with a ring at the end it arrives at, the floor it changes to. `points`
/// are `cells` in the world (or, with no cells, drawn whole).
fn draw_taking_links(
    gizmos: &mut Gizmos<RouteGizmos>,
    points: &[Vec2],
    cells: &[Point],
    takes_link: impl Fn(Point, Point) -> bool,
    (ring, ring_color): (f32, Color),
    color: LinearRgba,
) {
    let mut start = 0;
    if cells.len() == points.len() {
        for (i, w) in cells.windows(2).enumerate() {
            if takes_link(w[0], w[1]) {
                gizmos.linestrip_2d(points[start..=i].iter().copied(), color);
                let arrived = Isometry2d::from_translation(points[i + 1]);
                gizmos.circle_2d(arrived, ring, ring_color);
                start = i + 1;
            }
        }
    }
    gizmos.linestrip_2d(points[start..].iter().copied(), color);
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
