//! A body's own state: its glide between cells, its PIBT state and its progress counts.

use crate::agent::{centre, ground_cost};
use bevy::prelude::*;
use gridpath::Grid;
use gridpath::Point;
use gridpath::mapf::Mover;
use gridpath::mapf::crowd::Nearness;

/// Seconds without getting nearer while a route exists, after which a body counts as
/// deadlocked.
pub const DEADLOCK_SECONDS: f32 = 5.0;

/// Seconds a stalled body must have waited at every frame in a chain that moves nowhere (see
/// [`blocked`]) before it counts as deadlocked. Who waits behind whom is a snapshot between
/// ticks: a body that waits one tick behind an arrived body, pushed aside at the next, is in a
/// queue that moves.
pub(super) const BLOCKED_SECONDS: f32 = 1.0;

/// How far short of a whole move a body's credit may be and still move: a tick's worth of it
/// added up in floats.
pub(super) const MOVE_CREDIT_SLACK: f32 = 1e-4;

/// A body's glide between cells and its PIBT state. Kept by the crowd.
#[derive(Component, Clone, Debug, Default)]
pub struct BodyMotion {
    /// The centre it glides from, and when (the crowd's clock) and for how long.
    pub(super) from: Vec2,
    pub(super) started: f32,
    pub(super) duration: f32,
    /// How much of a move it has earned: it may move at a tick when this reaches 1.
    pub(super) credit: f32,
    pub(super) mover: Option<Mover>,
    /// Where its mover was last bound: a new place to go starts its priority afresh.
    pub(super) bound_for: Option<Point>,
    /// The fewest cells it has had left on its route to where it goes (a route round walls may
    /// lead away before it leads near, so the straight-line distance would not do), and the
    /// clock when it got there.
    pub(super) best: Option<(Point, u32)>,
    pub(super) since: f32,
    /// The route `best` is counted on: where it was planned from, and on which grid revision.
    pub(super) on: (Point, u64),
    /// Seconds it had got no nearer, as of the crowd's last frame.
    pub(super) stalled: f32,
    /// The clock when it last stood on, or glided onto, the cell it goes to. Passers-by may
    /// push a body off its cell at every other tick, so it never stands still there long
    /// enough to have arrived, nor gets nearer than it ever was; but it is not deadlocked.
    pub(super) reached: f32,
    /// How near it has been to where it goes: what gives a livelocked body away.
    pub(super) nearness: Nearness,
    /// The clock when the chain of bodies it waits behind began to move nowhere ([`blocked`]),
    /// if it has at every frame since.
    pub(super) blocked: Option<f32>,
    /// Counted deadlocked at the crowd's last frame.
    pub(super) deadlocked: bool,
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
        self.credit -= 1.0;
        let pace = speed.max(1e-3);
        let time = length * ground_cost(grid, here) / pace;
        let earned = tick * pace / ground_cost(grid, to);
        let ticks = ((1.0 - MOVE_CREDIT_SLACK - self.credit) / earned).ceil();
        self.duration = time.min(ticks.max(1.0) * tick);
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

    /// Seconds since it last got nearer to where it goes (0 with nowhere to go).
    pub(super) fn stalled_for(&self, now: f32) -> f32 {
        if self.best.is_some() {
            now - self.since
        } else {
            0.0
        }
    }

    /// Notes `d` cells left to `target` on the route planned from `on` (where from, on which
    /// revision): nearer than ever is progress, and starts its clock again.
    pub(super) fn note_progress(&mut self, target: Point, d: u32, on: (Point, u64), now: f32) {
        match self.best {
            Some((was, best)) if was == target && self.on == on => {
                if d < best {
                    self.best = Some((target, d));
                    self.since = now;
                }
            }
            // A new route (round a new wall, from where it was pushed, or to a new place)
            // counts cells on itself: a new baseline, but the clock runs on. A body that gives
            // up on a jam for somewhere else is no nearer for it.
            Some(_) => {
                self.best = Some((target, d));
                self.on = on;
            }
            None => {
                self.best = Some((target, d));
                self.on = on;
                self.since = now;
            }
        }
    }

    /// Seconds it has got no nearer to where it goes, as of the crowd's last frame (0 when it
    /// has arrived or has nowhere to go). A game's AI reads it to give up on a jam: a wanderer,
    /// say, picks somewhere else to go.
    pub fn stalled(&self) -> f32 {
        self.stalled
    }

    /// Was it counted deadlocked ([`CrowdStats::deadlocked`]) at the crowd's last frame?
    ///
    /// [`CrowdStats::deadlocked`]: crate::CrowdStats::deadlocked
    pub fn deadlocked(&self) -> bool {
        self.deadlocked
    }

    /// Has it been no nearer to where it goes for [`DEADLOCK_SECONDS`], nor back on its cell if
    /// passers-by pushed it off?
    pub(super) fn long_stalled(&self, now: f32) -> bool {
        self.best.is_some() && now - self.since.max(self.reached) > DEADLOCK_SECONDS
    }

    /// Notes whether the chain it waits behind moves nowhere at this frame (`blocked`): is it
    /// deadlocked, having so waited at every frame for [`BLOCKED_SECONDS`]?
    pub(super) fn still_blocked(&mut self, blocked: bool, now: f32) -> bool {
        if !blocked {
            self.blocked = None;
        }
        let since = blocked.then(|| *self.blocked.get_or_insert(now));
        self.deadlocked = since.is_some_and(|t| now - t >= BLOCKED_SECONDS);
        self.deadlocked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_passers_by_push_off_its_cell_is_not_deadlocked_while_it_gets_back_on() {
        // No nearer than its best for 9 s, but back on its cell 2 s ago.
        let mut motion = BodyMotion {
            best: Some((Point::new(0, 0), 0)),
            since: 1.0,
            reached: 8.0,
            ..default()
        };
        assert!(!motion.long_stalled(10.0));
        motion.reached = 4.0;
        assert!(motion.long_stalled(10.0));
    }

    #[test]
    fn a_body_counts_as_deadlocked_once_blocked_at_every_frame_for_a_second() {
        let mut motion = BodyMotion::default();
        // Blocked for a tick, then queued again: the body ahead was pushed aside.
        assert!(!motion.still_blocked(true, 10.0));
        assert!(!motion.still_blocked(true, 10.25));
        assert!(!motion.still_blocked(false, 10.5));
        // Blocked from 10.75 on: deadlocked a second later, not before.
        for now in [10.75, 11.0, 11.25, 11.5] {
            assert!(!motion.still_blocked(true, now));
        }
        assert!(motion.still_blocked(true, 11.75));
    }
}
