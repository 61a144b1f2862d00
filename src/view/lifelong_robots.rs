//! How a lifelong run looks: each robot a disc in its own colour, gliding from cell to cell as
//! the run steps, and a red ring round each robot that has finished nothing for a long while
//! (starved). The search's markers step aside while a run is on screen.
//!
//! The discs are sprites, spawned once a run and moved each frame (as the MAPF plan's are).

use crate::frame::AppSystems;
use crate::lifelong::{LifelongClock, LifelongScene};
use crate::view::mapf_agents::{show_markers, spawn_discs};
use crate::view::textures;
use crate::world::layout::{MapLayout, TILE};
use crate::world::markers::Marker;
use bevy::prelude::*;

/// One robot of the run on screen.
#[derive(Component)]
struct RobotDisc(usize);

#[derive(Resource)]
struct RobotTexture(Handle<Image>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_texture).add_systems(
        Update,
        (respawn_discs, hide_markers, place_discs, ring_starved)
            .chain()
            .in_set(AppSystems::Draw),
    );
}

fn make_texture(mut images: ResMut<Assets<Image>>, mut commands: Commands) {
    commands.insert_resource(RobotTexture(images.add(textures::rimmed_disc())));
}

/// A new run (or none): one disc for each robot.
fn respawn_discs(
    scene: Res<LifelongScene>,
    discs: Query<Entity, With<RobotDisc>>,
    texture: Option<Res<RobotTexture>>,
    mut count: Local<Option<(String, usize)>>,
    mut commands: Commands,
) {
    let now = scene
        .0
        .as_ref()
        .map(|run| (run.title.clone(), run.robots()));
    if *count == now {
        return;
    }
    *count = now;
    for disc in &discs {
        commands.entity(disc).despawn();
    }
    let (Some(run), Some(texture)) = (&scene.0, texture) else {
        return;
    };
    spawn_discs(&mut commands, &texture.0, run.robots(), 0.85, RobotDisc);
}

fn hide_markers(
    scene: Res<LifelongScene>,
    mut shown: Local<bool>,
    mut markers: Query<&mut Visibility, With<Marker>>,
) {
    if *shown == scene.0.is_some() {
        return;
    }
    *shown = scene.0.is_some();
    show_markers(&mut markers, !*shown);
}

fn place_discs(
    scene: Res<LifelongScene>,
    clock: Res<LifelongClock>,
    layout: Option<Res<MapLayout>>,
    mut discs: Query<(&RobotDisc, &mut Transform)>,
) {
    let (Some(run), Some(layout)) = (&scene.0, layout) else {
        return;
    };
    for (RobotDisc(robot), mut transform) in &mut discs {
        let (Some(&a), Some(&b)) = (run.before.get(*robot), run.now.get(*robot)) else {
            continue;
        };
        let at = layout
            .cell_center(a)
            .lerp(layout.cell_center(b), clock.glide);
        transform.translation = at.extend(10.0);
    }
}

/// A red ring round each starved robot.
fn ring_starved(
    scene: Res<LifelongScene>,
    clock: Res<LifelongClock>,
    layout: Option<Res<MapLayout>>,
    mut gizmos: Gizmos,
) {
    let (Some(run), Some(layout)) = (&scene.0, layout) else {
        return;
    };
    let red = Color::srgb(0.95, 0.15, 0.15);
    for robot in (0..run.robots()).filter(|&k| run.starved(k)) {
        let (a, b) = (run.before[robot], run.now[robot]);
        let at = layout
            .cell_center(a)
            .lerp(layout.cell_center(b), clock.glide);
        gizmos.circle_2d(Isometry2d::from_translation(at), TILE * 0.75, red);
    }
}
