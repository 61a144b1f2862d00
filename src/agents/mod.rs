//! Agents at work: each finds a route to its target, walks it, and finds another when the world
//! changes under it. The units of the tutorials this project grew from, which exist to *find their
//! way around the level without stumbling into walls*.
//!
//! A frame, in order ([`AgentSystems`]):
//! 1. `requests::collect_routes`: the path service's answers come back (it already discarded and
//!    searched again any that an edit overtook).
//! 2. `reroute::notice_changes`: an edit, a moved goal or new settings mark the agents that need
//!    a new route: only those whose way the change touches (or could shorten).
//! 3. `walking::walk`: every agent moves along its route, slower on costly ground.
//! 4. `requests::start_requests`: agents that need a route ask the plugin's path service, which
//!    starts up to a budget of searches on Bevy's task pool at the end of the frame.
//!
//! The searches run on `AsyncComputeTaskPool` against a shared snapshot of the grid, so a frame
//! never waits for one: a thousand agents re-planning costs the frame only the bookkeeping.

pub mod requests;
pub mod reroute;
pub mod route;
pub mod stats;
pub mod walking;

use crate::AppSystems;
use crate::world::nav::NavGrid;
use bevy::prelude::*;

pub use route::{Facing, Route, RouteState};
pub use stats::AgentStats;

/// Where the agents go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AgentGoal {
    /// All head for the goal marker, and follow it when it is dragged.
    #[default]
    Chase,
    /// Each picks a random cell, walks there, and picks another.
    Wander,
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
    /// The most searches started in one frame; the rest wait their turn.
    pub budget: usize,
}

impl Default for AgentSettings {
    fn default() -> Self {
        Self {
            goal: AgentGoal::Chase,
            steering: Steering::AStarEach,
            show_routes: true,
            budget: 32,
        }
    }
}

/// The steps of an agents' frame, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentSystems {
    Collect,
    Reroute,
    Walk,
    Request,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AgentSettings>()
        .init_resource::<AgentStats>()
        .init_resource::<reroute::Seen>()
        .init_resource::<requests::WanderRng>()
        .configure_sets(
            Update,
            (
                AgentSystems::Collect,
                AgentSystems::Reroute,
                AgentSystems::Walk,
                AgentSystems::Request,
            )
                .chain()
                .in_set(AppSystems::Act)
                .run_if(resource_exists::<NavGrid>),
        )
        .add_observer(route::equip)
        .add_systems(
            Update,
            (
                requests::collect_routes.in_set(AgentSystems::Collect),
                (reroute::push_off_walls, reroute::notice_changes)
                    .chain()
                    .in_set(AgentSystems::Reroute),
                (walking::walk, walking::ask_for_the_goal_field)
                    .chain()
                    .in_set(AgentSystems::Walk),
                (requests::start_requests, stats::count)
                    .chain()
                    .in_set(AgentSystems::Request),
            ),
        );
}
