//! How the markers look: a green disc for the start, a red one for the goal.

use crate::layout::TILE;
use crate::markers::Marker;
use crate::textures;
use bevy::prelude::*;

pub const START_COLOR: [u8; 4] = [40, 190, 70, 255];
pub const GOAL_COLOR: [u8; 4] = [220, 50, 50, 255];

pub(super) fn plugin(app: &mut App) {
    app.add_observer(dress_marker);
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
        Marker::Start => START_COLOR,
        Marker::Goal => GOAL_COLOR,
    };
    commands.entity(add.entity).insert(Sprite {
        image: images.add(textures::marker_disc(fill)),
        custom_size: Some(Vec2::splat(TILE * 1.15)),
        ..default()
    });
}
