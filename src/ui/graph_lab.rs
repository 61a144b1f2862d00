//! The graph lab window: a small named graph beside the grid, searched one expansion at a time
//! with the trace table a course asks students to write (issue 31, first part). The searches,
//! the text format and the heuristic checks are the core's (`gridpath::lab`); this file only
//! draws them and takes the clicks.
//!
//! Nodes are coloured as on the grid: unseen grey, open blue, closed violet, the node just
//! expanded yellow, the path green; the start has a green ring, the goal a red one.

use super::lab_edit::{self, Gesture};
use super::lab_labels;
use super::lab_state::{GraphLab, Selected, row_text};
use super::widgets::{PanelWidgets, RED, color32};
use crate::planner::PlannerSettings;
use crate::view::overlays::grid_graph::GridGraphOverlay;
use crate::view::palette;
use crate::world::markers::{Goal, MarkerCell, Start};
use crate::world::nav::NavGrid;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_egui::egui;
use gridpath::lab::{
    LabAlgorithm, LabGraph, LabSearch, check_heuristic, grid_region, num as number, presets,
};

/// Loads the markers' region when asked, and switches its overlay on the map.
pub(super) fn lab_from_map(
    mut lab: ResMut<GraphLab>,
    nav: Option<Res<NavGrid>>,
    settings: Res<PlannerSettings>,
    start: Single<&MarkerCell, With<Start>>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut overlay: ResMut<GridGraphOverlay>,
) {
    overlay.set_if_neq(GridGraphOverlay(lab.show_on_map));
    if !lab.wants_region {
        return;
    }
    lab.wants_region = false;
    let Some(nav) = nav else {
        return;
    };
    let search = &settings.search;
    match grid_region(
        nav.grid(),
        search.movement,
        search.heuristic,
        start.0,
        goal.0,
    ) {
        Ok(region) => {
            lab.algorithm = LabAlgorithm::AStar;
            lab.load_graph(region.graph, region.start, region.goal);
        }
        Err(why) => lab.error = Some(format!("The markers' region: {why}.")),
    }
}

/// The window, when open; returns where it is on screen.
pub(super) fn show(
    ctx: &egui::Context,
    lab: &mut GraphLab,
    widgets: &mut PanelWidgets,
) -> Option<egui::Rect> {
    let mut open = lab.open;
    let shown = egui::Window::new("Graph lab")
        .open(&mut open)
        // Beside the panel, over the map: it never hides the controls.
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-10.0, 10.0))
        .default_size(egui::vec2(880.0, 640.0))
        .max_width(880.0)
        .show(ctx, |ui| {
            controls(ui, lab, widgets);
            ui.separator();
            ui.horizontal_top(|ui| {
                let gesture = ui
                    .vertical(|ui| {
                        let gesture = draw_graph(ui, lab);
                        if lab.hand.is_none() {
                            lab_edit::apply(lab, gesture);
                            lab_edit::selection(ui, lab);
                        }
                        gesture
                    })
                    .inner;
                ui.vertical(|ui| {
                    if lab.hand.is_some() {
                        let clicked = match gesture {
                            Gesture::Clicked(node) => Some(node),
                            _ => None,
                        };
                        super::lab_by_hand::questions(ui, lab, clicked, widgets);
                    } else {
                        edit_text(ui, lab);
                    }
                });
            });
            ui.separator();
            trace_table(ui, &lab.search);
        });
    lab.open = open;
    shown.map(|s| s.response.rect)
}

/// The widgets the end-to-end tests click, by name (see `app::test_hook`).
const PRESET_WIDGETS: [&str; 5] = [
    "lab_warm_up",
    "lab_romania",
    "lab_greedy_trap",
    "lab_ties",
    "lab_inadmissible",
];

