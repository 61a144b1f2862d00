//! Gizmo overlays drawn over the tilemap: grid lines, obstacle outlines, the search's frontier and
//! current cell (with g, h and f written on cells when zoomed in), and the path. The explored
//! cells are a tint of the tiles themselves (see `explored_tint`).
//!
//! Each overlay is its own `GizmoConfigGroup`. Switching one off disables its group, and its
//! drawing system then does not run at all. Drawing is culled to the visible part of the map and
//! thinned out when zoomed out, so a 512×512 map costs about as much as a small one: the grid
//! draws every k-th line when lines would crowd closer than a few pixels, and obstacles are
//! outlined cell by cell only when cells are big enough to see, as merged runs otherwise.

use crate::AppSystems;
use crate::camera::Visible;
use crate::layout::{MapLayout, TILE};
use crate::nav::NavGrid;
use crate::planner::PlannerSettings;
use crate::planner::shown::{ShownSearch, ShownSearches};
use bevy::prelude::*;
use gridpath::Point;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct GridGizmos;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct ObstacleGizmos;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct PathGizmos;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct FrontierGizmos;

/// How the explored cells are coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExploredColoring {
    /// Early expansions light, late ones dark: the order the search worked in.
    #[default]
    Order,
    /// By cost from the start (g): cheap light, expensive dark.
    Cost,
}

/// Which overlays are on. The panel edits it; [`apply_overlay_settings`] passes it to the gizmos.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlaySettings {
    pub grid: bool,
    pub obstacles: bool,
    pub path: bool,
    pub explored: bool,
    pub explored_coloring: ExploredColoring,
    pub frontier: bool,
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
        }
    }
}

pub const GRID_COLOR: Color = Color::srgba(0.25, 0.25, 0.3, 0.55);
pub const OBSTACLE_COLOR: Color = Color::srgb(1.0, 0.55, 0.1);
pub const PATH_COLOR: Color = Color::srgb(0.1, 0.95, 0.2);
pub const FRONTIER_COLOR: Color = Color::srgb(0.15, 0.45, 1.0);
pub const CURRENT_COLOR: Color = Color::srgb(1.0, 0.85, 0.0);
pub const LABEL_COLOR: Color = Color::srgb(0.05, 0.05, 0.1);

/// Cells are labelled with g, h and f from this size (pixels) up.
const MIN_LABEL_CELL_PX: f32 = 56.0;
/// At most this many labels at once.
const MAX_LABELS: usize = 400;

