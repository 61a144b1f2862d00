//! The plugin crate's examples (`crates/bevy_gridpath/examples`), each run for a few seconds in
//! the real window and checked by its pixels: what a game programmer sees on `cargo run
//! --example`. `cargo test` builds them next to this test binary.

use crate::harness::{Area, Shot, capture_screen};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::Duration;

/// An example running in its own window (at the top left of the screen: Xvfb has no window
/// manager), killed when dropped.
struct Example {
    child: Child,
    dir: PathBuf,
    window: String,
}

impl Example {
    /// Starts the example and waits for its window. An example that dies before it opens one
    /// is started once more: Xvfb now and then refuses a connection ("XOpenDisplayFailed"),
    /// which says nothing of the example. A second failure fails the test.
    fn launch(name: &str) -> Example {
        match Example::try_launch(name) {
            Ok(example) => example,
            Err(first) => {
                eprintln!("{name}: {first}; starting it once more");
                Example::try_launch(name).unwrap_or_else(|again| panic!("{name}: {again}"))
            }
        }
    }

    fn try_launch(name: &str) -> Result<Example, String> {
        assert!(
            std::env::var_os("DISPLAY").is_some(),
            "no DISPLAY: run under xvfb-run"
        );
        let binary = built_example(name);
        let root = std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
        let dir = Path::new(&root)
            .join("target/e2e")
            .join(format!("example-{name}"));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("artifact directory");
        let log = fs::File::create(dir.join("example.log")).expect("log file");
        let child = Command::new(&binary)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .stdout(Stdio::from(log.try_clone().expect("log")))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("start the example");
        let mut example = Example {
            child,
            dir,
            window: String::new(),
        };
        // Its window, then a few seconds for the first frames under software rendering.
        let pid = example.child.id().to_string();
        for _ in 0..120 {
            if let Ok(Some(status)) = example.child.try_wait() {
                // Its panic message: the line after "thread 'main' panicked at …".
                let log = fs::read_to_string(example.dir.join("example.log")).unwrap_or_default();
                let why = log
                    .lines()
                    .skip_while(|l| !l.contains("panicked"))
                    .nth(1)
                    .unwrap_or("see example.log");
                return Err(format!("exited ({status}) before opening a window: {why}"));
            }
            let found = Command::new("xdotool")
                .args(["search", "--pid", &pid])
                .output();
            if let Ok(found) = found
                && let Some(window) = String::from_utf8_lossy(&found.stdout).lines().last()
            {
                example.window = window.to_owned();
                break;
            }
            sleep(Duration::from_millis(500));
        }
        if example.window.is_empty() {
            return Err("no window after a minute".to_owned());
        }
        sleep(Duration::from_secs(3));
        Ok(example)
    }

    fn screenshot(&self, name: &str) -> Shot {
        capture_screen(self.dir.join(format!("{name}.png")))
    }

    /// Screenshots every second until `done` says yes or `limit` has passed, and returns the
    /// last. What a test waits for comes sooner or later with the machine's load (the example
    /// runs at whatever frame rate it gets): a fixed sleep failed on a busy machine.
    fn screenshot_when(&self, name: &str, limit: Duration, done: impl Fn(&Shot) -> bool) -> Shot {
        let began = std::time::Instant::now();
        loop {
            let shot = self.screenshot(name);
            if done(&shot) || began.elapsed() >= limit {
                return shot;
            }
            sleep(Duration::from_secs(1));
        }
    }

    fn xdotool(&self, args: &[&str]) {
        let ok = Command::new("xdotool")
            .args(args)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "xdotool {args:?} failed");
    }
}

/// The example's binary as `cargo test` built it: `target/debug/examples/<name>-<hash>` (it
/// names it by hash only; `cargo build --example` adds the plain name), the newest if several.
fn built_example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .map(|debug| debug.join("examples"))
        .expect("a target directory"); // target/debug/deps/e2e-… → target/debug/examples
    let prefix = format!("{name}-");
    let newest = fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| {
            let file = entry.file_name().to_string_lossy().into_owned();
            file.starts_with(&prefix) && !file.contains('.') && !file.starts_with("lib")
        })
        .filter_map(|entry| Some((entry.metadata().ok()?.modified().ok()?, entry.path())))
        .max();
    match newest {
        Some((_, path)) => path,
        None => panic!(
            "no {name} example in {}: run `cargo test` first",
            dir.display()
        ),
    }
}

