//! The "View" and "Planner" sections, the last plan's numbers, and the latest notice.

use super::{AMBER, RED};
use crate::camera::FitView;
use crate::notice::{Level, Notices};
use crate::overlays::OverlaySettings;
use crate::planner::{INTERVAL_RANGE, Plan, PlanStatus, PlannerSettings, ReplanNow};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use gridpath::{CornerRule, Heuristic, Movement, SearchConfig};

#[derive(SystemParam)]
pub(super) struct PlanSection<'w> {
    overlays: ResMut<'w, OverlaySettings>,
    settings: ResMut<'w, PlannerSettings>,
    plan: Res<'w, Plan>,
    notices: Res<'w, Notices>,
    replan: MessageWriter<'w, ReplanNow>,
    fit: MessageWriter<'w, FitView>,
}

impl PlanSection<'_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui) {
        egui::CollapsingHeader::new("View")
            .default_open(true)
            .show(ui, |ui| {
                let mut overlays = *self.overlays;
                ui.horizontal(|ui| {
                    ui.checkbox(&mut overlays.grid, "Show grid");
                    if ui
                        .button("Fit")
                        .on_hover_text("Frame the whole map (F)")
                        .clicked()
                    {
                        self.fit.write(FitView);
                    }
                });
                ui.checkbox(&mut overlays.obstacles, "Show obstacles");
                ui.checkbox(&mut overlays.path, "Show path");
                if overlays != *self.overlays {
                    *self.overlays = overlays;
                }
            });
        egui::CollapsingHeader::new("Planner")
            .default_open(true)
            .show(ui, |ui| {
                let mut settings = self.settings.clone();
                movement_choice(ui, &mut settings.search);
                ui.add(
                    egui::Slider::new(&mut settings.interval, INTERVAL_RANGE)
                        .logarithmic(true)
                        .suffix(" s")
                        .text("re-plan every"),
                );
                if ui.button("Re-plan now").clicked() {
                    self.replan.write(ReplanNow);
                }
                if settings != *self.settings {
                    *self.settings = settings;
                }
            });
        ui.strong("Last plan");
        plan_status(ui, &self.plan);
        if let Some(notice) = self.notices.latest() {
            ui.add_space(4.0);
            let color = match notice.level {
                Level::Info => ui.visuals().text_color(),
                Level::Warning => AMBER,
                Level::Error => RED,
            };
            ui.colored_label(color, &notice.text);
        }
    }
}

/// 4-way or 8-way. A change also picks the tightest admissible heuristic for the new movement
/// (Manhattan overestimates once diagonals are allowed).
fn movement_choice(ui: &mut egui::Ui, search: &mut SearchConfig) {
    let before = search.movement;
    ui.horizontal(|ui| {
        ui.label("Moves");
        ui.selectable_value(&mut search.movement, Movement::FourWay, "4-way")
            .on_hover_text("North, east, south and west only.");
        ui.selectable_value(
            &mut search.movement,
            Movement::EightWay(CornerRule::NeverCut),
            "8-way",
        )
        .on_hover_text("Adds diagonal moves, costing √2, that never cut a wall's corner.");
    });
    if search.movement != before {
        search.heuristic = Heuristic::best_for(search.movement);
    }
}

fn plan_status(ui: &mut egui::Ui, plan: &Plan) {
    let numbers = |ui: &mut egui::Ui| {
        egui::Grid::new("plan_numbers")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Length");
                ui.label(format!("{} cells", plan.path.len()));
                ui.end_row();
                ui.label("Cost");
                ui.label(format!("{:.2}", plan.cost));
                ui.end_row();
                ui.label("Expanded");
                ui.label(format!("{} nodes", plan.expanded));
                ui.end_row();
                ui.label("Time");
                ui.label(format!("{:.0} µs", plan.micros));
                ui.end_row();
            });
    };
    match &plan.status {
        PlanStatus::Pending => {
            ui.label("Planning...");
        }
        PlanStatus::Found => numbers(ui),
        PlanStatus::Partial => {
            ui.colored_label(
                AMBER,
                "Goal unreachable: path to the nearest reachable cell.",
            );
            numbers(ui);
        }
        PlanStatus::NoPath => {
            ui.colored_label(RED, "No path: the goal cannot be reached");
            ui.label(format!(
                "Expanded {} nodes in {:.0} µs",
                plan.expanded, plan.micros
            ));
        }
        PlanStatus::Refused(why) => {
            ui.colored_label(RED, format!("No plan: {why}"));
        }
    }
}
