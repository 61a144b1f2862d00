//! The path of the search on screen, as one green line through the cell centres, and, when asked
//! for, the same path straightened with line of sight, as a white line over it.

use super::groups::PathGizmos;
use crate::planner::shown::ShownSearch;
use crate::planner::straighten::Straightened;
use crate::view::palette;
use crate::world::layout::MapLayout;
use bevy::prelude::*;

pub(super) fn draw_path(
    layout: Option<Res<MapLayout>>,
    shown: Res<ShownSearch>,
    straightened: Res<Straightened>,
    mut gizmos: Gizmos<PathGizmos>,
) {
    let Some(layout) = layout else { return };
    if shown.path.len() < 2 {
        return;
    }
    gizmos.linestrip_2d(
        shown.path.iter().map(|&p| layout.cell_center(p)),
        palette::PATH,
    );
    if straightened.corners.len() >= 2 {
        gizmos.linestrip_2d(
            straightened.corners.iter().map(|&p| layout.cell_center(p)),
            palette::STRAIGHTENED,
        );
    }
}
