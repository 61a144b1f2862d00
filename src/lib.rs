//! Pathfinder Playground: watch grid pathfinding re-plan live.
//!
//! The app is a stack of small plugins, one per concern, and data flows one way through them:
//!
//! ```text
//! input (mouse, panel) → world state (obstacle entities, markers) → NavGrid → planner → Plan → drawing
//! ```
//!
//! [`headless_plugin`] holds everything that works without a window (the world, input handling
//! and planning), so tests can drive the real systems. [`PlaygroundPlugin`] adds the window, the
//! tilemap, the overlays and the panel.

pub mod camera;
pub mod catalog;
pub mod cli;
pub mod e2e_hook;
pub mod editing;
pub mod explored_tint;
pub mod generators;
pub mod layout;
pub mod map;
pub mod map_files;
pub mod marker_sprites;
pub mod markers;
pub mod nav;
pub mod notice;
pub mod overlays;
pub mod planner;
pub mod pointer;
pub mod screenshot;
pub mod terrain;
pub mod textures;
pub mod tilemap;
pub mod ui;

use bevy::prelude::*;
use bevy_egui::EguiPlugin;
use cli::LaunchOptions;

/// The stages of a frame, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Replace the map when one was requested.
    LoadMap,
    /// Turn the cursor into a world position.
    ReadInput,
    /// Change the world: move markers, paint walls and ground, undo.
    Edit,
    /// Bring derived state (the navigation grid) up to date with the world.
    Derive,
    /// Search.
    Plan,
    /// Update what is drawn.
    Draw,
}

/// The world, input handling and planning: everything that runs without a window.
pub fn headless_plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::LoadMap,
            AppSystems::ReadInput,
            AppSystems::Edit,
            AppSystems::Derive,
            AppSystems::Plan,
            AppSystems::Draw,
        )
            .chain(),
    );
    app.add_plugins((
        notice::plugin,
        pointer::plugin,
        map::plugin,
        map_files::plugin,
        nav::plugin,
        markers::plugin,
        editing::plugin,
        planner::plugin,
    ));
}

/// The gizmo overlays alone (they need `GizmoPlugin`, not a window): for the frame benchmark.
pub fn overlays_plugin(app: &mut App) {
    overlays::plugin(app);
}

/// The whole playground in a window.
#[derive(Default)]
pub struct PlaygroundPlugin {
    pub options: LaunchOptions,
}

impl Plugin for PlaygroundPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "Pathfinder Playground".into(),
                        resolution: (1280, 800).into(),
                        ..default()
                    }),
                    ..default()
                })
                .set(ImagePlugin::default_nearest()),
        )
        .add_plugins(EguiPlugin::default())
        .insert_resource(ClearColor(Color::srgb(0.11, 0.12, 0.14)));
        headless_plugin(app);
        app.add_plugins((
            camera::plugin,
            tilemap::plugin,
            explored_tint::plugin,
            marker_sprites::plugin,
            overlays::plugin,
            ui::plugin,
            screenshot::plugin,
            e2e_hook::plugin,
        ));
        if let Some(path) = &self.options.screenshot {
            app.insert_resource(screenshot::ScreenshotRequest { path: path.clone() });
        }
        if let Some(algorithm) = self.options.algorithm {
            let mut settings = app.world_mut().resource_mut::<planner::PlannerSettings>();
            settings.search.algorithm = algorithm;
        }
        if let Some(generator) = &self.options.generate {
            let grid = generators::generate(generator);
            app.insert_resource(map::InitialMap(map::LoadMap::new(
                generator.map_name(),
                grid,
            )));
        }
        if let Some(path) = &self.options.map {
            match gridpath::movingai::read_map_file(path) {
                Ok(grid) => {
                    let name = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    app.insert_resource(map::InitialMap(map::LoadMap::new(name, grid)));
                }
                Err(e) => {
                    // Keep going with the built-in map, and say why in the panel and on stderr.
                    app.world_mut()
                        .resource_mut::<notice::Notices>()
                        .error(format!(
                            "Could not open the map, showing the built-in one instead. {e}"
                        ));
                }
            }
        }
    }
}
