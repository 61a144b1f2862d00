//! Where the graph lab's drawing puts each node's label (its name and h) and each edge's weight:
//! a label beside its node, a weight along its edge, each where it covers no node and nothing
//! else written.
//!
//! A greedy placement, as map labelling starts (Christensen, Marks and Shieber, "An Empirical
//! Study of Algorithms for Point-Feature Label Placement", 1995, the "greedy" baseline): each
//! label tries a fixed list of spots round its node, below first (where the lab always put it),
//! and takes the first that is clear; when none is, the one that covers least. A weight tries
//! spots along its edge, the middle first. Then everything is placed again with all the rest
//! known, a few times over, so that what was placed early moves out of the way of what came
//! after it.

use bevy_egui::egui::{Pos2, Rect, Vec2, vec2};

/// Gap between a node's circle and its label, in points.
const GAP: f32 = 3.0;

/// Rounds of placing every label again with the others known.
const ROUNDS: usize = 4;

/// What the drawing holds: nodes (circles of `radius`), and edges with the size of their weight.
pub struct Scene<'a> {
    pub nodes: &'a [Pos2],
    pub radius: f32,
    pub edges: &'a [(Pos2, Pos2, Vec2)],
    /// What is written should stay inside it.
    pub bounds: Rect,
}

/// Where everything is written: each node's label (`sizes[i]` the size of node `i`'s) and each
/// edge's weight, in the scene's order.
pub struct Placed {
    pub labels: Vec<Rect>,
    pub weights: Vec<Rect>,
}

/// Places the labels and the weights (see the module docs).
pub fn place(scene: &Scene, sizes: &[Vec2]) -> Placed {
    let labels = scene.nodes.iter().enumerate().map(|(i, &at)| {
        let size = sizes.get(i).copied().unwrap_or(Vec2::ZERO);
        spots(at, scene.radius, size)
    });
    let weights = scene.edges.iter().map(|&(a, b, size)| along(a, b, size));
    let choices: Vec<Vec<Rect>> = labels.chain(weights).collect();
    let mut placed: Vec<Option<Rect>> = vec![None; choices.len()];
    for _ in 0..ROUNDS {
        for (i, spots) in choices.iter().enumerate() {
            placed[i] = None;
            // Least covered first, then the earlier spot.
            placed[i] = spots
                .iter()
                .copied()
                .enumerate()
                .min_by(|(k, a), (l, b)| {
                    let (ca, cb) = (covered(scene, &placed, *a), covered(scene, &placed, *b));
                    ca.total_cmp(&cb).then(k.cmp(l))
                })
                .map(|(_, rect)| rect);
        }
    }
    let mut all: Vec<Rect> = placed
        .into_iter()
        .map(|r| r.unwrap_or(Rect::NOTHING))
        .collect();
    let weights = all.split_off(scene.nodes.len());
    Placed {
        labels: all,
        weights,
    }
}

/// The spots a weight of `size` may take along the edge from `a` to `b`: the middle first,
/// then further from it each way.
fn along(a: Pos2, b: Pos2, size: Vec2) -> Vec<Rect> {
    [0.5, 0.4, 0.6, 0.32, 0.68, 0.25, 0.75]
        .iter()
        .map(|&t| Rect::from_center_size(a + (b - a) * t, size))
        .collect()
}

/// The spots a label of `size` may take round a node at `at`: below, above, right, left, then
/// the four corners; then the same a little further out, for a node with crowded sides.
fn spots(at: Pos2, radius: f32, size: Vec2) -> Vec<Rect> {
    let half = size / 2.0;
    let mut spots = Vec::with_capacity(24);
    for r in [radius + GAP, radius + GAP + 8.0, radius + GAP + 16.0] {
        let d = r * 0.7;
        let centres = [
            vec2(0.0, r + half.y),
            vec2(0.0, -(r + half.y)),
            vec2(r + half.x, 0.0),
            vec2(-(r + half.x), 0.0),
            vec2(d + half.x, d + half.y),
            vec2(-(d + half.x), d + half.y),
            vec2(d + half.x, -(d + half.y)),
            vec2(-(d + half.x), -(d + half.y)),
        ];
        spots.extend(centres.map(|c| Rect::from_center_size(at + c, size)));
    }
    spots
}

/// How much of what a label or weight must keep off `rect` covers: the area it shares with
/// nodes and with what is written already, and what of it lies outside the drawing.
fn covered(scene: &Scene, placed: &[Option<Rect>], rect: Rect) -> f32 {
    let shared = |other: Rect| area(rect.intersect(other));
    // A node covered counts as much as a square of its size would, more the deeper.
    let nodes: f32 = scene
        .nodes
        .iter()
        .map(|&at| (scene.radius - rect.distance_to_pos(at)).max(0.0) * 4.0 * scene.radius)
        .sum();
    let written: f32 = placed.iter().flatten().copied().map(shared).sum();
    let outside = area(rect) - area(rect.intersect(scene.bounds));
    nodes + written + outside
}

/// A rectangle's area, 0 for an empty one (an intersection that is none).
fn area(rect: Rect) -> f32 {
    if rect.is_positive() { rect.area() } else { 0.0 }
}

/// Whether a label covers a node's circle (more than a sliver).
#[cfg(test)]
pub fn covers_node(label: Rect, at: Pos2, radius: f32) -> bool {
    label.distance_to_pos(at) < radius - 0.5
}

/// Whether two rectangles share more than a sliver (half a point each way).
#[cfg(test)]
pub fn overlap(a: Rect, b: Rect) -> bool {
    let shared = a.intersect(b);
    shared.width() > 0.5 && shared.height() > 0.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_goes_below_its_node_unless_something_is_there() {
        let nodes = [Pos2::new(50.0, 50.0)];
        let bounds = Rect::from_min_size(Pos2::ZERO, vec2(100.0, 100.0));
        let size = [vec2(30.0, 20.0)];
        let free = Scene {
            nodes: &nodes,
            radius: 9.0,
            edges: &[],
            bounds,
        };
        let below = place(&free, &size).labels[0];
        assert!(below.min.y >= 50.0 + 9.0, "{below:?}");
        // An edge straight down from it, its weight just below: the label moves off it.
        let edge = [(
            Pos2::new(50.0, 50.0),
            Pos2::new(50.0, 90.0),
            vec2(16.0, 12.0),
        )];
        let busy = Scene {
            edges: &edge,
            ..free
        };
        let placed = place(&busy, &size);
        let (label, weight) = (placed.labels[0], placed.weights[0]);
        assert!(!overlap(label, weight), "{label:?} {weight:?}");
        let (x, y) = (weight.center().x, weight.center().y);
        assert!(x == 50.0 && y > 50.0 + 9.0, "on its edge: {weight:?}");
    }
}
