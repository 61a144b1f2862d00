//! PIBT for bodies in a live world: one step of a crowd whose members each know their own way.
//!
//! [`Pibt`](super::Pibt) is the benchmark's PIBT: 4-way moves, every agent moves at every step,
//! one cell per agent, and an agent's way is a breadth-first distance table to its goal. A game's
//! crowd breaks all four: units move 8-way round corners, a slow unit (or one in mud) is still on
//! its way into its cell while the others step, units come in sizes, and a table per goal is
//! 4 bytes a cell for every distinct goal, recomputed after every edit. And its crowds meet
//! head-on in passages one body wide, where the paper's fixed order of priorities turns the
//! file back and forth. So [`CrowdStep`] runs the same Algorithm 1 of Okumura et al. (AIJ 2022)
//! with six changes:
//!
//! - **The caller says how far each cell is** (`cost_to_go`): a game already has a route for
//!   each unit, searched off the frame, and the distance to the next cell of that route is all
//!   PIBT needs to order a unit's choices.
//! - **Held bodies**: a [`Mover`] that is not `free` this step stays where it is, and no one may
//!   push it. It is a wall for one step.
//! - **8-way moves** keep the movement's corner rule, and two bodies never cross diagonally.
//! - **Footprints**: a mover of size k covers the k × k cells right of and below its cell, and
//!   moves on the grid for its size ([`Clearance::grid_for`](crate::clearance::Clearance::grid_for)), so it
//!   only stands where it fits. Taking a cell means taking all its footprint's cells, and may
//!   push several bodies at once.
//! - **Priorities that let a passage flow one way at a time, and still let everyone through**:
//!   a body is ranked by the paper's priority (steps since it was last where it wanted to be)
//!   less a *held-back* amount: [`PUSHED_BACK`] more each time it is pushed back, the whole
//!   [`HOLD_BACK_LIMIT`] once it has got no nearer for [`GIVE_WAY_AFTER`] steps, never more
//!   than that limit, and never below its tie-break (as if it had just arrived). (The paper's
//!   priorities grow by one a step for everyone on the way, so they never change order until a
//!   body arrives.) Because what is held back is bounded, a body
//!   that has waited `HOLD_BACK_LIMIT` steps longer than another always ranks above it: PIBT's
//!   one guarantee, that the longest waiting eventually goes first, is kept.
//! - **LaCAM\*'s emulated swap** (Okumura, IJCAI 2023) for one-cell bodies with a
//!   [`Mover::goal`]: two that must pass each other in a passage one body wide (bound into a
//!   dead end, or each for a cell of a passage open at both ends), which PIBT alone never lets
//!   them do, back out of it together to the nearest fork, one drawing the other after it.
//!
//! ```text
//! for each free mover i, highest priority first:
//!     if i has not planned: PIBT(i)
//!
//! PIBT(i):
//!     C ← i's cell and its legal moves, lowest cost_to_go first (ties: a footprint on no one
//!         else, then at random); reversed if i must back out of a passage for a body
//!     for v in C:
//!         skip v if any cell of F(v) is taken, if the step swaps with a body (each steps onto
//!             a cell the other leaves), or if it crosses a body's diagonal step
//!         take every cell of F(v)
//!         for each unplanned mover k standing on F(v): PIBT(k)
//!         if every cell of F(v) is still i's: draw the body it backs out for (if it does, on
//!             C's first) onto i's cell; return valid
//!         one k pushed:  give back what is left of F(v)     -- k stayed on it
//!         several:       undo every plan made since taking F(v)
//!     stay (take F(i's cell)); return invalid
//! ```
//!
//! **Making room.** A body pushed off one cell always has somewhere to go if any cell round it
//! is free; a body under part of a big footprint may need two moves to leave it, and PIBT looks
//! one move ahead. So when a big body's best cell fails because bodies pushed off it stayed,
//! they are asked ([`Mover::making_room`]) to head out of it at the next step: each plans
//! before those not asked, with the asker's priority, guided first to the nearest position
//! clear of the wanted footprint and of the asker. Without it a big body waits for ever behind
//! a small one in a corner of the cells it wants.
//!
//! With sizes of 1 this is exactly the paper's PIBT: one body is pushed at a time, it cannot
//! step onto its pusher's cell (that would be a swap), and the push fails when it stays.
//!
//! Why undo when several were pushed: a body that stays takes back its own cells, even from
//! its pushers (still deciding, they see it when the pushes are done). With one body pushed
//! that is all a failure leaves behind, since a failed push is, all the way down, bodies that
//! stayed. With several, the first may have made room, and someone behind it may have stepped
//! onto a cell `i` was about to leave; if the second stays, `i` does not leave after all. So
//! the moves made for that cell are undone, and those bodies planned again later. Such undone
//! pushes are rationed per step (8 a body), which bounds a step's work; when they run out, a
//! body simply does not take cells that need several pushes.
//!
//! What the step guarantees, whatever the caller's costs: no two footprints overlap, no swaps,
//! no diagonal crossings, every move legal on its size's grid as it is. What it does not:
//! PIBT's promise that the highest-priority body reaches its goal needs true distances; with a
//! route's guidance it holds while the routes are right, and a body pushed far off its route
//! should ask for a new one.
//!
//! The step is here; `plan` is `PIBT(i)`, `swap` the emulated swap, `rules` the geometry of
//! footprints, swaps and crossings, `table` who stands on and who takes each cell.
//!
//! **A live crowd's runtime** is round it, over plain records of the bodies, so that a game
//! engine only reads its bodies in and writes their moves back (`bevy_gridpath` does; the
//! tests drive it with none):
//!
//! - [`CrowdRuntime`]: a tick ([`CrowdClock`] says when they fall), prepared, run anywhere
//!   ([`StepInput`]) and taken back with what changed meanwhile held; the step with its
//!   guidance ([`GuidedStep`]: goal tables, traffic, guide paths from outside, [`StepWays`])
//!   and the ways round a jam ([`detour`]).
//! - [`BodyState`]: a body's move credit at its pace, its [`Mover`], and its liveness counts
//!   (the deadlock count is [`blocked`]); [`Glide`]: where it is drawn between ticks.
//! - [`Gatherings`]: bodies that share a destination each get a place of their own
//!   ([`hand_out`], [`gather_cells`], TSWAP's [`hand_round`]), kept from frame to frame.
//! - [`Settler`]: bodies apart and off walls after an edit.
//! - [`Untangler`]: jams PIBT cannot undo, planned whole ([`untangle`], [`untangle_sizes`]).
//! - [`CrowdMap`]: what they read of a map that logs its edits.

