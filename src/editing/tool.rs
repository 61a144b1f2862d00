//! The editing tool the panel picks: what a left drag paints, and the brush's size.

use crate::world::terrain::Ground;
use bevy::prelude::*;

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
    /// Two clicks make a link between two cells (stairs, a ladder, a teleporter); a click on
    /// a link's end removes it.
    Links,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Walls => "Walls",
            Tool::Ground(g) => g.name(),
            Tool::Agents => "Agents",
            Tool::Links => "Links",
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
