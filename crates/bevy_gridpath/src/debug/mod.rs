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
//!
//! The grid and the walls are drawn for what the first 2D camera shows, and thinned out as it
//! zooms out, so a 1,500 × 650 map seen whole costs no more than a small one and does not drown
//! in lines: grid lines stay a few pixels apart, and walls get a box each only while cells are
//! big enough to see; smaller, only the edges of wall regions are drawn, fading out.

mod grid;
mod groups;
mod links;
mod on_screen;
mod routes;
mod tactics;
mod walls;

pub use groups::{
    DebugColors, FlowFieldGizmos, LinkGizmos, NavGridGizmos, ObstacleGizmos, RouteColor,
    RouteGizmos, TacticsGizmos,
};
pub use on_screen::{OnScreen, Shown};

use bevy::prelude::*;

/// Draws the grid, its walls, its links, the routes, the flow fields, ranges and fields of view
/// with gizmos.
pub struct GridPathDebugPlugin;

impl Plugin for GridPathDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_gizmo_group::<NavGridGizmos>()
            .init_gizmo_group::<ObstacleGizmos>()
            .init_gizmo_group::<RouteGizmos>()
            .init_gizmo_group::<FlowFieldGizmos>()
            .init_gizmo_group::<TacticsGizmos>()
            .init_gizmo_group::<LinkGizmos>()
            .init_resource::<DebugColors>()
            .add_systems(Startup, busy_overlays_off_by_default)
            .add_systems(
                PostUpdate,
                (
                    grid::draw_grid.run_if(enabled::<NavGridGizmos>),
                    walls::draw_walls.run_if(enabled::<ObstacleGizmos>),
                    routes::draw_routes.run_if(enabled::<RouteGizmos>),
                    routes::draw_flow_fields.run_if(enabled::<FlowFieldGizmos>),
                    tactics::draw_tactics.run_if(enabled::<TacticsGizmos>),
                    links::draw_links.run_if(enabled::<LinkGizmos>),
                )
                    .in_set(crate::plugin::GridPathSystems::Draw),
            );
    }
}

fn busy_overlays_off_by_default(mut store: ResMut<GizmoConfigStore>) {
    store.config_mut::<NavGridGizmos>().0.enabled = false;
    store.config_mut::<FlowFieldGizmos>().0.enabled = false;
}

/// An overlay switched off is not even walked.
fn enabled<G: GizmoConfigGroup>(store: Res<GizmoConfigStore>) -> bool {
    store.config::<G>().0.enabled
}
