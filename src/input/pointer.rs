//! The mouse, as the world sees it: a world position, and whether the UI has it.
//!
//! [`track_pointer`] fills these in from the window and the camera each frame. Input systems
//! read the resources, never the window, so headless tests drive them by setting the resources.

use crate::AppSystems;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// The cursor's position in world coordinates, or `None` when it is outside the window.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct PointerWorld(pub Option<Vec2>);

/// True while the pointer is over the side panel, or egui claims it (a widget in use, a popup
/// under it). Input systems must leave the pointer alone then.
///
/// bevy_egui 0.42 does not count hovering a panel as "egui wants the pointer", so
/// [`track_pointer`] works this out every frame from the cursor's position *now* and the panel's
/// width ([`UiInsets`]), plus [`UiPointerClaim`]. (Using last frame's hover alone would refuse a
/// press that arrives on the map in the same instant as the cursor.)
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointerOverUi(pub bool);

/// egui's own claim on the pointer, as of its last pass: a widget being dragged, or a popup or
/// window under the cursor. The panel writes it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct UiPointerClaim(pub bool);

/// True while a text field of the panel has the keyboard, so shortcuts keep out of its way.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyboardOverUi(pub bool);

/// Screen space taken by the UI, in logical pixels. The panel writes it every frame; the pointer
/// and the camera read it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct UiInsets {
    pub left: f32,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PointerWorld>()
        .init_resource::<PointerOverUi>()
        .init_resource::<KeyboardOverUi>()
        .init_resource::<UiPointerClaim>()
        .init_resource::<UiInsets>()
        .add_systems(
            Update,
            track_pointer
                .in_set(AppSystems::ReadInput)
                .run_if(any_with_component::<PrimaryWindow>),
        );
}

/// Cursor (window pixels) to world position, and whether the UI has the pointer right now.
pub fn track_pointer(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera2d>>,
    insets: Res<UiInsets>,
    claim: Res<UiPointerClaim>,
    mut pointer: ResMut<PointerWorld>,
    mut over_ui: ResMut<PointerOverUi>,
) {
    let (camera, camera_transform) = *camera;
    let cursor = window.cursor_position();
    let world = cursor.and_then(|c| camera.viewport_to_world_2d(camera_transform, c).ok());
    if pointer.0 != world {
        pointer.0 = world;
    }
    let over_panel = cursor.is_some_and(|c| c.x <= insets.left);
    over_ui.set_if_neq(PointerOverUi(over_panel || claim.0));
}
