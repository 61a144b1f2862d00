//! The path of the search on screen, as one green line through the cell centres.

use super::PathGizmos;
use crate::planner::shown::ShownSearch;
use crate::view::palette;
use crate::world::layout::MapLayout;
use bevy::prelude::*;

pub(super) fn draw_path(
    layout: Option<Res<MapLayout>>,
    shown: Res<ShownSearch>,
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
}