/// Why one long function: egui lays its widgets out in the order the code runs, so the lab's
/// controls read top to bottom as they appear on screen.
fn controls(ui: &mut egui::Ui, lab: &mut GraphLab, widgets: &mut PanelWidgets) {
    ui.horizontal(|ui| {
        for (k, preset) in presets::ALL.into_iter().enumerate() {
            let button = ui.button(preset.name).on_hover_text(preset.about);
            if let Some(name) = PRESET_WIDGETS.get(k) {
                widgets.note(name, &button);
            }
            if button.clicked() {
                lab.load(&preset);
            }
        }
        ui.separator();
        let region = ui.button("The markers' region").on_hover_text(
            "The box around the start and goal markers, one cell wider: its free cells as \
             nodes, its moves as edges, with the search's moves and h",
        );
        widgets.note("lab_region", &region);
        lab.wants_region |= region.clicked();
        ui.checkbox(&mut lab.show_on_map, "on the map")
            .on_hover_text("Draw that region on the map as a graph");
    });
    ui.horizontal(|ui| {
        let before = (lab.algorithm, lab.start, lab.goal);
        for algorithm in LabAlgorithm::ALL {
            let choice = ui.selectable_value(&mut lab.algorithm, algorithm, algorithm.name());
            if algorithm == LabAlgorithm::AStar {
                widgets.note("lab_astar", &choice);
            }
        }
        ui.separator();
        let graph = lab.search.graph().clone();
        node_picker(ui, "from", &graph, &mut lab.start);
        node_picker(ui, "to", &graph, &mut lab.goal);
        if (lab.algorithm, lab.start, lab.goal) != before {
            lab.restart(graph);
        }
    });
    ui.horizontal(|ui| {
        let mut by_hand = lab.hand.is_some();
        let toggle = ui
            .toggle_value(&mut by_hand, "Work it by hand")
            .on_hover_text("Answer each step yourself; every answer is checked");
        widgets.note("lab_by_hand", &toggle);
        if toggle.clicked() {
            lab.work_by_hand(by_hand);
        }
        if by_hand {
            super::lab_by_hand::settings(ui, lab);
            return;
        }
        let done = lab.search.is_done();
        let step = ui.add_enabled(!done, egui::Button::new("Step"));
        widgets.note("lab_step", &step);
        if step.clicked() {
            lab.search.step();
        }
        let run = ui.add_enabled(!done, egui::Button::new("Run to the end"));
        widgets.note("lab_run", &run);
        if run.clicked() {
            lab.search.run();
        }
        if ui.button("Restart").clicked() {
            let graph = lab.search.graph().clone();
            lab.restart(graph);
        }
        let graph = lab.search.graph();
        match (lab.search.path(), done) {
            (Some((path, cost)), _) => {
                let names: Vec<&str> = path.iter().map(|&n| graph.name(n)).collect();
                ui.label(format!("path {} (cost {})", names.join(", "), number(cost)));
            }
            (None, true) => {
                ui.colored_label(RED, "no path: the open list ran out");
            }
            (None, false) => {
                if let Some(next) = lab.search.next_choice() {
                    ui.label(format!("next: {}", graph.name(next)));
                }
            }
        }
    });
    let check = check_heuristic(lab.search.graph(), lab.goal);
    for (what, fault) in [
        ("admissible", &check.inadmissible),
        ("consistent", &check.inconsistent),
    ] {
        match fault {
            None => ui.small(format!("h is {what}")),
            Some(why) => ui.colored_label(RED, format!("h is not {what}: {why}")),
        };
    }
}

fn node_picker(ui: &mut egui::Ui, label: &str, graph: &LabGraph, node: &mut usize) {
    let shown = if *node < graph.len() {
        graph.name(*node)
    } else {
        "-"
    };
    ui.label(label);
    egui::ComboBox::from_id_salt(label)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for n in 0..graph.len() {
                ui.selectable_value(node, n, graph.name(n));
            }
        });
}

