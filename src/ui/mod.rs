//! The side panel. Each section lives in its own file and edits the world only through
//! resources and messages, like any other input.
//!
//! Widgets edit copies of settings and write them back only when something changed, so Bevy's
//! change detection (which re-plans on a settings change) fires only on real edits.

mod compare_section;
mod edit_section;
mod map_section;
mod search_section;
mod step_section;
mod view_section;

use crate::camera::UiInsets;
use crate::e2e_hook::E2eHook;
use crate::notice::{Level, Notices};
use crate::pointer::{KeyboardOverUi, UiPointerClaim};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub use map_section::MapMenuState;

pub const PANEL_WIDTH: f32 = 300.0;
pub(crate) const RED: egui::Color32 = egui::Color32::from_rgb(255, 90, 90);
pub(crate) const AMBER: egui::Color32 = egui::Color32::from_rgb(255, 190, 70);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapMenuState>()
        .add_systems(EguiPrimaryContextPass, side_panel);
}

fn side_panel(
    mut contexts: EguiContexts,
    mut maps: map_section::MapSection,
    mut edit: edit_section::EditSection,
    mut search: search_section::SearchSection,
    mut step: step_section::StepSection,
    mut compare: compare_section::CompareSection,
    mut view: view_section::ViewSection,
    notices: Res<Notices>,
    mut hook: Option<ResMut<E2eHook>>,
    mut claim: ResMut<UiPointerClaim>,
    mut keyboard_over_ui: ResMut<KeyboardOverUi>,
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
    let panel = egui::Panel::left("controls")
        .exact_size(PANEL_WIDTH)
        .resizable(false)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Pathfinder Playground");
                let mut spots = Spots(hook.as_deref_mut());
                maps.show(ui);
                search.show(ui, &mut spots);
                show_notice(ui, &notices);
                step.show(ui);
                compare.show(ui);
                view.show(ui, &mut spots);
                edit.show(ui, &mut spots);
                ui.separator();
                ui.small(
                    "Drag the green start or the red goal to move it. Drag on the map to paint; \
                     right or middle drag to pan; wheel to zoom; F to fit. Ctrl+Z undoes, \
                     Ctrl+Shift+Z or Ctrl+Y redoes.",
                );
            });
        });
    // Hovering the panel itself is worked out from the cursor each frame (see `PointerOverUi`).
    claim.set_if_neq(UiPointerClaim(
        ctx.egui_wants_pointer_input() || ctx.is_pointer_over_egui(),
    ));
    // Only a text field needs the keys: a focused button must not swallow Ctrl+Z.
    keyboard_over_ui.set_if_neq(KeyboardOverUi(ctx.text_edit_focused()));
    insets.set_if_neq(UiInsets {
        left: panel.response.rect.width(),
    });
    Ok(())
}

/// The latest notice, coloured by its level.
fn show_notice(ui: &mut egui::Ui, notices: &Notices) {
    if let Some(notice) = notices.latest() {
        let color = match notice.level {
            Level::Info => ui.visuals().text_color(),
            Level::Warning => AMBER,
            Level::Error => RED,
        };
        ui.colored_label(color, &notice.text);
    }
}

/// Where widgets are, for the end-to-end test hook (when it is on).
pub(crate) struct Spots<'a>(Option<&'a mut E2eHook>);

impl Spots<'_> {
    pub(crate) fn note(&mut self, name: &'static str, response: &egui::Response) {
        if let Some(hook) = &mut self.0 {
            let c = response.rect.center();
            hook.note_widget(name, Vec2::new(c.x, c.y));
        }
    }
}

/// A small filled square in a colour, as drawn next to palette entries and legends.
pub(crate) fn swatch(ui: &mut egui::Ui, [r, g, b]: [u8; 3]) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter()
        .rect_filled(rect, 2.0, egui::Color32::from_rgb(r, g, b));
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::ecs::system::IntoSystem;

    /// Conflicting parameters (two sections borrowing one resource mutably) only show when the
    /// system is initialised, which headless app tests never do for the UI. Do it here.
    #[test]
    fn the_panel_system_has_no_conflicting_parameters() {
        let mut world = World::new();
        let mut system = IntoSystem::<(), Result, _>::into_system(side_panel);
        system.initialize(&mut world);
    }
}
