//! The stages of a frame, in the order data flows through them.
//!
//! A leaf module: every layer puts its systems in one of these sets, and the sets name nothing,
//! so no layer has to import a later one to be ordered before it.

use bevy::prelude::*;

/// The stages of a frame, in order (they are chained in [`crate::headless_plugin`]).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Open files and run generators, then replace the map when one was requested.
    Maps,
    /// Turn the cursor into a world position.
    ReadInput,
    /// Change the world: move markers, paint walls and ground, undo.
    Edit,
    /// Bring derived state (the navigation grid) up to date with the world.
    Derive,
    /// Search, then choose the search that is shown.
    Plan,
    /// Agents take their routes, re-route and walk.
    Act,
    /// Update what is drawn.
    Draw,
}