/// The nodes on a circle, the edges with their weights, each node's name and h.
/// Returns what the mouse did in it (see `lab_edit`).
///
/// Why one long function: egui draws in the order the code runs, so the drawing reads top to bottom
/// as it is painted (edges, weights, nodes, labels, the hover), sharing one layout and one painter.
fn draw_graph(ui: &mut egui::Ui, lab: &mut GraphLab) -> Gesture {
    let (search, start, goal) = (&lab.search, lab.start, lab.goal);
    let graph = search.graph();
    let (response, painter) = ui.allocate_painter(DRAWING, egui::Sense::click_and_drag());
    let rect = response.rect;
    painter.rect_filled(rect, 4.0, egui::Color32::from_gray(24));
    let (nodes, inner) = node_places(graph, &lab.edits.placed, rect);
    let path: Vec<usize> = search.path().map(|(p, _)| p).unwrap_or_default();
    let on_path = |a: usize, b: usize| path.windows(2).any(|w| w == [a, b] || w == [b, a]);
    let font = egui::FontId::proportional(11.0);
    let selected = lab.edits.selected.clone();
    let is_selected_edge = |a: usize, b: usize| {
        let (x, y) = (graph.name(a), graph.name(b));
        matches!(&selected, Some(Selected::Edge(p, q)) if (p == x && q == y) || (p == y && q == x))
    };
    let mut edges = Vec::new();
    for a in 0..graph.len() {
        for &(b, w) in graph.neighbours(a).iter().filter(|(b, _)| a < *b) {
            let color = if on_path(a, b) {
                rgb(palette::PATH)
            } else {
                egui::Color32::from_gray(110)
            };
            let width = if is_selected_edge(a, b) { 3.5 } else { 1.5 };
            painter.line_segment([nodes[a], nodes[b]], egui::Stroke::new(width, color));
            let weight = painter.layout_no_wrap(number(w), font.clone(), egui::Color32::WHITE);
            edges.push((a, b, weight));
        }
    }
    let labels: Vec<_> = (0..graph.len())
        .map(|i| {
            let text = format!("{}\nh {}", graph.name(i), number(graph.h(i)));
            painter.layout_no_wrap(text, font.clone(), egui::Color32::WHITE)
        })
        .collect();
    let sizes: Vec<egui::Vec2> = labels.iter().map(|g| g.size()).collect();
    let spans: Vec<_> = edges
        .iter()
        .map(|(a, b, weight)| (nodes[*a], nodes[*b], weight.size()))
        .collect();
    let scene = lab_labels::Scene {
        nodes: &nodes,
        radius: NODE_RADIUS,
        edges: &spans,
        bounds: rect,
    };
    let placed = lab_labels::place(&scene, &sizes);
    let mut weights = Vec::new();
    for ((a, b, weight), at) in edges.into_iter().zip(&placed.weights) {
        painter.galley(at.min, weight, egui::Color32::WHITE);
        weights.push((a, b, at.center()));
    }
    let last = search.steps().last().map(|s| s.expanded);
    let open: Vec<usize> = search.open_list().iter().map(|e| e.node).collect();
    let closed: Vec<usize> = search
        .steps()
        .last()
        .map(|s| s.closed.clone())
        .unwrap_or_default();
    for (i, (&at, label)) in nodes.iter().zip(labels).enumerate() {
        let fill = if path.contains(&i) {
            rgb(palette::PATH)
        } else if last == Some(i) {
            rgb(palette::CURRENT)
        } else if open.contains(&i) {
            rgb(palette::FRONTIER)
        } else if closed.contains(&i) {
            let [r, g, b] = palette::ORDER_RAMP[2];
            rgb(Color::srgb(r, g, b))
        } else {
            egui::Color32::from_gray(90)
        };
        painter.circle_filled(at, NODE_RADIUS, fill);
        if matches!(&selected, Some(Selected::Node(n)) if n == graph.name(i)) {
            painter.circle_stroke(at, 15.0, egui::Stroke::new(1.5, egui::Color32::WHITE));
        }
        for (ring, rgb3) in [(start, palette::START), (goal, palette::GOAL)] {
            if ring == i {
                painter.circle_stroke(at, 12.0, egui::Stroke::new(2.0, color32(rgb3)));
            }
        }
        painter.galley(placed.labels[i].min, label, egui::Color32::WHITE);
    }
    // An edge being drawn with the right button follows the pointer.
    if let (Some(from), Some(to)) = (lab.edits.linking, response.interact_pointer_pos())
        && let Some(&at) = nodes.get(from)
    {
        painter.line_segment([at, to], egui::Stroke::new(1.5, egui::Color32::WHITE));
    }
    let names: Vec<String> = (0..graph.len())
        .map(|i| graph.name(i).to_string())
        .collect();
    let at = |i: usize| nodes.get(i).copied().unwrap_or(rect.center());
    let drawn = lab_edit::Drawn {
        names: &names,
        at: &at,
        labels: &placed.labels,
        inner,
        weights: &weights,
    };
    lab_edit::gesture(&response, &mut lab.edits, &drawn)
}

