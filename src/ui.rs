//! The side panel: overlay switches, planner settings and the last plan's numbers.
//!
//! The panel edits copies of the settings and writes them back only when a widget changed, so
//! Bevy's change detection (which re-plans on a settings change) fires only on real edits.

use crate::camera::UiInsets;
use crate::map::CurrentMap;
use crate::notice::{Level, Notices};
use crate::overlays::OverlaySettings;
use crate::planner::{INTERVAL_RANGE, Plan, PlanStatus, PlannerSettings, ReplanNow};
use crate::pointer::PointerOverUi;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use gridpath::{CornerRule, Heuristic, Movement, SearchConfig};

pub const PANEL_WIDTH: f32 = 270.0;
const RED: egui::Color32 = egui::Color32::from_rgb(255, 90, 90);
const AMBER: egui::Color32 = egui::Color32::from_rgb(255, 190, 70);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, side_panel);
}

fn side_panel(
    mut contexts: EguiContexts,
    mut overlays: ResMut<OverlaySettings>,
    mut settings: ResMut<PlannerSettings>,
    plan: Res<Plan>,
    notices: Res<Notices>,
    map: Res<CurrentMap>,
    mut replan: MessageWriter<ReplanNow>,
    mut over_ui: ResMut<PointerOverUi>,
    mut insets: ResMut<UiInsets>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let mut new_overlays = *overlays;
    let mut new_settings = settings.clone();
    let panel = egui::Panel::left("controls")
        .exact_size(PANEL_WIDTH)
        .resizable(false)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Pathfinder Playground");
                ui.label(format!("Map: {}", map.name));
                ui.add_space(6.0);

                ui.strong("Overlays");
                ui.checkbox(&mut new_overlays.grid, "Show grid");
                ui.checkbox(&mut new_overlays.obstacles, "Show obstacles");
                ui.checkbox(&mut new_overlays.path, "Show path");
                ui.add_space(6.0);

                ui.strong("Planner");
                movement_choice(ui, &mut new_settings.search);
                ui.add(
                    egui::Slider::new(&mut new_settings.interval, INTERVAL_RANGE)
                        .logarithmic(true)
                        .suffix(" s")
                        .text("re-plan every"),
                );
                if ui.button("Re-plan now").clicked() {
                    replan.write(ReplanNow);
                }
                ui.add_space(6.0);

                ui.strong("Last plan");
                plan_status(ui, &plan);
                if let Some(notice) = notices.latest() {
                    ui.add_space(6.0);
                    let color = match notice.level {
                        Level::Info => ui.visuals().text_color(),
                        Level::Warning => AMBER,
                        Level::Error => RED,
                    };
                    ui.colored_label(color, &notice.text);
                }
                ui.add_space(6.0);
                ui.separator();
                ui.small("Drag the green start and the red goal with the left mouse button.");
            });
        });
    // bevy_egui does not report "pointer over a panel" as egui wanting the pointer; do it here.
    over_ui.set_if_neq(PointerOverUi(
        panel.response.contains_pointer()
            || ctx.egui_wants_pointer_input()
            || ctx.is_pointer_over_egui(),
    ));
    insets.set_if_neq(UiInsets {
        left: panel.response.rect.width(),
    });

    if new_overlays != *overlays {
        *overlays = new_overlays;
    }
    if new_settings != *settings {
        *settings = new_settings;
    }
    Ok(())
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
