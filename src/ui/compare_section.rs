//! The "Compare" section: every algorithm on the current query, in one table. Click a row to see
//! that algorithm's explored cells and path on the map.

use super::widgets::{AMBER, section};
use crate::planner::PlannerMode;
use crate::planner::compare::{CompareCommand, CompareRow, Comparison, RowResult};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

#[derive(SystemParam)]
pub(super) struct CompareSection<'w> {
    comparison: Res<'w, Comparison>,
    mode: Res<'w, State<PlannerMode>>,
    commands: MessageWriter<'w, CompareCommand>,
}

impl CompareSection<'_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui) {
        let open = !self.comparison.rows.is_empty();
        section("Compare algorithms", false)
            .default_open(open)
            .show(ui, |ui| {
                let live = *self.mode.get() == PlannerMode::Live;
                let button = ui.add_enabled(live, egui::Button::new("Compare all algorithms"));
                if button
                    .on_hover_text("Run every algorithm on this start and goal")
                    .clicked()
                {
                    self.commands.write(CompareCommand::Run);
                }
                if self.comparison.rows.is_empty() {
                    return;
                }
                self.table(ui);
                for row in &self.comparison.rows {
                    if let Ok(RowResult {
                        table: Some(table), ..
                    }) = &row.result
                    {
                        // The precomputation is JPS+'s price: shown, but not in its µs.
                        ui.label(format!("{} table: {table}", row.algorithm.key()));
                    }
                }
                let selected = self
                    .comparison
                    .selected
                    .and_then(|i| self.comparison.rows.get(i));
                if let Some(CompareRow {
                    result: Err(why), ..
                }) = selected
                {
                    // Nothing is drawn for it, so say why here rather than only in a hover.
                    ui.colored_label(AMBER, why);
                }
                if self.comparison.selected.is_some() && ui.button("Show the live plan").clicked() {
                    self.commands.write(CompareCommand::Select(None));
                }
            });
    }

    /// One row per algorithm; clicking a row's name selects it, or unselects it.
    fn table(&mut self, ui: &mut egui::Ui) {
        egui::Grid::new("comparison")
            .num_columns(6)
            .striped(true)
            .spacing([4.0, 2.0])
            .show(ui, |ui| {
                for title in ["", "cost", "len", "nodes", "µs", "opt"] {
                    ui.strong(title);
                }
                ui.end_row();
                for (i, row) in self.comparison.rows.iter().enumerate() {
                    let selected = self.comparison.selected == Some(i);
                    if ui
                        .selectable_label(selected, row.algorithm.key())
                        .on_hover_text(row.algorithm.name())
                        .clicked()
                    {
                        let select = (!selected).then_some(i);
                        self.commands.write(CompareCommand::Select(select));
                    }
                    row_cells(ui, row);
                    ui.end_row();
                }
            });
    }
}

/// A row's numbers, or "n/a" with the reason on hover.
fn row_cells(ui: &mut egui::Ui, row: &CompareRow) {
    match &row.result {
        Ok(r) => {
            ui.label(r.cost.map_or("none".into(), |c| format!("{c:.2}")));
            ui.label(r.length.to_string());
            ui.label(r.expanded.to_string());
            ui.label(format!("{:.0}", r.micros));
            if row.algorithm.is_any_angle() && r.cost.is_some() {
                // A word that fits: the table is the panel's widest row.
                ui.label("any").on_hover_text(
                    "Any angle: straight segments between corners, not held to the grid's \
                     optimum, and never longer than it. The length column counts corners.",
                );
            } else if r.optimal {
                ui.label("yes");
            } else {
                ui.colored_label(AMBER, "no");
            }
        }
        Err(why) => {
            ui.label("n/a").on_hover_text(why);
            for _ in 0..4 {
                ui.label("");
            }
        }
    }
}
