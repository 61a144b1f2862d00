//! The camera: it frames the map in the part of the window beside the side panel, and keeps it
//! framed when the window or the panel changes size. It also turns the cursor into a world
//! position for the input systems ([`PointerWorld`]).

use crate::AppSystems;
use crate::layout::MapLayout;
use crate::pointer::PointerWorld;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// Screen space taken by the UI, in logical pixels. The panel writes it every frame.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct UiInsets {
    pub left: f32,
}

/// Empty space kept around the framed map, in logical pixels.
const MARGIN: f32 = 16.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<UiInsets>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, track_pointer.in_set(AppSystems::ReadInput))
        .add_systems(Update, fit_map.in_set(AppSystems::Draw));
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Name::new("Camera"), Camera2d));
}

/// Scale and position the camera so that the whole map shows, centred, in the window area right
/// of the panel.
fn fit_map(
    layout: Option<Res<MapLayout>>,
    insets: Res<UiInsets>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let Some(layout) = layout else { return };
    let (mut transform, mut projection) = camera.into_inner();
    let Projection::Orthographic(ortho) = &mut *projection else {
        return;
    };
    let s = window.scale_factor();
    let panel = insets.left * s;
    let avail = Vec2::new(
        window.physical_width() as f32 - panel,
        window.physical_height() as f32,
    ) - Vec2::splat(2.0 * MARGIN * s);
    if avail.x < 1.0 || avail.y < 1.0 {
        return; // window too small to show anything: keep the last framing
    }
    let map = layout.world_size();
    let scale = (map.x / avail.x).max(map.y / avail.y); // world units per physical pixel
    let centre = Vec2::new(-panel / 2.0 * scale, 0.0);
    if ortho.scale != scale {
        ortho.scale = scale;
    }
    if transform.translation.truncate() != centre {
        transform.translation.x = centre.x;
        transform.translation.y = centre.y;
    }
}

/// Cursor (window pixels) to world position.
fn track_pointer(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera2d>>,
    mut pointer: ResMut<PointerWorld>,
) {
    let (camera, camera_transform) = *camera;
    let world = window
        .cursor_position()
        .and_then(|c| camera.viewport_to_world_2d(camera_transform, c).ok());
    if pointer.0 != world {
        pointer.0 = world;
    }
}
