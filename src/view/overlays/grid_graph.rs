//! The grid is a graph: the box around the markers drawn as the graph lab sees it, each free
//! cell a node, each legal move an edge with its cost written on it. The graph is the core's
//! (`gridpath::lab::grid_region`), so what is drawn here is what "The markers' region" sends to
//! the lab.

use super::groups::GridGraphGizmos;
use crate::planner::PlannerSettings;
use crate::view::palette;
use crate::world::layout::{MapLayout, TILE};
use crate::world::markers::{Goal, MarkerCell, Start};
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::Point;
use gridpath::lab::{grid_region, num};

/// Show the markers' region as a graph (the graph lab's window switches it).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridGraphOverlay(pub bool);

pub(super) fn draw_grid_graph(
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    settings: Res<PlannerSettings>,
    start: Single<&MarkerCell, With<Start>>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut gizmos: Gizmos<GridGraphGizmos>,
) {
    let (Some(layout), Some(nav)) = (layout, nav) else {
        return;
    };
    let search = &settings.search;
    let Ok(region) = grid_region(
        nav.grid(),
        search.movement,
        search.heuristic,
        start.0,
        goal.0,
    ) else {
        return;
    };
    let graph = &region.graph;
    let cell = |node: usize| region.cells[node];
    let corner =
        |p: Point, dx: f32, dy: f32| layout.cell_center(p) + Vec2::new(dx, dy) * TILE / 2.0;
    let (a, b) = (corner(region.min, -1.0, 1.0), corner(region.max, 1.0, -1.0));
    gizmos.rect_2d(
        Isometry2d::from_translation((a + b) / 2.0),
        (b - a).abs(),
        palette::GRAPH_EDGE,
    );
    for from in 0..graph.len() {
        for &(to, weight) in graph.neighbours(from) {
            if from < to {
                let (p, q) = (layout.cell_center(cell(from)), layout.cell_center(cell(to)));
                gizmos.line_2d(p, q, palette::GRAPH_EDGE);
                let at = Isometry2d::from_translation(p.lerp(q, 0.5));
                gizmos.text_2d(at, &num(weight), TILE * 0.14, Vec2::ZERO, palette::LABEL);
            }
        }
        gizmos.circle_2d(
            layout.cell_center(cell(from)),
            TILE * 0.16,
            palette::GRAPH_NODE,
        );
    }
}
