//! How the markers look: a green disc for the start, a red one for the goal.

use crate::frame::AppSystems;
use crate::view::{palette, textures};
use crate::world::layout::TILE;
use crate::world::markers::Marker;
use bevy::prelude::*;

/// Markers never shrink below this many pixels across, so they stay visible on big maps.
const MIN_MARKER_PX: f32 = 14.0;

pub(super) fn plugin(app: &mut App) {
    app.add_observer(dress_marker)
        .add_systems(Update, keep_markers_visible.in_set(AppSystems::Draw));
}

fn keep_markers_visible(
    camera: Query<&Projection, With<Camera2d>>,
    mut markers: Query<&mut Transform, With<Marker>>,
) {
    let Some(Projection::Orthographic(ortho)) = camera.iter().next() else {
        return;
    };
    let on_screen = TILE * 1.15 / ortho.scale;
    let scale = (MIN_MARKER_PX / on_screen).max(1.0);
    for mut t in &mut markers {
        if t.scale.x != scale {
            t.scale = Vec3::new(scale, scale, 1.0);
        }
    }
}

fn dress_marker(
    add: On<Add, Marker>,
    markers: Query<&Marker>,
    mut images: ResMut<Assets<Image>>,
    mut commands: Commands,
) {
    let Ok(marker) = markers.get(add.entity) else {
        return;
    };
    let fill = match marker {
        Marker::Start => palette::START,
        Marker::Goal => palette::GOAL,
    };
    commands.entity(add.entity).insert(Sprite {
        image: images.add(textures::marker_disc(fill)),
        custom_size: Some(Vec2::splat(TILE * 1.15)),
        ..default()
    });
}
