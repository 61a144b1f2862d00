//! The frontier of the search on screen, its current cell and that cell's neighbours, and, zoomed
//! in, each reached cell's g, h and f.

use super::{FrontierGizmos, OnScreen};
use crate::planner::PlannerSettings;
use crate::planner::shown::{ShownSearch, ShownSearches};
use crate::view::palette;
use crate::world::layout::{MapLayout, TILE};
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::{Point, Search};

/// Cells are labelled with g, h and f from this size (pixels) up.
const MIN_LABEL_CELL_PX: f32 = 56.0;
/// At most this many labels at once.
const MAX_LABELS: usize = 400;

/// Outlines the frontier, marks the current cell and its neighbours, and, zoomed in, writes each
/// reached cell's g, h and f on it.
pub(super) fn draw_frontier(
    screen: OnScreen,
    shown: Res<ShownSearch>,
    searches: ShownSearches,
    settings: Res<PlannerSettings>,
    nav: Option<Res<NavGrid>>,
    mut gizmos: Gizmos<FrontierGizmos>,
) {
    let Some(on_screen) = screen.cells() else {
        return;
    };
    let (layout, view) = (on_screen.layout, on_screen.view);
    let visible = |p: &&Point| on_screen.contains(**p);
    let size = Vec2::splat(TILE - 4.0);
    for p in shown.frontier.iter().filter(visible) {
        gizmos.rect_2d(layout.cell_center(*p), size, palette::FRONTIER);
    }
    if let Some(current) = shown.current {
        let c = layout.cell_center(current);
        gizmos.rect_2d(c, Vec2::splat(TILE - 1.0), palette::CURRENT);
        gizmos.rect_2d(c, Vec2::splat(TILE - 5.0), palette::CURRENT);
        if let Some(nav) = &nav {
            // A dot in the corner of each neighbour, clear of the labels.
            for (n, _) in settings.search.movement.neighbors(nav.grid(), current) {
                let corner = layout.cell_center(n) + Vec2::new(-TILE * 0.36, TILE * 0.36);
                gizmos.circle_2d(corner, TILE * 0.07, palette::CURRENT);
            }
        }
    }
    if view.cell_pixels < MIN_LABEL_CELL_PX {
        return;
    }
    if let Some(search) = searches.get(&shown.source) {
        let reached = shown
            .frontier
            .iter()
            .chain(shown.explored.iter().map(|(p, _)| p));
        for p in reached.filter(visible).take(MAX_LABELS) {
            label_cell(&mut gizmos, layout, search, *p);
        }
    }
}

/// Writes a cell's g, h and f on it, one above the other.
fn label_cell(gizmos: &mut Gizmos<FrontierGizmos>, layout: &MapLayout, search: &Search, p: Point) {
    let Some(node) = search.node(p) else {
        return;
    };
    let c = layout.cell_center(p);
    for (i, text) in [
        format!("g {:.1}", node.g),
        format!("h {:.1}", node.h),
        format!("f {:.1}", node.f),
    ]
    .iter()
    .enumerate()
    {
        let at = Isometry2d::from_translation(c + Vec2::new(0.0, TILE * (0.28 - 0.28 * i as f32)));
        gizmos.text_2d(at, text, TILE * 0.16, Vec2::ZERO, palette::LABEL);
    }
}
