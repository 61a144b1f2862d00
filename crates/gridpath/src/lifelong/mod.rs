//! Lifelong multi-agent pathfinding: agents that are given a new goal the moment they reach one,
//! as robots in a warehouse are, or a game's workers.
//!
//! The score is *throughput*: tasks finished in a number of steps. The rules are the classic
//! MAPF ones (4-way moves or a wait; no two agents on one cell; no two trading cells), and the
//! benchmark is that of Chen, Harabor, Li and Stuckey, "Traffic Flow Optimisation for Lifelong
//! Multi-Agent Path Finding" (AAAI 2024), in the League of Robot Runners format.
//!
//! - [`LifelongPlanner`]: the planner a game or the benchmark drives: add agents, give goals,
//!   step. A game's crowd runtime ([`CrowdRuntime`](crate::mapf::crowd::CrowdRuntime)) in one
//!   configuration: PIBT with bounded hold-backs (liveness kept), guided by guide paths and the
//!   traffic ([`Guidance`]).
//! - [`LifelongInstance`]: a benchmark instance read from its files, every input checked.
//! - [`run_lifelong`]: the benchmark's loop, each step checked by [`LifelongCheck`], which
//!   shares no code with the planner; [`write_lifelong_result`] writes the run in the field's
//!   MAPF result format.
//! - [`GoalTables`]: distance tables shared by the agents bound for one goal.
//! - [`BodyGuides`]: the guide paths for a game's bodies, which come and go between steps (the
//!   planner's are the same).

mod agents;
mod bodies;
mod check;
mod focal;
mod guidance;
mod guide;
mod instance;
mod json;
mod planner;
mod run;
mod tables;
mod way_back;

pub use crate::mapf::Traffic;
pub use agents::LifelongAgents;
pub use bodies::BodyGuides;
pub use check::LifelongCheck;
pub use guidance::Guidance;
pub use guide::GuidePaths;
pub use instance::{
    LifelongConfig, LifelongInstance, MAX_LIFELONG_AGENTS, MAX_LIFELONG_TASKS, parse_cells,
    parse_config, parse_lifelong_map,
};
pub use planner::LifelongPlanner;
pub use run::{LifelongRun, run_agents, run_lifelong, write_lifelong_result};
pub use tables::{GoalTables, TableSlot};
