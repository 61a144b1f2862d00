//! Editing the world: painting walls and ground with the mouse, dragging the markers, undo and
//! redo, clearing.
//!
//! A left drag that starts on a free cell paints walls and one that starts on a wall erases them
//! (PathFinding.js's rule); with a ground tool selected it paints that ground instead. A drag that
//! starts on a marker moves the marker, and a drag over the panel does nothing. Every change to
//! a cell goes through one editor ([`cells::CellEditor`]), and every edit is one undo step.

pub mod agents;
pub mod brush;
pub mod cells;
pub mod history;
pub mod links;
pub mod marker_drag;
pub mod scenes;
mod shortcuts;
pub mod tool;

use crate::frame::AppSystems;
use crate::world::nav::NavGrid;
pub use agents::{AgentCommand, SpawnSize};
use bevy::prelude::*;
pub use history::{Edit, EditCommand, History};
pub use scenes::{LoadScene, Scene, SceneLoaded};
pub use tool::{BRUSH_SIZES, EditTool, Tool};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EditTool>()
        .init_resource::<brush::Stroke>()
        .init_resource::<marker_drag::MarkerDrag>()
        .init_resource::<History>()
        .init_resource::<agents::AgentRoster>()
        .init_resource::<agents::SpawnSize>()
        .init_resource::<links::PendingLink>()
        .add_message::<links::LinkClick>()
        .add_message::<EditCommand>()
        .add_message::<agents::AgentCommand>()
        .add_message::<scenes::LoadScene>()
        .add_message::<scenes::SceneLoaded>()
        .add_message::<marker_drag::MarkerMoved>()
        .add_systems(
            Update,
            (
                (
                    marker_drag::begin_drag,
                    marker_drag::follow_cursor,
                    marker_drag::end_drag,
                    marker_drag::place_markers,
                )
                    .chain(),
                shortcuts::shortcuts,
                // After the drag systems: a press on a marker picks it up, and does not paint.
                brush::paint,
                history::record_map_loads,
                history::record_marker_moves,
                history::run_edit_commands,
                agents::clear_on_new_map,
                scenes::spawn_scene_agents,
                agents::run_agent_commands,
                links::forget_on_new_map,
                links::edit_links,
                scenes::load_scenes,
            )
                .chain()
                .in_set(AppSystems::Edit)
                .run_if(resource_exists::<NavGrid>),
        );
}
