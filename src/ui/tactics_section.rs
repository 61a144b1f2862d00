//! The "Tactics" section: the start marker as a unit of a turn-based game, with movement points,
//! turns and sight; the agents on the map are its enemies. The map shows its range, what it sees,
//! the way to the goal by turns and the enemies' zones of control; the section says what they
//! cost and teaches why a range is Dijkstra's search and not A\*.

use super::widgets::PanelWidgets;
use super::widgets::{AMBER, legend_line, section};
use crate::planner::tactics::{TacticsLesson, TacticsSettings};
use crate::view::palette::{self, rgb8};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

#[derive(SystemParam)]
pub(super) struct TacticsSection<'w> {
    settings: ResMut<'w, TacticsSettings>,
    lesson: Res<'w, TacticsLesson>,
}

impl TacticsSection<'_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        section("Tactics: range, turns, sight", self.settings.enabled).show(ui, |ui| {
            let mut s = *self.settings;
            let toggle = ui.checkbox(&mut s.enabled, "The start is a unit; agents are enemies");
            widgets.note("tactics", &toggle);
            toggle.on_hover_text(
                "Where the unit at the start can go in so many turns (outlined), what it sees \
                 (dots), and the way to the goal cut into turns (rings). Each agent on the map \
                 is an enemy: its cell is closed, and a move into a cell next to it ends there. \
                 Point at an enemy to see where it can reach in one turn, in its colour.",
            );
            if s.enabled {
                ui.add(egui::Slider::new(&mut s.points, 1..=20).text("points a turn"));
                ui.add(egui::Slider::new(&mut s.turns, 1..=3).text("turns"));
                ui.add(egui::Slider::new(&mut s.sight, 0..=30).text("sight"));
                self.figures(ui, &s);
                legend(ui);
                lesson(ui);
            }
            if s != *self.settings {
                *self.settings = s;
            }
        });
    }

    /// The range's size, the goal's turns, and A\*'s work beside the range's.
    fn figures(&self, ui: &mut egui::Ui, s: &TacticsSettings) {
        let lesson = &*self.lesson;
        if lesson.range_cells == 0 {
            // No range has landed yet (a range holds at least the unit's own cell; a marker
            // never stands on a wall).
            ui.label("working out the range…");
            return;
        }
        ui.label(format!(
            "{} cells within {} turns of {} points",
            lesson.range_cells, s.turns, s.points
        ));
        match (&lesson.route, lesson.turns.len()) {
            (Some(route), turns) => ui.label(format!(
                "the goal: {turns} turn{} away, {:.1} points",
                if turns == 1 { "" } else { "s" },
                route.cost
            )),
            (None, _) => ui.colored_label(AMBER, "the goal is out of range"),
        };
        if let Some(expanded) = lesson.astar_expanded {
            ui.label(format!(
                "A* to the goal expanded {expanded} cells; the range settled {}",
                lesson.range_cells
            ));
        }
    }
}

fn legend(ui: &mut egui::Ui) {
    let entries = [
        (palette::RANGE, "in range"),
        (palette::SIGHT, "seen"),
        (palette::TURN_END, "a turn ends"),
        (palette::LATER_TURN_END, "a later turn ends"),
        (palette::ZONE, "zone of control"),
    ];
    legend_line(ui, &entries.map(|(color, what)| (rgb8(color), what)));
}

/// Why a range is Dijkstra's search and not A\*.
fn lesson(ui: &mut egui::Ui) {
    ui.collapsing("Why is a range Dijkstra, not A*?", |ui| {
        ui.label(
            "A* is quick because its heuristic pulls it towards one goal: it expands the cells \
             that look on the way and leaves the rest. A movement range has no goal. It asks \
             for every cell within the budget, so there is nothing to be pulled towards, and a \
             heuristic could only change the order of the same work. What is left is Dijkstra: \
             cells come out cheapest first, each with its final cost, and the first one past \
             the budget ends the search. The same search answers \"which target is nearest?\" \
             (stop at the first target) and \"where can I shoot from?\" (stop at the first \
             cell in range and in sight).",
        );
    });
}
