//! A body's own state: its glide between cells and its PIBT state and progress counts (the
//! core's [`Glide`] and [`BodyState`]).

use crate::agent::ground_cost;
use bevy::prelude::*;
use gridpath::mapf::crowd::{BodyState, Glide};
use gridpath::{Grid, Point};

pub use gridpath::mapf::crowd::DEADLOCK_SECONDS;

/// A body's glide between cells and its PIBT state. Kept by the crowd.
#[derive(Component, Clone, Debug, Default)]
pub struct BodyMotion {
    pub(super) glide: Glide,
    /// Its move credit, PIBT state and progress counts.
    pub(super) state: BodyState,
}

impl BodyMotion {
    /// Starts a glide from `here` to `to`, `length` moves apart on `grid`, at `speed` cells a
    /// second, at the tick `(due, tick)` ([`Glide::start`]).
    pub(super) fn glide(
        &mut self,
        (here, to): (Point, Point),
        (length, speed): (f32, f32),
        grid: &Grid,
        tick: (f32, f32),
    ) {
        let costs = (ground_cost(grid, here), ground_cost(grid, to));
        let moving = (length, speed);
        self.glide.start(&mut self.state, here, moving, costs, tick);
    }

    /// Where its glide into `here` has got to at `now`.
    pub(super) fn drawn_at(&self, here: Point, now: f32) -> Vec2 {
        self.glide.drawn_at(here, now).into()
    }

    /// Seconds it has got no nearer to where it goes, as of the crowd's last frame (0 when it
    /// has arrived or has nowhere to go). A game's AI reads it to give up on a jam: a wanderer,
    /// say, picks somewhere else to go.
    pub fn stalled(&self) -> f32 {
        self.state.stalled()
    }

    /// Was it counted deadlocked ([`CrowdStats::deadlocked`]) at the crowd's last frame?
    ///
    /// [`CrowdStats::deadlocked`]: crate::CrowdStats::deadlocked
    pub fn deadlocked(&self) -> bool {
        self.state.deadlocked()
    }
}
