//! The unit classes view in the real window: on the meadow map, the walker's route in white and
//! the tank's in green are drawn over the map, and the search's own overlays step aside.

use crate::harness::{App, MAP, Shot};
use pathfinder_playground::view::palette::{self, rgb8};
use std::time::Duration;

const TOLERANCE: u8 = 18;

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn the_classes_view_draws_each_class_route() {
    let mut app = App::launch("classes-view", &["--map", "meadow.map", "--classes"]);
    app.wait_until("the classes section", Duration::from_secs(30), |s| {
        s.widgets.contains_key("classes")
    });
    let [walker, _, tank, _] = palette::CLASSES.map(rgb8);
    let drawn = |shot: &Shot| {
        shot.count(MAP, walker, TOLERANCE) > 1500 && shot.count(MAP, tank, TOLERANCE) > 1500
    };
    let shot = app.screenshot_when("routes", Duration::from_secs(20), drawn);
    assert!(
        drawn(&shot),
        "the walker's and the tank's routes: {} and {} pixels ({})",
        shot.count(MAP, walker, TOLERANCE),
        shot.count(MAP, tank, TOLERANCE),
        shot.path.display()
    );
}
