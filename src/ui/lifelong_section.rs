//! The "Lifelong" section: robots that always have a next task, on the shipped sorting centre or
//! any benchmark instance, planned live, with the tasks finished and a plot of the throughput.

use super::widgets::{PanelWidgets, section};
use crate::lifelong::{
    CloseLifelong, LifelongClock, LifelongScene, LifelongSource, OpenLifelong, SPEED_RANGE,
    STARVED_AFTER,
};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Line, Plot};
use gridpath::lifelong::Guidance;

/// Steps the throughput plot averages over.
const SMOOTHING: usize = 20;

/// What the section remembers between frames.
#[derive(Resource, Clone, Debug)]
pub struct LifelongMenuState {
    pub robots: usize,
    pub guidance: GuidanceChoice,
    // A browser opens no file by path: the field is not shown there.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub config_path: String,
    /// The run the section last saw, to open itself for a new one.
    seen: Option<String>,
}

impl Default for LifelongMenuState {
    fn default() -> Self {
        Self {
            robots: 400,
            guidance: GuidanceChoice::Guided,
            config_path: "../shared/lifelong/warehouse_large_0_2000.json".into(),
            seen: None,
        }
    }
}

/// The planner's guidance, as the panel offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuidanceChoice {
    Guided,
    Focal,
    Traffic,
    None,
}

impl GuidanceChoice {
    fn guidance(self) -> Guidance {
        match self {
            Self::Guided => Guidance::GUIDED,
            Self::Focal => Guidance::FOCAL,
            Self::Traffic => Guidance::TRAFFIC,
            Self::None => Guidance::NONE,
        }
    }
}

#[derive(SystemParam)]
pub(super) struct LifelongSection<'w> {
    state: ResMut<'w, LifelongMenuState>,
    scene: Res<'w, LifelongScene>,
    clock: ResMut<'w, LifelongClock>,
    open: MessageWriter<'w, OpenLifelong>,
    close: MessageWriter<'w, CloseLifelong>,
}

impl LifelongSection<'_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        // A new run opens the section and brings it into view, plot and all.
        let title = self.scene.0.as_ref().map(|run| run.title.clone());
        let arrived = title.is_some() && title != self.state.seen;
        self.state.seen = title;
        let shown = section("Lifelong: robots with a next task, always", arrived)
            .default_open(false)
            .show(ui, |ui| {
                ui.small(
                    "Each robot gets its next task the moment it finishes one: what counts is \
                     tasks finished. PIBT, with guide paths that keep out of each other's way \
                     (Chen et al., AAAI 2024).",
                );
                self.choose(ui, widgets);
                self.figures(ui, widgets);
            });
        widgets.note("lifelong_section", &shown.header_response);
        if arrived {
            shown.header_response.scroll_to_me(Some(egui::Align::TOP));
        }
    }

    /// The instance, the guidance, and the buttons that start it.
    fn choose(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        let state = &mut *self.state;
        ui.horizontal_wrapped(|ui| {
            ui.radio_value(&mut state.guidance, GuidanceChoice::Guided, "guide paths")
                .on_hover_text("Paths that avoid contraflow, re-planned a few a step");
            ui.radio_value(
                &mut state.guidance,
                GuidanceChoice::Focal,
                "focal guide paths",
            )
            .on_hover_text(format!(
                "The least contraflow within twice the shortest and {} steps more (the paper's \
                     focal search), strays led back to their paths: more tasks, more time a step",
                Guidance::SLACK
            ));
            ui.radio_value(&mut state.guidance, GuidanceChoice::Traffic, "traffic")
                .on_hover_text("Ties between equally short moves go with the recent flow");
            ui.radio_value(&mut state.guidance, GuidanceChoice::None, "plain PIBT");
        });
        ui.add(egui::Slider::new(&mut state.robots, 1..=800).text("robots"));
        let guidance = state.guidance.guidance();
        let load = ui
            .button("Sorting centre")
            .on_hover_text("The League of Robot Runners' sorting centre, 57 × 33");
        widgets.note("lifelong_load", &load);
        if load.clicked() {
            let source = LifelongSource::SortingCentre {
                robots: state.robots,
            };
            self.open.write(OpenLifelong { source, guidance });
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            super::widgets::file_field(ui, &mut state.config_path);
            if ui
                .button("Open instance")
                .on_hover_text("A lifelong benchmark's .json (League of Robot Runners format)")
                .clicked()
            {
                let path = std::path::PathBuf::from(state.config_path.trim());
                let source = LifelongSource::File(path);
                self.open.write(OpenLifelong { source, guidance });
            }
        }
    }

    /// The run's clock, its figures and the throughput plot.
    fn figures(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        let Some(run) = &self.scene.0 else {
            return;
        };
        ui.separator();
        ui.label(&run.title);
        ui.horizontal(|ui| {
            let label = if self.clock.playing { "Pause" } else { "Play" };
            let play = ui.button(label);
            widgets.note("lifelong_play", &play);
            if play.clicked() {
                self.clock.playing = !self.clock.playing;
            }
            if ui.button("Close").clicked() {
                self.close.write(CloseLifelong);
            }
        });
        ui.add(egui::Slider::new(&mut self.clock.speed, SPEED_RANGE).text("steps a second"));
        let starved = (0..run.robots()).filter(|&k| run.starved(k)).count();
        let recent = &run.per_step[run.per_step.len().saturating_sub(100)..];
        let rate = recent.iter().sum::<u32>() as f32 / recent.len().max(1) as f32;
        let ms = run.step_ms.iter().sum::<f32>() / run.step_ms.len().max(1) as f32;
        ui.label(format!(
            "step {}: {} tasks finished, {rate:.1} a step lately; {ms:.2} ms a step",
            run.step, run.tasks_finished
        ));
        let colour = if starved > 0 {
            super::widgets::RED
        } else {
            ui.visuals().text_color()
        };
        ui.colored_label(
            colour,
            format!("{starved} starved (ringed): no task in the last {STARVED_AFTER} steps"),
        );
        let points: Vec<[f64; 2]> = run
            .per_step
            .windows(SMOOTHING)
            .enumerate()
            .map(|(t, w)| {
                let mean = w.iter().sum::<u32>() as f64 / SMOOTHING as f64;
                ((t + SMOOTHING) as f64, mean)
            })
            .map(|(t, y)| [t, y])
            .collect();
        Plot::new("lifelong_throughput")
            .height(120.0)
            .allow_zoom(false)
            .allow_drag(false)
            .allow_scroll(false)
            .include_y(0.0)
            .x_axis_label("step")
            .y_axis_label("tasks a step")
            .show(ui, |plot| {
                plot.line(Line::new(format!("mean of {SMOOTHING} steps"), points));
            });
    }
}
