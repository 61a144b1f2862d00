//! The unit classes view on the map: each class's way from the start to the goal in its colour,
//! shifted a little apart so that routes over the same cells all show.

use crate::planner::classes::ClassRoutes;
use crate::view::palette;
use crate::world::layout::TILE;
use bevy::prelude::*;
use bevy_gridpath::debug::OnScreen;

use super::groups::ClassRouteGizmos;

pub(super) fn draw_class_routes(
    screen: OnScreen,
    routes: Res<ClassRoutes>,
    mut gizmos: Gizmos<ClassRouteGizmos>,
) {
    let Some(nav) = screen.nav() else {
        return;
    };
    let layout = nav.layout();
    for (k, class) in routes.routes.iter().enumerate() {
        let Ok(path) = &class.route else {
            continue;
        };
        let shift = Vec2::splat((k as f32 - 1.5) * TILE * 0.12);
        let color = palette::CLASSES[k % palette::CLASSES.len()];
        let world = path.cells.iter().map(|&p| layout.to_world(p) + shift);
        gizmos.linestrip_2d(world, color);
    }
}
