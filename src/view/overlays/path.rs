//! The path of the search on screen, as one green line through the cell centres, and, when asked
//! for, the same path straightened with line of sight, as a white line over it. Where the path
//! takes a link (stairs, a teleporter), the line breaks and rings both ends: the plugin's link
//! overlay draws the link itself.

use super::groups::PathGizmos;
use crate::planner::shown::ShownSearch;
use crate::planner::straighten::Straightened;
use crate::view::palette;
use crate::world::layout::MapLayout;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::Point;

pub(super) fn draw_path(
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    shown: Res<ShownSearch>,
    straightened: Res<Straightened>,
    mut gizmos: Gizmos<PathGizmos>,
) {
    let (Some(layout), Some(nav)) = (layout, nav) else {
        return;
    };
    if shown.path.len() < 2 {
        return;
    }
    let grid = nav.grid();
    // A step further than a neighbour that a link makes.
    let by_link = |a: Point, b: Point| {
        ((a.x - b.x).abs() > 1 || (a.y - b.y).abs() > 1) && grid.link_cost(a, b, None).is_some()
    };
    let ring = crate::world::layout::TILE * 0.3;
    let mut start = 0;
    for (i, step) in shown.path.windows(2).enumerate() {
        if grid.has_open_links() && by_link(step[0], step[1]) {
            let part = &shown.path[start..=i];
            gizmos.linestrip_2d(part.iter().map(|&p| layout.cell_center(p)), palette::PATH);
            for end in step {
                let at = Isometry2d::from_translation(layout.cell_center(*end));
                gizmos.circle_2d(at, ring, palette::PATH);
            }
            start = i + 1;
        }
    }
    gizmos.linestrip_2d(
        shown.path[start..].iter().map(|&p| layout.cell_center(p)),
        palette::PATH,
    );
    if straightened.corners.len() >= 2 {
        gizmos.linestrip_2d(
            straightened.corners.iter().map(|&p| layout.cell_center(p)),
            palette::STRAIGHTENED,
        );
    }
}
