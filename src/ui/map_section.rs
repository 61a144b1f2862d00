//! The "Map" section: the shipped maps, the generators, and opening and saving files.

use super::widgets::{PanelWidgets, section};
use crate::world::catalog::SHIPPED;
use crate::world::generators::{GenerateMap, GeneratorKind, GeneratorSettings, SIZE_RANGE};
use crate::world::layout::MapLayout;
use crate::world::map_files::{OpenMapFile, SaveMapFile};
use crate::world::map_load::{CurrentMap, LoadMap, ReshapeMap};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use gridpath::hex::HexLayout;
use gridpath::movingai::MapShape;
use std::path::PathBuf;

/// The shapes of cell the panel offers, with their names and what they are.
const GRID_CHOICES: [(MapShape, &str, &str, &str); 4] = [
    (
        MapShape::Octile,
        "Squares",
        "Square cells: 4 or 8 neighbours (Moving AI's octile maps).",
        "grid_squares",
    ),
    (
        MapShape::Hex(HexLayout::RowOdd),
        "Hex pointy",
        "Pointy-top hexagons in rows, odd rows shifted right: 6 neighbours, each one step.",
        "grid_hex_pointy",
    ),
    (
        MapShape::Hex(HexLayout::ColumnOdd),
        "Hex flat",
        "Flat-top hexagons in columns, odd columns shifted down: 6 neighbours, each one step.",
        "grid_hex_flat",
    ),
    (
        MapShape::Isometric,
        "Iso",
        "Squares drawn as an isometric diamond map: the same neighbours, another picture.",
        "grid_iso",
    ),
];

/// What the map section remembers between frames.
#[derive(Resource, Debug, Clone)]
pub struct MapMenuState {
    pub generator: GeneratorSettings,
    pub file_path: String,
}

impl Default for MapMenuState {
    fn default() -> Self {
        Self {
            generator: GeneratorSettings::default(),
            file_path: "my-map.map".into(),
        }
    }
}

#[derive(SystemParam)]
pub(super) struct MapSection<'w> {
    state: ResMut<'w, MapMenuState>,
    current: Res<'w, CurrentMap>,
    layout: Option<Res<'w, MapLayout>>,
    load: MessageWriter<'w, LoadMap>,
    reshape: MessageWriter<'w, ReshapeMap>,
    generate: MessageWriter<'w, GenerateMap>,
    // A browser opens files through the page's picker instead (see `files`).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    open: MessageWriter<'w, OpenMapFile>,
    save: MessageWriter<'w, SaveMapFile>,
}

impl MapSection<'_> {
    pub(super) fn show(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        let size = self
            .layout
            .as_ref()
            .map_or(String::new(), |l| format!(" ({}×{})", l.width, l.height));
        ui.label(format!("Map: {}{size}", self.current.name));
        self.grid_choice(ui, widgets);
        let shown = section("Map", false).default_open(false).show(ui, |ui| {
            self.shipped(ui);
            section("Generate a map", false)
                .default_open(false)
                .show(ui, |ui| self.generator(ui));
            self.files(ui, widgets);
        });
        widgets.note("map_section", &shown.header_response);
    }

    /// The shape of the cells: the same map drawn and searched on squares, hexagons or
    /// isometric diamonds.
    fn grid_choice(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        let Some(now) = self.layout.as_ref().map(|l| l.shape) else {
            return;
        };
        ui.horizontal(|ui| {
            ui.label("Grid");
            for (shape, name, about, id) in GRID_CHOICES {
                let pick = ui.selectable_label(now == shape, name).on_hover_text(about);
                widgets.note(id, &pick);
                if pick.clicked() && now != shape {
                    self.reshape.write(ReshapeMap(shape));
                }
            }
        });
    }

    fn shipped(&mut self, ui: &mut egui::Ui) {
        egui::ComboBox::from_label("shipped maps")
            .selected_text("Open a map...")
            .show_ui(ui, |ui| {
                for map in &SHIPPED {
                    if ui
                        .selectable_label(false, map.file)
                        .on_hover_text(map.about)
                        .clicked()
                        && let Some(request) = LoadMap::shipped(map)
                    {
                        self.load.write(request);
                    }
                }
            });
    }

    fn generator(&mut self, ui: &mut egui::Ui) {
        let g = &mut self.state.generator;
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("generator")
                .selected_text(g.kind.name())
                .show_ui(ui, |ui| {
                    for kind in GeneratorKind::ALL {
                        ui.selectable_value(&mut g.kind, kind, kind.name());
                    }
                });
            ui.label("seed");
            ui.add(egui::DragValue::new(&mut g.seed).speed(1.0));
        });
        ui.horizontal(|ui| {
            ui.label("size");
            ui.add(
                egui::DragValue::new(&mut g.width)
                    .range(SIZE_RANGE)
                    .speed(1.0),
            );
            ui.label("×");
            ui.add(
                egui::DragValue::new(&mut g.height)
                    .range(SIZE_RANGE)
                    .speed(1.0),
            );
            if ui.button("New seed").clicked() {
                g.seed = g
                    .seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407)
                    >> 44;
            }
        });
        if g.kind == GeneratorKind::RandomTerrain {
            ui.label("Roulette weights (how often each tile comes up):");
            let w = &mut g.weights;
            for (name, value) in [
                ("wall", &mut w.wall),
                ("road", &mut w.road),
                ("grass", &mut w.grass),
                ("mud", &mut w.mud),
                ("water", &mut w.water),
            ] {
                ui.add(egui::Slider::new(value, 0..=100).text(name));
            }
        }
        if ui
            .button("Generate")
            .on_hover_text("Same seed and size, same map.")
            .clicked()
        {
            self.generate
                .write(GenerateMap(self.state.generator.clone()));
        }
    }

    fn files(&mut self, ui: &mut egui::Ui, widgets: &mut PanelWidgets) {
        super::widgets::file_field(ui, &mut self.state.file_path);
        ui.horizontal(|ui| {
            let path = PathBuf::from(self.state.file_path.trim());
            #[cfg(not(target_arch = "wasm32"))]
            if ui
                .button("Open")
                .on_hover_text("Open a Moving AI .map file")
                .clicked()
            {
                self.open.write(OpenMapFile(path.clone()));
            }
            // A browser reads no paths: its own file picker (or a file dropped on the page).
            #[cfg(target_arch = "wasm32")]
            {
                let choose = ui
                    .button("Choose a file...")
                    .on_hover_text("Open a .map file from your computer, or drop one on the page");
                widgets.note("map_choose", &choose);
                if choose.clicked()
                    && let Err(e) = crate::browser::choose_map_file()
                {
                    warn!("{e}");
                }
            }
            let save = ui
                .button("Save")
                .on_hover_text(if cfg!(target_arch = "wasm32") {
                    "Download walls and terrain as a .map file of this name"
                } else {
                    "Save walls and terrain as a .map file"
                });
            widgets.note("map_save", &save);
            if save.clicked() {
                self.save.write(SaveMapFile(path));
            }
        });
    }
}
