//! The camera: it frames the map beside the side panel, pans with the right or middle mouse
//! button, and zooms with the wheel about the cursor.
//!
//! While the view is "fitted", it keeps the whole map framed as the window or the panel change
//! size. Panning or zooming leaves that mode; the Fit button or the F key returns to it.

use crate::frame::AppSystems;
use crate::input::pointer::{
    CameraMoments, KeyboardOverUi, PointerOverUi, UiInsets, track_pointer,
};
use crate::world::layout::{MapLayout, TILE};
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// How the camera is placed.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct CameraView {
    /// Keep the whole map framed.
    pub fit: bool,
}

impl Default for CameraView {
    fn default() -> Self {
        Self { fit: true }
    }
}

/// Frame the whole map again (the Fit button, the F key).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct FitView;

/// Empty space kept around the framed map, in logical pixels.
const MARGIN: f32 = 16.0;
/// The closest zoom: world units per physical pixel (a cell then spans 128 pixels).
const MIN_SCALE: f32 = TILE / 128.0;
/// How far out one may zoom, relative to the fitted view.
const MAX_SCALE_OVER_FIT: f32 = 3.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CameraView>()
        .add_message::<FitView>()
        .add_systems(Startup, spawn_camera)
        .add_systems(
            Update,
            (fit_on_key, pan_and_zoom.after(track_pointer)).in_set(AppSystems::ReadInput),
        )
        .add_systems(Update, fit_map.in_set(AppSystems::Draw));
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Name::new("Camera"), Camera2d));
}

/// The map area in physical pixels (right of the panel, minus the margin), and the scale that
/// fits the map in it.
struct Frame {
    /// Offset of the area's centre from the window's centre, physical pixels (x right).
    centre_offset: f32,
    fit_scale: f32,
}

fn frame(window: &Window, insets: &UiInsets, layout: &MapLayout) -> Option<Frame> {
    let s = window.scale_factor();
    let panel = insets.left * s;
    let avail = Vec2::new(
        window.physical_width() as f32 - panel,
        window.physical_height() as f32,
    ) - Vec2::splat(2.0 * MARGIN * s);
    if avail.x < 1.0 || avail.y < 1.0 {
        return None; // window too small to show anything
    }
    let map = layout.world_size();
    Some(Frame {
        centre_offset: panel / 2.0,
        fit_scale: (map.x / avail.x).max(map.y / avail.y), // world units per physical pixel
    })
}

/// While fitted, scale and place the camera so the whole map shows, centred beside the panel.
fn fit_map(
    layout: Option<Res<MapLayout>>,
    insets: Res<UiInsets>,
    mut view: ResMut<CameraView>,
    mut fit_requests: MessageReader<FitView>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    if fit_requests.read().count() > 0 {
        view.fit = true;
    }
    let Some(layout) = layout else { return };
    if layout.is_changed() {
        view.fit = true; // a new map starts framed
    }
    if !view.fit {
        return;
    }
    let Some(frame) = frame(&window, &insets, &layout) else {
        return;
    };
    let (mut transform, mut projection) = camera.into_inner();
    let Projection::Orthographic(ortho) = &mut *projection else {
        return;
    };
    let centre = Vec2::new(-frame.centre_offset * frame.fit_scale, 0.0);
    if ortho.scale != frame.fit_scale {
        ortho.scale = frame.fit_scale;
    }
    if transform.translation.truncate() != centre {
        transform.translation.x = centre.x;
        transform.translation.y = centre.y;
    }
}

/// F frames the whole map again (not while a text field has the keys).
fn fit_on_key(
    keys: Res<ButtonInput<KeyCode>>,
    keyboard_over_ui: Res<KeyboardOverUi>,
    mut fit: MessageWriter<FitView>,
) {
    if keys.just_pressed(KeyCode::KeyF) && !keyboard_over_ui.0 {
        fit.write(FitView);
    }
}

