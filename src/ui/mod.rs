//! The side panel. Each section lives in its own file and edits the world only through
//! resources and messages, like any other input.
//!
//! Widgets edit copies of settings and write them back only when something changed, so Bevy's
//! change detection (which re-plans on a settings change) fires only on real edits.

mod agents_section;
mod classes_section;
mod compare_section;
mod edit_section;
pub mod fonts;
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
mod tactics_section;
mod view_section;
pub mod widgets;

use widgets::{AMBER, RED};

use crate::input::pointer::{KeyboardOverUi, UiInsets, UiPointerClaim};
use crate::notices::{Level, Notices};
use bevy::ecs::system::SystemParam;
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
        .add_plugins(fonts::plugin)
        .add_systems(EguiPrimaryContextPass, side_panel)
        .add_systems(Update, graph_lab::lab_from_map);
}

/// Everything the panel shows: its sections, the graph lab's toggle, the latest notice.
#[derive(SystemParam)]
struct Sections<'w, 's> {
    maps: map_section::MapSection<'w>,
    edit: edit_section::EditSection<'w>,
    search: search_section::SearchSection<'w, 's>,
    step: step_section::StepSection<'w>,
    compare: compare_section::CompareSection<'w>,
    view: view_section::ViewSection<'w>,
    tactics: tactics_section::TacticsSection<'w>,
    classes: classes_section::ClassesSection<'w>,
    agents: agents_section::AgentsSection<'w, 's>,
    mapf: mapf_section::MapfSection<'w>,
    lifelong: lifelong_section::LifelongSection<'w>,
    lab: ResMut<'w, lab_state::GraphLab>,
    notices: Res<'w, Notices>,
    widgets: ResMut<'w, PanelWidgets>,
}

impl Sections<'_, '_> {
    /// The panel's contents, top to bottom; `after` is told each section's name once it is
    /// laid out (the width test measures there).
    fn show(&mut self, ui: &mut egui::Ui, mut after: impl FnMut(&'static str, &egui::Ui)) {
        let widgets = &mut *self.widgets;
        ui.heading("Pathfinder Playground");
        let toggle = ui.toggle_value(
            &mut self.lab.open,
            "Graph lab: A* on a small graph, step by step",
        );
        widgets.note("lab_toggle", &toggle);
        after("heading", ui);
        self.maps.show(ui, widgets);
        after("map", ui);
        self.search.show(ui, widgets);
        after("search", ui);
        show_notice(ui, &self.notices);
        self.step.show(ui);
        after("step", ui);
        self.compare.show(ui);
        after("compare", ui);
        self.classes.show(ui, widgets);
        after("classes", ui);
        self.view.show(ui, widgets);
        after("view", ui);
        self.tactics.show(ui, widgets);
        after("tactics", ui);
        self.edit.show(ui, widgets);
        after("edit", ui);
        self.agents.show(ui, widgets, &mut self.edit.tool_mut());
        after("agents", ui);
        self.mapf.show(ui, widgets);
        after("mapf", ui);
        self.lifelong.show(ui, widgets);
        after("lifelong", ui);
        ui.separator();
        ui.small(
            "Drag the green start or the red goal to move it. Drag on the map to paint; \
             right or middle drag to pan; wheel to zoom; F to fit. Ctrl+Z undoes, \
             Ctrl+Shift+Z or Ctrl+Y redoes.",
        );
        after("help", ui);
    }
}

/// The side panel, scrolled: a scroll bar of its own beside the sections, not floating over
/// their right edge, where it hid the border of the widest rows' last button.
fn panel(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui)) -> egui::InnerResponse<()> {
    egui::Panel::left("controls")
        .exact_size(PANEL_WIDTH)
        .resizable(false)
        .show(ui, |ui| {
            ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
            egui::ScrollArea::vertical().show(ui, add);
        })
}

fn side_panel(
    mut contexts: EguiContexts,
    mut sections: Sections,
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
    let panel = panel(&mut root, |ui| sections.show(ui, |_, _| {}));
    let Sections { lab, widgets, .. } = &mut sections;
    let floating = lab
        .open
        .then(|| graph_lab::show(ctx, lab, widgets))
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
    use bevy::ecs::system::{IntoSystem, RunSystemOnce};

    /// Every section open, laid out with the panel's font in a 1280 × 800 window: no row is
    /// wider than the panel leaves it. (egui lets a row that does not fit run past the edge:
    /// the panel's content is then wider than its room.)
    #[test]
    fn every_section_open_fits_the_panel() {
        let mut app = App::new();
        // The panel's own plugin too: its system never runs here (no egui context), its
        // resources are what the sections read.
        app.add_plugins((MinimalPlugins, bevy::input::InputPlugin))
            .add_plugins((crate::headless_plugin, plugin))
            .init_resource::<crate::view::overlays::grid_graph::GridGraphOverlay>()
            .init_resource::<crate::view::overlays::OverlaySettings>()
            .add_message::<crate::view::camera::FitView>();
        app.update();
        widgets::open_all_sections();
        let wider = app
            .world_mut()
            .run_system_once(|mut sections: Sections| {
                let ctx = egui::Context::default();
                ctx.set_fonts(fonts::definitions());
                let input = egui::RawInput {
                    screen_rect: Some(egui::Rect::from_min_size(
                        egui::Pos2::ZERO,
                        egui::vec2(1280.0, 800.0),
                    )),
                    ..default()
                };
                let mut wider = Vec::new();
                // The second pass lays out what the first opened.
                for _ in 0..2 {
                    wider.clear();
                    let mut out = ctx.run_ui(input.clone(), |ui| {
                        panel(ui, |ui| {
                            let room = ui.max_rect().right();
                            let mut widest = room;
                            // Each section that widened the content past its room.
                            sections.show(ui, |name, ui| {
                                let right = ui.min_rect().right();
                                if right > widest + 0.5 {
                                    wider.push(format!("{name}: {:.1} px too wide", right - room));
                                    widest = right;
                                }
                            });
                        });
                    });
                    out.textures_delta.clear();
                }
                wider
            })
            .expect("the sections' resources exist");
        assert!(wider.is_empty(), "{wider:?}");
    }

    /// Conflicting parameters (two sections borrowing one resource mutably) only show when the
    /// system is initialised, which headless app tests never do for the UI. Do it here.
    #[test]
    fn the_panel_system_has_no_conflicting_parameters() {
        let mut world = World::new();
        let mut system = IntoSystem::<(), Result, _>::into_system(side_panel);
        system.initialize(&mut world);
    }
}
