//! The graph lab's by-hand mode: the questions, the learner's answers, and the verdicts. The
//! grading is the core's (`gridpath::lab::ByHand`); this file asks and shows.

use super::lab_state::GraphLab;
use super::widgets::{PanelWidgets, RED, color32};
use crate::view::palette;
use bevy_egui::egui;
use gridpath::lab::{NeighbourAnswer, NextAnswer, Question, TiePolicy, num};

const GREEN: egui::Color32 = color32(palette::START);

/// The tie policy, the score, and "another graph".
pub(super) fn settings(ui: &mut egui::Ui, lab: &mut GraphLab) {
    let before = lab.policy;
    ui.label("ties:");
    ui.radio_value(&mut lab.policy, TiePolicy::Alphabetical, "alphabetical")
        .on_hover_text("Equally good nodes go in name order, as the stepper takes them");
    ui.radio_value(&mut lab.policy, TiePolicy::AnyValid, "any valid")
        .on_hover_text("Any of the equally good nodes is right");
    if lab.policy != before {
        lab.work_by_hand(true);
    }
    if ui
        .button("Another graph")
        .on_hover_text("The same graph with new weights, and an h that fits them")
        .clicked()
    {
        lab.another_graph();
    }
    if let Some(hand) = &lab.hand {
        let (right, asked) = hand.run.score();
        ui.strong(format!("score {right} / {asked}"));
    }
}

/// The question now, with its answers; `clicked` is a node clicked in the drawing.
///
/// Why one long function: egui lays its widgets out in the order the code runs; the questions and
/// their answers read top to bottom as the learner sees them.
pub(super) fn questions(
    ui: &mut egui::Ui,
    lab: &mut GraphLab,
    clicked: Option<usize>,
    widgets: &mut PanelWidgets,
) {
    let Some(hand) = &mut lab.hand else {
        return;
    };
    let graph = hand.run.search().graph().clone();
    let algorithm = hand.run.search().algorithm().name();
    let mut judged = None;
    match hand.run.question() {
        Question::Next => {
            ui.label(format!(
                "Which node does {algorithm} expand next? Click it, or a name:"
            ));
            ui.horizontal_wrapped(|ui| {
                for n in 0..graph.len() {
                    if ui.button(graph.name(n)).clicked() {
                        judged = Some(hand.run.answer_next(NextAnswer::Node(n)));
                    }
                }
                let stop = ui.button("The search stops");
                widgets.note("lab_stop", &stop);
                if stop.clicked() {
                    judged = Some(hand.run.answer_next(NextAnswer::Stop));
                }
            });
            if let Some(n) = clicked.filter(|_| judged.is_none()) {
                judged = Some(hand.run.answer_next(NextAnswer::Node(n)));
            }
        }
        Question::Neighbour {
            neighbour,
            via,
            via_g,
            weight,
        } => {
            let (n, v) = (graph.name(neighbour), graph.name(via));
            ui.label(format!(
                "{v} is expanded (g {}). Its neighbour {n}, {} away: what is {n}'s g now, \
                 with {v} as its parent? Or does nothing change?",
                num(via_g),
                num(weight)
            ));
            ui.horizontal(|ui| {
                ui.label(format!("g({n}) ="));
                let field =
                    ui.add(egui::TextEdit::singleline(&mut hand.g_text).desired_width(60.0));
                let typed = hand
                    .g_text
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|g| g.is_finite());
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                let set = ui.add_enabled(typed.is_some(), egui::Button::new(format!("parent {v}")));
                if let Some(g) = typed.filter(|_| set.clicked() || enter) {
                    judged = Some(hand.run.answer_neighbour(NeighbourAnswer::NewG(g)));
                }
                if ui.button("No change").clicked() {
                    judged = Some(hand.run.answer_neighbour(NeighbourAnswer::NoChange));
                }
            });
        }
        Question::Done => {
            let (right, asked) = hand.run.score();
            ui.strong(format!("Done: {right} of {asked} answers right."));
            ui.label("Another graph re-draws the weights; Work it by hand starts again.");
        }
    }
    if let Some(verdict) = &hand.verdict {
        if verdict.right {
            ui.colored_label(GREEN, "Right.");
        } else {
            let why = verdict
                .habit
                .map_or(".".to_string(), |h| format!(": {}.", h.explain()));
            ui.colored_label(RED, format!("Not quite{why}"));
            ui.label(format!("The right step: {}.", verdict.expected));
        }
    }
    if let Some(verdict) = judged {
        lab.judged(verdict);
    }
}
