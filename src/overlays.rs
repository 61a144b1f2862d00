//! Gizmo overlays drawn over the tilemap: grid lines, obstacle outlines and the path.
//!
//! Each overlay is its own `GizmoConfigGroup`. Switching one off disables its group, so Bevy
//! skips its drawing system altogether (the systems run only while their group is enabled).

use crate::AppSystems;
use crate::layout::{MapLayout, TILE};
use crate::nav::{CellPos, Obstacle};
use crate::planner::Plan;
use bevy::prelude::*;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct GridGizmos;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct ObstacleGizmos;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct PathGizmos;

/// Which overlays are on. The panel edits it; [`apply_overlay_settings`] passes it to the gizmos.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlaySettings {
    pub grid: bool,
    pub obstacles: bool,
    pub path: bool,
}

impl Default for OverlaySettings {
    fn default() -> Self {
        Self {
            grid: true,
            obstacles: true,
            path: true,
        }
    }
}

pub const GRID_COLOR: Color = Color::srgba(0.25, 0.25, 0.3, 0.55);
pub const OBSTACLE_COLOR: Color = Color::srgb(1.0, 0.55, 0.1);
pub const PATH_COLOR: Color = Color::srgb(0.1, 0.95, 0.2);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OverlaySettings>()
        .insert_gizmo_config(GridGizmos, line_config(1.0))
        .insert_gizmo_config(ObstacleGizmos, line_config(1.5))
        .insert_gizmo_config(PathGizmos, line_config(5.0))
        .add_systems(
            Update,
            (
                apply_overlay_settings,
                draw_grid.run_if(group_enabled::<GridGizmos>),
                draw_obstacles.run_if(group_enabled::<ObstacleGizmos>),
                draw_path.run_if(group_enabled::<PathGizmos>),
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

fn apply_overlay_settings(settings: Res<OverlaySettings>, mut store: ResMut<GizmoConfigStore>) {
    if !settings.is_changed() {
        return;
    }
    store.config_mut::<GridGizmos>().0.enabled = settings.grid;
    store.config_mut::<ObstacleGizmos>().0.enabled = settings.obstacles;
    store.config_mut::<PathGizmos>().0.enabled = settings.path;
}

fn draw_grid(layout: Option<Res<MapLayout>>, mut gizmos: Gizmos<GridGizmos>) {
    let Some(layout) = layout else { return };
    gizmos
        .grid_2d(
            Isometry2d::IDENTITY,
            UVec2::new(layout.width, layout.height),
            Vec2::splat(TILE),
            GRID_COLOR,
        )
        .outer_edges();
}

fn draw_obstacles(
    layout: Option<Res<MapLayout>>,
    obstacles: Query<&CellPos, With<Obstacle>>,
    mut gizmos: Gizmos<ObstacleGizmos>,
) {
    let Some(layout) = layout else { return };
    let size = Vec2::splat(TILE - 3.0);
    for cell in &obstacles {
        gizmos.rect_2d(layout.cell_center(cell.0), size, OBSTACLE_COLOR);
    }
}

fn draw_path(layout: Option<Res<MapLayout>>, plan: Res<Plan>, mut gizmos: Gizmos<PathGizmos>) {
    let Some(layout) = layout else { return };
    if plan.path.len() < 2 {
        return;
    }
    gizmos.linestrip_2d(plan.path.iter().map(|&p| layout.cell_center(p)), PATH_COLOR);
}
