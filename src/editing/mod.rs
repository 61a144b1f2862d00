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
pub mod marker_drag;
pub mod scenes;
mod shortcuts;

use crate::AppSystems;
use crate::world::nav::NavGrid;
use crate::world::terrain::Ground;
pub use agents::{AgentCommand, SpawnSize};
use bevy::prelude::*;
pub use history::{Edit, EditCommand, History};
pub use scenes::{LoadScene, Scene, SceneLoaded};

/// What a left drag on the map paints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Walls: paints them from a free cell, erases them from a wall.
    #[default]
    Walls,
    /// Ground of this kind (walls stay).
    Ground(Ground),
    /// A click drops an agent.
    Agents,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Walls => "Walls",
            Tool::Ground(g) => g.name(),
            Tool::Agents => "Agents",
        }
    }
}

/// The allowed brush sizes: a square this many cells wide.
pub const BRUSH_SIZES: [u32; 3] = [1, 3, 5];

#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct EditTool {
    pub tool: Tool,
    pub brush: u32,
}

impl Default for EditTool {
    fn default() -> Self {
        Self {
            tool: Tool::Walls,
            brush: 1,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EditTool>()
        .init_resource::<brush::Stroke>()
        .init_resource::<marker_drag::MarkerDrag>()
        .init_resource::<History>()
        .init_resource::<agents::AgentRoster>()
        .init_resource::<agents::SpawnSize>()
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
                scenes::load_scenes,
            )
                .chain()
                .in_set(AppSystems::Edit)
                .run_if(resource_exists::<NavGrid>),
        );
}
