//! Many agents, one cell each: multi-agent pathfinding (MAPF) on a grid.
//!
//! The classic rules of the field's benchmark (Stern et al., "Multi-Agent Pathfinding:
//! Definitions, Variants, and Benchmarks", SoCS 2019): time is discrete; at each step every agent
//! waits or moves to one of its four neighbours; no two agents are ever on the same cell
//! (a *vertex conflict*) nor swap cells in one step (an *edge conflict*). An agent's cost is the
//! time it last arrives at its goal and stays there; a plan is measured by the sum of the costs
//! (soc) and the largest cost (makespan), against the lower bounds their single-agent distances
//! give.
//!
//! - [`Instance`]: a grid with each agent's start and goal, from a benchmark scenario or at random.
//! - [`Distances`]: each goal's breadth-first distance table, made when first asked for. This is
//!   where a large instance spends its memory: 4 bytes a cell for every distinct goal.
//! - [`Pibt`]: Priority Inheritance with Backtracking (Okumura et al., AIJ 2022), one step of every
//!   agent at a time; goals may change between steps (*lifelong*).
//! - [`CrowdStep`]: the same PIBT for a game's crowd: 8-way moves, bodies still on their way
//!   held in place, and each body's way given by its route instead of a distance table.
//! - [`solve_with_lacam`]: LaCAM (Okumura, AAAI 2023), a complete search over configurations of
//!   all agents that asks PIBT for each next one, lazily; PIBT's ties are broken by paths planned
//!   beforehand to keep out of each other's way (`scatter`).
//! - [`solve_anytime`]: LaCAM's first plan (the same for the same seed on any machine), then made
//!   cheaper until a deadline or a stop flag, on every core, by large neighbourhood search
//!   (`refine`, its agents re-planned by SIPP, `sipp`) and, on small instances, by LaCAM\*'s
//!   search carried on until it proves the plan optimal (`star`).
//! - [`check_plan`]: an independent validator, sharing no code with the solvers.
//! - [`write_result`], [`parse_result`]: the result format the field's solvers and visualisers
//!   share.

mod anytime;
mod check;
pub mod crowd;
mod distances;
pub mod fx;
mod instance;
mod lacam;
mod moves;
mod pibt;
mod random;
mod refine;
mod result;
mod scatter;
mod sipp;
mod star;
pub(crate) mod traffic;
mod until;

pub use anytime::{AnytimeLimits, AnytimeRun, Milestone, solve_anytime};
pub use check::{PlanCheck, PlanError, check_plan, check_plan_with_moves};
pub use crowd::{CrowdStep, GIVE_WAY_AFTER, HOLD_BACK_LIMIT, Mover, PUSHED_BACK, Room};
pub use distances::Distances;
pub use instance::{Instance, InstanceError};
pub use lacam::{LacamOutcome, LacamStats, solve_with_lacam};
pub use pibt::{Pibt, PibtPlan, solve_with_pibt};
pub use result::{MAX_RESULT_AGENTS, MAX_RESULT_BYTES, MapfResult, parse_result, write_result};

pub use moves::Moves;
pub(crate) use random::SplitMix64;
pub use traffic::Traffic;
