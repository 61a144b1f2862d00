//! A body's own state from tick to tick ([`BodyState`]): the move it has earned, its PIBT
//! [`Mover`], and how long it has got no nearer to where it goes (the liveness counts).
//!
//! A game's body moves at its own pace, on ground of its own cost, while the crowd ticks at the
//! pace of the fastest: at each tick a body earns `tick · speed / cost` of a move, and may move
//! once it has a whole one ([`BodyState::mover`]). How near it gets is counted in cells left on
//! its route ([`BodyState::note`]): a route round walls may lead away before it leads near, so
//! the straight-line distance would not do; a new route (round a new wall, from where it was
//! pushed, or to somewhere else) starts a new count but not a new clock, so a body cannot look
//! busy by changing its mind.

use super::guided::CrowdWays;
use super::jam::Nearness;
use super::mover::Mover;
use crate::grid::Point;
use crate::movement::Movement;

/// Seconds without getting nearer while a route exists, after which a body counts as
/// deadlocked.
pub const DEADLOCK_SECONDS: f32 = 5.0;

/// Seconds a stalled body must have waited at every frame in a chain that moves nowhere (see
/// [`blocked`](super::blocked)) before it counts as deadlocked. Who waits behind whom is a
/// snapshot between ticks: a body that waits one tick behind an arrived body, pushed aside at
/// the next, is in a queue that moves.
pub const BLOCKED_SECONDS: f32 = 1.0;

/// How far short of a whole move a body's credit may be and still move: a tick's worth of it
/// added up in floats.
pub const MOVE_CREDIT_SLACK: f32 = 1e-4;

/// Seconds a body may get no nearer before it draws a new tie-break, and again each time as
/// long again ([`Mover::draw_again`]): in the scene of three sizes at a door, at some frame
/// lengths, seven big units pushed each other about in front of it for good.
const DRAW_AGAIN_EVERY: f32 = 10.0;

/// A body at a tick, as [`BodyState::mover`] reads it.
#[derive(Clone, Copy, Debug)]
pub struct BodyAtTick {
    /// What names it from tick to tick (and seeds its tie-breaks).
    pub key: u64,
    /// Its cell, its size in cells across, and how it moves.
    pub at: Point,
    /// See `at`.
    pub size: u8,
    /// See `at`.
    pub movement: Movement,
    /// Its speed in cells a second, and the cost of its cell's ground: it earns
    /// `speed / cost` of a move a second.
    pub speed: f32,
    /// See `speed`.
    pub cost: f32,
    /// Where it heads, if anywhere.
    pub target: Option<Point>,
    /// It has a route there, and whether one is being searched.
    pub routed: bool,
    /// See `routed`.
    pub asking: bool,
}

/// What a body's route tells of how near it is, at a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteLeft {
    /// No route to where it goes now, or one being replaced: an old one is walked while the new
    /// one is searched, but getting along it is no progress, and waiting for a search is no
    /// deadlock.
    None,
    /// A route, but the body stands off it (pushed aside): it is no nearer, and no further.
    Off,
    /// So many cells left on the route planned from where, on which grid revision.
    Cells(u32, (Point, u64)),
}

/// A body's state from tick to tick: its credit, its mover, and its liveness counts. `now` is
/// the crowd's clock, in seconds.
#[derive(Clone, Debug, Default)]
pub struct BodyState {
    /// How much of a move it has earned: it may move at a tick when this reaches 1.
    credit: f32,
    /// Its PIBT state, kept from tick to tick.
    pub mover: Option<Mover>,
    /// Where its mover was last bound: a new place to go starts its priority afresh.
    bound_for: Option<Point>,
    /// The fewest cells it has had left on its route to where it goes, and the clock when it
    /// got there; and the route that is counted on: where it was planned from, and on which
    /// grid revision.
    best: Option<(Point, u32)>,
    since: f32,
    on: (Point, u64),
    /// Seconds it had got no nearer, as of the last [`note`](Self::note).
    stalled: f32,
    /// The clock when it last stood on, or glided onto, the cell it goes to. Passers-by may
    /// push a body off its cell at every other tick, so it never stands still there long
    /// enough to have arrived, nor gets nearer than it ever was; but it is not deadlocked.
    reached: f32,
    /// How near it has been to where it goes: what gives a livelocked body away.
    pub nearness: Nearness,
    /// The clock when the chain of bodies it waits behind began to move nowhere, if it has at
    /// every frame since; and whether it counted as deadlocked at the last frame.
    blocked: Option<f32>,
    deadlocked: bool,
}

impl BodyState {
    /// The body as PIBT sees it at this tick (a tick of `tick` seconds at `now`), having earned
    /// a tick's worth of a move at its pace. A body heads for its target once it has a route
    /// to it; one that goes by its goal's table or guide path (`ways`) sets off while its
    /// route is searched (2,000 robots sent at once waited for their routes, 16 searches at a
    /// time, for the first hundred ticks).
    pub fn mover(&mut self, b: &BodyAtTick, ways: CrowdWays, (tick, now): (f32, f32)) -> Mover {
        self.credit = (self.credit + tick * b.speed.max(0.0) / b.cost).min(1.0);
        let mut mover = self.mover.unwrap_or_else(|| Mover::new(b.at, b.key));
        // Somewhere new to go: its priority starts afresh, as PIBT's does when an agent reaches
        // its goal (a body sent on the moment it arrives is never seen arrived by a tick).
        if self.bound_for != b.target {
            self.bound_for = b.target;
            mover.priority = mover.tie_break;
            mover.held_back = 0.0;
            mover.waiting = 0;
        }
        let round = (self.stalled_for(now) / DRAW_AGAIN_EVERY) as u64;
        mover.draw_again(b.key, round);
        mover.at = b.at;
        mover.size = b.size.max(1);
        mover.free = self.credit >= 1.0 - MOVE_CREDIT_SLACK;
        let heads = b.routed || ways.reads_goal(b.size, b.movement) && b.asking;
        mover.arrived = b.target.is_none_or(|t| t == b.at) || !heads;
        mover.goal = b.target.filter(|_| heads);
        mover
    }

