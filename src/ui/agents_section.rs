//! The "Agents" section: spawn and clear agents, choose where they go and how they find their
//! way, and read what they cost.

use super::widgets::{AMBER, PanelWidgets, RED, duration, section};
use crate::agents::{AgentGoal, AgentSettings, AgentStats, Steering};
use crate::editing::{AgentCommand, EditTool, LoadScene, Scene, SpawnSize, Tool};
use crate::world::agents::MAX_AGENTS;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

/// How many agents the Spawn button adds (the panel's slider).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnCount(pub u32);

impl Default for SpawnCount {
    fn default() -> Self {
        Self(50)
    }
}

#[derive(SystemParam)]
pub(super) struct AgentsSection<'w, 's> {
    settings: ResMut<'w, AgentSettings>,
    stats: Res<'w, AgentStats>,
    count: ResMut<'w, SpawnCount>,
    size: ResMut<'w, SpawnSize>,
    scene: Local<'s, Scene>,
    commands: MessageWriter<'w, AgentCommand>,
    scenes: MessageWriter<'w, LoadScene>,
}

impl AgentsSection<'_, '_> {
    /// The section; `tool` is the Edit section's, whose "Agents" tool drops one with a click.
    pub(super) fn show(
        &mut self,
        ui: &mut egui::Ui,
        widgets: &mut PanelWidgets,
        tool: &mut Mut<EditTool>,
    ) {
        section("Agents", false).default_open(true).show(ui, |ui| {
            self.spawning(ui, widgets, tool);
            self.scenes(ui, widgets);
            let mut s = self.settings.clone();
            ui.horizontal(|ui| {
                ui.label("Go:");
                widgets.note(
                    "agents_chase",
                    &ui.radio_value(&mut s.goal, AgentGoal::Chase, "chase the goal"),
                );
                widgets.note(
                    "agents_wander",
                    &ui.radio_value(&mut s.goal, AgentGoal::Wander, "wander"),
                );
                widgets.note(
                    "agents_own",
                    &ui.radio_value(&mut s.goal, AgentGoal::Own, "own")
                        .on_hover_text("Each to a place of its own: a scene gives them one."),
                );
            });
            ui.add_enabled_ui(s.goal == AgentGoal::Chase, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Way:");
                    ui.radio_value(&mut s.steering, Steering::AStarEach, "A* each")
                        .on_hover_text("Every agent plans its own route, off the frame.");
                    widgets.note(
                        "agents_flow",
                        &ui.radio_value(&mut s.steering, Steering::FlowField, "flow field")
                            .on_hover_text(
                                "One search from the goal serves all: each agent steps to \
                                     its neighbour nearest the goal.",
                            ),
                    );
                });
            });
            ui.add_enabled_ui(!s.flow_chasing(), |ui| {
                widgets.note(
                    "agents_bodies",
                    &ui.checkbox(&mut s.bodies, "Bodies: they take up room, give way")
                        .on_hover_text(
                            "Each agent takes up its cells (one, or 2 × 2, or 3 × 3). The \
                                 crowd moves them a cell a tick with PIBT: they queue at doors, \
                                 give way, and chasers gather round the goal on cells of their \
                                 own. Off: ghosts that walk through each other.",
                        ),
                );
            });
            widgets.note(
                "agents_routes",
                &ui.checkbox(&mut s.show_routes, "Show their routes"),
            );
            ui.add(egui::Slider::new(&mut s.budget, 1..=256).text("searches a frame"))
                .on_hover_text(
                    "The most searches started in one frame; the others wait their turn.",
                );
            if s != *self.settings {
                *self.settings = s;
            }
            self.numbers(ui);
        });
    }

    /// The count slider, Spawn, Clear and the agent tool.
    fn spawning(
        &mut self,
        ui: &mut egui::Ui,
        widgets: &mut PanelWidgets,
        tool: &mut Mut<EditTool>,
    ) {
        ui.horizontal(|ui| {
            // The panel's widest row: with egui's default slider it ran under the scroll bar,
            // and widened every row of the panel with it.
            ui.spacing_mut().slider_width = 80.0;
            let mut n = self.count.0;
            ui.add(egui::Slider::new(&mut n, 1..=MAX_AGENTS as u32).logarithmic(true));
            if n != self.count.0 {
                self.count.0 = n;
            }
            let mut size = *self.size;
            let picker = egui::ComboBox::from_id_salt("agents_size")
                .width(56.0)
                .selected_text(size.label())
                .show_ui(ui, |ui| {
                    for option in SpawnSize::ALL {
                        ui.selectable_value(&mut size, option, option.label());
                    }
                })
                .response;
            widgets.note("agents_size", &picker);
            picker.on_hover_text(
                "How big the next agents are: a unit covers its cell and those right of and \
                 below it, and only goes where it fits.",
            );
            if size != *self.size {
                *self.size = size;
            }
            let spawn = ui.button("Spawn");
            widgets.note("agents_spawn", &spawn);
            if spawn
                .on_hover_text("Adds agents on random free cells.")
                .clicked()
            {
                self.commands.write(AgentCommand::Spawn(n));
            }
        });
        ui.horizontal(|ui| {
            let dropping = tool.tool == Tool::Agents;
            let drop_button = ui.selectable_label(dropping, "Drop with a click");
            widgets.note("agents_tool", &drop_button);
            if drop_button
                .on_hover_text("Click the map to drop one agent (the Edit tool \"Agents\").")
                .clicked()
            {
                tool.tool = if dropping { Tool::Walls } else { Tool::Agents };
            }
            let clear = ui.add_enabled(self.stats.agents > 0, egui::Button::new("Clear agents"));
            widgets.note("agents_clear", &clear);
            if clear.clicked() {
                self.commands.write(AgentCommand::Clear);
            }
        });
    }

    /// The scenes: a map and a crowd bound for places of their own.
    fn scenes(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        ui.horizontal(|ui| {
            ui.label("Scene:");
            let mut scene = *self.scene;
            // The box gets what the row leaves beside the Load button, and cuts the scene's
            // name to fit (egui's combo box grows to fit its text, whatever width it is given:
            // a long name pushed Load past the panel's edge).
            let load_width = 44.0;
            let room = ui.available_width() - load_width - ui.spacing().item_spacing.x;
            let size = egui::vec2(room.max(80.0), ui.spacing().interact_size.y);
            let layout = egui::Layout::left_to_right(egui::Align::Center);
            let picker = ui
                .allocate_ui_with_layout(size, layout, |ui| {
                    egui::ComboBox::from_id_salt("agents_scene")
                        .truncate()
                        .selected_text(scene.label())
                        .show_ui(ui, |ui| {
                            for option in Scene::ALL {
                                ui.selectable_value(&mut scene, option, option.label());
                            }
                        })
                        .response
                })
                .inner;
            widgets.note("agents_scene", &picker);
            picker.on_hover_text(scene.label());
            if scene != *self.scene {
                *self.scene = scene;
            }
            let load = ui.button("Load");
            widgets.note("agents_scene_load", &load);
            if load
                .on_hover_text(
                    "Replaces the map with the scene's, and its crowd (undo brings the map back).",
                )
                .clicked()
            {
                self.scenes.write(LoadScene(scene));
            }
        });
    }

    /// How many there are and how they fare, and what their searches cost.
    fn numbers(&self, ui: &mut egui::Ui) {
        let s = &*self.stats;
        if s.agents == 0 {
            ui.small("No agents yet: spawn some, or drop one with a click.");
            return;
        }
        ui.label(format!(
            "{} agents: {} walking, {} waiting, {} arrived",
            s.agents, s.walking, s.waiting, s.arrived
        ));
        if self.settings.as_bodies() {
            let c = &s.crowd;
            ui.label(format!(
                "bodies: {} moving, {} waiting, {} arrived, {} deadlocked, {} jams untangled",
                c.moving, c.waiting, c.arrived, c.deadlocked, c.untangled
            ))
            .on_hover_text(
                "Deadlocked: no nearer to its cell for 5 s while a route exists. It should read \
                 0.\nUntangled: jams PIBT could not undo (bodies packed in the wrong order, \
                 no nearer for 10 s), planned whole by LaCAM and walked through.",
            );
        }
        if s.stuck > s.too_narrow {
            ui.colored_label(
                RED,
                format!(
                    "{} stuck: no way to their target (ringed red)",
                    s.stuck - s.too_narrow
                ),
            );
        }
        if s.too_narrow > 0 {
            ui.colored_label(
                RED,
                format!("{} stuck: no gap wide enough for their size", s.too_narrow),
            )
            .on_hover_text("A unit of one cell would get there; a bigger one never squeezes through a gap narrower than itself.");
        }
        let flow =
            self.settings.goal == AgentGoal::Chase && self.settings.steering == Steering::FlowField;
        if flow {
            ui.label(format!(
                "one flow field for all: {}, {} cells reach the goal",
                duration(s.field_micros),
                s.field_reachable
            ));
        } else {
            ui.label(format!(
                "{} re-plans/s · mean {} · worst {}",
                s.replans_per_second,
                duration(s.mean_micros),
                duration(s.worst_micros)
            ))
            .on_hover_text("Searches run on a task pool, off the frame: this is their own time.");
        }
        ui.label(format!("{} stale results discarded", s.discarded))
            .on_hover_text("Routes planned on a grid that an edit then changed where they go.");
        if s.pushed > 0 {
            ui.colored_label(
                AMBER,
                format!("{} pushed off walls painted on them", s.pushed),
            );
        }
    }
}
