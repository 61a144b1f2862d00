//! A live crowd's clock ([`CrowdClock`]): when its ticks fall, and when the next one's step is
//! planned ahead.

/// How long before its tick a step is planned ahead, in ticks. Later, and the plan reads
/// fresher routes (those that bodies pushed at the last tick asked for); earlier, and it has
/// longer to finish before the tick waits for it.
pub const PLAN_LEAD: f32 = 0.25;

/// Seconds since the crowd started, when its next tick falls, and its ticks so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CrowdClock {
    /// Seconds since the crowd started.
    pub now: f32,
    /// When the next tick falls.
    pub due: f32,
    /// Ticks so far.
    pub ticks: u64,
}

impl CrowdClock {
    /// A tick's length in seconds: `fixed`, or the time the fastest body (`fastest` cells a
    /// second) takes to cross a cell of cost 1; within 1/120 s and 10 s.
    pub fn tick_length(fixed: Option<f32>, fastest: f32) -> f32 {
        fixed
            .unwrap_or(1.0 / fastest.max(1e-3))
            .clamp(1.0 / 120.0, 10.0)
    }

    /// A frame `delta` seconds long, ticks `tick` seconds long. A long frame runs a few ticks,
    /// not hundreds: the crowd slows down rather than stalls.
    pub fn frame(&mut self, delta: f32, tick: f32) {
        self.now += delta;
        if self.due > self.now + tick || self.now - self.due > 4.0 * tick {
            self.due = self.now;
        }
    }

    /// Is a tick due?
    pub fn is_due(&self) -> bool {
        self.due <= self.now
    }

    /// A tick taken: the next falls `tick` seconds later.
    pub fn ticked(&mut self, tick: f32) {
        self.due += tick;
        self.ticks += 1;
    }

    /// Is the next tick's step to be planned ahead now, [`PLAN_LEAD`] of a tick or less before
    /// it falls?
    pub fn plans_ahead(&self, tick: f32) -> bool {
        self.due - tick * PLAN_LEAD <= self.now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_fall_a_tick_apart_and_a_long_frame_runs_a_few_not_hundreds() {
        let (mut clock, tick) = (CrowdClock::default(), 0.25);
        let mut ticks = 0;
        for _ in 0..60 {
            clock.frame(1.0 / 60.0, tick);
            while clock.is_due() {
                clock.ticked(tick);
                ticks += 1;
            }
        }
        assert_eq!(ticks, 4, "a second of frames, four ticks");
        clock.frame(100.0, tick); // a frame of 100 s: the crowd slows down
        let mut late = 0;
        while clock.is_due() {
            clock.ticked(tick);
            late += 1;
        }
        assert_eq!((late, clock.ticks), (1, 5));
        assert!(!clock.plans_ahead(tick) && clock.due - clock.now <= tick);
        clock.frame(0.2, tick);
        assert!(
            clock.plans_ahead(tick),
            "a twentieth of a second before its tick"
        );
        assert_eq!(CrowdClock::tick_length(None, 4.0), 0.25);
        assert_eq!(CrowdClock::tick_length(Some(100.0), 4.0), 10.0);
    }
}
