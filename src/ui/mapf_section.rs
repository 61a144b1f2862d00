//! The "Many agents, one cell each" section: solve a multi-agent instance on the map on screen
//! (random agents, or a benchmark scenario), or open a plan file, and play the plan on a
//! time-line.

use super::widgets::{PanelWidgets, StepIcon, section, step_button};
use crate::mapf::files::{ClosePlan, OpenPlanFile, SavePlanFile};
use crate::mapf::improve::{Improving, ShowCheaperPlan};
use crate::mapf::playback::SPEED_RANGE;
use crate::mapf::solve::{MAX_MAPF_AGENTS, OpenScenarioFile, OpenedScenario};
use crate::mapf::{
    AgentSource, MapfSettings, MapfSolver, Playback, ShownPlan, SolveMapf, Solving, moves_on,
};
use crate::world::catalog::scenario_of;
use crate::world::map_load::CurrentMap;
use crate::world::nav::NavGrid;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use gridpath::mapf::Moves;
use std::path::PathBuf;

/// What the section remembers between frames.
#[derive(Resource, Clone, Debug)]
pub struct MapfMenuState {
    pub file_path: String,
    /// The instance of the plan that arrived last (its title, agents and lower bounds): a
    /// cheaper plan of the same agents replaces it where it is, without scrolling.
    arrived: Option<(String, usize, u64, u64)>,
}

impl Default for MapfMenuState {
    fn default() -> Self {
        Self {
            file_path: "plan.txt".into(),
            arrived: None,
        }
    }
}

#[derive(SystemParam)]
pub(super) struct MapfSection<'w> {
    state: ResMut<'w, MapfMenuState>,
    settings: ResMut<'w, MapfSettings>,
    playback: ResMut<'w, Playback>,
    shown: Res<'w, ShownPlan>,
    solving: Res<'w, Solving>,
    improving: Res<'w, Improving>,
    show_cheaper: MessageWriter<'w, ShowCheaperPlan>,
    opened: Res<'w, OpenedScenario>,
    map: Res<'w, CurrentMap>,
    nav: Option<Res<'w, NavGrid>>,
    solve: MessageWriter<'w, SolveMapf>,
    // A browser opens files through the page's picker instead.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    open: MessageWriter<'w, OpenPlanFile>,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    open_scenario: MessageWriter<'w, OpenScenarioFile>,
    save: MessageWriter<'w, SavePlanFile>,
    close: MessageWriter<'w, ClosePlan>,
}

