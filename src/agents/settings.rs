//! What the agents do: where they go, how chasers steer, and the settings the panel changes.

use bevy::prelude::*;

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