mod body;
mod clock;
mod detour;
mod gather;
mod gatherings;
mod glide;
mod guided;
mod hand_out;
mod hold;
mod jam;
mod joint;
mod key_order;
mod lateness;
mod liveness;
mod map;
mod mover;
mod patience;
mod plan;
mod region;
mod rules;
mod run;
mod runtime;
mod settle;
mod state;
mod stats;
mod swap;
mod table;
mod untangle;

pub use body::{
    BLOCKED_SECONDS, BodyAtTick, BodyState, DEADLOCK_SECONDS, MOVE_CREDIT_SLACK, RouteLeft,
};
pub use clock::{CrowdClock, PLAN_LEAD};
pub use detour::{DETOUR_REACH, Detours, detour};
pub use gather::{Mate, RING_REACH, d2, gather_cells, hand_round, nearest_free};
pub use gatherings::{Due, Gatherer, GatheringBodies, GatheringKey, Gatherings};
pub use glide::Glide;
pub use guided::{CrowdGuidance, CrowdWays, Flow, GuidedStep, StepWays};
pub use hand_out::{GATHER_PATIENCE, GIVE_UPS_AT_ONCE, GaveUp, Member, cells_wanted, hand_out};
pub use hold::hold_what_no_longer_fits;
pub use jam::{JamBody, JamPlan, JamSearch, Nearness, UNTANGLE_AFTER, Untangler};
pub use joint::{SizedBody, untangle_sizes};
pub use key_order::KeyOrder;
pub use lateness::{QUEUE_WAIT, SEARCH_TICKS, SEARCH_WAIT};
pub use liveness::{Wait, blocked, first_step};
pub use map::{CrowdMap, beyond};
pub use mover::{GIVE_WAY_AFTER, HOLD_BACK_LIMIT, Mover, PUSHED_BACK, Room};
pub use patience::Patience;
pub use region::{four_steps, jam_region, nearest_in_region};
pub use rules::{covers, distance_fifths, footprint};
pub use runtime::{CrowdRuntime, FrameBody, Planned, StepInput, StepOutput, TickBody};
pub use settle::{NEAR, SettleDue, Settler, Standing, nearest_where, nearest_within, walled_under};
pub use state::CrowdStep;
pub use stats::CrowdStats;
pub use untangle::{Window, untangle};
#[cfg(test)]
mod tests;
