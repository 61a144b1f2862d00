//! Gizmo overlays drawn over the tilemap. The grid lines, the wall outlines and the agents'
//! routes are the `bevy_gridpath` debug plugin's, as a game would have them (`NavGridGizmos`,
//! `ObstacleGizmos`, `RouteGizmos`, in the app's colours, each agent's route in its own:
//! `RouteColor`). The teaching overlays are the app's own, one per file: the search's frontier
//! and current cell (with g, h and f written on cells when zoomed in), the path, and the goal's
//! flow field (its arrows here, its costs as a tint), the clearance (how big a unit fits on
//! each cell), and the tactics view's way to the goal by turns and zones of control (the unit's
//! range and sight are the debug plugin's `TacticsGizmos`). The explored cells are a tint of the tiles
//! themselves (see `explored_tint`).
//!
//! Each overlay is its own `GizmoConfigGroup`. Switching one off disables its group, and its
//! drawing system then does not run at all. Drawing is culled to the visible part of the map and
//! thinned out when zoomed out, so a 512×512 map costs about as much as a small one (the debug
//! plugin's grid and walls do the same).

mod classes;
mod clearance;
mod flow;
mod frontier;
pub mod grid_graph;
mod groups;
mod path;
mod tactics;

pub use groups::{ClearanceGizmos, FlowGizmos, FrontierGizmos, GridGraphGizmos, PathGizmos};

use crate::agents::AgentSettings;
use crate::editing::{Scene, SceneLoaded};
use crate::frame::AppSystems;
use crate::lifelong::LifelongScene;
use crate::mapf::ShownPlan;
use crate::planner::classes::ClassesSettings;
use crate::planner::flow::GoalField;
use crate::planner::tactics::TacticsSettings;
use crate::view::palette;
use bevy::prelude::*;
use bevy_gridpath::{
    DebugColors, GridPathDebugPlugin, NavGridGizmos, ObstacleGizmos, RouteGizmos, TacticsGizmos,
};

/// How the explored cells are coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExploredColoring {
    /// Early expansions light, late ones dark: the order the search worked in.
    #[default]
    Order,
    /// By cost from the start (g): cheap light, expensive dark.
    Cost,
}

/// Which overlays are on. The panel edits it; `apply_overlay_settings` passes it to the gizmos.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlaySettings {
    pub grid: bool,
    pub obstacles: bool,
    pub path: bool,
    pub explored: bool,
    pub explored_coloring: ExploredColoring,
    pub frontier: bool,
    /// How big a unit fits on each cell (see `clearance`).
    pub clearance: bool,
}

impl Default for OverlaySettings {
    fn default() -> Self {
        Self {
            grid: true,
            obstacles: true,
            path: true,
            explored: true,
            explored_coloring: ExploredColoring::Order,
            frontier: true,
            clearance: false,
        }
    }
}

pub(crate) fn plugin(app: &mut App) {
    // The grid, the walls and the agents' routes come from the plugin's debug overlays, in the
    // app's colours.
    app.add_plugins(GridPathDebugPlugin)
        .insert_resource(DebugColors {
            grid: palette::GRID,
            wall: palette::OBSTACLE,
            stuck: palette::STUCK,
            range: palette::RANGE,
            sight: palette::SIGHT,
            ..default()
        })
        .init_resource::<OverlaySettings>()
        .insert_gizmo_config(NavGridGizmos, line_config(1.0))
        .insert_gizmo_config(ObstacleGizmos, line_config(1.5))
        .insert_gizmo_config(PathGizmos, line_config(5.0))
        .insert_gizmo_config(FrontierGizmos, line_config(2.0))
        .insert_gizmo_config(FlowGizmos, line_config(1.5))
        .insert_gizmo_config(GridGraphGizmos, line_config(2.0))
        .insert_gizmo_config(ClearanceGizmos, line_config(1.5))
        .insert_gizmo_config(TacticsGizmos, line_config(2.0))
        .insert_gizmo_config(groups::ClassRouteGizmos, line_config(3.0))
        .init_resource::<clearance::ShownClearance>()
        .init_resource::<grid_graph::GridGraphOverlay>()
        .insert_gizmo_config(RouteGizmos { flow_ways: true }, line_config(1.5))
        .add_systems(
            Update,
            (
                quiet_search_in_the_tactics_scene,
                quiet_search_for_the_classes_view,
                apply_overlay_settings,
                flow::draw_flow.run_if(|field: Res<GoalField>| field.enabled),
                frontier::draw_frontier.run_if(group_enabled::<FrontierGizmos>),
                path::draw_path.run_if(group_enabled::<PathGizmos>),
                grid_graph::draw_grid_graph.run_if(|on: Res<grid_graph::GridGraphOverlay>| on.0),
                clearance::draw_clearance.run_if(|o: Res<OverlaySettings>| o.clearance),
                tactics::draw_turns_and_zones.run_if(|t: Res<TacticsSettings>| t.enabled),
                classes::draw_class_routes.run_if(|c: Res<ClassesSettings>| c.enabled),
            )
                .chain()
                .in_set(AppSystems::Draw),
        );
}

fn line_config(width: f32) -> GizmoConfig {
    GizmoConfig {
        line: GizmoLineConfig { width, ..default() },
        ..default()
    }
}

fn group_enabled<G: GizmoConfigGroup>(store: Res<GizmoConfigStore>) -> bool {
    store.config::<G>().0.enabled
}

/// The tactics scene is about a unit's range and turns: the search's explored cells, frontier
/// and path are switched off (the View section switches them back on).
fn quiet_search_in_the_tactics_scene(
    mut loaded: MessageReader<SceneLoaded>,
    mut settings: ResMut<OverlaySettings>,
) {
    if loaded.read().any(|s| s.0 == Scene::Tactics) {
        settings.explored = false;
        settings.frontier = false;
        settings.path = false;
    }
}

/// The classes view draws four routes: the search's explored cells, frontier and path are
/// switched off when it is switched on (the View section switches them back on).
fn quiet_search_for_the_classes_view(
    classes: Res<ClassesSettings>,
    mut settings: ResMut<OverlaySettings>,
    mut was_on: Local<bool>,
) {
    if classes.enabled && !*was_on {
        settings.explored = false;
        settings.frontier = false;
        settings.path = false;
    }
    *was_on = classes.enabled;
}

/// Passes the settings to the gizmo groups. While a multi-agent plan plays or a lifelong run is
/// on, the one search's path and frontier step aside: they are about one agent between the
/// markers, not about many.
fn apply_overlay_settings(
    settings: Res<OverlaySettings>,
    agents: Res<AgentSettings>,
    plan: Res<ShownPlan>,
    lifelong: Res<LifelongScene>,
    mut store: ResMut<GizmoConfigStore>,
) {
    if !(settings.is_changed() || agents.is_changed() || plan.is_changed() || lifelong.is_changed())
    {
        return;
    }
    let search = plan.0.is_none() && lifelong.0.is_none();
    store.config_mut::<NavGridGizmos>().0.enabled = settings.grid;
    store.config_mut::<ObstacleGizmos>().0.enabled = settings.obstacles;
    store.config_mut::<RouteGizmos>().0.enabled = agents.show_routes;
    store.config_mut::<PathGizmos>().0.enabled = settings.path && search;
    store.config_mut::<FrontierGizmos>().0.enabled = settings.frontier && search;
}
