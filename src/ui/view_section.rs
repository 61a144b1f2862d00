//! The "View" section: which overlays show, and a legend of what the colours mean.

use super::widgets::{AMBER, PanelWidgets, legend_line, section, swatch};
use crate::planner::flow::GoalField;
use crate::view::camera::FitView;
use crate::view::overlays::{ExploredColoring, OverlaySettings};
use crate::view::palette::{self, COST_RAMP, FLOW_RAMP, ORDER_RAMP, ramp, rgb8};
use crate::world::terrain::Ground;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

#[derive(SystemParam)]
pub(super) struct ViewSection<'w> {
    overlays: ResMut<'w, OverlaySettings>,
    goal_field: ResMut<'w, GoalField>,
    fit: MessageWriter<'w, FitView>,
}

/// The ramp as the tiles show it: the road's colour multiplied by the tint.
fn tinted_road(stops: &[[f32; 3]; 3], t: f32) -> [u8; 3] {
    let tint = rgb8(ramp(stops, t));
    let road = palette::ground(Ground::Road);
    [0, 1, 2].map(|i| (u16::from(road[i]) * u16::from(tint[i]) / 255) as u8)
}

impl ViewSection<'_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        section("View", false).default_open(true).show(ui, |ui| {
            let mut o = *self.overlays;
            ui.horizontal(|ui| {
                widgets.note("show_grid", &ui.checkbox(&mut o.grid, "Show grid"));
                widgets.note(
                    "show_obstacles",
                    &ui.checkbox(&mut o.obstacles, "Show obstacles"),
                );
            });
            ui.horizontal(|ui| {
                widgets.note("show_path", &ui.checkbox(&mut o.path, "Show path"));
                widgets.note(
                    "show_frontier",
                    &ui.checkbox(&mut o.frontier, "Show frontier"),
                );
                let fit = ui.button("Fit");
                widgets.note("fit", &fit);
                if fit.on_hover_text("Frame the whole map (F)").clicked() {
                    self.fit.write(FitView);
                }
            });
            ui.horizontal(|ui| {
                widgets.note(
                    "show_explored",
                    &ui.checkbox(&mut o.explored, "Show explored, by"),
                );
                ui.selectable_value(&mut o.explored_coloring, ExploredColoring::Order, "order");
                ui.selectable_value(&mut o.explored_coloring, ExploredColoring::Cost, "cost g");
            });
            let clearance = ui.checkbox(&mut o.clearance, "Show clearance (unit sizes)");
            widgets.note("show_clearance", &clearance);
            clearance.on_hover_text(
                "On each cell, a ring as big as the largest square unit that fits with its \
                     top-left corner there: one cell, two, three or more. Where the rings shrink, \
                     a big unit cannot pass.",
            );
            if o.clearance {
                clearance_legend(ui);
            }
            if o != *self.overlays {
                *self.overlays = o;
            }
            self.flow_field(ui, widgets);
            legend(ui, o.explored_coloring);
        });
    }
}

impl ViewSection<'_> {
    /// The flow field switch, and what the field cost once it is on.
    fn flow_field(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        let mut on = self.goal_field.enabled;
        let toggle = ui.checkbox(&mut on, "Show flow field to the goal");
        widgets.note("show_flow_field", &toggle);
        toggle.on_hover_text(
            "One Dijkstra search from the goal gives every cell its cost to the goal (the \
             colours) and the step to take (the arrows): what moves many units with one search.",
        );
        if on != self.goal_field.enabled {
            self.goal_field.enabled = on;
        }
        if !on || self.goal_field.revision == 0 {
            return;
        }
        let field = &self.goal_field;
        if field.reachable <= 1 {
            // Only the goal itself, or not even that (a goal on a wall has no cost to reach).
            ui.colored_label(AMBER, "No other cell can reach the goal: no flow to show");
            return;
        }
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 3.0;
            swatch(ui, tinted_road(&FLOW_RAMP, 0.0));
            swatch(ui, tinted_road(&FLOW_RAMP, 0.5));
            swatch(ui, tinted_road(&FLOW_RAMP, 1.0));
            ui.label(format!("cost to the goal: 0 to {:.1}", field.max_cost));
        });
        let time = super::widgets::duration(field.micros);
        ui.label(format!(
            "{} cells reach the goal; one search, {time}",
            field.reachable
        ));
    }
}

/// The clearance rings' colours.
fn clearance_legend(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        for (colour, room) in palette::CLEARANCE
            .iter()
            .zip(["1 × 1", "2 × 2", "3 × 3 or more"])
        {
            swatch(ui, rgb8(*colour));
            ui.label(room);
        }
        ui.label("fits here (top-left corner)");
    });
}

fn legend(ui: &mut egui::Ui, coloring: ExploredColoring) {
    let (stops, first, last) = match coloring {
        ExploredColoring::Order => (&ORDER_RAMP, "expanded first", "last"),
        ExploredColoring::Cost => (&COST_RAMP, "cheap to reach", "costly"),
    };
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        swatch(ui, tinted_road(stops, 0.0));
        swatch(ui, tinted_road(stops, 0.5));
        swatch(ui, tinted_road(stops, 1.0));
        ui.label(format!("explored: {first} to {last}"));
    });
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        swatch(ui, rgb8(palette::FRONTIER));
        ui.label("frontier (open)");
        swatch(ui, rgb8(palette::FRONTIER_FROM_GOAL));
        ui.label("from the goal (bidirectional)");
        swatch(ui, rgb8(palette::CURRENT));
        ui.label("current cell");
        swatch(ui, rgb8(palette::PATH));
        ui.label("path");
    });
    legend_line(
        ui,
        &[
            (palette::START, "start"),
            (palette::GOAL, "goal"),
            (rgb8(palette::OBSTACLE), "wall outline"),
        ],
    );
}
