//! The "View" section: which overlays show, and a legend of what the colours mean.

use super::swatch;
use super::widgets::PanelWidgets;
use crate::view::camera::FitView;
use crate::view::overlays::{ExploredColoring, OverlaySettings};
use crate::view::palette::{self, COST_RAMP, ORDER_RAMP, ramp, rgb8};
use crate::world::terrain::Ground;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

#[derive(SystemParam)]
pub(super) struct ViewSection<'w> {
    overlays: ResMut<'w, OverlaySettings>,
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
        egui::CollapsingHeader::new("View")
            .default_open(true)
            .show(ui, |ui| {
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
                if o != *self.overlays {
                    *self.overlays = o;
                }
                legend(ui, o.explored_coloring);
            });
    }
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
        swatch(ui, rgb8(palette::CURRENT));
        ui.label("current cell");
        swatch(ui, rgb8(palette::PATH));
        ui.label("path");
    });
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        swatch(ui, palette::START);
        ui.label("start");
        swatch(ui, palette::GOAL);
        ui.label("goal");
        swatch(ui, rgb8(palette::OBSTACLE));
        ui.label("wall outline");
    });
}
