//! Agents at work: each walks to its target, round walls, re-routing when the world changes under
//! it. The units of the tutorials this project grew from, which exist to *find their way around
//! the level without stumbling into walls*.
//!
//! The playground moves them with the plugin, exactly as a game would: every agent is a
//! [`bevy_gridpath::GridAgent`] whose [`bevy_gridpath::Destination`] this module sets. The plugin
//! asks its path service for routes (off the frame, a budget a frame), walks them slower on costly
//! ground, re-routes only the agents an edit touches, moves an agent off a wall painted under it,
//! and steers flow-field chasers by one field shared by all ([`bevy_gridpath::SharedFlow`]).
//!
//! A frame, in order ([`AgentSystems`]):
//! 1. [`steer`]: chasers head for the goal marker, wanderers for a random stop near them.
//! 2. The plugin plans ([`GridPathSystems::Plan`]) and walks ([`GridPathSystems::Move`]).
//! 3. [`follow`]: the app's view of each agent (its position and heading) follows the plugin's,
//!    and an agent moved off a new wall is told in the notices.

pub mod follow;
pub mod settings;
pub mod stats;
pub mod steer;

use crate::frame::AppSystems;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use bevy_gridpath::GridPathSystems;

pub use follow::Facing;
pub use settings::{AgentGoal, AgentSettings, AgentSystems, Steering};
pub use stats::AgentStats;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AgentSettings>()
        .init_resource::<AgentStats>()
        .init_resource::<steer::WanderRng>()
        .configure_sets(
            Update,
            (
                AgentSystems::Steer,
                GridPathSystems::Plan,
                GridPathSystems::Move,
                AgentSystems::Follow,
            )
                .chain()
                .in_set(AppSystems::Act),
        )
        .configure_sets(
            Update,
            (AgentSystems::Steer, AgentSystems::Follow).run_if(resource_exists::<NavGrid>),
        )
        .add_observer(steer::equip)
        .add_observer(stats::count_route)
        .add_systems(
            Update,
            (
                (steer::go_to_own_places, steer::steer)
                    .chain()
                    .in_set(AgentSystems::Steer),
                (follow::follow, follow::tell_escapes, stats::count)
                    .chain()
                    .in_set(AgentSystems::Follow),
            ),
        );
}
