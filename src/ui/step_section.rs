//! The "Step through" section: pause the planner and step the search by hand, watching the
//! current cell and its neighbours with their g, h and f.

use super::widgets::section;
use crate::planner::PlannerMode;
use crate::planner::shown::ShownSearch;
use crate::planner::stepping::{SPEED_RANGE, StepCommand, Stepper};
use crate::world::nav::NavGrid;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use gridpath::{NodeState, SearchStatus};

#[derive(SystemParam)]
pub(super) struct StepSection<'w> {
    mode: Res<'w, State<PlannerMode>>,
    stepper: ResMut<'w, Stepper>,
    shown: Res<'w, ShownSearch>,
    nav: Option<Res<'w, NavGrid>>,
    commands: MessageWriter<'w, StepCommand>,
}

impl StepSection<'_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui) {
        let stepping = *self.mode.get() == PlannerMode::Stepping;
        section("Step through the search", false)
            .default_open(stepping)
            .show(ui, |ui| {
                if !stepping {
                    ui.label("Pause re-planning and run the search one cell at a time.");
                    if ui.button("Start stepping").clicked() {
                        self.commands.write(StepCommand::Enter);
                    }
                    return;
                }
                ui.label(self.progress());
                self.controls(ui);
                self.current_cell(ui);
                if ui.button("Back to live re-planning").clicked() {
                    self.commands.write(StepCommand::Exit);
                }
            });
    }

    /// How far the search has come, and how it ended.
    fn progress(&self) -> String {
        let search = &self.stepper.search;
        let cost = search.cost().unwrap_or(0.0);
        let status = match search.status() {
            SearchStatus::Running => "running".to_string(),
            SearchStatus::Found => format!("found the goal, cost {cost:.2}"),
            SearchStatus::Partial => format!("reached the nearest cell, cost {cost:.2}"),
            SearchStatus::NoPath => "no path".to_string(),
            SearchStatus::Idle => "not started".to_string(),
        };
        format!(
            "{} expanded, frontier {}: {status}",
            search.expanded(),
            self.shown.frontier.len()
        )
    }

    /// Step, Step N, Play or Pause, Run to end, Restart, and the speed.
    fn controls(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if ui.button("Step").on_hover_text("Expand one cell").clicked() {
                self.commands.write(StepCommand::Step(1));
            }
            let batch = self.stepper.batch;
            if ui.button(format!("Step {batch}")).clicked() {
                self.commands.write(StepCommand::Step(batch));
            }
            ui.add(
                egui::DragValue::new(&mut self.stepper.batch)
                    .range(1..=100_000)
                    .prefix("N "),
            );
        });
        ui.horizontal(|ui| {
            let playing = self.stepper.playing;
            if ui.button(if playing { "Pause" } else { "Play" }).clicked() {
                self.commands.write(if playing {
                    StepCommand::Pause
                } else {
                    StepCommand::Play
                });
            }
            if ui.button("Run to end").clicked() {
                self.commands.write(StepCommand::RunToEnd);
            }
            if ui.button("Restart").clicked() {
                self.commands.write(StepCommand::Restart);
            }
        });
        ui.add(
            egui::Slider::new(&mut self.stepper.speed, SPEED_RANGE)
                .logarithmic(true)
                .suffix(" cells/s")
                .text("speed"),
        );
    }

    /// The cell expanded last and its neighbours, with g, h and f.
    fn current_cell(&self, ui: &mut egui::Ui) {
        let search = &self.stepper.search;
        let (Some(current), Some(nav), Some(config)) =
            (search.current(), &self.nav, search.config())
        else {
            return;
        };
        let number = |v: f64| {
            if v.is_finite() {
                format!("{v:.2}")
            } else {
                "-".into()
            }
        };
        egui::Grid::new("current_cell")
            .num_columns(5)
            .striped(true)
            .show(ui, |ui| {
                for title in ["cell", "state", "g", "h", "f"] {
                    ui.strong(title);
                }
                ui.end_row();
                let cells = std::iter::once(current).chain(
                    config
                        .movement
                        .neighbors(nav.grid(), current)
                        .map(|(p, _)| p),
                );
                for (i, p) in cells.enumerate() {
                    let Some(node) = search.node(p) else { continue };
                    let state = match node.state {
                        NodeState::Unseen => "unseen",
                        NodeState::Open => "frontier",
                        NodeState::Closed => "explored",
                    };
                    ui.label(if i == 0 {
                        format!("* {p}")
                    } else {
                        format!("{p}")
                    });
                    ui.label(state);
                    ui.label(number(node.g));
                    ui.label(number(node.h));
                    ui.label(number(node.f));
                    ui.end_row();
                }
            });
    }
}
