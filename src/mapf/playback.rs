//! The time-line's clock: where the playback is (in steps, with fractions between them, so the
//! agents glide from cell to cell), whether it runs, and how fast.

use super::plan::ShownPlan;
use crate::frame::AppSystems;
use bevy::prelude::*;

/// Steps a second the speed slider offers.
pub const SPEED_RANGE: std::ops::RangeInclusive<f32> = 0.5..=60.0;

#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Playback {
    /// The time shown, in steps: 2.5 is halfway between step 2 and step 3.
    pub time: f32,
    pub playing: bool,
    /// Steps a second.
    pub speed: f32,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            time: 0.0,
            playing: false,
            speed: 4.0,
        }
    }
}

impl Playback {
    /// Back to the start, playing: what a new plan does.
    pub fn restart(&mut self) {
        self.time = 0.0;
        self.playing = true;
    }

    /// One whole step forward or back (`by` = 1 or -1), paused, within `0..=last`.
    pub fn step(&mut self, by: i32, last: usize) {
        self.playing = false;
        let from = if by > 0 {
            self.time.floor()
        } else {
            self.time.ceil()
        };
        self.time = (from + by as f32).clamp(0.0, last as f32);
    }

    /// Play, or pause; playing at the end starts again.
    pub fn toggle(&mut self, last: usize) {
        if !self.playing && self.time >= last as f32 {
            self.time = 0.0;
        }
        self.playing = !self.playing;
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Playback>()
        .add_systems(Update, advance.in_set(AppSystems::Act));
}

/// Moves the clock on while playing, and stops it at the plan's end.
fn advance(time: Res<Time>, shown: Res<ShownPlan>, mut playback: ResMut<Playback>) {
    let Some(plan) = &shown.0 else {
        return;
    };
    if !playback.playing {
        return;
    }
    let last = plan.last_step() as f32;
    playback.time = (playback.time + time.delta_secs() * playback.speed).min(last);
    if playback.time >= last {
        playback.playing = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_land_on_whole_steps_within_the_plan() {
        let mut p = Playback {
            time: 2.4,
            ..default()
        };
        p.step(1, 5);
        assert_eq!(p.time, 3.0);
        p.time = 2.4;
        p.step(-1, 5);
        assert_eq!(p.time, 2.0);
        p.step(-1, 5);
        p.step(-1, 5);
        p.step(-1, 5);
        assert_eq!(p.time, 0.0);
        p.time = 5.0;
        p.step(1, 5);
        assert_eq!(p.time, 5.0);
        assert!(!p.playing);
    }

    #[test]
    fn playing_at_the_end_starts_again() {
        let mut p = Playback {
            time: 5.0,
            ..default()
        };
        p.toggle(5);
        assert!(p.playing);
        assert_eq!(p.time, 0.0);
    }
}
