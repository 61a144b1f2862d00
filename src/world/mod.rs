//! The world: the map's walls (obstacle entities) and ground, the two markers, and the navigation
//! grid derived from them; and every way a map arrives (shipped, from a file, generated).

pub mod agents;
pub mod catalog;
pub mod generators;
pub mod layout;
pub mod map_files;
pub mod map_load;
pub mod markers;
pub mod nav;
pub mod terrain;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        map_load::plugin,
        map_files::plugin,
        generators::plugin,
        markers::plugin,
        nav::plugin,
    ));
}
