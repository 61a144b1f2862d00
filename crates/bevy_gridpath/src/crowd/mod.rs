//! Bodies: agents that take up their cell, so that a crowd queues, gives way and never overlaps.
//!
//! Add [`Body`] to a [`GridAgent`] and the crowd moves it instead of its own walk. It still asks
//! for a route to its [`Destination`] and re-routes after edits as every agent does; what
//! changes is how it moves along it. At every *tick* (the time the fastest body takes to cross a
//! cell of cost 1, or [`Crowd::tick`]) every body moves at most one cell, by one guided PIBT step
//! of the core's crowd ([`gridpath::mapf::crowd`], whose docs say how): no two bodies share a
//! cell, swap, or cross diagonally, and between ticks each glides at its own pace.
//!
//! What a game sets on [`Crowd`], and sees:
//! - **Ways** ([`Crowd::ways`]): a body orders its moves by its route; one-cell bodies on 4-way
//!   squares may go by their destination's distance table, or by a guide path that keeps out of
//!   the way of those coming the other way ([`gridpath::lifelong::BodyGuides`]).
//! - **Planned ahead** ([`Crowd::plan_ahead`]): a tick's step is planned off the frame while the
//!   bodies glide; what the game does meanwhile is checked when its moves are taken.
//! - **Gathering** ([`Crowd::gather`]): bodies that share a destination each get a cell of their
//!   own near it ([`GatherCell`]); one jammed on its way in for [`GATHER_PATIENCE`] settles.
//! - **Edits and sizes**: a wall painted under a body (or a body spawned on another) moves it to
//!   the nearest free place ([`AgentEscaped`]); a body of [`GridAgent::size`] k covers k × k cells.
//! - **Liveness**: [`CrowdStats`] counts bodies moving, waiting, arrived and *deadlocked* (no
//!   nearer for [`DEADLOCK_SECONDS`], not in a queue that moves); [`BodyMotion::stalled`] tells
//!   a game's AI to give up on a jam. Jams PIBT cannot undo are planned whole with
//!   [`Crowd::untangle`] (after [`UNTANGLE_AFTER`]).
//!
//! Why PIBT and not local avoidance (ORCA, RVO2): local avoidance keeps units apart but, having
//! no plan, deadlocks in corridors and crushes at doors; PIBT's priorities make someone give way.
//!
//! These systems are the core's glue, one job a file: `settle`, `gather` (when `gather_due`),
//! `step` (the ticks, glides and counts), `tick` (bodies read in, moves written back), `ahead`
//! (a tick planned off the frame), `untangle` and `jam_search`; `motion` is a body's glide.
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
mod gather_due;
mod jam_search;
mod motion;
mod settle;
mod step;
mod tick;
mod untangle;

pub use body::{Body, GatherCell};
pub use clock::{Crowd, CrowdStats};
pub use gridpath::mapf::crowd::GATHER_PATIENCE;
pub use gridpath::mapf::crowd::Patience;
pub use gridpath::mapf::crowd::UNTANGLE_AFTER;
pub use gridpath::mapf::crowd::{CrowdGuidance, CrowdWays};
pub use motion::{BodyMotion, DEADLOCK_SECONDS};

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
