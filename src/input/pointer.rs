//! The mouse, as the world sees it: a world position, and whether the UI has it.
//!
//! [`track_pointer`] fills these in from the window and the camera each frame. Input systems
//! read the resources, never the window, so headless tests drive them by setting the resources.

use crate::frame::AppSystems;
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
/// cursor's position stands for it. `moves` are where the cursor went in between, in order, while
/// the button was held: a brush stroke follows them, so a slow frame keeps the stroke's shape
/// instead of cutting straight from the press to the release.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct LeftButtonPoints {
    pub down: Option<Vec2>,
    pub up: Option<Vec2>,
    pub moves: Vec<Vec2>,
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

/// Where the cursor was (logical window pixels) this frame when the wheel last turned and when a
/// panning button (right or middle) last went down, if they did. The camera zooms about the one
/// and starts a pan from the other: by the end of a slow frame the cursor may have moved on.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct CameraMoments {
    pub wheel: Option<Vec2>,
    pub pan_down: Option<Vec2>,
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
    /// A window floating over the map (the graph lab), when one is open: a press there is the
    /// window's, even in a frame whose cursor only just arrived (the claim egui makes is a frame
    /// late).
    pub floating: Option<Rect>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PointerWorld>()
        .init_resource::<LeftButtonPoints>()
        .init_resource::<CameraMoments>()
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
    mut left_held: Local<bool>,
    mut pointer: ResMut<PointerWorld>,
    mut button: ResMut<LeftButtonPoints>,
    mut camera_moments: ResMut<CameraMoments>,
    mut over_ui: ResMut<PointerOverUi>,
) {
    let (camera, camera_transform) = *camera;
    let to_world = |c: Vec2| camera.viewport_to_world_2d(camera_transform, c).ok();
    let cursor = window.cursor_position();
    let seen = replay(events.read(), &mut last_seen, &mut left_held);
    let (down, up) = (seen.left_down, seen.left_up);
    camera_moments.set_if_neq(CameraMoments {
        wheel: seen.wheel,
        pan_down: seen.pan_down,
    });
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
        moves: seen.left_moves.into_iter().filter_map(to_world).collect(),
    });
    let judged = down.or(cursor);
    let over_panel = judged.is_some_and(|c| c.x <= insets.left);
    let over_window = judged.is_some_and(|c| insets.floating.is_some_and(|r| r.contains(c)));
    over_ui.set_if_neq(PointerOverUi(over_panel || over_window || claim.0));
}

/// Where the cursor was (window pixels) at this frame's last left press, left release, wheel
/// turn and panning press, and where it moved while the left button was held.
#[derive(Default)]
struct Moments {
    left_down: Option<Vec2>,
    left_up: Option<Vec2>,
    left_moves: Vec<Vec2>,
    wheel: Option<Vec2>,
    pan_down: Option<Vec2>,
}

/// Replays window events in order, keeping `last_seen` up to date with the cursor and `held`
/// with the left button, and notes where the cursor was at each moment that matters.
fn replay<'a>(
    events: impl Iterator<Item = &'a WindowEvent>,
    last_seen: &mut Option<Vec2>,
    held: &mut bool,
) -> Moments {
    let mut moments = Moments::default();
    for event in events {
        match event {
            WindowEvent::CursorMoved(moved) => {
                *last_seen = Some(moved.position);
                if *held {
                    moments.left_moves.push(moved.position);
                }
            }
            WindowEvent::CursorLeft(_) => *last_seen = None,
            WindowEvent::MouseButtonInput(input) if input.button == MouseButton::Left => {
                *held = input.state.is_pressed();
                if input.state.is_pressed() {
                    moments.left_down = *last_seen;
                } else {
                    moments.left_up = *last_seen;
                }
            }
            WindowEvent::MouseButtonInput(input)
                if matches!(input.button, MouseButton::Right | MouseButton::Middle)
                    && input.state.is_pressed() =>
            {
                moments.pan_down = *last_seen;
            }
            WindowEvent::MouseWheel(_) => moments.wheel = *last_seen,
            _ => {}
        }
    }
    moments
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::ButtonState;
    use bevy::input::mouse::{MouseButtonInput, MouseScrollUnit, MouseWheel};
    use bevy::input::touch::TouchPhase;
    use bevy::window::{CursorLeft, CursorMoved};

    fn moved(x: f32) -> WindowEvent {
        WindowEvent::CursorMoved(CursorMoved {
            window: Entity::PLACEHOLDER,
            position: Vec2::new(x, 0.0),
            delta: None,
        })
    }

    fn button(button: MouseButton, state: ButtonState) -> WindowEvent {
        WindowEvent::MouseButtonInput(MouseButtonInput {
            button,
            state,
            window: Entity::PLACEHOLDER,
        })
    }

    /// One slow frame's events: the points must be where each happened, not where the cursor
    /// ended up.
    #[test]
    fn replay_finds_where_each_press_release_and_wheel_turn_happened() {
        let at = |x: f32| Some(Vec2::new(x, 0.0));
        let events = [
            moved(10.0),
            WindowEvent::MouseWheel(MouseWheel {
                unit: MouseScrollUnit::Line,
                x: 0.0,
                y: 1.0,
                window: Entity::PLACEHOLDER,
                phase: TouchPhase::Moved,
            }),
            moved(20.0),
            button(MouseButton::Left, ButtonState::Pressed),
            moved(30.0),
            button(MouseButton::Left, ButtonState::Released),
            moved(40.0),
            button(MouseButton::Right, ButtonState::Pressed),
            moved(50.0),
        ];
        let (mut last_seen, mut held) = (None, false);
        let m = replay(events.iter(), &mut last_seen, &mut held);
        assert_eq!(
            (m.wheel, m.left_down, m.left_up, m.pan_down),
            (at(10.0), at(20.0), at(30.0), at(40.0))
        );
        assert_eq!(
            m.left_moves,
            [Vec2::new(30.0, 0.0)],
            "only the moves while held"
        );
        assert!(!held);
        assert_eq!(last_seen, at(50.0));
        // A press after the cursor left the window has no known point: the caller falls back.
        let left = WindowEvent::CursorLeft(CursorLeft {
            window: Entity::PLACEHOLDER,
        });
        let events = [left, button(MouseButton::Left, ButtonState::Pressed)];
        let m = replay(events.iter(), &mut last_seen, &mut held);
        assert_eq!((m.left_down, last_seen), (None, None));
        // Still held in the next frame: its moves count from the start.
        let m = replay([moved(60.0)].iter(), &mut last_seen, &mut held);
        assert_eq!(m.left_moves, [Vec2::new(60.0, 0.0)]);
    }
}
