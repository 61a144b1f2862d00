//! Which part of the map is on screen: every overlay draws only that.

use crate::view::camera::Visible;
use crate::world::layout::MapLayout;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridpath::Point;

/// The map and the camera: which part of the map is on screen. Every overlay draws only that.
#[derive(SystemParam)]
pub(super) struct OnScreen<'w, 's> {
    pub(super) layout: Option<Res<'w, MapLayout>>,
    pub(super) camera:
        Query<'w, 's, (&'static GlobalTransform, &'static Projection), With<Camera2d>>,
}

/// What [`OnScreen`] finds: the layout, the camera's view, and the visible cells from `min`
/// (top-left) to `max` (bottom-right), both included.
pub(super) struct Shown<'a> {
    pub(super) layout: &'a MapLayout,
    pub(super) view: Visible,
    pub(super) min: Point,
    pub(super) max: Point,
}

impl Shown<'_> {
    pub(super) fn contains(&self, p: Point) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }
}

impl OnScreen<'_, '_> {
    /// `None` before the first map, without a camera, or when no cell is on screen.
    pub(super) fn cells(&self) -> Option<Shown<'_>> {
        let layout = self.layout.as_deref()?;
        let (transform, projection) = self.camera.iter().next()?;
        let view = Visible::of(transform, projection)?;
        let (a, b) = layout.grid().cells_under(view.world);
        let (w, h) = (layout.width as i32, layout.height as i32);
        let overlaps = b.x >= 0 && b.y >= 0 && a.x < w && a.y < h;
        overlaps.then(|| Shown {
            layout,
            view,
            min: Point::new(a.x.clamp(0, w - 1), a.y.clamp(0, h - 1)),
            max: Point::new(b.x.clamp(0, w - 1), b.y.clamp(0, h - 1)),
        })
    }
}