impl Drop for Example {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The window's area (1280 × 720 at the top left).
const WINDOW: Area = Area {
    x0: 0,
    y0: 0,
    x1: 1280,
    y1: 720,
};
const PLAYER: [u8; 3] = [255, 217, 25];
const ENEMY: [u8; 3] = [230, 51, 51];

fn centre(area: Area) -> (f32, f32) {
    (
        (area.x0 + area.x1) as f32 / 2.0,
        (area.y0 + area.y1) as f32 / 2.0,
    )
}

#[test]
#[ignore = "needs an X display: see tests/e2e/main.rs"]
fn chase_enemies_catch_up_with_the_player_round_the_walls() {
    let example = Example::launch("chase");
    // The farthest enemy has about 25 cells to walk at 3 cells a second.
    let gathered = |shot: &Shot| match (
        shot.bounds(WINDOW, PLAYER, 12),
        shot.bounds(WINDOW, ENEMY, 12),
    ) {
        (Some(player), Some(enemies)) => {
            let (p, e) = (centre(player), centre(enemies));
            (p.0 - e.0).abs() < 40.0 && (p.1 - e.1).abs() < 40.0
        }
        _ => false,
    };
    let shot = example.screenshot_when("01-caught", Duration::from_secs(60), gathered);
    let player = shot
        .bounds(WINDOW, PLAYER, 12)
        .expect("the player is drawn");
    let enemies = shot
        .bounds(WINDOW, ENEMY, 12)
        .expect("the enemies are drawn");
    let (p, e) = (centre(player), centre(enemies));
    assert!(
        (p.0 - e.0).abs() < 40.0 && (p.1 - e.1).abs() < 40.0,
        "every enemy should stand by the player: player {player:?}, enemies {enemies:?} ({})",
        shot.path.display()
    );
    // The arrow keys move the player; the enemies follow.
    example.xdotool(&["windowfocus", &example.window]);
    example.xdotool(&["keydown", "Left"]);
    sleep(Duration::from_millis(800));
    example.xdotool(&["keyup", "Left"]);
    sleep(Duration::from_secs(1));
    let shot = example.screenshot_when("02-moved", Duration::from_secs(60), gathered);
    let moved = centre(shot.bounds(WINDOW, PLAYER, 12).expect("the player"));
    let followed = centre(shot.bounds(WINDOW, ENEMY, 12).expect("the enemies"));
    assert!(
        p.0 - moved.0 > 64.0,
        "the player should have moved left: {p:?} → {moved:?}"
    );
    assert!(
        (moved.0 - followed.0).abs() < 40.0 && (moved.1 - followed.1).abs() < 40.0,
        "the enemies should have followed: player {moved:?}, enemies {followed:?} ({})",
        shot.path.display()
    );
}

#[test]
#[ignore = "needs an X display: see tests/e2e/main.rs"]
fn tilemap_level_a_click_walls_a_tile_and_the_routes_bend() {
    let example = Example::launch("tilemap_level");
    // Cell (15, 2): just below the long wall's gap, in window pixels (cells of 24, map centred).
    let gap = (652.0, 540.0);
    let dark = [64, 69, 85];
    let before = example.screenshot("01-before");
    let near = Area::around((gap.0 + 6.0, gap.1 - 5.0), 3.0);
    assert_eq!(before.count(near, dark, 16), 0, "the cell starts as floor");
    example.xdotool(&["mousemove", "652", "540"]);
    sleep(Duration::from_millis(300));
    example.xdotool(&["click", "1"]);
    sleep(Duration::from_secs(2));
    let after = example.screenshot("02-walled");
    assert!(
        after.count(near, dark, 16) > 10,
        "the clicked tile should be a wall now ({})",
        after.path.display()
    );
    let green = [51, 242, 89];
    assert!(
        after.count(WINDOW, green, 40) > 200,
        "the debug plugin draws the routes"
    );
}

#[test]
#[ignore = "needs an X display: see tests/e2e/main.rs"]
fn crowd_a_thousand_agents_cross_the_map_on_one_flow_field_and_follow_a_moved_goal() {
    let example = Example::launch("crowd");
    let agent = [255, 115, 166];
    // Cells of 13 pixels, the 90 × 52 map centred in the window: cell (x, y) is at
    // (640 + (x - 44.5) · 13, 360 - (y - 25.5) · 13).
    let left_quarter = Area {
        x0: 0,
        y0: 0,
        x1: 347,
        y1: 720,
    };
    let past_second_wall = Area { x0: 800, ..WINDOW };
    let left = |shot: &Shot| shot.count(left_quarter, agent, 24);
    let past = |shot: &Shot| shot.count(past_second_wall, agent, 24);
    // Each step waits for what it looks for, however long the machine takes to show it (a
    // minute at most): fixed sleeps failed on a busy machine.
    let minute = Duration::from_secs(60);
    let start = example.screenshot_when("01-start", minute, |shot| left(shot) > 500);
    assert!(left(&start) > 500, "agents start in the left quarter");
    let streaming = example.screenshot_when("02-streaming", minute, |shot| past(shot) > 200);
    assert!(
        past(&streaming) > 200,
        "agents should have come through both walls' doors ({})",
        streaming.path.display()
    );
    // Those that arrive start again from the far side, the left quarter.
    let again = example.screenshot_when("03-again", minute, |shot| left(shot) > 250);
    let waiting_left = left(&again);
    assert!(
        waiting_left > 250,
        "agents that arrived should start again in the left quarter ({})",
        again.path.display()
    );
    // A click moves the goal to cell (36, 26), left of the middle: every agent turns to it, and
    // the newcomers now start in the right quarter, so the left quarter empties.
    let goal = (529.0, 353.0);
    example.xdotool(&["mousemove", "529", "353"]);
    sleep(Duration::from_millis(300));
    example.xdotool(&["click", "1"]);
    let moved = example.screenshot_when("04-moved", minute, |shot| left(shot) * 4 < waiting_left);
    let marker = centre(moved.bounds(WINDOW, PLAYER, 12).expect("the goal is drawn"));
    assert!(
        (marker.0 - goal.0).abs() < 10.0 && (marker.1 - goal.1).abs() < 10.0,
        "the goal should be where it was clicked: {marker:?}"
    );
    let still_left = moved.count(left_quarter, agent, 24);
    assert!(
        still_left * 4 < waiting_left,
        "the left quarter should have emptied towards the new goal: {waiting_left} → \
         {still_left} agent pixels ({})",
        moved.path.display()
    );
}

#[test]
#[ignore = "needs an X display: see tests/e2e/main.rs"]
fn tactics_a_click_on_a_unit_shows_its_range_sight_and_the_route_by_turns() {
    let example = Example::launch("tactics");
    // The blue unit at hexagon (2, 1), and hexagon (8, 0), two turns away, in window pixels.
    let (unit, far) = ((412.0, 194.0), (676.0, 152.0));
    let (range, sight, second_turn) = ([77, 153, 255], [255, 230, 77], [255, 102, 204]);
    let before = example.screenshot("01-before");
    assert_eq!(
        before.count(WINDOW, sight, 30),
        0,
        "nothing is selected yet"
    );
    example.xdotool(&["mousemove", "412", "194"]);
    sleep(Duration::from_millis(300));
    example.xdotool(&["click", "1"]);
    example.xdotool(&["mousemove", "676", "152"]);
    let shown = |shot: &Shot| shot.count(Area::around(far, 20.0), second_turn, 40) > 20;
    let after = example.screenshot_when("02-selected", Duration::from_secs(20), shown);
    let around_unit = Area::around(unit, 120.0);
    assert!(
        after.count(around_unit, range, 40) > 200,
        "the range is outlined round the unit ({})",
        after.path.display()
    );
    assert!(
        after.count(around_unit, sight, 40) > 50,
        "what it sees is dotted ({})",
        after.path.display()
    );
    assert!(
        shown(&after),
        "the hovered hexagon two turns away is ringed as the second turn's end ({})",
        after.path.display()
    );
}

#[test]
#[ignore = "needs an X display: see tests/e2e/main.rs"]
fn unit_classes_boats_keep_to_the_river_the_tank_goes_through_the_door_and_a_ladder_is_drawn() {
    let example = Example::launch("unit_classes");
    // Cells of 26 pixels, the 34 × 16 map centred in the window: its left edge at x 198, its
    // top at y 152; the river is rows 4 to 6, the door in the wall at column 16.
    let river = Area {
        x0: 198,
        y0: 256,
        x1: 1082,
        y1: 334,
    };
    let above = Area { y1: 250, ..WINDOW };
    let below = Area { y0: 340, ..WINDOW };
    let east_room = Area {
        x0: 640,
        y0: 340,
        x1: 1082,
        y1: 568,
    };
    let (boat, tank) = ([242, 242, 242], [77, 217, 89]);
    // The tank (46 pixels square) starts in the west room and drives through the door when
    // it opens, within a minute on a busy machine.
    let through = |shot: &Shot| shot.count(east_room, tank, 30) > 900;
    let shot = example.screenshot_when("01-through", Duration::from_secs(60), through);
    assert!(
        through(&shot),
        "the tank should have come through the door ({})",
        shot.path.display()
    );
    assert!(
        shot.count(river, boat, 20) > 300,
        "the boats sail the river ({})",
        shot.path.display()
    );
    assert_eq!(
        shot.count(above, boat, 20) + shot.count(below, boat, 20),
        0,
        "no boat on land ({})",
        shot.path.display()
    );
    // The ladder over the river in column 3 (rows 3 to 7), drawn by the debug plugin's links.
    let ladder = Area {
        x0: 276,
        y0: 230,
        x1: 302,
        y1: 360,
    };
    assert!(
        shot.count(ladder, [217, 102, 255], 40) > 100,
        "the ladder is drawn ({})",
        shot.path.display()
    );
}
