//! The "Edit" section: the tool palette, the brush, undo and redo, and the clear buttons.

use super::widgets::{PanelWidgets, section, swatch};
use crate::editing::{BRUSH_SIZES, EditCommand, EditTool, History, Tool};
use crate::view::palette;
use crate::world::terrain::Ground;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

#[derive(SystemParam)]
pub(super) struct EditSection<'w> {
    tool: ResMut<'w, EditTool>,
    history: Res<'w, History>,
    commands: MessageWriter<'w, EditCommand>,
}

impl EditSection<'_> {
    /// The tool in use, for the Agents section's "drop with a click" switch.
    pub(super) fn tool_mut(&mut self) -> Mut<'_, EditTool> {
        self.tool.reborrow()
    }

    pub(super) fn show(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        section("Edit", false).default_open(true).show(ui, |ui| {
            let mut tool = *self.tool;
            ui.label(format!("Tool: {}", tool.tool.name()));
            tool_palette(ui, &mut tool);
            if tool != *self.tool {
                *self.tool = tool;
            }
            ui.horizontal(|ui| self.buttons(ui, widgets));
        });
    }

    /// Undo and redo (their hovers name the step), and the clear buttons.
    fn buttons(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        let undo = self.history.next_undo().map(|e| e.label());
        let redo = self.history.next_redo().map(|e| e.label());
        let undo_button = ui.add_enabled(undo.is_some(), egui::Button::new("Undo"));
        widgets.note("undo", &undo_button);
        if undo_button
            .on_hover_text(undo.unwrap_or_default())
            .clicked()
        {
            self.commands.write(EditCommand::Undo);
        }
        let redo_button = ui.add_enabled(redo.is_some(), egui::Button::new("Redo"));
        if redo_button
            .on_hover_text(redo.unwrap_or_default())
            .clicked()
        {
            self.commands.write(EditCommand::Redo);
        }
        let clear = ui.button("Clear walls");
        widgets.note("clear_walls", &clear);
        if clear.clicked() {
            self.commands.write(EditCommand::ClearWalls);
        }
        if ui.button("Clear terrain").clicked() {
            self.commands.write(EditCommand::ClearTerrain);
        }
    }
}

/// Walls or a kind of ground, and the brush size.
fn tool_palette(ui: &mut egui::Ui, tool: &mut EditTool) {
    ui.horizontal_wrapped(|ui| {
        ui.selectable_value(&mut tool.tool, Tool::Walls, "Walls")
            .on_hover_text("Drag from a free cell to paint walls, from a wall to erase them.");
        for g in Ground::ALL {
            let name = format!("{} {}", g.name(), g.cost());
            // A swatch and its name wrap together, never the one at a row's end and the other
            // at the next's start. (A row of its own inside this one would take all the width.)
            let font = egui::TextStyle::Button.resolve(ui.style());
            let text = ui
                .painter()
                .layout_no_wrap(name.clone(), font, egui::Color32::WHITE);
            let spacing = ui.spacing();
            let pair = 12.0 + 2.0 * spacing.item_spacing.x + text.size().x;
            if ui.available_size_before_wrap().x < pair + 2.0 * spacing.button_padding.x {
                ui.end_row();
            }
            swatch(ui, palette::ground(g));
            ui.selectable_value(&mut tool.tool, Tool::Ground(g), name)
                .on_hover_text(format!(
                    "Paint {}: entering it costs {}.",
                    g.name().to_lowercase(),
                    g.cost()
                ));
        }
        ui.selectable_value(&mut tool.tool, Tool::Agents, "Agents")
            .on_hover_text("Click the map to drop an agent.");
        ui.selectable_value(&mut tool.tool, Tool::Links, "Links")
            .on_hover_text(
                "Click a cell, then the cell it leads to: a link (stairs, a teleporter) costing 2. \
             Click a link's end to remove it.",
            );
    });
    ui.horizontal(|ui| {
        ui.label("brush");
        for size in BRUSH_SIZES {
            ui.selectable_value(&mut tool.brush, size, format!("{size}×{size}"));
        }
    });
}
