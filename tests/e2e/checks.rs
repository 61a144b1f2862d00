//! What a user does first, checked in the real window.
//!
//! All on the built-in `rooms.map`.

use crate::harness::{App, Area, HEIGHT, MAP, PANEL, PANEL_RIGHT, Shot, State, WIDTH, colors};
use std::time::{Duration, Instant};

/// The re-plan interval, plus slack for slow software-rendered frames.
const ONE_INTERVAL: Duration = Duration::from_millis(1000 + 700);

/// The built-in map: `rooms.map`, 40×28 cells, with the goal marker starting at (33, 1), against
/// the top wall, and a free cell far from it in the bottom-left room.
mod rooms {
    pub const WIDTH: i32 = 40;
    pub const HEIGHT: i32 = 28;
    pub const GOAL: (i32, i32) = (33, 1);
    /// The five cells around the goal that are not wall: walling them shuts it in.
    pub const AROUND_GOAL: [(i32, i32); 5] = [(32, 1), (32, 2), (33, 2), (34, 2), (34, 1)];
    pub const FAR_CELL: (i32, i32) = (3, 24);
    /// A cell that lies under the panel once the view is zoomed in on the start and panned.
    pub const NEAR_START: (i32, i32) = (2, 10);
}

/// How far (pixels) a marker's neighbourhood reaches, to look for the path next to it.
const NEAR_MARKER: f32 = 22.0;
/// How close (per channel) a pixel must be to a colour to count as it.
const TOLERANCE: u8 = 30;

fn path_pixels(app: &mut App, name: &str) -> (usize, Shot) {
    let shot = app.screenshot(name);
    (shot.count(MAP, colors::path(), TOLERANCE), shot)
}

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn the_path_shows_between_the_markers_after_start_up() {
    let (mut app, state) = App::launch_with_path("path-on-start");
    let (green, shot) = path_pixels(&mut app, "start-up");
    assert!(
        green > 400,
        "only {green} path-green pixels: {}",
        shot.path.display()
    );
    // The green line runs from the start to the goal: it is near both, and spans them.
    let near = |at| shot.count(Area::around(at, NEAR_MARKER), colors::path(), TOLERANCE);
    assert!(
        near(state.start) > 5,
        "no path next to the start marker: {}",
        shot.path.display()
    );
    assert!(
        near(state.goal) > 5,
        "no path next to the goal marker: {}",
        shot.path.display()
    );
    let b = shot
        .bounds(MAP, colors::path(), TOLERANCE)
        .expect("some path");
    let spans = |lo: u32, hi: u32, v: f32| lo as f32 <= v + 20.0 && v - 20.0 <= hi as f32;
    assert!(
        spans(b.x0, b.x1, state.start.0) && spans(b.x0, b.x1, state.goal.0),
        "{b:?} vs {state:?}"
    );
}

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn dragging_the_goal_changes_the_path_within_one_interval() {
    let (mut app, state) = App::launch_with_path("drag-goal");
    assert_eq!(state.path_end, rooms::GOAL);
    let (_, before) = path_pixels(&mut app, "before");
    let target = state.cell(rooms::FAR_CELL.0, rooms::FAR_CELL.1);
    let middle = (
        (state.goal.0 + target.0) / 2.0,
        (state.goal.1 + target.1) / 2.0,
    );
    app.drag(&[state.goal, middle, target]);
    let released = Instant::now();
    let after = app.wait_until("the path to the new goal", ONE_INTERVAL, |s| {
        s.path_end == rooms::FAR_CELL
    });
    let took = released.elapsed();
    assert!(
        after.goal.0 < state.goal.0,
        "the goal marker moved left on screen"
    );
    let (green, shot) = path_pixels(&mut app, "after");
    assert!(
        green > 200,
        "{green} path pixels after the drag: {}",
        shot.path.display()
    );
    assert!(
        shot.count(
            Area::around(after.goal, NEAR_MARKER),
            colors::path(),
            TOLERANCE
        ) > 5,
        "the path does not reach the new goal"
    );
    let changed = shot.differences(&before, MAP, 40);
    assert!(changed > 2_000, "only {changed} pixels changed on the map");
    println!("re-planned {took:?} after the drop");
}

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn the_grid_obstacle_and_clearance_checkboxes_switch_their_overlays() {
    let (mut app, state) = App::launch_with_path("checkboxes");
    // Plain tiles make grid lines one colour: switch the explored tint off first.
    app.click(state.widget("show_explored"));
    let grid_px = |app: &mut App, name: &str| grid_line_samples(&app.screenshot(name), &state);
    let obstacle_px = |app: &mut App, name: &str| {
        app.screenshot(name)
            .count(MAP, colors::obstacle(), TOLERANCE)
    };

    switch_off_and_on(&mut app, &state, "grid", 300, 50, grid_px);
    switch_off_and_on(&mut app, &state, "obstacles", 3_000, 20, obstacle_px);
    // The clearance overlay starts off: switched on, its green rings fill the open ground.
    let roomy_px = |app: &mut App, name: &str| {
        app.screenshot(name)
            .count(MAP, colors::clearance_roomy(), TOLERANCE)
    };
    let before = roomy_px(&mut app, "clearance-before");
    app.click(state.widget("show_clearance"));
    switch_off_and_on(&mut app, &state, "clearance", 2_000 + before, 20, roomy_px);
}

