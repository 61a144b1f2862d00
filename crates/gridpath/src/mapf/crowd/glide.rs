//! A body's glide from cell to cell between ticks ([`Glide`]): where to draw it, and when it
//! stands.
//!
//! Bodies change cells only at ticks; between them each is drawn on its way from the cell it
//! left to its new one, at its own pace. A glide starts where the body is drawn *at its tick*
//! (a frame late, or a second tick in one frame, would read it where the last frame drew it),
//! takes as long as its pace on its ground, but is done by the first tick the body may move
//! again: a diagonal (√2 ticks) or a step off costly ground earns its next move before its
//! glide ends, and a glide begun where the last one had got to lags further at each move, until
//! bodies are drawn across the corners of walls.

use super::body::BodyState;
use crate::grid::Point;

/// A body's glide: from where (in cells, the centre of a cell at whole numbers), when on the
/// crowd's clock, and for how many seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Glide {
    /// Where it glides from.
    pub from: (f32, f32),
    /// When it started, on the crowd's clock, and how long it takes (0: it stands).
    pub started: f32,
    /// See `started`.
    pub duration: f32,
}

/// The centre of cell `p`.
#[inline]
fn centre(p: Point) -> (f32, f32) {
    (p.x as f32, p.y as f32)
}

impl Glide {
    /// A body's move from `here` to a cell `length` moves away, at its `speed` in cells a
    /// second over ground costing `costs` (here's and the new cell's), at the tick
    /// `(due, tick)`: the tick's time and how long a tick is. Spends the move's credit.
    pub fn start(
        &mut self,
        state: &mut BodyState,
        here: Point,
        (length, speed): (f32, f32),
        costs: (f32, f32),
        (due, tick): (f32, f32),
    ) {
        self.from = self.drawn_at(here, due);
        self.started = due;
        let pace = speed.max(1e-3);
        let time = length * costs.0 / pace;
        let ticks = state.spend_move(tick * pace / costs.1);
        self.duration = time.min(ticks * tick);
    }

    /// Stands at `at` from `now` on, with no glide (set down there by an edit).
    pub fn stand(&mut self, at: Point, now: f32) {
        *self = Self {
            from: centre(at),
            started: now,
            duration: 0.0,
        };
    }

    /// How far along it is at `now` (0 to 1; 1 when it stands). (Inlined: read for every
    /// body at every frame, from another crate.)
    #[inline]
    pub fn glided(&self, now: f32) -> f32 {
        if self.duration > 0.0 {
            ((now - self.started) / self.duration).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }

    /// Where it has got to on its way into `here` at `now`.
    #[inline]
    pub fn drawn_at(&self, here: Point, now: f32) -> (f32, f32) {
        let (t, to) = (self.glided(now), centre(here));
        (
            self.from.0 + (to.0 - self.from.0) * t,
            self.from.1 + (to.1 - self.from.1) * t,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapf::crowd::{BodyAtTick, CrowdWays};
    use crate::movement::{CornerRule, Movement};

    /// A body of 4 cells a second at `at` earns a tick's credit (a whole move at ticks of 0.25).
    fn earn(state: &mut BodyState, at: Point, now: f32) {
        let body = BodyAtTick {
            key: 1,
            at,
            size: 1,
            movement: Movement::EightWay(CornerRule::NeverCut),
            speed: 4.0,
            cost: 1.0,
            target: Some(Point::new(9, 9)),
            routed: true,
            asking: false,
        };
        assert!(state.mover(&body, CrowdWays::Routes, (0.25, now)).free);
    }

    #[test]
    fn a_diagonal_glide_is_done_by_the_tick_its_body_may_move_again() {
        // A diagonal takes √2 ticks at its pace, but the body earns its next move in one: its
        // glide ends then, and the next starts from its cell, not from where the last had got.
        let (tick, mut state, mut glide) = (0.25, BodyState::default(), Glide::default());
        let diagonal = std::f32::consts::SQRT_2;
        let (a, b, c) = (Point::new(0, 0), Point::new(1, 1), Point::new(2, 2));
        earn(&mut state, a, 0.0);
        glide.start(&mut state, a, (diagonal, 4.0), (1.0, 1.0), (0.0, tick));
        assert!((glide.duration - tick).abs() < 1e-6, "{glide:?}");
        assert_eq!(glide.drawn_at(b, tick), (1.0, 1.0));
        earn(&mut state, b, tick);
        glide.start(&mut state, b, (diagonal, 4.0), (1.0, 1.0), (tick, tick));
        assert_eq!(glide.from, (1.0, 1.0));
        assert_eq!(glide.drawn_at(c, tick + tick / 2.0), (1.5, 1.5));
        glide.stand(a, 1.0);
        assert_eq!(
            (glide.glided(1.0), glide.drawn_at(a, 1.0)),
            (1.0, (0.0, 0.0))
        );
    }
}