/// Grid lines are kept at least this many pixels apart.
const MIN_GRID_SPACING_PX: f32 = 6.0;
/// Below this cell size (pixels), obstacles are drawn as merged runs instead of one box each.
const MIN_OUTLINE_CELL_PX: f32 = 6.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OverlaySettings>()
        .insert_gizmo_config(GridGizmos, line_config(1.0))
        .insert_gizmo_config(ObstacleGizmos, line_config(1.5))
        .insert_gizmo_config(PathGizmos, line_config(5.0))
        .insert_gizmo_config(FrontierGizmos, line_config(2.0))
        .add_systems(
            Update,
            (
                apply_overlay_settings,
                draw_grid.run_if(group_enabled::<GridGizmos>),
                draw_obstacles.run_if(group_enabled::<ObstacleGizmos>),
                draw_frontier.run_if(group_enabled::<FrontierGizmos>),
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
    store.config_mut::<FrontierGizmos>().0.enabled = settings.frontier;
}

/// The visible part of the map as a range of cells (inclusive), or `None` when none shows.
fn visible_cells(layout: &MapLayout, view: &Visible) -> Option<(Point, Point)> {
    let a = layout.cell_at(Vec2::new(view.world.min.x, view.world.max.y)); // top-left
    let b = layout.cell_at(Vec2::new(view.world.max.x, view.world.min.y)); // bottom-right
    let clamp = |v: i32, n: u32| v.clamp(0, n as i32 - 1);
    let min = Point::new(clamp(a.x, layout.width), clamp(a.y, layout.height));
    let max = Point::new(clamp(b.x, layout.width), clamp(b.y, layout.height));
    let overlaps = b.x >= 0 && b.y >= 0 && a.x < layout.width as i32 && a.y < layout.height as i32;
    overlaps.then_some((min, max))
}

fn camera_view(camera: &Query<(&GlobalTransform, &Projection), With<Camera2d>>) -> Option<Visible> {
    camera.iter().next().and_then(|(t, p)| Visible::of(t, p))
}

fn draw_grid(
    layout: Option<Res<MapLayout>>,
    camera: Query<(&GlobalTransform, &Projection), With<Camera2d>>,
    mut gizmos: Gizmos<GridGizmos>,
) {
    let (Some(layout), Some(view)) = (layout, camera_view(&camera)) else {
        return;
    };
    let Some((min, max)) = visible_cells(&layout, &view) else {
        return;
    };
    // Every k-th line, k a power of two, so lines stay legible when zoomed out.
    let mut k = 1;
    while (k as f32) * view.cell_pixels < MIN_GRID_SPACING_PX && k < 1 << 16 {
        k *= 2;
    }
    let rect = layout.world_rect();
    let half = rect.size() / 2.0;
    let (top, bottom) = (
        layout.cell_center(Point::new(0, min.y)).y + TILE / 2.0,
        layout.cell_center(Point::new(0, max.y)).y - TILE / 2.0,
    );
    let (left, right) = (
        layout.cell_center(Point::new(min.x, 0)).x - TILE / 2.0,
        layout.cell_center(Point::new(max.x, 0)).x + TILE / 2.0,
    );
    let lines =
        |from: i32, to: i32, n: u32| (from..=to + 1).filter(move |&i| i % k == 0 || i == n as i32);
    for x in lines(min.x, max.x, layout.width) {
        let wx = x as f32 * TILE - half.x;
        gizmos.line_2d(Vec2::new(wx, top), Vec2::new(wx, bottom), GRID_COLOR);
    }
    for y in lines(min.y, max.y, layout.height) {
        let wy = half.y - y as f32 * TILE;
        gizmos.line_2d(Vec2::new(left, wy), Vec2::new(right, wy), GRID_COLOR);
    }
}

fn draw_obstacles(
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    camera: Query<(&GlobalTransform, &Projection), With<Camera2d>>,
    mut gizmos: Gizmos<ObstacleGizmos>,
) {
    let (Some(layout), Some(nav), Some(view)) = (layout, nav, camera_view(&camera)) else {
        return;
    };
    let Some((min, max)) = visible_cells(&layout, &view) else {
        return;
    };
    // A blocked cell of the nav grid is exactly a cell with an obstacle: an array read, where
    // asking for the obstacle entity would be a hash lookup per cell.
    let grid = nav.grid();
    let walled = |x: i32, y: i32| !grid.is_passable(Point::new(x, y));
    if view.cell_pixels >= MIN_OUTLINE_CELL_PX {
        let size = Vec2::splat(TILE - 3.0);
        for y in min.y..=max.y {
            for x in min.x..=max.x {
                if walled(x, y) {
                    gizmos.rect_2d(layout.cell_center(Point::new(x, y)), size, OBSTACLE_COLOR);
                }
            }
        }
        return;
    }
    // Zoomed out: one line along each run of walls in a row.
    for y in min.y..=max.y {
        let mut x = min.x;
        while x <= max.x {
            if !walled(x, y) {
                x += 1;
                continue;
            }
            let start = x;
            while x <= max.x && walled(x, y) {
                x += 1;
            }
            let a = layout.cell_center(Point::new(start, y)) - Vec2::new(TILE * 0.4, 0.0);
            let b = layout.cell_center(Point::new(x - 1, y)) + Vec2::new(TILE * 0.4, 0.0);
            gizmos.line_2d(a, b, OBSTACLE_COLOR);
        }
    }
}

fn draw_path(
    layout: Option<Res<MapLayout>>,
    shown: Res<ShownSearch>,
    mut gizmos: Gizmos<PathGizmos>,
) {
    let Some(layout) = layout else { return };
    if shown.path.len() < 2 {
        return;
    }
    gizmos.linestrip_2d(
        shown.path.iter().map(|&p| layout.cell_center(p)),
        PATH_COLOR,
    );
}

/// Outlines the frontier, marks the current cell and its neighbours, and, zoomed in, writes each
/// reached cell's g, h and f on it.
fn draw_frontier(
    layout: Option<Res<MapLayout>>,
    shown: Res<ShownSearch>,
    searches: ShownSearches,
    settings: Res<PlannerSettings>,
    nav: Option<Res<NavGrid>>,
    camera: Query<(&GlobalTransform, &Projection), With<Camera2d>>,
    mut gizmos: Gizmos<FrontierGizmos>,
) {
    let (Some(layout), Some(view)) = (layout, camera_view(&camera)) else {
        return;
    };
    let Some((min, max)) = visible_cells(&layout, &view) else {
        return;
    };
    let visible = |p: &Point| p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y;
    let size = Vec2::splat(TILE - 4.0);
    for p in shown.frontier.iter().filter(|p| visible(p)) {
        gizmos.rect_2d(layout.cell_center(*p), size, FRONTIER_COLOR);
    }
    if let Some(current) = shown.current {
        let c = layout.cell_center(current);
        gizmos.rect_2d(c, Vec2::splat(TILE - 1.0), CURRENT_COLOR);
        gizmos.rect_2d(c, Vec2::splat(TILE - 5.0), CURRENT_COLOR);
        if let Some(nav) = &nav {
            // A dot in the corner of each neighbour, clear of the labels.
            for (n, _) in settings.search.movement.neighbors(nav.grid(), current) {
                let corner = layout.cell_center(n) + Vec2::new(-TILE * 0.36, TILE * 0.36);
                gizmos.circle_2d(corner, TILE * 0.07, CURRENT_COLOR);
            }
        }
    }
    if view.cell_pixels < MIN_LABEL_CELL_PX {
        return;
    }
    let Some(search) = searches.get(&shown.source) else {
        return;
    };
    let labelled = shown
        .frontier
        .iter()
        .chain(shown.explored.iter().map(|(p, _)| p));
    for p in labelled.filter(|p| visible(p)).take(MAX_LABELS) {
        let Some(node) = search.node(*p) else {
            continue;
        };
        let c = layout.cell_center(*p);
        let line =
            |i: f32| Isometry2d::from_translation(c + Vec2::new(0.0, TILE * (0.28 - 0.28 * i)));
        let size = TILE * 0.16;
        gizmos.text_2d(
            line(0.0),
            &format!("g {:.1}", node.g),
            size,
            Vec2::ZERO,
            LABEL_COLOR,
        );
        gizmos.text_2d(
            line(1.0),
            &format!("h {:.1}", node.h),
            size,
            Vec2::ZERO,
            LABEL_COLOR,
        );
        gizmos.text_2d(
            line(2.0),
            &format!("f {:.1}", node.f),
            size,
            Vec2::ZERO,
            LABEL_COLOR,
        );
    }
}
