//! The side panel. Each section lives in its own file and edits the world only through
//! resources and messages, like any other input.
//!
//! Widgets edit copies of settings and write them back only when something changed, so Bevy's
//! change detection (which re-plans on a settings change) fires only on real edits.

mod agents_section;
mod compare_section;
mod edit_section;
pub mod graph_lab;
mod lab_by_hand;
mod lab_edit;
mod lab_labels;
pub mod lab_state;
mod lifelong_section;
mod map_section;
mod mapf_section;
mod search_section;
mod step_section;
mod view_section;
pub mod widgets;

use widgets::{AMBER, RED};

use crate::input::pointer::{KeyboardOverUi, UiInsets, UiPointerClaim};
use crate::notices::{Level, Notices};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use widgets::PanelWidgets;

pub use map_section::MapMenuState;

pub const PANEL_WIDTH: f32 = 300.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapMenuState>()
        .init_resource::<mapf_section::MapfMenuState>()
        .init_resource::<lifelong_section::LifelongMenuState>()
        .init_resource::<agents_section::SpawnCount>()
        .init_resource::<PanelWidgets>()
        .init_resource::<lab_state::GraphLab>()
        .add_systems(EguiPrimaryContextPass, side_panel)
        .add_systems(Update, graph_lab::lab_from_map);
}

fn side_panel(
    mut contexts: EguiContexts,
    mut maps: map_section::MapSection,
    mut edit: edit_section::EditSection,
    mut search: search_section::SearchSection,
    mut step: step_section::StepSection,
    mut compare: compare_section::CompareSection,
    mut view: view_section::ViewSection,
    mut agents: agents_section::AgentsSection,
    mut mapf: mapf_section::MapfSection,
    mut lifelong: lifelong_section::LifelongSection,
    mut lab: ResMut<lab_state::GraphLab>,
    notices: Res<Notices>,
    mut widgets: ResMut<PanelWidgets>,
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
            // A scroll bar of its own beside the sections, not floating over their right edge,
            // where it hid the border of the widest rows' last button.
            ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Pathfinder Playground");
                let toggle = ui.toggle_value(
                    &mut lab.open,
                    "Graph lab: A* on a small graph, step by step",
                );
                widgets.note("lab_toggle", &toggle);
                maps.show(ui, &mut widgets);
                search.show(ui, &mut widgets);
                show_notice(ui, &notices);
                step.show(ui);
                compare.show(ui);
                view.show(ui, &mut widgets);
                edit.show(ui, &mut widgets);
                agents.show(ui, &mut widgets, &mut edit.tool_mut());
                mapf.show(ui, &mut widgets);
                lifelong.show(ui, &mut widgets);
                ui.separator();
                ui.small(
                    "Drag the green start or the red goal to move it. Drag on the map to paint; \
                     right or middle drag to pan; wheel to zoom; F to fit. Ctrl+Z undoes, \
                     Ctrl+Shift+Z or Ctrl+Y redoes.",
                );
            });
        });
    let floating = lab
        .open
        .then(|| graph_lab::show(ctx, &mut lab, &mut widgets))
        .flatten();
    // Hovering the panel itself is worked out from the cursor each frame (see `PointerOverUi`).
    claim.set_if_neq(UiPointerClaim(
        ctx.egui_wants_pointer_input() || ctx.is_pointer_over_egui(),
    ));
    // Only a text field needs the keys: a focused button must not swallow Ctrl+Z.
    keyboard_over_ui.set_if_neq(KeyboardOverUi(ctx.text_edit_focused()));
    insets.set_if_neq(UiInsets {
        left: panel.response.rect.width(),
        floating: floating.map(|r| Rect::new(r.min.x, r.min.y, r.max.x, r.max.y)),
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
