//! The mouse, as the world sees it: a world position and whether the UI has it.
//!
//! Input systems read these two resources instead of the window and the camera, so headless
//! tests can drive the real systems by setting them. The window-side system that fills them in
//! lives in the camera module.

use bevy::prelude::*;

/// The cursor's position in world coordinates, or `None` when it is outside the window.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct PointerWorld(pub Option<Vec2>);

/// True while the pointer is over the side panel or an egui widget is using it. The panel sets
/// it, because bevy_egui 0.42 does not count hovering a panel as "egui wants the pointer".
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointerOverUi(pub bool);

/// Run condition: the pointer belongs to the map, not the UI.
pub fn pointer_on_map(over_ui: Res<PointerOverUi>) -> bool {
    !over_ui.0
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PointerWorld>()
        .init_resource::<PointerOverUi>();
}
