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
pub mod stats;
pub mod steer;

use crate::AppSystems;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use bevy_gridpath::GridPathSystems;

pub use follow::Facing;
pub use stats::AgentStats;

/// Where the agents go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AgentGoal {
    /// All head for the goal marker, and follow it when it is dragged.
    #[default]
    Chase,
    /// Each picks a random cell, walks there, and picks another.
    Wander,
    /// Each heads for a place of its own ([`crate::world::agents::OwnPlace`], a scene's); one
    /// without stays where it is.
    Own,
}

/// How chasers find their way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Steering {
    /// Each agent plans its own A* route, off the frame.
    #[default]
    AStarEach,
    /// One flow field from the goal serves every chaser: each steps to its cheapest neighbour.
    /// (Wanderers have a target each, so they always plan their own routes.)
    FlowField,
}

#[derive(Resource, Clone, Debug, PartialEq)]
pub struct AgentSettings {
    pub goal: AgentGoal,
    pub steering: Steering,
    /// Draw each agent's remaining route.
    pub show_routes: bool,
    /// Agents are bodies: one a cell, moved by the plugin's crowd (PIBT), so they queue and give
    /// way instead of walking through each other. Flow-field chasers stay ghosts (bodies
    /// follow routes).
    pub bodies: bool,
    /// The most searches started in one frame; the rest wait their turn.
    pub budget: usize,
}

impl Default for AgentSettings {
    fn default() -> Self {
        Self {
            goal: AgentGoal::Chase,
            steering: Steering::AStarEach,
            show_routes: true,
            bodies: true,
            budget: 32,
        }
    }
}

impl AgentSettings {
    /// Do chasers steer by the goal's flow field?
    pub fn flow_chasing(&self) -> bool {
        self.goal == AgentGoal::Chase && self.steering == Steering::FlowField
    }

    /// Are agents bodies now?
    pub fn as_bodies(&self) -> bool {
        self.bodies && !self.flow_chasing()
    }
}

/// The app's steps around the plugin's, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentSystems {
    /// Destinations and settings, before the plugin plans.
    Steer,
    /// The app's view of the agents, after the plugin moved them.
    Follow,
}

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
