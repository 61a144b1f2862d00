//! What the plugin sees, drawn with gizmos while a game is developed: add
//! [`GridPathDebugPlugin`]. Each overlay is its own gizmo config group, so a game switches one
//! on or off (or restyles it) through `GizmoConfigStore`, as any Bevy gizmo:
//!
//! ```no_run
//! # use bevy::prelude::*;
//! # use bevy_gridpath::prelude::*;
//! fn toggle_grid(mut store: ResMut<GizmoConfigStore>) {
//!     let (config, _) = store.config_mut::<NavGridGizmos>();
//!     config.enabled = !config.enabled;
//! }
//! ```

use crate::agents::AgentProgress;
use crate::flow::FlowFields;
use crate::nav_grid::NavGrid;
use crate::requests::Route;
use bevy::prelude::*;
use gridpath::Point;

/// Draws the grid, its walls and the routes with gizmos.
pub struct GridPathDebugPlugin;

/// The grid's lines (off by default: busy on big maps).
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct NavGridGizmos;

/// The walled cells: a square with one diagonal each, so a wall reads as a wall at any zoom.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct ObstacleGizmos;

/// Every [`Route`]: what an agent has left to walk, or a whole route for other entities.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct RouteGizmos;

/// Every shared flow field ([`FlowFields`]): an arrow from each cell that can reach the
/// destination to the cell it steps to (off by default: busy on big maps).
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct FlowFieldGizmos;

impl Plugin for GridPathDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_gizmo_group::<NavGridGizmos>()
            .init_gizmo_group::<ObstacleGizmos>()
            .init_gizmo_group::<RouteGizmos>()
            .init_gizmo_group::<FlowFieldGizmos>()
            .add_systems(Startup, busy_overlays_off_by_default)
            .add_systems(
                PostUpdate,
                (draw_grid, draw_obstacles, draw_routes, draw_flow_fields)
                    .in_set(crate::GridPathSystems::Draw),
            );
    }
}

fn busy_overlays_off_by_default(mut store: ResMut<GizmoConfigStore>) {
    store.config_mut::<NavGridGizmos>().0.enabled = false;
    store.config_mut::<FlowFieldGizmos>().0.enabled = false;
}

/// Colours a game can tell apart from its own art.
const GRID: Color = Color::srgba(1.0, 1.0, 1.0, 0.12);
const WALL: Color = Color::srgb(1.0, 0.55, 0.1);
const ROUTE: Color = Color::srgb(0.2, 0.95, 0.35);
const FLOW: Color = Color::srgba(0.35, 0.75, 1.0, 0.6);

fn draw_grid(nav: Option<Res<NavGrid>>, mut gizmos: Gizmos<NavGridGizmos>) {
    let Some(nav) = nav else {
        return;
    };
    let layout = nav.layout();
    let (w, h) = (nav.width() as f32, nav.height() as f32);
    let corner = |x: f32, y: f32| layout.cells_to_world(Vec2::new(x - 0.5, y - 0.5));
    for x in 0..=nav.width() {
        gizmos.line_2d(corner(x as f32, 0.0), corner(x as f32, h), GRID);
    }
    for y in 0..=nav.height() {
        gizmos.line_2d(corner(0.0, y as f32), corner(w, y as f32), GRID);
    }
}

fn draw_obstacles(nav: Option<Res<NavGrid>>, mut gizmos: Gizmos<ObstacleGizmos>) {
    let Some(nav) = nav else {
        return;
    };
    let layout = nav.layout();
    let size = layout.step.abs() * 0.8;
    for p in nav.obstacles() {
        let centre = layout.to_world(p);
        gizmos.rect_2d(centre, size, WALL);
        gizmos.line_2d(centre - size / 2.0, centre + size / 2.0, WALL);
    }
}

fn draw_routes(
    nav: Option<Res<NavGrid>>,
    routes: Query<(&Route, Option<&AgentProgress>)>,
    mut gizmos: Gizmos<RouteGizmos>,
) {
    let Some(nav) = nav else {
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
        gizmos.linestrip_2d(points, ROUTE);
    }
}

fn draw_flow_fields(
    nav: Option<Res<NavGrid>>,
    fields: Res<FlowFields>,
    config: Res<GizmoConfigStore>,
    mut gizmos: Gizmos<FlowFieldGizmos>,
) {
    let Some(nav) = nav else {
        return;
    };
    if !config.config::<FlowFieldGizmos>().0.enabled {
        return; // a whole grid's worth of arrows: not even walked when off
    }
    let (layout, grid) = (nav.layout(), nav.grid());
    for (_, _, field) in fields.iter() {
        for y in 0..nav.height() as i32 {
            for x in 0..nav.width() as i32 {
                let p = Point::new(x, y);
                if let Some(next) = field.next_step(grid, p) {
                    let from = layout.to_world(p);
                    let to = from + (layout.to_world(next) - from) * 0.45;
                    gizmos
                        .arrow_2d(from, to, FLOW)
                        .with_tip_length(layout.step.abs().x * 0.2);
                }
            }
        }
    }
}
