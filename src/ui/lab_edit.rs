//! Editing the graph lab's graph with the mouse: drag a node to move it, drag from one node to
//! another with the right button for an edge, double-click empty space for a new node, click a
//! node or an edge's weight to select it and change its h or weight, or delete it.
//!
//! Every edit makes a new graph and goes through the same door as the text ([`GraphLab::edit`]),
//! so the text, the search and the start and goal (kept by name) follow.

use super::lab_state::{GraphLab, LabEdits, Selected};
use bevy_egui::egui;
use gridpath::lab::{LabGraph, MAX_NODES};

/// What the drawing shows, for reading the mouse over it: each node's name, place and label,
/// the area nodes are placed in (for fractions), and each edge's weight label place.
pub struct Drawn<'a> {
    pub names: &'a [String],
    pub at: &'a dyn Fn(usize) -> egui::Pos2,
    pub labels: &'a [egui::Rect],
    pub inner: egui::Rect,
    pub weights: &'a [(usize, usize, egui::Pos2)],
}

/// What the mouse did in the drawing this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    None,
    /// A node was clicked.
    Clicked(usize),
    /// An edge's weight was clicked.
    ClickedEdge(usize, usize),
    /// A right-button drag from one node ended on another.
    Linked(usize, usize),
    /// A double-click on empty space, at this fraction of the drawing.
    AddAt(egui::Vec2),
}

/// Reads the mouse over the drawing: `at` gives each node's place, `inner` is the area nodes
/// are placed in (for fractions), `weights` each edge's label place.
pub fn gesture(response: &egui::Response, edits: &mut LabEdits, drawn: &Drawn) -> Gesture {
    let Drawn {
        names,
        at,
        labels,
        inner,
        weights,
    } = *drawn;
    let Some(pointer) = response.interact_pointer_pos().or(response.hover_pos()) else {
        return Gesture::None;
    };
    // A node, or its name and h written beside it.
    let node_at = |p: egui::Pos2| {
        (0..names.len()).find(|&i| {
            at(i).distance(p) < 13.0 || labels.get(i).is_some_and(|r| r.expand(2.0).contains(p))
        })
    };
    let node_under = node_at(pointer);
    let fraction = |p: egui::Pos2| (p - inner.min) / inner.size();
    // A drag starts where the button went down, a few pixels before egui calls it a drag.
    let origin = response
        .ctx
        .input(|i| i.pointer.press_origin())
        .unwrap_or(pointer);
    if response.drag_started() || response.double_clicked() {
        // Nodes the layout placed stay where they are drawn now, whatever is added.
        for (i, name) in names.iter().enumerate() {
            edits
                .placed
                .entry(name.clone())
                .or_insert_with(|| fraction(at(i)));
        }
    }
    if response.drag_started_by(egui::PointerButton::Primary) {
        edits.moving = node_at(origin);
    }
    if response.drag_started_by(egui::PointerButton::Secondary) {
        edits.linking = node_at(origin);
    }
    if let Some(i) = edits.moving
        && response.dragged_by(egui::PointerButton::Primary)
    {
        let f = fraction(pointer);
        let clamped = egui::vec2(f.x.clamp(0.0, 1.0), f.y.clamp(0.0, 1.0));
        edits.placed.insert(names[i].clone(), clamped);
    }
    if response.drag_stopped() {
        edits.moving = None;
        if let (Some(from), Some(to)) = (edits.linking.take(), node_under)
            && from != to
        {
            return Gesture::Linked(from, to);
        }
    }
    if response.double_clicked() && node_under.is_none() {
        return Gesture::AddAt(fraction(pointer));
    }
    if response.clicked() {
        if let Some(i) = node_under {
            return Gesture::Clicked(i);
        }
        let edge = weights.iter().find(|(.., p)| p.distance(pointer) < 10.0);
        if let Some(&(a, b, _)) = edge {
            return Gesture::ClickedEdge(a, b);
        }
        edits.selected = None;
    }
    Gesture::None
}

/// Carries out a gesture on the lab's graph (not while working by hand: there, clicks answer).
pub fn apply(lab: &mut GraphLab, gesture: Gesture) {
    let graph = lab.search.graph().clone();
    let name = |i: usize| graph.name(i).to_string();
    match gesture {
        Gesture::None => {}
        Gesture::Clicked(i) => lab.edits.selected = Some(Selected::Node(name(i))),
        Gesture::ClickedEdge(a, b) => lab.edits.selected = Some(Selected::Edge(name(a), name(b))),
        Gesture::Linked(a, b) => {
            let mut new = graph.clone();
            if !new.neighbours(a).iter().any(|&(n, _)| n == b) && new.set_edge(a, b, 1.0).is_ok() {
                lab.edits.selected = Some(Selected::Edge(name(a), name(b)));
                lab.edit(new);
            }
        }
        Gesture::AddAt(at) => {
            let mut new = graph.clone();
            match free_name(&graph).map(|n| new.add_node(&n).map(|_| n)) {
                Some(Ok(added)) => {
                    lab.edits.placed.insert(added.clone(), at);
                    lab.edits.selected = Some(Selected::Node(added));
                    lab.edit(new);
                }
                _ => lab.error = Some(format!("a lab graph has at most {MAX_NODES} nodes")),
            }
        }
    }
}

