//! What the 2D camera shows, so that each overlay draws only that, and readably at every zoom.
//! Public: a game's own overlays (a heat map, a debug view of its AI) draw only what is on
//! screen the same way, as the playground's do.

use crate::nav_grid::NavGrid;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridpath::Point;

/// The nav grid and the first 2D camera: which cells are on screen, and how big. A system
/// parameter: `fn draw(screen: OnScreen, ...)`, then [`OnScreen::cells`].
#[derive(SystemParam)]
pub struct OnScreen<'w, 's> {
    nav: Option<Res<'w, NavGrid>>,
    camera: Query<'w, 's, (&'static GlobalTransform, &'static Projection), With<Camera2d>>,
}

/// What [`OnScreen`] finds: the grid, the visible cells from `min` to `max` (both included, the
/// smaller coordinates in `min`), and how many pixels a cell spans.
pub struct Shown<'a> {
    /// The grid, and with it its layout.
    pub nav: &'a NavGrid,
    /// The visible cell with the smallest coordinates.
    pub min: Point,
    /// The visible cell with the largest coordinates.
    pub max: Point,
    /// How many pixels a cell spans across (its layout's step, at the camera's zoom).
    pub cell_pixels: f32,
}

impl OnScreen<'_, '_> {
    /// The grid, if there is one, on screen or not.
    pub fn nav(&self) -> Option<&NavGrid> {
        self.nav.as_deref()
    }

    /// `None` without a grid or when none of it is on screen. Without an orthographic 2D camera
    /// (a headless app, a 3D game), the whole grid at one pixel a world unit.
    pub fn cells(&self) -> Option<Shown<'_>> {
        let nav = self.nav.as_deref()?;
        let layout = nav.layout();
        let (w, h) = (nav.width() as i32, nav.height() as i32);
        let camera = self
            .camera
            .iter()
            .find_map(|(transform, projection)| match projection {
                Projection::Orthographic(ortho) => {
                    Some((transform.translation().truncate(), ortho))
                }
                _ => None,
            });
        let Some((centre, ortho)) = camera else {
            let (min, max) = (Point::new(0, 0), Point::new(w - 1, h - 1));
            let cell_pixels = layout.step.abs().x;
            return (w > 0 && h > 0).then_some(Shown {
                nav,
                min,
                max,
                cell_pixels,
            });
        };
        let (lo, hi) = layout.cells_under(ortho.area.translate(centre));
        let overlaps = hi.x >= 0 && hi.y >= 0 && lo.x < w && lo.y < h;
        overlaps.then(|| Shown {
            nav,
            min: Point::new(lo.x.clamp(0, w - 1), lo.y.clamp(0, h - 1)),
            max: Point::new(hi.x.clamp(0, w - 1), hi.y.clamp(0, h - 1)),
            cell_pixels: layout.step.abs().x / ortho.scale.max(f32::EPSILON),
        })
    }
}

/// A polygon's corners with the first repeated at the end, for a closed line strip.
pub(super) fn closed(mut corners: Vec<Vec2>) -> Vec<Vec2> {
    if let Some(&first) = corners.first() {
        corners.push(first);
    }
    corners
}

impl Shown<'_> {
    /// Is cell `p` on screen?
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    /// The world position of cell `(x, y)`'s corner towards the smaller coordinates (both may be
    /// one past the grid: the far edges).
    pub(super) fn corner(&self, x: i32, y: i32) -> Vec2 {
        self.nav
            .layout()
            .cells_to_world(Vec2::new(x as f32 - 0.5, y as f32 - 0.5))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::GridLayout;
    use bevy::ecs::system::RunSystemOnce;

    /// The cells `OnScreen` finds for a camera at `centre` showing `half` world units each way
    /// at `scale`, on a 100 × 50 grid of 16-unit cells whose rows run down the screen (the
    /// playground's layout).
    fn shown(centre: Vec2, half: Vec2, scale: f32) -> Option<(Point, Point, f32)> {
        let mut world = World::new();
        let layout = GridLayout::square(Vec2::new(-792.0, 392.0), Vec2::new(16.0, -16.0));
        let nav = NavGrid::new(100, 50).expect("a grid").with_layout(layout);
        world.insert_resource(nav);
        let projection = Projection::Orthographic(OrthographicProjection {
            scale,
            area: Rect::from_center_half_size(Vec2::ZERO, half),
            ..OrthographicProjection::default_2d()
        });
        let at = GlobalTransform::from_translation(centre.extend(0.0));
        world.spawn((Camera2d, projection, at));
        world
            .run_system_once(|screen: OnScreen| {
                screen.cells().map(|s| (s.min, s.max, s.cell_pixels))
            })
            .expect("the system runs")
    }

    #[test]
    fn only_the_cells_on_screen_are_drawn_whatever_way_rows_run() {
        // Zoomed in 2×, 88 × 40 world units round cell (10, 5)'s centre: from 7.25 to 12.75
        // cells across and 3.75 to 6.25 down, so cells 7..=13 and 4..=6, part-shown ones included.
        let centre = Vec2::new(-792.0 + 160.0, 392.0 - 80.0);
        let (min, max, pixels) = shown(centre, Vec2::new(44.0, 20.0), 0.5).expect("on screen");
        assert_eq!((min, max), (Point::new(7, 4), Point::new(13, 6)));
        assert_eq!(pixels, 32.0);
        // The whole map and more, zoomed out 8×: clamped to the grid, 2 pixels a cell.
        let (min, max, pixels) = shown(Vec2::ZERO, Vec2::splat(5000.0), 8.0).expect("on screen");
        assert_eq!((min, max), (Point::new(0, 0), Point::new(99, 49)));
        assert_eq!(pixels, 2.0);
        // Looking away from the map: nothing to draw.
        assert!(shown(Vec2::new(10_000.0, 0.0), Vec2::splat(100.0), 1.0).is_none());
    }
}
