//! Command-line options, and carrying them out at launch. The options are parsed by `clap`
//! (`options.rs`); a web page's address gives the same options (`query.rs`). The app must start
//! with none.
//!
//! A map asked for on the command line arrives the way the panel's would: `--map` sends an
//! [`OpenMapFile`] request and `--generate` a [`GenerateMap`] one, so a bad file gets the same
//! message (and the built-in map instead).

mod options;
mod query;

pub use options::{AgentLaunch, CliError, LaunchOptions, MapfLaunch, usage};
pub use query::args_from_query;

use super::screenshot::ScreenshotRequest;
use crate::agents::AgentSettings;
use crate::editing::{AgentCommand, LoadScene};
use crate::lifelong::OpenLifelong;
use crate::mapf::files::OpenPlanFile;
use crate::mapf::{AgentSource, MapfSettings, SolveMapf};
use crate::planner::classes::ClassesSettings;
use crate::planner::{Plan, PlannerSettings};
use crate::world::catalog;
use crate::world::generators::GenerateMap;
use crate::world::layout::MapLayout;
use crate::world::map_files::OpenMapFile;
use crate::world::map_load::CurrentMap;
use crate::world::map_load::{LoadMap, ReshapeMap};
use bevy::prelude::*;
use gridpath::lifelong::Guidance;

/// Carries out the [`LaunchOptions`] resource, if the app has one.
pub(super) fn plugin(app: &mut App) {
    let Some(options) = app.world().get_resource::<LaunchOptions>().cloned() else {
        return;
    };
    if let Some(path) = options.screenshot {
        app.insert_resource(ScreenshotRequest { path });
    }
    if let Some(mut settings) = app.world_mut().get_resource_mut::<PlannerSettings>() {
        if let Some(algorithm) = options.algorithm {
            settings.search.algorithm = algorithm;
        }
        settings.straighten |= options.straighten;
    }
    if options.classes {
        app.insert_resource(ClassesSettings { enabled: true });
    }
    if let Some(agents) = options.agents
        && let Some(mut settings) = app.world_mut().get_resource_mut::<AgentSettings>()
    {
        settings.goal = agents.goal;
        settings.steering = agents.steering;
    }
    if let Some(size) = options.agent_size {
        app.insert_resource(size);
    }
    app.add_systems(Startup, request_launch_map).add_systems(
        Update,
        (spawn_launch_agents, launch_mapf, reshape_launch_map),
    );
}

/// Gives the first map the `--grid` shape, once it is up.
fn reshape_launch_map(
    options: Res<LaunchOptions>,
    layout: Option<Res<MapLayout>>,
    mut done: Local<bool>,
    mut reshape: MessageWriter<ReshapeMap>,
) {
    if *done || layout.is_none() {
        return;
    }
    *done = true;
    if let Some(shape) = options.grid {
        reshape.write(ReshapeMap(shape));
    }
}

/// Solves the `--mapf` instance, opens the `--plan`, or starts the `--lifelong` run, once the
/// first plan shows the map is up.
fn launch_mapf(
    options: Res<LaunchOptions>,
    plan: Res<Plan>,
    map: Res<CurrentMap>,
    mut settings: ResMut<MapfSettings>,
    mut done: Local<bool>,
    mut solve: MessageWriter<SolveMapf>,
    mut open: MessageWriter<OpenPlanFile>,
    mut lifelong: MessageWriter<OpenLifelong>,
) {
    if *done || plan.count == 0 {
        return;
    }
    *done = true;
    if let Some(mapf) = options.mapf {
        let source = match catalog::scenario_of(&map.name) {
            Some(s) if mapf.from_scenario => AgentSource::Scenario {
                name: s.file.into(),
                text: s.text.into(),
            },
            _ => AgentSource::Random,
        };
        // The panel shows what was asked.
        settings.agents = mapf.agents;
        settings.from_scenario = source != AgentSource::Random;
        let settings = settings.clone();
        solve.write(SolveMapf { source, settings });
    }
    if let Some(path) = &options.plan {
        open.write(OpenPlanFile(path.clone()));
    }
    if let Some(source) = &options.lifelong {
        let (source, guidance) = (source.clone(), Guidance::GUIDED);
        lifelong.write(OpenLifelong { source, guidance });
    }
}

/// Spawns the `--agents` once the first plan shows the map is up.
fn spawn_launch_agents(
    options: Res<LaunchOptions>,
    plan: Res<Plan>,
    mut done: Local<bool>,
    mut spawn: MessageWriter<AgentCommand>,
    mut scenes: MessageWriter<LoadScene>,
) {
    if *done || plan.count == 0 {
        return;
    }
    *done = true;
    if let Some(agents) = options.agents {
        spawn.write(AgentCommand::Spawn(agents.count));
    }
    if let Some(scene) = options.scene {
        scenes.write(LoadScene(scene));
    }
}

/// Opens `--map`: a file if there is one by that name, else a shipped map by that name (`trap`),
/// which is how a web page's `?map=trap` opens one (a browser has no files to read).
fn request_launch_map(
    options: Res<LaunchOptions>,
    mut open: MessageWriter<OpenMapFile>,
    mut load: MessageWriter<LoadMap>,
    mut generate: MessageWriter<GenerateMap>,
) {
    if let Some(path) = &options.map {
        let name = path.to_string_lossy();
        match catalog::shipped(&name).filter(|_| !path.exists()) {
            Some(map) => {
                load.write_batch(LoadMap::shipped(map));
            }
            None => {
                open.write(OpenMapFile(path.clone()));
            }
        }
    }
    if let Some(settings) = &options.generate {
        generate.write(GenerateMap(settings.clone()));
    }
}
