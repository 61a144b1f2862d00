//! The mouse, as the world sees it: a world position and whether the UI has it.
//!
//! Input systems read these two resources instead of the window and the camera, so headless
//! tests can drive the real systems by setting them. The window-side system that fills them in
//! lives in the camera module.

use bevy::prelude::*;

/// The cursor's position in world coordinates, or `None` when it is outside the window.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct PointerWorld(pub Option<Vec2>);

/// True while the pointer is over the side panel, or egui claims it (a widget in use, a popup
/// under it). Input systems must leave the pointer alone then.
///
/// bevy_egui 0.42 does not count hovering a panel as "egui wants the pointer", so the camera
/// module works this out every frame from the cursor's position *now* and the panel's width,
/// plus [`UiPointerClaim`]. (Using last frame's hover alone would refuse a press that arrives on
/// the map in the same instant as the cursor.)
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointerOverUi(pub bool);

/// egui's own claim on the pointer, as of its last pass: a widget being dragged, or a popup or
/// window under the cursor. The panel writes it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct UiPointerClaim(pub bool);

/// True while a text field of the panel has the keyboard, so shortcuts keep out of its way.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyboardOverUi(pub bool);

/// Run condition: the pointer belongs to the map, not the UI.
pub fn pointer_on_map(over_ui: Res<PointerOverUi>) -> bool {
    !over_ui.0
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PointerWorld>()
        .init_resource::<PointerOverUi>()
        .init_resource::<KeyboardOverUi>()
        .init_resource::<UiPointerClaim>();
}