/// Clicks the `show_<name>` checkbox off and on again. `measure` counts what its overlay draws in
/// a screenshot: more than `at_least` while on, under 1/`off_divisor` of that while off, and about
/// the same again once back on.
fn switch_off_and_on(
    app: &mut App,
    state: &State,
    name: &str,
    at_least: usize,
    off_divisor: usize,
    measure: impl Fn(&mut App, &str) -> usize,
) {
    let checkbox = state.widget(&format!("show_{name}"));
    let on = measure(app, &format!("{name}-on"));
    assert!(on > at_least, "{on} {name} samples with the overlay on");
    app.click(checkbox);
    let off = measure_until(app, &format!("{name}-off"), &measure, |off| {
        off < on / off_divisor
    });
    assert!(
        off < on / off_divisor,
        "{off} {name} samples left with the overlay off (on: {on})"
    );
    app.click(checkbox);
    let again = measure_until(app, &format!("{name}-on-again"), &measure, |again| {
        again.abs_diff(on) < on / 10
    });
    assert!(
        again.abs_diff(on) < on / 10,
        "{name} back on: {again} vs {on}"
    );
}

/// Measures a screenshot until `done` holds or ten seconds have passed, and returns the last
/// measure. On a busy machine the screen can show a click a few frames later than the app's
/// state does: a single screenshot once failed with the overlay still off.
fn measure_until(
    app: &mut App,
    name: &str,
    measure: impl Fn(&mut App, &str) -> usize,
    done: impl Fn(usize) -> bool,
) -> usize {
    let began = std::time::Instant::now();
    loop {
        let n = measure(app, name);
        if done(n) || began.elapsed() > std::time::Duration::from_secs(10) {
            return n;
        }
    }
}

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn a_drag_that_starts_on_the_panel_moves_no_marker() {
    let (mut app, fitted) = App::launch_with_path("panel-drag");
    // Zoom in on the start and pan left, so that the start marker and map cells lie under the
    // panel: then a press on the panel would land on them if the panel did not keep it.
    app.wheel(fitted.start, true, 3);
    app.settle();
    app.drag_with("3", &[(800.0, 450.0), (700.0, 450.0), (600.0, 450.0)]);
    app.settle();
    let before = app.state().expect("state");
    assert!(
        before.start.0 < 280.0,
        "the start should be under the panel now: {:?}",
        before.start
    );
    let under_panel = before.cell(rooms::NEAR_START.0, rooms::NEAR_START.1);
    assert!(
        under_panel.0 < 280.0 && under_panel.0 > 10.0,
        "cells should be under the panel: {under_panel:?}"
    );
    let shot_before = app.screenshot("before");
    // From the start marker (seen through the panel) onto the map; and a sweep from the panel
    // over map cells under it and out onto the map.
    app.drag(&[before.start, (500.0, 500.0), (700.0, 520.0)]);
    app.drag(&[
        under_panel,
        (under_panel.0 + 10.0, under_panel.1 + 60.0),
        (650.0, 650.0),
    ]);
    let after = app.state().expect("state");
    assert_eq!(
        (after.start, after.goal),
        (before.start, before.goal),
        "a marker moved"
    );
    assert_eq!(after.obstacles, before.obstacles, "walls were painted");
    let shot = app.screenshot("after");
    let changed = shot.differences(&shot_before, MAP, 40);
    assert!(changed < 500, "{changed} map pixels changed");
}

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn walling_the_goal_in_shows_no_path() {
    let (mut app, state) = App::launch_with_path("wall-in");
    // The goal sits against the top wall; five walls close it in.
    let ring: Vec<_> = rooms::AROUND_GOAL
        .iter()
        .map(|&(x, y)| state.cell(x, y))
        .collect();
    app.drag(&ring);
    let walled = app.wait_until("no path", ONE_INTERVAL, |s| s.plan_status == "NoPath");
    assert_eq!(walled.obstacles, state.obstacles + 5, "five walls painted");
    let shot = app.screenshot("walled-in");
    let green = shot.count(MAP, colors::path(), TOLERANCE);
    assert!(
        green < 20,
        "{green} path-green pixels with no path: {}",
        shot.path.display()
    );
    let red = shot.count(PANEL, colors::no_path_text(), 40);
    assert!(
        red > 60,
        "no red 'No path' message in the panel ({red} pixels): {}",
        shot.path.display()
    );
}

/// Grid-line pixels, counted where lines must be: on each border between two cells, at each
/// cell's middle, a pixel of grid-line colour with road on both sides of it. (Walls have edges of
/// a similar colour, so a plain colour count would not tell lines from walls.)
fn grid_line_samples(shot: &Shot, state: &State) -> usize {
    let road = colors::road();
    let near = |p: [u8; 3], c: [u8; 3], tol: u8| (0..3).all(|i| p[i].abs_diff(c[i]) <= tol);
    let inside = |x: f32, y: f32| {
        x > PANEL_RIGHT + 4.0 && x < WIDTH as f32 - 5.0 && y > 4.0 && y < HEIGHT as f32 - 5.0
    };
    let px = |x: f32, y: f32| shot.pixel(x.round() as u32, y.round() as u32);
    let is_line = |x: f32, y: f32, dx: f32, dy: f32| {
        let on_line = (-1..=1).any(|o| {
            near(
                px(x + dx * o as f32, y + dy * o as f32),
                colors::GRID_ON_ROAD,
                12,
            )
        });
        on_line
            && near(px(x - 5.0 * dx, y - 5.0 * dy), road, 6)
            && near(px(x + 5.0 * dx, y + 5.0 * dy), road, 6)
    };
    let mut n = 0;
    for cy in 0..rooms::HEIGHT {
        for cx in 0..rooms::WIDTH {
            let (x, y) = state.cell(cx, cy);
            let (right, below) = (state.cell(cx + 1, cy), state.cell(cx, cy + 1));
            let (bx, by) = ((x + right.0) / 2.0, (y + below.1) / 2.0);
            if inside(bx, y) && is_line(bx, y, 1.0, 0.0) {
                n += 1;
            }
            if inside(x, by) && is_line(x, by, 0.0, 1.0) {
                n += 1;
            }
        }
    }
    n
}
