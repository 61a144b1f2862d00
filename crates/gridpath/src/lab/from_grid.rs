//! The grid is a graph: a small region of a grid as a lab graph, so that A\* can be stepped on
//! the same problem in both views. Each free cell is a node named by its column and row
//! (`12_7`), each legal move between two cells of the region an edge with the move's cost (the
//! same movement and corner rule as the grid's search, terrain included), and each node's h the
//! grid search's own estimate to the goal cell (the heuristic scaled by the cheapest ground).

use super::graph::{LabGraph, MAX_NODES};
use crate::grid::{Grid, Point};
use crate::heuristic::Heuristic;
use crate::movement::Movement;

/// A region of a grid as a lab graph, with the nodes of `start` and `goal`.
#[derive(Clone, Debug, PartialEq)]
pub struct GridRegion {
    /// The region's free cells as nodes, and their moves as weighted edges.
    pub graph: LabGraph,
    /// The start's node.
    pub start: usize,
    /// The goal's node.
    pub goal: usize,
    /// Each node's cell, by node.
    pub cells: Vec<Point>,
    /// The region's corners, top-left and bottom-right, included.
    pub min: Point,
    /// The bottom-right corner.
    pub max: Point,
}

/// The box around `start` and `goal`, one cell wider on each side (within the grid), as a lab
/// graph. Refused, with a one-line reason, when it has more than [`MAX_NODES`] free cells, or
/// when a move inside it costs more one way than the other (the lab's edges go both ways:
/// ground of different costs makes entering a cell cost what that cell costs).
pub fn grid_region(
    grid: &Grid,
    movement: Movement,
    heuristic: Heuristic,
    start: Point,
    goal: Point,
) -> Result<GridRegion, String> {
    if !grid.is_passable(start) || !grid.is_passable(goal) {
        return Err("the start and the goal must be free cells".into());
    }
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let min = Point::new(
        (start.x.min(goal.x) - 1).max(0),
        (start.y.min(goal.y) - 1).max(0),
    );
    let max = Point::new(
        (start.x.max(goal.x) + 1).min(w - 1),
        (start.y.max(goal.y) + 1).min(h - 1),
    );
    let inside = |p: Point| p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y;
    let cells: Vec<Point> = (min.y..=max.y)
        .flat_map(|y| (min.x..=max.x).map(move |x| Point::new(x, y)))
        .filter(|&p| grid.is_passable(p))
        .take(MAX_NODES + 1)
        .collect();
    if cells.len() > MAX_NODES {
        return Err(format!(
            "the box around the markers has more than {MAX_NODES} free cells, the most a lab \
             graph holds: bring the markers closer"
        ));
    }
    let mut graph = LabGraph::new();
    let cheapest = f64::from(grid.min_cost());
    for &p in &cells {
        let node = graph.add_node(&format!("{}_{}", p.x, p.y))?;
        graph.set_h(node, cheapest * heuristic.between(movement, p, goal));
    }
    let node_of = |p: Point| cells.iter().position(|&c| c == p);
    for (a, &p) in cells.iter().enumerate() {
        for (q, cost) in movement.neighbors(grid, p).filter(|&(q, _)| inside(q)) {
            let back = movement.step_cost(grid, q, p);
            if back != Some(cost) {
                return Err(format!(
                    "a move between {p} and {q} costs more one way than the other (the ground \
                     differs), and the lab's edges go both ways: pick a region of one ground"
                ));
            }
            if let Some(b) = node_of(q).filter(|&b| a < b) {
                graph.set_edge(a, b, cost)?;
            }
        }
    }
    let (Some(start), Some(goal)) = (node_of(start), node_of(goal)) else {
        return Err("the start and the goal must be in the region".into());
    };
    Ok(GridRegion {
        graph,
        start,
        goal,
        cells,
        min,
        max,
    })
}