/// The selected node's h or edge's weight to change, and a button to delete it.
pub fn selection(ui: &mut egui::Ui, lab: &mut GraphLab) {
    let graph = lab.search.graph().clone();
    match lab.edits.selected.clone() {
        None => {
            ui.small(
                "Drag a node to move it; right-drag from a node to another for an edge; \
                 double-click for a new node; click a node or a weight to change it.",
            );
        }
        Some(Selected::Node(n)) => {
            let Some(i) = graph.index(&n) else {
                lab.edits.selected = None;
                return;
            };
            ui.horizontal(|ui| {
                let mut h = graph.h(i);
                ui.label(format!("node {n}: h"));
                if ui
                    .add(egui::DragValue::new(&mut h).range(0.0..=1e6))
                    .changed()
                {
                    let mut new = graph.clone();
                    new.set_h(i, h);
                    lab.edit(new);
                }
                if ui.button("from here").clicked() {
                    lab.start = i;
                    lab.restart(graph.clone());
                }
                if ui.button("to here").clicked() {
                    lab.goal = i;
                    lab.restart(graph.clone());
                }
                if ui.button("Delete node").clicked() {
                    lab.edits.selected = None;
                    lab.edit(without(&graph, |a, b| a == n || b == Some(n.as_str())));
                }
            });
        }
        Some(Selected::Edge(a, b)) => {
            let (Some(i), Some(j)) = (graph.index(&a), graph.index(&b)) else {
                lab.edits.selected = None;
                return;
            };
            let Some(&(_, mut w)) = graph.neighbours(i).iter().find(|&&(n, _)| n == j) else {
                lab.edits.selected = None;
                return;
            };
            ui.horizontal(|ui| {
                ui.label(format!("edge {a} {b}: weight"));
                let drag = egui::DragValue::new(&mut w).range(0.0..=1e6);
                if ui.add(drag).changed() {
                    let mut new = graph.clone();
                    if new.set_edge(i, j, w).is_ok() {
                        lab.edit(new);
                    }
                }
                if ui.button("Delete edge").clicked() {
                    lab.edits.selected = None;
                    let gone = |x: &str, y: Option<&str>| {
                        (x == a && y == Some(b.as_str())) || (x == b && y == Some(a.as_str()))
                    };
                    lab.edit(without(&graph, gone));
                }
            });
        }
    }
}

/// The first of A to Z, then A1 to Z9, that no node has.
fn free_name(graph: &LabGraph) -> Option<String> {
    let letters = ('A'..='Z').map(String::from);
    let numbered = (1..=9).flat_map(|k| ('A'..='Z').map(move |c| format!("{c}{k}")));
    letters.chain(numbered).find(|n| graph.index(n).is_none())
}

/// The graph without what `gone` names: a node (`gone(name, None)`) with its edges, or an edge
/// (`gone(a, Some(b))`).
fn without(graph: &LabGraph, gone: impl Fn(&str, Option<&str>) -> bool) -> LabGraph {
    let mut new = LabGraph::new();
    for i in 0..graph.len() {
        let name = graph.name(i);
        if !gone(name, None)
            && let Ok(k) = new.add_node(name)
        {
            new.set_h(k, graph.h(i));
        }
    }
    for i in 0..graph.len() {
        for &(j, w) in graph.neighbours(i) {
            let (a, b) = (graph.name(i), graph.name(j));
            if i < j
                && !gone(a, Some(b))
                && let (Some(x), Some(y)) = (new.index(a), new.index(b))
            {
                let _ = new.set_edge(x, y, w);
            }
        }
    }
    new
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph() -> LabGraph {
        LabGraph::parse("A B 4\nA C 2\nB C 1\nh A 3\n").expect("reads")
    }

    #[test]
    fn a_node_goes_with_its_edges_and_an_edge_alone() {
        let g = graph();
        let no_b = without(&g, |a, b| a == "B" || b == Some("B"));
        assert_eq!(no_b.len(), 2);
        assert_eq!(no_b.to_text(), "A C 2\nh A 3\nh C 0\n");
        let no_ab = without(&g, |a, b| {
            (a, b) == ("A", Some("B")) || (a, b) == ("B", Some("A"))
        });
        assert_eq!(no_ab.len(), 3);
        assert!(!no_ab.to_text().contains("A B"));
    }

    #[test]
    fn new_nodes_take_free_letters() {
        assert_eq!(free_name(&graph()).as_deref(), Some("D"));
    }

    #[test]
    fn edits_keep_the_start_and_goal_by_name() {
        let mut lab = GraphLab::default();
        let (start, goal) = (lab.start, lab.goal);
        let before = lab.search.graph().clone();
        apply(&mut lab, Gesture::AddAt(egui::vec2(0.5, 0.5)));
        assert_eq!(lab.search.graph().len(), before.len() + 1);
        let names = |l: &GraphLab| {
            (
                l.search.graph().name(l.start).to_string(),
                l.search.graph().name(l.goal).to_string(),
            )
        };
        assert_eq!(
            names(&lab),
            (before.name(start).into(), before.name(goal).into())
        );
        lab.edit(without(lab.search.graph(), |a, _| a == "Sibiu"));
        assert!(lab.search.graph().index("Sibiu").is_none());
        assert_eq!(
            names(&lab),
            (before.name(start).into(), before.name(goal).into())
        );
    }
}
