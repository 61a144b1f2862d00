//! The tactics scene in the real window: the unit's range, what it sees, the zones of control
//! round its enemies and the way to the goal ringed by turns, drawn on the hexagons; dragging
//! the goal next to the unit leaves one turn.

use crate::harness::{App, MAP, Shot};
use pathfinder_playground::view::palette::{self, rgb8};
use std::time::Duration;

const TOLERANCE: u8 = 30;

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn the_tactics_scene_draws_range_sight_zones_and_turns_and_follows_the_goal() {
    let mut app = App::launch("tactics-scene", &["--scene", "tactics"]);
    let state = app.wait_until("the scene's enemies", Duration::from_secs(30), |s| {
        s.shape == "hex-row-odd" && s.agents[0] == 4 && s.widgets.contains_key("tactics")
    });
    let two_turns = |shot: &Shot| shot.count(MAP, rgb8(palette::LATER_TURN_END), TOLERANCE) > 20;
    let shot = app.screenshot_when("scene", Duration::from_secs(20), two_turns);
    for (what, color, least) in [
        ("the range", palette::RANGE, 2000),
        ("what the unit sees", palette::SIGHT, 500),
        ("the zones of control", palette::ZONE, 50),
    ] {
        let n = shot.count(MAP, rgb8(color), TOLERANCE);
        assert!(n > least, "{what}: {n} pixels ({})", shot.path.display());
    }
    assert!(
        two_turns(&shot),
        "the goal, two turns away, is ringed ({})",
        shot.path.display()
    );
    // The goal beside the unit: one turn, no later turn's ring.
    let beside = state.cell(3, 1);
    let middle = (
        (state.goal.0 + beside.0) / 2.0,
        (state.goal.1 + beside.1) / 2.0,
    );
    app.drag(&[state.goal, middle, beside]);
    app.wait_until("the goal beside the unit", Duration::from_secs(10), |s| {
        (s.goal.0 - beside.0).abs() < 2.0 && (s.goal.1 - beside.1).abs() < 2.0
    });
    let one_turn = |shot: &Shot| !two_turns(shot);
    let shot = app.screenshot_when("one-turn", Duration::from_secs(10), one_turn);
    assert!(
        one_turn(&shot),
        "one turn away: no later turn's ring ({})",
        shot.path.display()
    );
}