/// Wheel zooms about the cursor; a right or middle drag pans. Not over the panel.
fn pan_and_zoom(
    buttons: Res<ButtonInput<MouseButton>>,
    scroll: Res<AccumulatedMouseScroll>,
    moments: Res<CameraMoments>,
    over_ui: Res<PointerOverUi>,
    layout: Option<Res<MapLayout>>,
    insets: Res<UiInsets>,
    mut view: ResMut<CameraView>,
    mut drag: Local<PanDrag>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let Some(layout) = layout else { return };
    let (mut transform, mut projection) = camera.into_inner();
    let Projection::Orthographic(ortho) = &mut *projection else {
        return;
    };
    let s = window.scale_factor();
    // A cursor position's offset from the window centre in physical pixels, y up (as the world's).
    let centre_offset = |c: Vec2| {
        let d = (c - Vec2::new(window.width(), window.height()) / 2.0) * s;
        Vec2::new(d.x, -d.y)
    };
    let offset = window.cursor_position().map(centre_offset);

    let pan_buttons = [MouseButton::Right, MouseButton::Middle];
    let started = (buttons.any_just_pressed(pan_buttons) && !over_ui.0)
        .then(|| moments.pan_down.map(centre_offset));
    if let Some(moved) = drag.step(started, buttons.any_pressed(pan_buttons), offset) {
        transform.translation -= (moved * ortho.scale).extend(0.0);
        view.fit = false;
    }

    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    // Zoom about where the cursor was when the wheel turned.
    let wheel_offset = moments.wheel.map(centre_offset).or(offset);
    if lines != 0.0
        && !over_ui.0
        && let Some(offset) = wheel_offset
    {
        let fit_scale = frame(&window, &insets, &layout).map_or(ortho.scale, |f| f.fit_scale);
        zoom_about(&mut transform, ortho, offset, lines, fit_scale);
        view.fit = false;
    }
    if !view.fit {
        // Never lose the map: keep the view's centre within the map.
        let bounds = layout.world_rect();
        transform.translation.x = transform.translation.x.clamp(bounds.min.x, bounds.max.x);
        transform.translation.y = transform.translation.y.clamp(bounds.min.y, bounds.max.y);
    }
}

/// A right or middle drag: whether one is in progress, and where the cursor was last frame (as
/// an offset from the window centre).
#[derive(Default)]
struct PanDrag {
    panning: bool,
    last: Option<Vec2>,
}

impl PanDrag {
    /// How far the cursor moved this frame while panning, if it did. `started` is set when a
    /// panning button went down this frame, with where it went down: the pan starts there, not
    /// where the cursor was last frame. A frame's movement pans if the button was down during it,
    /// so a release in the same frame as the last moves still takes them along.
    fn step(
        &mut self,
        started: Option<Option<Vec2>>,
        held: bool,
        now: Option<Vec2>,
    ) -> Option<Vec2> {
        let mut before = std::mem::replace(&mut self.last, now);
        if let Some(pressed_at) = started {
            self.panning = true;
            before = pressed_at.or(before);
        }
        let moved = match (self.panning, before, now) {
            (true, Some(before), Some(now)) if now != before => Some(now - before),
            _ => None,
        };
        self.panning &= held;
        moved
    }
}

/// Zooms in by `lines` wheel clicks (out when negative), keeping the world point under the
/// cursor (`offset` from the window centre, physical pixels) where it is on screen.
fn zoom_about(
    transform: &mut Transform,
    ortho: &mut OrthographicProjection,
    offset: Vec2,
    lines: f32,
    fit_scale: f32,
) {
    let max = (fit_scale * MAX_SCALE_OVER_FIT).max(MIN_SCALE);
    let new_scale = (ortho.scale * 0.85f32.powf(lines)).clamp(MIN_SCALE, max);
    let anchor = transform.translation.truncate() + offset * ortho.scale;
    let centre = anchor - offset * new_scale;
    transform.translation.x = centre.x;
    transform.translation.y = centre.y;
    ortho.scale = new_scale;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pan_starts_where_its_button_went_down_and_keeps_its_last_moves() {
        let at = |x: f32| Some(Vec2::new(x, 0.0));
        let mut drag = PanDrag::default();
        assert_eq!(drag.step(None, false, at(10.0)), None, "no button, no pan");
        // Pressed at 50 and moved on to 80 within one frame: the pan covers 50 → 80 only.
        assert_eq!(drag.step(Some(at(50.0)), true, at(80.0)), at(30.0));
        assert_eq!(drag.step(None, true, at(100.0)), at(20.0));
        // Released in the same frame as a last move: that move still pans.
        assert_eq!(drag.step(None, false, at(110.0)), at(10.0));
        assert_eq!(drag.step(None, false, at(150.0)), None, "released");
    }
}
