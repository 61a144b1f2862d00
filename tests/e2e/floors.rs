//! The two-floor scene in the real window: the path (green) is drawn on both floors, the
//! stairs and the lift (the plugin's link overlay, violet) between them.

use crate::harness::{App, Area, MAP, Shot};
use pathfinder_playground::view::palette::{self, rgb8};
use std::time::Duration;

const TOLERANCE: u8 = 24;
/// `DebugColors::link`'s default, as the screen shows it.
const LINK: [u8; 3] = [217, 102, 255];

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn the_floors_scene_takes_the_stairs() {
    let mut app = App::launch("floors", &["--scene", "floors"]);
    let path = rgb8(palette::PATH);
    // The map's two halves: the ground floor on the left, the floor above on the right.
    let half = (MAP.x0 + MAP.x1) / 2;
    let (below, above) = (Area { x1: half, ..MAP }, Area { x0: half, ..MAP });
    let drawn = |shot: &Shot| {
        shot.count(below, path, TOLERANCE) > 100
            && shot.count(above, path, TOLERANCE) > 300
            && shot.count(MAP, LINK, TOLERANCE) > 300
    };
    let shot = app.screenshot_when("stairs", Duration::from_secs(30), drawn);
    assert!(
        drawn(&shot),
        "the path below ({}) and above ({}), the links ({}) ({})",
        shot.count(below, path, TOLERANCE),
        shot.count(above, path, TOLERANCE),
        shot.count(MAP, LINK, TOLERANCE),
        shot.path.display()
    );
}
