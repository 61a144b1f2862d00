//! The clearance overlay: on each cell, a ring as big as the largest unit that fits with its
//! top-left corner there (`gridpath::Clearance`). One cell, two, three or more: where the rings
//! shrink, a big unit cannot pass.
//!
//! The values are kept in this overlay's own `Clearance`, brought up to date from the nav grid
//! each frame it shows: after an edit that repairs a 16 × 16 box, not the map.

use super::groups::ClearanceGizmos;
use crate::view::palette;
use crate::world::layout::TILE;
use bevy::prelude::*;
use bevy_gridpath::debug::OnScreen;
use gridpath::{Clearance, Point};

/// Rings are drawn at least this far apart, in pixels.
const MIN_RING_SPACING_PX: f32 = 12.0;

/// The clearance the overlay shows, kept between frames so that an edit is a local repair.
#[derive(Resource, Default)]
pub(super) struct ShownClearance(Clearance);

pub(super) fn draw_clearance(
    screen: OnScreen,
    mut shown: ResMut<ShownClearance>,
    mut gizmos: Gizmos<ClearanceGizmos>,
) {
    let Some(on_screen) = screen.cells() else {
        return;
    };
    let grid = on_screen.nav.grid();
    shown.0.update(grid);
    let layout = on_screen.nav.layout();
    let every = (MIN_RING_SPACING_PX / on_screen.cell_pixels)
        .ceil()
        .max(1.0) as i32;
    let first = |min: i32| (min + every - 1) / every * every;
    for y in (first(on_screen.min.y)..=on_screen.max.y).step_by(every as usize) {
        for x in (first(on_screen.min.x)..=on_screen.max.x).step_by(every as usize) {
            let p = Point::new(x, y);
            let size = shown.0.at(grid, p);
            if size == 0 {
                continue;
            }
            let class = usize::from(size.min(3)) - 1;
            let radius = TILE * [0.14, 0.26, 0.38][class] * every as f32;
            gizmos.circle_2d(layout.to_world(p), radius, palette::CLEARANCE[class]);
        }
    }
}
