//! A soak run: over two minutes of random but seeded drags, paints, wheel zooms, pans, panel
//! clicks and shortcuts, with a thousand wandering bodies of mixed sizes (1 × 1, 2 × 2, 3 × 3)
//! on a 160 × 120 map. It passes when the app neither panics nor logs an error, no two bodies
//! ever cover one cell, no deadlock lasts (see [`LONGEST_DEADLOCK`]), and its window still
//! answers at the end. It prints how many looks found a body deadlocked, the most at any look,
//! and the longest stretch of looks that did; and at the start of each such stretch, when, and
//! the last few actions (the clicks that loaded a scene, say). `SOAK_SECONDS` makes it longer
//! (the closing notes' ten-minute runs).

use crate::harness::{App, HEIGHT, PANEL_RIGHT, WIDTH, colors};
use pathfinder_playground::world::generators::rng::Rng;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Random points on the map side and the panel side of the window, from the app's own seeded
/// generator, so a failing run can be replayed with its seed.
trait WindowPoints {
    fn map_point(&mut self) -> (f32, f32);
    fn panel_point(&mut self) -> (f32, f32);
}

impl WindowPoints for Rng {
    fn map_point(&mut self) -> (f32, f32) {
        let panel = PANEL_RIGHT as u32;
        let x = panel + 10 + self.below(WIDTH - panel - 20);
        (x as f32, (10 + self.below(HEIGHT - 20)) as f32)
    }

    fn panel_point(&mut self) -> (f32, f32) {
        let panel = PANEL_RIGHT as u32;
        (
            (10 + self.below(panel - 20)) as f32,
            (30 + self.below(HEIGHT - 40)) as f32,
        )
    }
}

/// How long looks may keep finding a deadlocked body (one no nearer for 5 s while a route
/// exists) before the soak fails.
///
/// Not 0: the random clicks can switch the crowd to chasing one goal, and a thousand chasers of
/// mixed sizes hold each other up now and then until one gives up on its jam (the frame bench's
/// `LIVENESS_GOAL=chase` run counts them headless: 1 at most in two minutes). Such a body moves
/// again within seconds; one still deadlocked 30 s on is a crowd that has stopped for good.
const LONGEST_DEADLOCK: Duration = Duration::from_secs(30);

/// How many of the last actions a look that finds a deadlocked body prints.
const RECENT: usize = 6;

