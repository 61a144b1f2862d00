//! Links as entities: a door, stairs, a ladder or a teleporter is an entity with a [`NavLink`],
//! and the [`crate::NavGrid`] follows it: spawned, changed (opened, shut, moved), removed or
//! despawned. Routes take a link as one step; a [`crate::GridAgent`] waits at the link's start
//! for its cost and then stands at its end.
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_gridpath::NavLink;
//! use bevy_gridpath::gridpath::{Link, Point};
//!
//! #[derive(Component)]
//! struct Door;
//!
//! fn setup(mut commands: Commands) {
//!     // Stairs between two floors laid side by side on one map.
//!     commands.spawn(NavLink(Link::new(Point::new(4, 2), Point::new(24, 2), 3)));
//!     // A door that opens and shuts (set `open` through `&mut NavLink`).
//!     commands.spawn((Door, NavLink(Link::new(Point::new(9, 5), Point::new(11, 5), 1))));
//! }
//!
//! fn toggle(mut doors: Query<&mut NavLink, With<Door>>) {
//!     for mut door in &mut doors {
//!         door.0.open = !door.0.open;
//!     }
//! }
//! ```

use crate::nav_grid::NavGrid;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use gridpath::{Link, LinkId};

/// A link between two cells of the [`crate::NavGrid`] ([`gridpath::Link`]: its ends, cost,
/// one or two ways, kind, open or shut).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct NavLink(pub Link);

/// Links are followed in `sync`, before anything plans in the frame.
pub(crate) fn plugin(app: &mut App, sync: impl SystemSet) {
    app.add_systems(Update, follow_changed_links.in_set(sync));
}

/// Links added or changed go into the grid (a change replaces the link, or only opens or
/// shuts it); removed or despawned ones leave it. The id each entity's link got is remembered.
/// A link with an end off the grid is left out, with a warning.
fn follow_changed_links(
    changed: Query<(Entity, &NavLink), Changed<NavLink>>,
    mut removed: RemovedComponents<NavLink>,
    nav: Option<ResMut<NavGrid>>,
    mut ids: Local<HashMap<Entity, LinkId>>,
) {
    let Some(mut nav) = nav else {
        return;
    };
    for entity in removed.read() {
        if let Some(id) = ids.remove(&entity) {
            nav.remove_link(id);
        }
    }
    for (entity, link) in &changed {
        let link = link.0;
        if let Some(&id) = ids.get(&entity)
            && let Some(&was) = nav.grid().link(id)
        {
            if (Link {
                open: was.open,
                ..link
            }) == was
                && was != link
            {
                nav.set_link_open(id, link.open);
                continue;
            }
            if was == link {
                continue;
            }
            nav.remove_link(id);
        }
        match nav.add_link(link) {
            Some(id) => {
                ids.insert(entity, id);
            }
            None => {
                ids.remove(&entity);
                warn!(
                    "a NavLink from {} to {} has an end off the {}×{} grid: left out",
                    link.from,
                    link.to,
                    nav.width(),
                    nav.height()
                );
            }
        }
    }
}
