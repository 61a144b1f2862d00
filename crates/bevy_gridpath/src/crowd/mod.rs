//! Bodies: agents that take up their cell, so that a crowd queues, gives way and never overlaps.
//!
//! Add [`Body`] to a [`GridAgent`] and the crowd moves it instead of its own walk. It still asks
//! for a route to its [`Destination`] and re-routes after edits as every agent does; what
//! changes is how it moves along it. At every *tick* (the time the fastest body takes to cross a
//! cell of cost 1, or [`Crowd::tick`]) every body moves at most one cell, by one guided PIBT step
//! of the core's crowd runtime ([`gridpath::mapf::crowd`], whose docs say how): no two bodies
//! share a cell, swap, or cross diagonally, and between ticks each glides at its own pace. What a
//! game sets is on [`Crowd`] (ways, guidance, gathering, planning ahead, untangling), what it
//! sees on [`CrowdStats`] and [`BodyMotion`]; a wall painted under a body (or a body spawned on
//! another) moves it to the nearest free place ([`AgentEscaped`]), and a body of
//! [`GridAgent::size`] k covers k × k cells.
//!
//! Why PIBT and not local avoidance (ORCA, RVO2): local avoidance keeps units apart but, having
//! no plan, deadlocks in corridors and crushes at doors; PIBT's priorities make someone give way.
//!
//! These systems are the core's glue, one job a file: `settle`, `gather`, `step` (the ticks,
//! glides and counts), `tick` (bodies read in, moves written back, jams untangled) and `ahead` (a
//! tick planned off the frame).
//!
//! [`AgentEscaped`]: crate::AgentEscaped
//! [`Destination`]: crate::Destination
//! [`GridAgent`]: crate::GridAgent
//! [`GridAgent::size`]: crate::GridAgent::size

use bevy::prelude::*;
use body::unbody;
use gather::gather;
use settle::settle;
use step::step;

mod ahead;
mod body;
mod clock;
mod gather;
mod settle;
mod step;
mod tick;

pub use body::{Body, BodyMotion, GatherCell};
pub use clock::Crowd;
pub use gridpath::mapf::crowd::{
    CrowdGuidance, CrowdStats, CrowdWays, DEADLOCK_SECONDS, GATHER_PATIENCE, Patience,
    UNTANGLE_AFTER,
};

/// Bodies are settled and gathered in `gather_in` (the plugin puts it after new agents are
/// placed and before they ask for routes), and stepped in `step_in`.
pub(crate) fn plugin(app: &mut App, gather_in: impl SystemSet, step_in: impl SystemSet) {
    app.init_resource::<clock::Crowd>()
        .add_observer(unbody)
        .add_systems(
            Update,
            (
                (settle, gather).chain().in_set(gather_in),
                step.in_set(step_in),
            ),
        );
}
