//! The navigation grid, from `bevy_gridpath`, exactly as a game uses it: walls are entities with
//! [`Obstacle`] and [`CellPos`], and the plugin's observers keep the [`NavGrid`] in step with them.
//! What the app adds is its ground layer ([`GroundMap`]), copied in cell by cell as it is painted,
//! and its rule that a wall the grid ignores (a second one on a cell, or one outside the map) is
//! despawned, so the grid stays the single source of truth for what the planner sees.

use crate::frame::AppSystems;
use crate::world::layout::MapLayout;
use crate::world::terrain::{Ground, GroundChanged, GroundMap};
use bevy::prelude::*;
pub use bevy_gridpath::{CellPos, NavGrid, NavLink, Obstacle, ObstacleIgnored, path_touches};
use gridpath::movingai::MapShape;

/// A grid with this ground and no walls yet (the plugin's observers add them), laid out where
/// the map's tiles are (rows run down the screen), so the plugin's overlays fall on them.
pub fn nav_from_ground(
    ground: &GroundMap,
    shape: MapShape,
) -> Result<NavGrid, gridpath::GridError> {
    let map = MapLayout::shaped(ground.width(), ground.height(), shape);
    let mut nav = NavGrid::new(ground.width(), ground.height())?.with_layout(map.grid());
    for i in 0..nav.grid().len() {
        let p = nav.grid().point_of(i);
        if let Some(cost) = ground.cost(p) {
            nav.set_ground_cost(p, cost);
            nav.set_terrain(p, Ground::from_cost(cost).terrain());
        }
    }
    Ok(nav)
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<GroundChanged>()
        .add_observer(despawn_ignored_walls)
        .add_systems(Update, follow_ground.in_set(AppSystems::Derive));
}

/// Copies changed ground costs into the grid.
fn follow_ground(
    mut changes: MessageReader<GroundChanged>,
    ground: Option<Res<GroundMap>>,
    nav: Option<ResMut<NavGrid>>,
) {
    let (Some(ground), Some(mut nav)) = (ground, nav) else {
        changes.clear();
        return;
    };
    for GroundChanged(p) in changes.read() {
        if let Some(cost) = ground.cost(*p) {
            nav.set_ground_cost(*p, cost);
            nav.set_terrain(*p, Ground::from_cost(cost).terrain());
        }
    }
}

/// A wall outside the map, or on a cell that has one, is removed.
fn despawn_ignored_walls(ignored: On<ObstacleIgnored>, mut commands: Commands) {
    commands.entity(ignored.entity).despawn();
}
