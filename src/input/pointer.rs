//! The mouse, as the world sees it: a world position, and whether the UI has it.
//!
//! [`track_pointer`] fills these in from the window and the camera each frame. Input systems
//! read the resources, never the window, so headless tests drive them by setting the resources.

use crate::AppSystems;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowEvent};

/// The cursor's position in world coordinates, or `None` when it is outside the window.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct PointerWorld(pub Option<Vec2>);

/// Where the left button went down and came up this frame, in world coordinates, if it did.
///
/// A slow frame (a big re-plan, software rendering) can bring a press together with the moves
/// and the release that followed it; by the end of the frame the cursor is elsewhere. A stroke
/// or a marker drag must start where the press was and end where the release was, so
/// [`track_pointer`] replays the frame's window events in order to find them. `None` when there
/// was no such event, or it was not seen (headless tests set [`PointerWorld`] only): then the
/// cursor's position stands for it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct LeftButtonPoints {
    pub down: Option<Vec2>,
    pub up: Option<Vec2>,
}

impl LeftButtonPoints {
    /// Where this frame's press was: the recorded point, or else the cursor.
    pub fn down_or(&self, pointer: &PointerWorld) -> Option<Vec2> {
        self.down.or(pointer.0)
    }

    /// Where this frame's release was: the recorded point, or else the cursor.
    pub fn up_or(&self, pointer: &PointerWorld) -> Option<Vec2> {
        self.up.or(pointer.0)
    }
}

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
        .init_resource::<LeftButtonPoints>()
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

/// Cursor (window pixels) to world position, where this frame's press and release were, and
/// whether the UI has the pointer (judged where the press was, if there was one: it decides what
/// the press does).
pub fn track_pointer(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera2d>>,
    insets: Res<UiInsets>,
    claim: Res<UiPointerClaim>,
    mut events: MessageReader<WindowEvent>,
    mut last_seen: Local<Option<Vec2>>,
    mut pointer: ResMut<PointerWorld>,
    mut button: ResMut<LeftButtonPoints>,
    mut over_ui: ResMut<PointerOverUi>,
) {
    let (camera, camera_transform) = *camera;
    let to_world = |c: Vec2| camera.viewport_to_world_2d(camera_transform, c).ok();
    let cursor = window.cursor_position();
    let (down, up) = left_button_points(events.read(), &mut last_seen);
    if last_seen.is_none() {
        *last_seen = cursor;
    }
    let world = cursor.and_then(to_world);
    if pointer.0 != world {
        pointer.0 = world;
    }
    button.set_if_neq(LeftButtonPoints {
        down: down.and_then(to_world),
        up: up.and_then(to_world),
    });
    let judged = down.or(cursor);
    let over_panel = judged.is_some_and(|c| c.x <= insets.left);
    over_ui.set_if_neq(PointerOverUi(over_panel || claim.0));
}

/// Replays window events in order: returns where the cursor was (window pixels) when the left
/// button last went down and last came up, and keeps `last_seen` up to date with the cursor.
fn left_button_points<'a>(
    events: impl Iterator<Item = &'a WindowEvent>,
    last_seen: &mut Option<Vec2>,
) -> (Option<Vec2>, Option<Vec2>) {
    let (mut down, mut up) = (None, None);
    for event in events {
        match event {
            WindowEvent::CursorMoved(moved) => *last_seen = Some(moved.position),
            WindowEvent::CursorLeft(_) => *last_seen = None,
            WindowEvent::MouseButtonInput(input) if input.button == MouseButton::Left => {
                if input.state.is_pressed() {
                    down = *last_seen;
                } else {
                    up = *last_seen;
                }
            }
            _ => {}
        }
    }
    (down, up)
}
