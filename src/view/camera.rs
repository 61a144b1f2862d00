//! The camera: it frames the map beside the side panel, pans with the right or middle mouse
//! button, and zooms with the wheel about the cursor. It also turns the cursor into a world
//! position for the input systems ([`PointerWorld`]).
//!
//! While the view is "fitted", it keeps the whole map framed as the window or the panel change
//! size. Panning or zooming leaves that mode; the Fit button or the F key returns to it.

use crate::AppSystems;
use crate::layout::{MapLayout, TILE};
use crate::pointer::{KeyboardOverUi, PointerOverUi, PointerWorld, UiPointerClaim};
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// Screen space taken by the UI, in logical pixels. The panel writes it every frame.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct UiInsets {
    pub left: f32,
}

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
    app.init_resource::<UiInsets>()
        .init_resource::<CameraView>()
        .add_message::<FitView>()
        .add_systems(Startup, spawn_camera)
        .add_systems(
            Update,
            (track_pointer, pan_and_zoom)
                .chain()
                .in_set(AppSystems::ReadInput),
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

/// Wheel zooms about the cursor; a right or middle drag pans; F fits. Not over the panel.
fn pan_and_zoom(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    scroll: Res<AccumulatedMouseScroll>,
    over_ui: Res<PointerOverUi>,
    keyboard_over_ui: Res<KeyboardOverUi>,
    layout: Option<Res<MapLayout>>,
    insets: Res<UiInsets>,
    mut view: ResMut<CameraView>,
    mut fit: MessageWriter<FitView>,
    mut last_cursor: Local<Option<Vec2>>,
    mut panning: Local<bool>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    if keys.just_pressed(KeyCode::KeyF) && !keyboard_over_ui.0 {
        fit.write(FitView);
    }
    let Some(layout) = layout else { return };
    let (mut transform, mut projection) = camera.into_inner();
    let Projection::Orthographic(ortho) = &mut *projection else {
        return;
    };
    let s = window.scale_factor();
    let cursor = window.cursor_position();
    // The cursor's offset from the window centre in physical pixels, y up (as the world's).
    let offset = cursor.map(|c| {
        let d = (c - Vec2::new(window.width(), window.height()) / 2.0) * s;
        Vec2::new(d.x, -d.y)
    });

    let pan_buttons = [MouseButton::Right, MouseButton::Middle];
    if buttons.any_just_pressed(pan_buttons) && !over_ui.0 {
        *panning = true;
    }
    if !buttons.any_pressed(pan_buttons) {
        *panning = false;
    }
    if *panning
        && let (Some(now), Some(before)) = (offset, *last_cursor)
        && now != before
    {
        let delta = (now - before) * ortho.scale;
        transform.translation.x -= delta.x;
        transform.translation.y -= delta.y;
        view.fit = false;
    }
    *last_cursor = offset;

    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    if lines != 0.0
        && !over_ui.0
        && let Some(offset) = offset
    {
        let fit_scale = frame(&window, &insets, &layout).map_or(ortho.scale, |f| f.fit_scale);
        let max = (fit_scale * MAX_SCALE_OVER_FIT).max(MIN_SCALE);
        let new_scale = (ortho.scale * 0.85f32.powf(lines)).clamp(MIN_SCALE, max);
        // Keep the world point under the cursor where it is.
        let anchor = transform.translation.truncate() + offset * ortho.scale;
        let centre = anchor - offset * new_scale;
        transform.translation.x = centre.x;
        transform.translation.y = centre.y;
        ortho.scale = new_scale;
        view.fit = false;
    }

    if !view.fit {
        // Never lose the map: keep the view's centre within the map.
        let bounds = layout.world_rect();
        transform.translation.x = transform.translation.x.clamp(bounds.min.x, bounds.max.x);
        transform.translation.y = transform.translation.y.clamp(bounds.min.y, bounds.max.y);
    }
}

/// The part of the world the camera shows, and how many physical pixels a cell spans.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Visible {
    pub world: Rect,
    pub cell_pixels: f32,
}

impl Visible {
    pub fn of(transform: &GlobalTransform, projection: &Projection) -> Option<Self> {
        let Projection::Orthographic(ortho) = projection else {
            return None;
        };
        let centre = transform.translation().truncate();
        Some(Self {
            world: Rect::from_corners(ortho.area.min + centre, ortho.area.max + centre),
            cell_pixels: TILE / ortho.scale.max(f32::EPSILON),
        })
    }
}

/// Cursor (window pixels) to world position, and whether the UI has the pointer right now.
fn track_pointer(
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
