//! A body's own state: its glide between cells, and its PIBT state and progress counts (the
//! core's [`BodyState`]).

use crate::agent::{centre, ground_cost};
use bevy::prelude::*;
use gridpath::Grid;
use gridpath::Point;
use gridpath::mapf::crowd::BodyState;

pub use gridpath::mapf::crowd::DEADLOCK_SECONDS;

/// A body's glide between cells and its PIBT state. Kept by the crowd.
#[derive(Component, Clone, Debug, Default)]
pub struct BodyMotion {
    /// The centre it glides from, and when (the crowd's clock) and for how long.
    pub(super) from: Vec2,
    pub(super) started: f32,
    pub(super) duration: f32,
    /// Its move credit, PIBT state and progress counts.
    pub(super) state: BodyState,
}

impl BodyMotion {
    /// Spends a move's credit and starts a glide from `here` to `to` (`length` moves apart, on
    /// `grid`, at `speed` cells a second) at the tick `(due, tick)`: the tick's time, and how
    /// long a tick is. From where it stands at the tick (a frame late, or a second tick in one
    /// frame, would read it where the last frame drew it), for as long as its pace takes, but
    /// done by the first tick it may move again: a diagonal, or a step off costly ground, earns
    /// its next move before its glide ends, and a glide begun where the last one had got to
    /// lags further at each move, cutting the corners of walls.
    pub(super) fn glide(
        &mut self,
        here: Point,
        to: Point,
        length: f32,
        speed: f32,
        grid: &Grid,
        (due, tick): (f32, f32),
    ) {
        self.from = self.drawn_at(here, due);
        self.started = due;
        let pace = speed.max(1e-3);
        let time = length * ground_cost(grid, here) / pace;
        let ticks = self.state.spend_move(tick * pace / ground_cost(grid, to));
        self.duration = time.min(ticks * tick);
    }

    /// How far along its glide it is at `now` on the crowd's clock (0 to 1).
    pub(super) fn glided(&self, now: f32) -> f32 {
        if self.duration > 0.0 {
            ((now - self.started) / self.duration).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }

    /// Where its glide into `here` has got to at `now`.
    pub(super) fn drawn_at(&self, here: Point, now: f32) -> Vec2 {
        self.from.lerp(centre(here), self.glided(now))
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