impl MapfSection<'_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        // A new plan opens the section and brings it into view, time-line and all (not a
        // cheaper plan of the same agents: the panel would jump under the pointer).
        let instance = self.shown.0.as_ref().map(|p| {
            let c = &p.costs;
            (p.title.clone(), p.agents(), c.soc_lb, c.makespan_lb)
        });
        let arrived = self.shown.is_changed() && instance.is_some();
        let new = arrived && instance != self.state.arrived;
        if arrived {
            self.state.arrived = instance;
        }
        let shown = section("Many agents, one cell each (MAPF)", arrived)
            .default_open(false)
            .show(ui, |ui| {
                let moves = match self.nav.as_deref().map(moves_on) {
                    Some(Ok(Moves::Hex(_))) => "a step to one of the six touching hexagons",
                    _ => "4-way moves, one cell a step",
                };
                ui.small(format!(
                    "Agents planned together so that no two share a cell or swap places: \
                     {moves}, walls only."
                ));
                self.instance(ui, widgets);
                self.files(ui, widgets);
                self.timeline(ui, widgets);
            });
        widgets.note("mapf_section", &shown.header_response);
        if new {
            shown.header_response.scroll_to_me(Some(egui::Align::TOP));
        }
    }

    /// The scenario the agents would come from: the one opened last, else the map's own.
    fn scenario(&self) -> Option<(String, String, usize)> {
        self.opened.0.clone().or_else(|| {
            scenario_of(&self.map.name).map(|s| {
                let lines = s.text.lines().count().saturating_sub(1);
                (s.file.to_string(), s.text.to_string(), lines)
            })
        })
    }

    /// Who the agents are, the solver, and the Solve button.
    fn instance(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        let scenario = self.scenario();
        let mut s = self.settings.clone();
        ui.horizontal(|ui| {
            ui.radio_value(&mut s.from_scenario, false, "random agents");
            let about = scenario.as_ref().map_or(
                "Open a benchmark .scen file below first".to_string(),
                |(name, ..)| format!("The first N start and goal pairs of {name}"),
            );
            ui.add_enabled_ui(scenario.is_some(), |ui| {
                ui.radio_value(&mut s.from_scenario, true, "from the scenario")
                    .on_hover_text(about);
            });
        });
        let from_scenario = s.from_scenario && scenario.is_some();
        let most = match &scenario {
            Some((.., lines)) if from_scenario => (*lines).clamp(1, MAX_MAPF_AGENTS),
            _ => MAX_MAPF_AGENTS,
        };
        widgets.note(
            "mapf_agents",
            &ui.add(
                egui::Slider::new(&mut s.agents, 1..=most)
                    .logarithmic(true)
                    .text("agents"),
            ),
        );
        ui.horizontal(|ui| {
            ui.radio_value(&mut s.solver, MapfSolver::Lacam, "LaCAM")
                .on_hover_text("Complete: finds a plan whenever one exists, given the time");
            ui.radio_value(&mut s.solver, MapfSolver::Pibt, "PIBT")
                .on_hover_text("Quickest, but not complete: it may never finish");
            if !from_scenario {
                ui.add(egui::DragValue::new(&mut s.seed).prefix("seed "));
            }
        });
        ui.add_enabled(
            s.solver == MapfSolver::Lacam,
            egui::Slider::new(&mut s.time_limit, 1.0..=60.0).text("s at most"),
        );
        // One thread on the web: improving there would hold the page for the whole time.
        if !cfg!(target_arch = "wasm32") {
            ui.add_enabled(
                s.solver == MapfSolver::Lacam,
                egui::Checkbox::new(&mut s.improve, "keep improving until then"),
            )
            .on_hover_text(
                "The first plan is shown at once; then the solver re-plans a few late agents \
                 at a time around the others (large neighbourhood search), on the other cores",
            );
        }
        if s != *self.settings {
            *self.settings = s;
        }
        let solve = match self.solving.running_for() {
            Some(secs) => ui.add_enabled(false, egui::Button::new(format!("Solving… {secs:.0} s"))),
            None => ui.button("Solve"),
        };
        widgets.note("mapf_solve", &solve);
        if solve.clicked() {
            let source = match scenario {
                Some((name, text, _)) if from_scenario => AgentSource::Scenario { name, text },
                _ => AgentSource::Random,
            };
            let settings = self.settings.clone();
            self.solve.write(SolveMapf { source, settings });
        }
        self.improvement(ui, widgets);
    }

    /// The sum of costs falling as the solver improves the plan, and its buttons.
    fn improvement(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        let costs = self.improving.costs();
        let (Some(first), Some(last)) = (costs.first(), costs.last()) else {
            return;
        };
        let gain = 100.0 * (1.0 - last[1] / first[1].max(1.0));
        // One line, whatever its length: a line that wrapped would move the time-line below.
        let proven = self
            .shown
            .0
            .as_ref()
            .is_some_and(|p| p.optimal && p.costs.soc as f64 == last[1]);
        let when = if proven {
            ": optimal".to_string()
        } else {
            format!(" at {:.1} s", last[0])
        };
        let said = format!(
            "Sum of costs {:.0}, then {:.0} (−{gain:.1} %){when}",
            first[1], last[1]
        );
        ui.add(egui::Label::new(said).truncate())
            .on_hover_text(format!("The first plan at {:.2} s", first[0]));
        // A step line: each cost holds until the next, the last until now (or the end).
        let now = self.solving.running_for().map_or(last[0], f64::from);
        let mut points: Vec<[f64; 2]> = Vec::new();
        for pair in costs.windows(2) {
            points.extend([pair[0], [pair[1][0], pair[0][1]]]);
        }
        points.extend([*last, [now.max(last[0]), last[1]]]);
        egui_plot::Plot::new("mapf_improvement")
            .height(90.0)
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .x_axis_label("seconds")
            .show(ui, |plot| {
                plot.line(egui_plot::Line::new("sum of costs", points))
            });
        // Both buttons stay, greyed out when they do nothing: a row that came and went would
        // move the time-line under the pointer.
        ui.horizontal(|ui| {
            let waiting = self.improving.waiting();
            let label = waiting.map_or("Show the cheaper plan".to_string(), |soc| {
                format!("Show the cheaper plan ({soc})")
            });
            let show = ui.add_enabled(waiting.is_some(), egui::Button::new(label));
            widgets.note("mapf_show_cheaper", &show);
            if show.clicked() {
                self.show_cheaper.write(ShowCheaperPlan);
            }
            let running = self.improving.running();
            if ui
                .add_enabled(running, egui::Button::new("Stop improving"))
                .clicked()
            {
                self.improving.stop();
            }
        });
    }

    /// Opening plan and scenario files, saving the plan.
    fn files(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        super::widgets::file_field(ui, &mut self.state.file_path);
        ui.horizontal(|ui| {
            let path = PathBuf::from(self.state.file_path.trim());
            #[cfg(not(target_arch = "wasm32"))]
            {
                let open = ui
                    .button("Play plan")
                    .on_hover_text("Open a plan in the result format of LaCAM and its kin");
                widgets.note("mapf_open", &open);
                if open.clicked() {
                    self.open.write(OpenPlanFile(path.clone()));
                }
                if ui
                    .button("Use scenario")
                    .on_hover_text("Take the agents from a benchmark .scen file")
                    .clicked()
                {
                    self.open_scenario.write(OpenScenarioFile(path.clone()));
                    self.settings.from_scenario = true;
                }
            }
            #[cfg(target_arch = "wasm32")]
            let choose = ui
                .button("Choose a plan or scenario...")
                .on_hover_text("A plan file is played; a .scen file gives the agents");
            #[cfg(target_arch = "wasm32")]
            widgets.note("mapf_choose", &choose);
            #[cfg(target_arch = "wasm32")]
            if choose.clicked() {
                self.settings.from_scenario = true;
                if let Err(e) = crate::browser::choose_map_file() {
                    warn!("{e}");
                }
            }
            let save = ui.add_enabled(self.shown.0.is_some(), egui::Button::new("Save plan"));
            if save.clicked() {
                self.save.write(SavePlanFile(path));
            }
        });
    }

    /// The plan's figures, and the time-line: back, play or pause, forward, the scrubber, speed.
    fn timeline(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        let Some(plan) = &self.shown.0 else {
            return;
        };
        ui.separator();
        ui.label(&plan.title);
        // One line: a cheaper plan of the same agents swapped in must not move the buttons below.
        let figures = plan.figures();
        ui.add(egui::Label::new(egui::RichText::new(&figures).small()).truncate())
            .on_hover_text(figures);
        let last = plan.last_step();
        let p = &mut *self.playback;
        ui.horizontal(|ui| {
            if step_button(ui, StepIcon::ToStart)
                .on_hover_text("To the start")
                .clicked()
            {
                p.time = 0.0;
                p.playing = false;
            }
            if step_button(ui, StepIcon::Back)
                .on_hover_text("One step back")
                .clicked()
            {
                p.step(-1, last);
            }
            let play = ui.button(if p.playing { "Pause" } else { "Play" });
            widgets.note("mapf_play", &play);
            if play.clicked() {
                p.toggle(last);
            }
            if step_button(ui, StepIcon::Forward)
                .on_hover_text("One step forward")
                .clicked()
            {
                p.step(1, last);
            }
            if step_button(ui, StepIcon::ToEnd)
                .on_hover_text("To the end")
                .clicked()
            {
                p.time = last as f32;
                p.playing = false;
            }
            ui.label(format!("step {:.0} / {last}", p.time.floor()));
        });
        let scrub = ui.add(
            egui::Slider::new(&mut p.time, 0.0..=last as f32)
                .show_value(false)
                .text("time"),
        );
        widgets.note("mapf_time", &scrub);
        if scrub.dragged() {
            p.playing = false;
        }
        ui.add(
            egui::Slider::new(&mut p.speed, SPEED_RANGE)
                .logarithmic(true)
                .text("steps a second"),
        );
        if ui.button("Close the plan").clicked() {
            self.close.write(ClosePlan);
        }
    }
}
