//! Bodies: agents that take up their cell, so that a crowd queues, gives way and never overlaps.
//!
//! Add [`Body`] to a [`GridAgent`] and the crowd moves it instead of its own walk. It still asks
//! the path service for a route to its [`Destination`] and re-routes after edits as every agent
//! does; what changes is how it moves along it. On every *tick* the crowd moves every body at
//! most one cell with one step of PIBT ([`gridpath::mapf::CrowdStep`]): a body that has waited
//! long pushes one that has not out of its way, the pushed one steps aside (or back) and returns,
//! and no two bodies ever share a cell, swap, or cross diagonally. Between ticks a body glides
//! from cell to cell.
//!
//! - **The tick** is the time the fastest body takes to cross a cell of cost 1 ([`Crowd::tick`]
//!   fixes it instead). A slower body, or one on costly ground, is still on its way into its
//!   cell at the next tick and holds; the others go round it.
//! - **Planned ahead** ([`Crowd::plan_ahead`], on by default but on the web): a tick's PIBT step is
//!   planned off the frame, on a thread of its own, a quarter of a tick before it is due, while
//!   the bodies glide, with the stalled bodies' ways round; the frame the tick falls in only
//!   takes its moves: at 10,000 bodies PIBT takes about 20 ms, more
//!   than a frame. Bodies' cells change only at ticks, so the plan sees them as they will stand; a
//!   route that lands in that quarter tick is read at the next. A move that an edit made in the
//!   meantime no longer fits (a wall dropped on its cell, a body spawned or moved there) holds, and
//!   so does every body that would step onto a held one: the rules hold whatever the game does
//!   between ticks. A plan not done by its tick is waited for, so the moves do not depend on the
//!   machine.
//! - **Ways** ([`Crowd::ways`]): a body orders its moves by its route's next cell; one-cell
//!   bodies on 4-way squares may go by their destination's distance table instead, or by a
//!   guide path that keeps out of the way of those coming the other way (the lifelong planner's,
//!   [`gridpath::lifelong::BodyGuides`]), and then set off while their route is searched.
//! - **Gathering**: bodies sent to one cell would fight over it for ever. Bodies that share a
//!   destination are each given a cell of their own ([`GatherCell`]): the free cells nearest the
//!   destination, the nearest body to the nearest cell. In a gathering of several sizes, a
//!   body jammed on its way in for [`GATHER_PATIENCE`] settles where it stands instead.
//! - **Edits**: a wall painted under a body (or a body spawned on another) moves it to the
//!   nearest free cell no body stands on ([`AgentEscaped`] says so for walls).
//! - **Sizes**: a body of [`GridAgent::size`] k covers k × k cells and moves on the grid for its
//!   size ([`NavGrid::grid_for`]); footprints never overlap. A body that has got no nearer for a
//!   second (four for one cell) heads for the place nearest its next route cell that it can
//!   reach without covering a body on its way (a detour): two big bodies that must pass in the
//!   open would otherwise push each other back and forth along the line between them.
//! - **Liveness**: [`CrowdStats`] counts bodies moving, waiting, arrived, and *deadlocked*: no
//!   nearer to where they go (fewer cells left on its route) for [`DEADLOCK_SECONDS`] while a
//!   route exists, and not merely queued behind a body that moves (see
//!   [`BodyState`](gridpath::mapf::crowd::BodyState) and [`blocked`](gridpath::mapf::crowd::blocked)).
//!   [`BodyMotion::stalled`] tells a game's AI how long a body has been no nearer, to give up on
//!   a jam; [`BodyMotion::deadlocked`] whether it was counted.
//! - **Jams PIBT cannot undo**: PIBT is not complete. Bodies packed wall to wall, each bound for
//!   a place another holds (three in the wrong order in a passage, a room filled to its last
//!   cell, big units in places side by side with the last one in bound behind the others),
//!   push each other off and back for good. With [`Crowd::untangle`] on, once a body near its
//!   place has got no nearer for [`UNTANGLE_AFTER`] seconds, the bodies round it are planned
//!   together (complete, off the frame: LaCAM for one-cell bodies, A\* over joint moves with
//!   bigger ones) and walked through the plan (`untangle`; [`CrowdStats::untangled`] counts
//!   them).
//!
//! Why PIBT and not local avoidance (ORCA, RVO2): local avoidance keeps units apart but, having
//! no plan, deadlocks in corridors and crushes at doors; PIBT's priorities make someone give way.
//!
//! **The crowd is the core's**, over plain records of the bodies, and runs without an engine
//! ([`gridpath::mapf::crowd`]: [`CrowdRuntime`](gridpath::mapf::crowd::CrowdRuntime) for a
//! tick, `Gatherings`, `Settler`, `Untangler`, `BodyState`). These systems are its glue, one
//! job a file: `settle` (bodies apart and off walls), `gather` (a cell of its own for each body
//! of a gathering, when `gather_due`), `step` (the ticks, the glides and the counts), `tick`
//! (the bodies read into a tick and its moves written back), `ahead` (a tick planned off the
//! frame), `untangle` and `jam_search` (a jam found, and its search off the frame). `motion` is a body's glide.
//!
//! [`AgentEscaped`]: crate::AgentEscaped
//! [`Destination`]: crate::Destination
//! [`GridAgent`]: crate::GridAgent
//! [`GridAgent::size`]: crate::GridAgent::size
//! [`NavGrid::grid_for`]: crate::NavGrid::grid_for

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
