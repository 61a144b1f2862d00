//! The frontier of the search on screen, its current cell and that cell's neighbours, and, zoomed
//! in, each reached cell's g, h and f. A bidirectional search has two frontiers, drawn in two
//! colours (from the start, from the goal), and the cell where they meet is ringed.

use super::groups::FrontierGizmos;
use crate::planner::PlannerSettings;
use crate::planner::shown::{ShownSearch, ShownSearches};
use crate::view::palette;
use crate::world::layout::TILE;
use bevy::prelude::*;
use bevy_gridpath::debug::OnScreen;
use bevy_gridpath::{CellShape, GridLayout};
use gridpath::bidirectional::{Bidirectional, Direction};
use gridpath::{NodeState, Point, Search};

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
    mut gizmos: Gizmos<FrontierGizmos>,
) {
    let Some(on_screen) = screen.cells() else {
        return;
    };
    let (nav, layout) = (on_screen.nav, on_screen.nav.layout());
    let visible = |p: &&Point| on_screen.contains(**p);
    let two_way = searches.get(&shown.source).and_then(Search::bidirectional);
    for p in shown.frontier.iter().filter(visible) {
        let color = match two_way {
            Some(b) if from_the_goal(b, *p) => palette::FRONTIER_FROM_GOAL,
            _ => palette::FRONTIER,
        };
        cell_box(&mut gizmos, layout, *p, 4.0, color);
    }
    if let Some(meeting) = two_way.and_then(Bidirectional::meeting) {
        let c = layout.to_world(meeting);
        gizmos.circle_2d(c, TILE * 0.62, palette::MEETING);
        gizmos.circle_2d(c, TILE * 0.55, palette::MEETING);
    }
    if let Some(current) = shown.current {
        cell_box(&mut gizmos, layout, current, 1.0, palette::CURRENT);
        cell_box(&mut gizmos, layout, current, 5.0, palette::CURRENT);
        // A dot in the corner of each neighbour, clear of the labels.
        for (n, _) in settings.search.movement.neighbors(nav.grid(), current) {
            let corner = layout.to_world(n) + Vec2::new(-TILE * 0.36, TILE * 0.36);
            gizmos.circle_2d(corner, TILE * 0.07, palette::CURRENT);
        }
    }
    if on_screen.cell_pixels < MIN_LABEL_CELL_PX {
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

/// Is `p` in the frontier of the search from the goal (and not reached from the start)?
fn from_the_goal(b: &Bidirectional, p: Point) -> bool {
    b.state(Direction::Forward, p) == NodeState::Unseen
        && b.state(Direction::Backward, p) == NodeState::Open
}

/// Writes a cell's g, h and f on it, one above the other.
fn label_cell(gizmos: &mut Gizmos<FrontierGizmos>, layout: &GridLayout, search: &Search, p: Point) {
    let Some(node) = search.node(p) else {
        return;
    };
    let c = layout.to_world(p);
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

/// A box inside cell `p`, of the cell's shape, `inset` world units in from its edges (on
/// squares; as a share of the cell on the other shapes).
fn cell_box(
    gizmos: &mut Gizmos<FrontierGizmos>,
    layout: &GridLayout,
    p: Point,
    inset: f32,
    color: Color,
) {
    if layout.shape == CellShape::Square {
        gizmos.rect_2d(layout.to_world(p), Vec2::splat(TILE - inset), color);
        return;
    }
    let mut corners = layout.outline(p, 1.0 - inset / TILE);
    corners.extend(corners.first().copied());
    gizmos.linestrip_2d(corners, color);
}