/// The drawing's size, in points.
const DRAWING: egui::Vec2 = egui::vec2(360.0, 330.0);

/// A node's circle.
const NODE_RADIUS: f32 = 9.0;

/// Where each node of `graph` is drawn in `rect`, and the area nodes are placed in (for the
/// fractions a node moved by hand is kept at): where the learner put it; else on the book's
/// map for Romania; where its cells are for a region of the grid (nodes named `column_row`);
/// else on a circle.
fn node_places(
    graph: &LabGraph,
    placed: &HashMap<String, egui::Vec2>,
    rect: egui::Rect,
) -> (Vec<egui::Pos2>, egui::Rect) {
    let n = graph.len().max(1);
    let on_map: Vec<Option<(f32, f32)>> = (0..graph.len())
        .map(|i| {
            ROMANIA_AT
                .iter()
                .find(|(t, ..)| *t == graph.name(i))
                .map(|&(_, x, y)| (x, y))
        })
        .collect();
    let romania = on_map.iter().all(Option::is_some) && !on_map.is_empty();
    let cells: Vec<Option<(f32, f32)>> = (0..graph.len())
        .map(|i| {
            let (x, y) = graph.name(i).split_once('_')?;
            Some((x.parse::<u16>().ok()? as f32, y.parse::<u16>().ok()? as f32))
        })
        .collect();
    let on_grid = cells.iter().all(Option::is_some) && !cells.is_empty();
    let span = |k: fn(&(f32, f32)) -> f32| {
        let values = cells.iter().flatten().map(k);
        let (lo, hi) = values.fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        (lo, (hi - lo).max(1.0))
    };
    let ((x0, w), (y0, h)) = (span(|c| c.0), span(|c| c.1));
    let side = w.max(h);
    let inner = rect.shrink(36.0);
    let at = |i: usize| match (placed.get(graph.name(i)), on_map[i], cells[i]) {
        (Some(&f), ..) => inner.min + f * inner.size(),
        (_, Some((x, y)), _) if romania => {
            inner.min + egui::vec2(x * inner.width(), y * inner.height())
        }
        (_, _, Some((x, y))) if on_grid => {
            let scale = inner.width().min(inner.height()) / side;
            inner.min + egui::vec2((x - x0) * scale, (y - y0) * scale)
        }
        _ => {
            let angle = std::f32::consts::TAU * i as f32 / n as f32 - std::f32::consts::FRAC_PI_2;
            rect.center() + egui::vec2(angle.cos(), angle.sin()) * (rect.width() * 0.38)
        }
    };
    ((0..graph.len()).map(at).collect(), inner)
}

