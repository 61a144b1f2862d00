//! The one way edits change the world: [`CellEditor::apply`] makes a cell match a [`CellState`],
//! spawning or despawning its obstacle entity and setting its ground. Brush strokes, undo, redo
//! and the clear buttons all go through it, so they all obey the same rules (no wall on a marker).

use crate::world::markers::{Marker, Markers, Refusal};
use crate::world::nav::{CellPos, NavGrid, Obstacle};
use crate::world::terrain::{GroundChanged, GroundMap};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridpath::Point;

/// What an edit can change about a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellState {
    pub wall: bool,
    /// The ground's entry cost (under the wall, if there is one).
    pub cost: u32,
}

/// One cell's change, enough to undo and redo it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellChange {
    pub cell: Point,
    pub before: CellState,
    pub after: CellState,
}

/// Reads and changes cells of the world.
#[derive(SystemParam)]
pub struct CellEditor<'w, 's> {
    commands: Commands<'w, 's>,
    nav: Res<'w, NavGrid>,
    ground: ResMut<'w, GroundMap>,
    ground_changed: MessageWriter<'w, GroundChanged>,
    markers: Markers<'w, 's>,
}

impl CellEditor<'_, '_> {
    pub fn state(&self, p: Point) -> Option<CellState> {
        Some(CellState {
            wall: self.nav.obstacle_at(p).is_some(),
            cost: self.ground.cost(p)?,
        })
    }

    pub fn contains(&self, p: Point) -> bool {
        self.nav.grid().contains(p)
    }

    pub fn width(&self) -> u32 {
        self.nav.width()
    }

    pub fn height(&self) -> u32 {
        self.nav.height()
    }

    /// The marker standing on a cell, if any.
    pub fn marker_on(&self, p: Point) -> Option<Marker> {
        self.markers.on(p)
    }

    /// Makes the cell match `state`. Returns the change, or `None` if nothing changed or the
    /// change was refused (a wall onto a marker's cell).
    pub fn apply(&mut self, p: Point, state: CellState) -> Option<CellChange> {
        let before = self.state(p)?;
        if before == state || (state.wall && !before.wall && self.marker_on(p).is_some()) {
            return None;
        }
        if state.wall != before.wall {
            match self.nav.obstacle_at(p) {
                Some(e) => self.commands.entity(e).despawn(),
                None => {
                    self.commands.spawn((Obstacle, CellPos(p)));
                }
            }
        }
        if self.ground.set_cost(p, state.cost) {
            self.ground_changed.write(GroundChanged(p));
        }
        Some(CellChange {
            cell: p,
            before,
            after: state,
        })
    }

    /// Puts a marker on a cell, if it may stand there (inside, no wall, not the other marker).
    pub fn move_marker(&mut self, marker: Marker, to: Point) -> Result<(), Refusal> {
        self.markers.move_to(marker, to, &self.nav)
    }
}
