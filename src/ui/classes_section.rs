//! The "Unit classes" section: the way from the start to the goal for four kinds of unit on one
//! map, each in its colour, with its cost or why it has none, and what a class is.

use super::widgets::PanelWidgets;
use super::widgets::{AMBER, section, swatch};
use crate::planner::classes::{CLASSES, ClassRoutes, ClassesSettings};
use crate::view::palette::{self, rgb8};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

#[derive(SystemParam)]
pub(super) struct ClassesSection<'w> {
    settings: ResMut<'w, ClassesSettings>,
    routes: Res<'w, ClassRoutes>,
}

impl ClassesSection<'_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        section("Unit classes: who may go where", self.settings.enabled).show(ui, |ui| {
            let mut s = *self.settings;
            let toggle = ui.checkbox(&mut s.enabled, "Route four kinds of unit side by side");
            widgets.note("classes", &toggle);
            toggle.on_hover_text(
                "One map, read four ways: the way from the start to the goal for a walker, a \
                 soldier, a tank and a boat, each in its colour. Paint water or mud to see \
                 them part.",
            );
            if s.enabled {
                self.table(ui);
                lesson(ui);
            }
            if s != *self.settings {
                *self.settings = s;
            }
        });
    }

    /// A row a class: its colour, its name, what it may enter, and its way's cost or why not.
    fn table(&self, ui: &mut egui::Ui) {
        for (k, (name, rule)) in CLASSES.iter().enumerate() {
            let color = rgb8(palette::CLASSES[k % palette::CLASSES.len()]);
            ui.horizontal(|ui| {
                swatch(ui, color);
                ui.label(*name).on_hover_text(*rule);
                match self.routes.routes.get(k).map(|r| (&r.route, r.expanded)) {
                    Some((Ok(path), expanded)) => ui.label(format!(
                        "cost {:.1}, {} steps, {expanded} expanded",
                        path.cost,
                        path.cells.len().saturating_sub(1)
                    )),
                    Some((Err(why), _)) => ui.colored_label(AMBER, why),
                    None => ui.label("…"),
                };
            });
        }
    }
}

/// What a unit class is.
fn lesson(ui: &mut egui::Ui) {
    ui.collapsing("What is a unit class?", |ui| {
        ui.label(
            "Each cell holds a terrain beside its cost. A unit class says, for each terrain, \
             whether its units may enter and how much dearer it is for them: entering a cell \
             costs the cell's cost times that factor. So one map serves every kind of unit, and \
             the search is the same A*: only the neighbours it may take, and what each costs, \
             differ. A boat starting on land has nowhere to go; a tank that may not cross mud \
             goes round it; a soldier pays for it.",
        );
    });
}
