//! Many agents, one cell each: a multi-agent plan (MAPF) for the map on screen, solved off the
//! frame by the core's LaCAM or PIBT, or read from a plan file any solver of the field wrote, and
//! played back on a time-line.
//!
//! These are not the live agents of [`crate::agents`], which walk alone, each on its own route.
//! Here every agent moves one cell a step, 4-way, and no two ever share a cell or swap places:
//! the classic rules of the MAPF benchmark (`gridpath::mapf`). Only walls count, not the ground's
//! cost, and every plan shown has passed the core's validator first, whoever wrote it.
//!
//! - [`solve`]: instances (random, or a benchmark scenario) solved off the frame.
//! - [`improve`]: LaCAM's plan made cheaper until the time limit, the first shown at once.
//! - [`files`]: plan files in and out, in the result format of the field.
//! - [`playback`]: the time-line's clock.
//!
//! A wall painted where the plan goes, or another map, closes the plan: it would no longer be
//! valid there.

pub mod files;
pub mod improve;
pub mod plan;
pub mod playback;
pub mod solve;

use crate::frame::AppSystems;
use crate::notices::Notices;
use crate::world::map_load::MapLoaded;
use crate::world::nav::NavGrid;
use bevy::prelude::*;

pub use plan::{MapfPlan, ShownPlan, moves_on};
pub use playback::Playback;
pub use solve::{AgentSource, MapfSettings, MapfSolver, SolveMapf, Solving};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShownPlan>()
        .add_plugins((solve::plugin, files::plugin, playback::plugin))
        .add_systems(Update, close_when_invalid.in_set(AppSystems::Derive));
}

/// Closes the plan when the map is replaced, or when a wall is painted where it goes. (Freed
/// cells and ground costs leave it valid.)
fn close_when_invalid(
    mut loaded: MessageReader<MapLoaded>,
    nav: Option<Res<NavGrid>>,
    mut shown: ResMut<ShownPlan>,
    mut notices: ResMut<Notices>,
) {
    let new_map = loaded.read().count() > 0;
    let Some(plan) = &shown.0 else {
        return;
    };
    let walled = nav.is_some_and(|nav| nav.is_changed() && plan.crosses_a_wall(&nav));
    if new_map || walled {
        shown.0 = None;
        notices.info(if new_map {
            "Another map: the multi-agent plan was closed."
        } else {
            "A wall was painted where the multi-agent plan goes: it was closed. Solve again."
        });
    }
}
