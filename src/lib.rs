//! Pathfinder Playground: watch grid pathfinding re-plan live.
//!
//! One folder per layer, and data flows one way through them:
//!
//! ```text
//! input → world (map, markers, walls, ground, agents → NavGrid) → editing → planner → agents
//!       → mapf, lifelong → view, ui → app
//! ```
//!
//! A layer imports only from the layers before it. Three leaf modules are shared by all:
//! [`frame`] (the system sets that order a frame), [`notices`] (the one line of text the user
//! reads, which any layer may write to, as it may log) and [`browser`] (files in and out of a
//! web page).
//!
//! [`headless_plugin`] holds everything that works without a window (input handling, the world,
//! editing, planning, the agents and multi-agent plans), so tests can drive the real systems. [`PlaygroundPlugin`] adds the
//! window, the drawing, the panel and the app shell (launch options, screenshots, the test hook).

pub mod agents;
pub mod app;
pub mod browser;
pub mod editing;
pub mod frame;
pub mod input;
pub mod lifelong;
pub mod mapf;
pub mod notices;
pub mod planner;
pub mod ui;
pub mod view;
pub mod world;

pub use frame::AppSystems;

use app::launch::LaunchOptions;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_egui::EguiPlugin;
use bevy_gridpath::{GridPathPlugin, GridPathSystems};

/// The world, input handling, editing, planning and the agents: everything that runs without a
/// window.
pub fn headless_plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::Maps,
            AppSystems::ReadInput,
            AppSystems::Edit,
            AppSystems::Derive,
            AppSystems::Plan,
            AppSystems::Act,
            AppSystems::Draw,
        )
            .chain(),
    );
    // The planner's mode is a `States`; `DefaultPlugins` bring their support, `MinimalPlugins`
    // (the headless tests) do not.
    if !app.is_plugin_added::<StatesPlugin>() {
        app.add_plugins(StatesPlugin);
    }
    // The nav grid and its bookkeeping come from the plugin crate, as in any game; its steps
    // run inside the app's own.
    // (The agents module puts the plugin's planning and moving between its own steps.)
    app.add_plugins(GridPathPlugin)
        .configure_sets(Update, GridPathSystems::SyncGrid.in_set(AppSystems::Derive));
    // The playground plans jams PIBT cannot undo whole (off in the plugin by default).
    app.world_mut()
        .resource_mut::<bevy_gridpath::Crowd>()
        .untangle = true;
    app.add_plugins((
        notices::plugin,
        input::plugin,
        world::plugin,
        editing::plugin,
        planner::plugin,
        agents::plugin,
        mapf::plugin,
        lifelong::plugin,
    ));
}

/// The gizmo overlays alone (they need `GizmoPlugin`, not a window): for the frame benchmark.
pub fn overlays_plugin(app: &mut App) {
    view::overlays::plugin(app);
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
                        // In a browser: draw in the page's canvas, fill its parent and follow
                        // its resizes, and keep keys such as F and Ctrl+Z from the page.
                        canvas: Some("#playground".into()),
                        fit_canvas_to_parent: true,
                        prevent_default_event_handling: true,
                        ..default()
                    }),
                    ..default()
                })
                .set(ImagePlugin::default_nearest()),
        )
        .add_plugins(EguiPlugin::default());
        headless_plugin(app);
        app.insert_resource(self.options.clone()).add_plugins((
            view::plugin,
            ui::plugin,
            app::plugin,
        ));
    }
}
