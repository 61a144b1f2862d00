//! The app shell: what the command line asks for at launch, the screenshot mode, and the test
//! hook for the end-to-end tests. It reads every layer and is read by none.

pub mod launch;
pub mod screenshot;
pub mod test_hook;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((launch::plugin, screenshot::plugin, test_hook::plugin));
}
