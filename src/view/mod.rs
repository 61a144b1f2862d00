//! Drawing: the camera, the tilemap, the explored tint, the marker and agent sprites and the
//! gizmo overlays. Everything here reads the world and the planner's shown search; nothing here
//! changes them.

pub mod agent_sprites;
pub mod camera;
pub mod explored_tint;
pub mod lifelong_robots;
pub mod mapf_agents;
pub mod marker_sprites;
pub mod overlays;
pub mod palette;
pub mod textures;
pub mod tilemap;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(palette::BACKGROUND))
        .add_plugins((
            camera::plugin,
            tilemap::plugin,
            explored_tint::plugin,
            marker_sprites::plugin,
            agent_sprites::plugin,
            mapf_agents::plugin,
            lifelong_robots::plugin,
            overlays::plugin,
        ));
}