    /// Spends a move, earning `earned` of one a tick from now on: how many ticks until it may
    /// move again (at least one).
    pub fn spend_move(&mut self, earned: f32) -> f32 {
        self.credit -= 1.0;
        ((1.0 - MOVE_CREDIT_SLACK - self.credit) / earned)
            .ceil()
            .max(1.0)
    }

    /// Seconds since it last got nearer to where it goes (0 with nowhere to go).
    pub fn stalled_for(&self, now: f32) -> f32 {
        if self.best.is_some() {
            now - self.since
        } else {
            0.0
        }
    }

    /// Notes at `now` where it stands, `here`, where it goes, `target`, what its route tells
    /// (`left`), and whether it is `home` (on its target) and has `arrived` (stands still there).
    pub fn note(
        &mut self,
        (here, target): (Point, Option<Point>),
        left: RouteLeft,
        (home, arrived): (bool, bool),
        now: f32,
    ) {
        self.nearness.note(here, target, now);
        match (target, left) {
            _ if arrived => self.best = None,
            (Some(target), RouteLeft::Cells(d, on)) => self.note_progress(target, d, on, now),
            (Some(_), RouteLeft::Off) => {}
            _ => self.best = None,
        }
        self.stalled = self.stalled_for(now);
        if home {
            self.reached = now;
        }
    }

    /// Notes `d` cells left to `target` on the route planned from `on` (where from, on which
    /// revision): nearer than ever is progress, and starts its clock again.
    fn note_progress(&mut self, target: Point, d: u32, on: (Point, u64), now: f32) {
        match self.best {
            Some((was, best)) if was == target && self.on == on => {
                if d < best {
                    self.best = Some((target, d));
                    self.since = now;
                }
            }
            // A new route counts cells on itself: a new baseline, but the clock runs on. A body
            // that gives up on a jam for somewhere else is no nearer for it.
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

    /// Seconds it had got no nearer to where it goes, as of the last [`note`](Self::note) (0
    /// when it has arrived or has nowhere to go).
    pub fn stalled(&self) -> f32 {
        self.stalled
    }

    /// Was it counted deadlocked at the last [`still_blocked`](Self::still_blocked)?
    pub fn deadlocked(&self) -> bool {
        self.deadlocked
    }

    /// Has it been no nearer to where it goes for [`DEADLOCK_SECONDS`], nor back on its cell if
    /// passers-by pushed it off?
    pub fn long_stalled(&self, now: f32) -> bool {
        self.best.is_some() && now - self.since.max(self.reached) > DEADLOCK_SECONDS
    }

    /// Notes whether the chain it waits behind moves nowhere at this frame (`blocked`): is it
    /// deadlocked, having so waited at every frame for [`BLOCKED_SECONDS`]?
    pub fn still_blocked(&mut self, blocked: bool, now: f32) -> bool {
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
        let mut state = BodyState {
            best: Some((Point::new(0, 0), 0)),
            since: 1.0,
            reached: 8.0,
            ..BodyState::default()
        };
        assert!(!state.long_stalled(10.0));
        state.reached = 4.0;
        assert!(state.long_stalled(10.0));
    }

    #[test]
    fn a_body_counts_as_deadlocked_once_blocked_at_every_frame_for_a_second() {
        let mut state = BodyState::default();
        // Blocked for a tick, then queued again: the body ahead was pushed aside.
        assert!(!state.still_blocked(true, 10.0));
        assert!(!state.still_blocked(true, 10.25));
        assert!(!state.still_blocked(false, 10.5));
        // Blocked from 10.75 on: deadlocked a second later, not before.
        for now in [10.75, 11.0, 11.25, 11.5] {
            assert!(!state.still_blocked(true, now));
        }
        assert!(state.still_blocked(true, 11.75));
    }

    #[test]
    fn a_new_route_counts_cells_afresh_but_not_time() {
        let mut state = BodyState::default();
        let to = Point::new(9, 0);
        let note = |s: &mut BodyState, d: u32, from: Point, now: f32| {
            let left = RouteLeft::Cells(d, (from, 0));
            s.note((Point::new(0, 0), Some(to)), left, (false, false), now);
        };
        note(&mut state, 10, Point::new(0, 0), 0.0);
        note(&mut state, 8, Point::new(0, 0), 1.0);
        assert_eq!(state.stalled_for(3.0), 2.0);
        // Pushed back and routed again from there: more cells left, the clock runs on.
        note(&mut state, 12, Point::new(1, 1), 3.0);
        assert_eq!(state.stalled(), 2.0);
        note(&mut state, 11, Point::new(1, 1), 4.0);
        assert_eq!(state.stalled(), 0.0);
    }

    #[test]
    fn a_slow_body_earns_a_move_every_other_tick() {
        let mut state = BodyState::default();
        let body = BodyAtTick {
            key: 7,
            at: Point::new(2, 2),
            size: 1,
            movement: Movement::FourWay,
            speed: 4.0,
            cost: 2.0,
            target: Some(Point::new(5, 2)),
            routed: true,
            asking: false,
        };
        let free: Vec<bool> = (0..6)
            .map(|t| {
                let mover = state.mover(&body, CrowdWays::Routes, (0.25, t as f32 * 0.25));
                if mover.free {
                    assert_eq!(state.spend_move(0.5), 2.0);
                }
                mover.free
            })
            .collect();
        assert_eq!(free, [false, true, false, true, false, true]);
    }
}
