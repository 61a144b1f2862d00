//! Input: where the pointer is in the world, and whether the panel has it or the keyboard.
//!
//! Later layers read these resources instead of the window and the camera, so headless tests can
//! drive the real systems by setting them.

pub mod pointer;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(pointer::plugin);
}