/// Error and panic lines in the app's log.
fn faults(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| l.contains(" ERROR ") || l.starts_with("ERROR") || l.contains("panicked"))
        .collect()
}

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn two_minutes_of_random_use() {
    let seed = std::env::var("SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2026);
    let seconds = std::env::var("SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(130);
    let mut rng = Rng::new(seed);
    // A crowd of wanderers lives through it all: spawned, cleared, undone and walled in at random.
    let args = [
        "--generate",
        "terrain:160x120:7",
        "--agents",
        "1000:wander",
        "--agent-size",
        "mixed",
    ];
    let mut app = App::launch("soak", &args);
    let began = Instant::now();
    let (mut actions, mut looks, mut most_deadlocked, mut deadlocked_sum) = (0, 0, 0, 0);
    let mut looks_deadlocked = 0;
    // Since when looks have found a deadlocked body, and the longest such stretch.
    let (mut deadlocked_since, mut longest) = (None::<Instant>, Duration::ZERO);
    // The last few actions, printed when looks start finding a deadlocked body.
    let mut recent: VecDeque<String> = VecDeque::new();
    while began.elapsed() < Duration::from_secs(seconds) {
        let state = app.state().expect("the hook keeps writing");
        if let Some([.., deadlocked, twice]) = state.bodies {
            assert_eq!(
                twice, 0,
                "two bodies cover one cell (seed {seed}, frame {})",
                state.frame
            );
            most_deadlocked = most_deadlocked.max(deadlocked);
            looks_deadlocked += usize::from(deadlocked > 0);
            deadlocked_sum += deadlocked;
            looks += 1;
            if deadlocked > 0 && deadlocked_since.is_none() {
                // Where to look next: when, and what the last clicks did (a scene loaded, the
                // crowd sent to chase the goal...).
                println!(
                    "soak: {deadlocked} deadlocked at {:.0?} (frame {}), bodies {:?}, notice \"{}\"; \
                     last actions: {}",
                    began.elapsed(),
                    state.frame,
                    state.bodies,
                    state.notice,
                    recent.iter().cloned().collect::<Vec<_>>().join("; ")
                );
            }
            deadlocked_since = (deadlocked > 0).then(|| deadlocked_since.unwrap_or(Instant::now()));
            let stretch = deadlocked_since.map_or(Duration::ZERO, |since| since.elapsed());
            longest = longest.max(stretch);
            assert!(
                stretch < LONGEST_DEADLOCK,
                "a body deadlocked at every look for {stretch:?} (seed {seed}, frame {}): {:?}",
                state.frame,
                state.bodies
            );
        }
        if recent.len() == RECENT {
            recent.pop_front();
        }
        recent.push_back(String::new());
        let done = recent.back_mut().expect("just pushed");
        match rng.below(100) {
            // Drags on the map: they paint, erase or move a marker, whatever is under them.
            0..=29 => {
                let points: Vec<_> = (0..2 + rng.below(3)).map(|_| rng.map_point()).collect();
                app.drag(&points);
                *done = format!("drag on the map {points:?}");
            }
            // Grab a marker, if it is in view, and drop it somewhere.
            30..=39 => {
                let marker = if rng.below(2) == 0 {
                    state.start
                } else {
                    state.goal
                };
                let visible = marker.0 > PANEL_RIGHT
                    && marker.0 < WIDTH as f32
                    && marker.1 > 0.0
                    && marker.1 < HEIGHT as f32;
                let from = if visible { marker } else { rng.map_point() };
                let to = rng.map_point();
                app.drag(&[from, to]);
                *done = format!("drag {from:?} → {to:?}");
            }
            40..=51 => {
                let at = rng.map_point();
                app.wheel(at, rng.below(2) == 0, 1 + rng.below(3));
                *done = "wheel".to_string();
            }
            52..=59 => {
                let (a, b) = (rng.map_point(), rng.map_point());
                app.drag_with(if rng.below(2) == 0 { "3" } else { "2" }, &[a, b]);
                *done = "pan".to_string();
            }
            60..=79 => {
                let at = rng.panel_point();
                app.click(at);
                *done = format!("click on the panel at {at:?}");
            }
            80..=89 => {
                // By name: a map's order changes from run to run, and the seed should replay it.
                let mut widgets: Vec<_> = state.widgets.iter().collect();
                widgets.sort_unstable_by(|a, b| a.0.cmp(b.0));
                let (name, &at) = widgets[rng.below(widgets.len() as u32) as usize];
                app.click(at);
                *done = format!("click on {name}");
            }
            _ => {
                let keys = ["f", "ctrl+z", "ctrl+y", "ctrl+shift+z", "Escape"];
                let key = keys[rng.below(keys.len() as u32) as usize];
                app.key(key);
                *done = format!("key {key}");
            }
        }
        actions += 1;
        assert!(
            app.alive(),
            "the app died after {actions} actions (seed {seed}); log:\n{}",
            app.log()
        );
    }
    // The window still answers: frames keep coming, and a click still reaches the panel.
    let frame = app.state().expect("state").frame;
    app.key("f");
    let later = app.wait_until("new frames", Duration::from_secs(10), |s| {
        s.frame > frame + 5
    });
    assert!(later.frame > frame);
    let shot = app.screenshot("after-soak");
    assert!(
        shot.count(crate::harness::PANEL, colors::panel(), 12) > 10_000,
        "the panel is gone: {}",
        shot.path.display()
    );
    let log = app.log();
    let bad = faults(&log);
    assert!(
        bad.is_empty(),
        "{} error or panic lines (seed {seed}):\n{}",
        bad.len(),
        bad.join("\n")
    );
    println!(
        "soak: {actions} actions in {:?}, seed {seed}; {looks} looks at the bodies: none \
         overlapping; {looks_deadlocked} found a body deadlocked, {:.2} on average, \
         {most_deadlocked} at most, for {longest:?} at the longest",
        began.elapsed(),
        deadlocked_sum as f64 / looks.max(1) as f64
    );
}

#[test]
fn the_fault_filter_finds_errors_and_panics_but_not_warnings() {
    let log = "2026-11-22T02:28:18.1Z  WARN bevy_render: software rendering\n\
               2026-11-22T02:28:18.2Z ERROR bevy_egui: something broke\n\
               2026-11-22T02:28:18.3Z  INFO pathfinder_playground::notice: The goal can't stand on a wall\n\
               thread 'main' panicked at src/lib.rs:1:1:\n\
               error: XDG_RUNTIME_DIR is invalid or not set in the environment.";
    let found = faults(log);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("something broke") && found[1].contains("panicked"));
}