/// Where the towns of the textbook's Romania lie on its map (0 to 1 across and down), so that
/// the preset looks like the book's figure; any other graph is laid out on a circle.
const ROMANIA_AT: [(&str, f32, f32); 20] = [
    ("Arad", 0.04, 0.30),
    ("Zerind", 0.10, 0.16),
    ("Oradea", 0.18, 0.02),
    ("Timisoara", 0.05, 0.52),
    ("Lugoj", 0.24, 0.60),
    ("Mehadia", 0.25, 0.74),
    ("Drobeta", 0.20, 0.88),
    ("Craiova", 0.42, 0.94),
    ("Sibiu", 0.30, 0.38),
    ("Rimnicu_Vilcea", 0.36, 0.54),
    ("Fagaras", 0.52, 0.36),
    ("Pitesti", 0.56, 0.66),
    ("Bucharest", 0.74, 0.78),
    ("Giurgiu", 0.64, 0.98),
    ("Urziceni", 0.84, 0.68),
    ("Hirsova", 0.98, 0.66),
    ("Eforie", 1.00, 0.90),
    ("Vaslui", 0.92, 0.40),
    ("Iasi", 0.84, 0.20),
    ("Neamt", 0.68, 0.10),
];

/// One row per step: the node expanded with its g, the changes, the open list, the closed list.
fn trace_table(ui: &mut egui::Ui, search: &LabSearch) {
    egui::ScrollArea::vertical()
        .max_height(300.0)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            let grid = egui::Grid::new("trace").striped(true).max_col_width(170.0);
            grid.show(ui, |ui| {
                for head in ["#", "expanded", "changes", "open (g, h, f)", "closed"] {
                    ui.strong(head);
                }
                ui.end_row();
                for step in search.steps() {
                    for cell in row_text(search, step) {
                        // The default font has no arrow.
                        ui.add(egui::Label::new(cell.replace('→', "->")).wrap());
                    }
                    ui.end_row();
                }
            });
        });
}

fn edit_text(ui: &mut egui::Ui, lab: &mut GraphLab) {
    ui.label("The graph as text: `A B 4` is an edge, `h A 7` a node's h. Apply to read it.");
    egui::ScrollArea::vertical()
        .id_salt("lab text")
        .max_height(200.0)
        .show(ui, |ui| {
            ui.add(
                egui::TextEdit::multiline(&mut lab.text)
                    .code_editor()
                    .desired_rows(4)
                    .desired_width(f32::INFINITY),
            );
        });
    ui.horizontal(|ui| {
        if ui.button("Apply").clicked() {
            lab.apply_text();
        }
        if let Some(error) = &lab.error {
            ui.colored_label(RED, error);
        }
    });
    ui.small(lab.search.graph().adjacency());
}

