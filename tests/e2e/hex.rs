//! The playground on a map of hexagons, in the real window.

use crate::harness::{App, Area, MAP, colors};
use std::time::Duration;

/// How close (per channel) a pixel must be to a colour to count as it.
const TOLERANCE: u8 = 30;

/// Whether two cells of a pointy-top map with odd rows shifted right touch.
fn touch((ax, ay): (i32, i32), (bx, by): (i32, i32)) -> bool {
    let (dx, dy) = (bx - ax, by - ay);
    match dy {
        0 => dx.abs() == 1,
        -1 | 1 if ay & 1 == 1 => dx == 0 || dx == 1,
        -1 | 1 => dx == 0 || dx == -1,
        _ => false,
    }
}

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn on_a_hex_map_dragging_the_goal_re_routes_the_path_through_hexagon_centres() {
    let mut app = App::launch("hex-drag-goal", &["--map", "hex-ridge"]);
    let state = app.wait_until("a path on the hex map", Duration::from_secs(30), |s| {
        s.shape == "hex-row-odd" && s.plan_status == "Found" && !s.path_cells.is_empty()
    });
    // The new goal: the meadow's middle, far from where the goal starts.
    let target = (6, 18);
    let at = state.cell(target.0, target.1);
    let middle = ((state.goal.0 + at.0) / 2.0, (state.goal.1 + at.1) / 2.0);
    app.drag(&[state.goal, middle, at]);
    let after = app.wait_until(
        "the path to the dragged goal",
        Duration::from_secs(10),
        |s| s.path_end == target && s.path_cells.last() == Some(&target),
    );
    let path = &after.path_cells;
    for pair in path.windows(2) {
        assert!(
            touch(pair[0], pair[1]),
            "{:?} → {:?} do not touch",
            pair[0],
            pair[1]
        );
    }
    // The green line runs through the hexagons' centres: look at the centre of every cell of
    // the path on the screenshot.
    let shot = app.screenshot("after");
    let centres = path.iter().map(|&(x, y)| after.cell(x, y));
    let missed: Vec<(f32, f32)> = centres
        .filter(|&c| shot.count(Area::around(c, 3.0), colors::path(), TOLERANCE) == 0)
        .collect();
    // The markers cover the ends.
    assert!(
        missed.len() <= 2,
        "{} of {} hexagon centres have no path on them ({missed:?}): {}",
        missed.len(),
        path.len(),
        shot.path.display()
    );
    assert!(shot.count(MAP, colors::path(), TOLERANCE) > 200);
}