fn rgb(color: Color) -> egui::Color32 {
    let c = color.to_srgba();
    egui::Color32::from_rgb(
        (c.red * 255.0) as u8,
        (c.green * 255.0) as u8,
        (c.blue * 255.0) as u8,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The drawing of every preset, laid out and labelled as the window does it, with
    /// the panel's font: no label covers a node, another label or an edge's weight.
    #[test]
    fn no_label_of_any_preset_covers_a_node_a_label_or_a_weight() {
        let ctx = egui::Context::default();
        ctx.set_fonts(crate::ui::fonts::definitions());
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            let ctx = ui.ctx();
            let font = egui::FontId::proportional(11.0);
            let size = |text: String| {
                ctx.fonts_mut(|f| f.layout_no_wrap(text, font.clone(), egui::Color32::WHITE))
                    .size()
            };
            let rect = egui::Rect::from_min_size(egui::Pos2::ZERO, DRAWING);
            for preset in presets::ALL {
                let (graph, ..) = preset.load();
                let (nodes, _) = node_places(&graph, &HashMap::default(), rect);
                let mut edges = Vec::new();
                for a in 0..graph.len() {
                    for &(b, w) in graph.neighbours(a).iter().filter(|(b, _)| a < *b) {
                        edges.push((nodes[a], nodes[b], size(number(w))));
                    }
                }
                let sizes: Vec<egui::Vec2> = (0..graph.len())
                    .map(|i| size(format!("{}\nh {}", graph.name(i), number(graph.h(i)))))
                    .collect();
                let scene = lab_labels::Scene {
                    nodes: &nodes,
                    radius: NODE_RADIUS,
                    edges: &edges,
                    bounds: rect,
                };
                let lab_labels::Placed { labels, weights } = lab_labels::place(&scene, &sizes);
                for (k, &weight) in weights.iter().enumerate() {
                    let what = format!("{}: weight {k} {weight:?}", preset.name);
                    assert!(
                        !nodes
                            .iter()
                            .any(|&n| lab_labels::covers_node(weight, n, NODE_RADIUS)),
                        "{what} covers a node"
                    );
                    let others = weights.iter().enumerate().filter(|&(j, _)| j != k);
                    assert!(
                        !others.clone().any(|(_, &w)| lab_labels::overlap(weight, w)),
                        "{what} covers a weight"
                    );
                }
                for (i, &label) in labels.iter().enumerate() {
                    let name = graph.name(i);
                    let what = format!("{}: {name}'s label {label:?}", preset.name);
                    assert!(label.distance_to_pos(nodes[i]) < 30.0, "{what} is far off");
                    assert!(rect.contains_rect(label), "{what} is outside the drawing");
                    assert!(
                        !nodes
                            .iter()
                            .any(|&n| lab_labels::covers_node(label, n, NODE_RADIUS)),
                        "{what} covers a node"
                    );
                    assert!(
                        !weights.iter().any(|&w| lab_labels::overlap(label, w)),
                        "{what} covers a weight"
                    );
                    let others = labels.iter().enumerate().filter(|&(k, _)| k != i);
                    assert!(
                        !others.clone().any(|(_, &l)| lab_labels::overlap(label, l)),
                        "{what} covers a label"
                    );
                }
            }
        });
        // The font atlas made for the measures: nothing renders it.
        out.textures_delta.clear();
    }

    #[test]
    fn romania_runs_to_bucharest_and_a_bad_text_keeps_the_graph() {
        let mut lab = GraphLab::default();
        lab.search.run();
        let last = lab.last_row().expect("a row");
        assert!(
            last.starts_with("6 | Bucharest (g 418): the goal, stop"),
            "{last}"
        );
        let before = lab.search.graph().clone();
        lab.text = "A B 4\nA B\n".into();
        lab.apply_text();
        assert!(
            lab.error
                .as_deref()
                .is_some_and(|e| e.starts_with("line 2:"))
        );
        assert_eq!(lab.search.graph(), &before);
        lab.text = "A B 4\nh A 3\n".into();
        lab.apply_text();
        assert_eq!(lab.error, None);
        assert_eq!(lab.search.graph().len(), 2);
    }

    #[test]
    fn by_hand_the_trace_waits_for_the_neighbours_and_another_graph_starts_again() {
        use gridpath::lab::{NeighbourAnswer, NextAnswer};
        let mut lab = GraphLab::default();
        lab.work_by_hand(true);
        let arad = lab.search.graph().index("Arad").expect("Arad");
        let hand = lab.hand.as_mut().expect("by hand");
        let verdict = hand.run.answer_next(NextAnswer::Node(arad));
        lab.judged(verdict);
        // Arad's neighbours are being asked about: the trace does not show them yet.
        assert!(lab.search.steps().is_empty());
        for _ in 0..3 {
            let hand = lab.hand.as_mut().expect("by hand");
            let verdict = hand.run.answer_neighbour(NeighbourAnswer::NoChange);
            assert!(!verdict.right, "each is reached for the first time");
            lab.judged(verdict);
        }
        assert_eq!(lab.search.steps().len(), 1);
        assert_eq!(lab.hand.as_ref().map(|h| h.run.score()), Some((1, 4)));
        let before = lab.text.clone();
        lab.another_graph();
        assert_ne!(lab.text, before);
        assert_eq!(lab.hand.as_ref().map(|h| h.run.score()), Some((0, 0)));
        assert!(lab.search.steps().is_empty());
    }
}
