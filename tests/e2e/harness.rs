//! Running the app, reading its test hook, real X input, and screenshots as pixels.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

pub const WIDTH: u32 = 1280;
pub const HEIGHT: u32 = 800;
/// Everything left of this is the side panel.
pub const PANEL_RIGHT: f32 = 300.0;

/// The app, running in its own window.
pub struct App {
    child: Child,
    pub dir: PathBuf,
    state_path: PathBuf,
    log_path: PathBuf,
    window: String,
    shots: u32,
}

/// What the app's test hook said last.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub frame: u64,
    pub start: (f32, f32),
    pub goal: (f32, f32),
    cell_origin: (f32, f32),
    cell_step: f32,
    /// The centre of cell (0, 1).
    cell_down: (f32, f32),
    /// The cells' shape: the word of a map file's type line.
    pub shape: String,
    /// The path's cells, when it has at most 500.
    pub path_cells: Vec<(i32, i32)>,
    pub plan_status: String,
    pub plan_count: u64,
    pub path_len: usize,
    pub path_end: (i32, i32),
    pub obstacles: usize,
    pub mode: String,
    pub widgets: HashMap<String, (f32, f32)>,
    pub notice: String,
    /// Agents: how many, walking, stuck, arrived.
    pub agents: [usize; 4],
    /// Each agent's cell.
    pub agent_cells: Vec<(i32, i32)>,
    /// Bodies: moving, waiting, arrived, deadlocked, and cells two bodies cover at once.
    pub bodies: Option<[usize; 5]>,
    /// The graph lab: whether it is open, its trace's rows, and the last row's text.
    pub lab_open: bool,
    pub lab_rows: usize,
    pub lab_last: String,
    /// Working the lab by hand: right answers, answers.
    pub hand: Option<(u32, u32)>,
    /// The multi-agent plan on screen: agents, the time shown, the last step.
    pub mapf: Option<(usize, f32, usize)>,
    /// Is its solve still improving it?
    pub mapf_solving: bool,
}

impl State {
    /// The window position of a cell's centre, on squares or on pointy-top hexagons with odd
    /// rows shifted right (the shapes the tests use).
    pub fn cell(&self, x: i32, y: i32) -> (f32, f32) {
        let row = self.cell_down.1 - self.cell_origin.1;
        match self.shape.as_str() {
            "hex-row-odd" => (
                self.cell_origin.0 + (x as f32 + 0.5 * (y & 1) as f32) * self.cell_step,
                self.cell_origin.1 + y as f32 * row,
            ),
            "" | "octile" => (
                self.cell_origin.0 + x as f32 * self.cell_step,
                self.cell_origin.1 + y as f32 * self.cell_step,
            ),
            other => panic!("the harness does not place cells of {other}"),
        }
    }

    pub fn widget(&self, name: &str) -> (f32, f32) {
        *self
            .widgets
            .get(name)
            .unwrap_or_else(|| panic!("the panel reported no widget '{name}'"))
    }

    fn parse(text: &str) -> Option<State> {
        let mut s = State::default();
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let key = words.next()?;
            let nums: Vec<f32> = line
                .split_whitespace()
                .skip(1)
                .filter_map(|w| w.parse().ok())
                .collect();
            match key {
                "frame" => s.frame = *nums.first()? as u64,
                "start" => s.start = (nums[0], nums[1]),
                "goal" => s.goal = (nums[0], nums[1]),
                "cell" => (s.cell_origin, s.cell_step) = ((nums[0], nums[1]), nums[2]),
                "cell_down" => s.cell_down = (nums[0], nums[1]),
                "shape" => s.shape = words.next()?.to_string(),
                "path" => {
                    s.path_cells = nums
                        .chunks_exact(2)
                        .map(|c| (c[0] as i32, c[1] as i32))
                        .collect();
                }
                "plan" => {
                    s.plan_status = words.next()?.to_string();
                    (s.plan_count, s.path_len) = (nums[0] as u64, nums[1] as usize);
                    s.path_end = (nums[2] as i32, nums[3] as i32);
                }
                "obstacles" => s.obstacles = nums[0] as usize,
                "mode" => s.mode = words.next()?.to_string(),
                "widget" => {
                    let name = words.next()?.to_string();
                    s.widgets.insert(name, (nums[0], nums[1]));
                }
                "notice" => s.notice = line["notice ".len()..].to_string(),
                "agents" if nums.len() == 4 => {
                    s.agents = [0, 1, 2, 3].map(|i| nums[i] as usize);
                }
                "agent" if nums.len() == 2 => s.agent_cells.push((nums[0] as i32, nums[1] as i32)),
                "bodies" if nums.len() == 5 => {
                    s.bodies = Some([0, 1, 2, 3, 4].map(|i| nums[i] as usize));
                }
                "lab" => {
                    let mut parts = line.splitn(4, ' ').skip(1);
                    s.lab_open = parts.next() == Some("open");
                    s.lab_rows = parts.next()?.parse().ok()?;
                    s.lab_last = parts.next().unwrap_or_default().to_string();
                }
                "hand" if nums.len() == 2 => s.hand = Some((nums[0] as u32, nums[1] as u32)),
                "mapf" if nums.len() == 4 => {
                    s.mapf = Some((nums[0] as usize, nums[1], nums[2] as usize));
                    s.mapf_solving = nums[3] > 0.0;
                }
                _ => {}
            }
        }
        (s.frame > 0).then_some(s)
    }
}

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e} (is it installed?)"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn xdotool(args: &[&str]) {
    run("xdotool", args);
}

impl App {
    /// Starts the app with these arguments; its files go to `target/e2e/<name>/`.
    pub fn launch(name: &str, args: &[&str]) -> App {
        assert!(
            std::env::var_os("DISPLAY").is_some(),
            "no DISPLAY: run these under xvfb-run (see tests/e2e/main.rs)"
        );
        // Read at run time, not baked in: a binary built in another checkout may be reused.
        let root = std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
        let dir = Path::new(&root).join("target/e2e").join(name);
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("artifact directory");
        let runtime = dir.join("xdg-runtime");
        fs::create_dir_all(&runtime).expect("runtime directory");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = fs::set_permissions(&runtime, fs::Permissions::from_mode(0o700));
        }
        let state_path = dir.join("state.txt");
        let log_path = dir.join("app.log");
        let log = fs::File::create(&log_path).expect("log file");
        let child = Command::new(env!("CARGO_BIN_EXE_pathfinder_playground"))
            .args(args)
            .current_dir(&dir)
            .env("PATHFINDER_E2E_STATE", &state_path)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("NO_COLOR", "1")
            .stdout(Stdio::from(log.try_clone().expect("log")))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("start the app");
        let mut app = App {
            child,
            dir,
            state_path,
            log_path,
            window: String::new(),
            shots: 0,
        };
        app.wait_until("the first plan", Duration::from_secs(90), |s| {
            s.plan_count > 0 && s.widgets.contains_key("show_grid")
        });
        let found = run(
            "xdotool",
            &["search", "--sync", "--name", "Pathfinder Playground"],
        );
        app.window = found.lines().last().expect("a window").to_string();
        // The first frames under software rendering are slow: let them settle.
        sleep(Duration::from_millis(1500));
        app
    }

    /// Starts the app with no arguments (the built-in rooms map) and waits for its first path.
    pub fn launch_with_path(name: &str) -> (App, State) {
        let mut app = App::launch(name, &[]);
        let state = app.wait_until("a path", Duration::from_secs(10), |s| {
            s.plan_status == "Found"
        });
        (app, state)
    }

    pub fn state(&self) -> Option<State> {
        State::parse(&fs::read_to_string(&self.state_path).ok()?)
    }

    /// Polls the hook until `done` holds; on timeout, saves a screenshot and fails.
    pub fn wait_until(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&State) -> bool,
    ) -> State {
        let began = Instant::now();
        loop {
            if let Some(s) = self.state().filter(|s| done(s)) {
                return s;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "the app exited ({status}) while waiting for {what}; log:\n{}",
                    self.log()
                );
            }
            if began.elapsed() > timeout {
                let shot = self.capture(&format!("timeout-{}", what.replace(' ', "-")));
                panic!(
                    "no {what} after {timeout:?}; last state {:?}; screenshot {}",
                    self.state(),
                    shot.path.display()
                );
            }
            sleep(Duration::from_millis(100));
        }
    }

    pub fn log(&self) -> String {
        fs::read_to_string(&self.log_path).unwrap_or_default()
    }

    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Moves the pointer, kept inside the window as a real mouse would be.
    fn move_to(&self, (x, y): (f32, f32)) {
        let x = x.round().clamp(0.0, WIDTH as f32 - 1.0);
        let y = y.round().clamp(0.0, HEIGHT as f32 - 1.0);
        xdotool(&[
            "mousemove",
            "--window",
            &self.window,
            &format!("{x}"),
            &format!("{y}"),
        ]);
    }

    /// A left click (X test events, as from a real mouse).
    pub fn click(&self, at: (f32, f32)) {
        self.move_to(at);
        sleep(Duration::from_millis(120));
        xdotool(&["click", "1"]);
        sleep(Duration::from_millis(250));
    }

    /// A drag with `button` through `points`: press on the first, move through the others with
    /// pauses a frame or two long, release on the last.
    pub fn drag_with(&self, button: &str, points: &[(f32, f32)]) {
        let Some((&first, rest)) = points.split_first() else {
            return;
        };
        self.move_to(first);
        sleep(Duration::from_millis(150));
        xdotool(&["mousedown", button]);
        sleep(Duration::from_millis(150));
        for &p in rest {
            self.move_to(p);
            sleep(Duration::from_millis(120));
        }
        xdotool(&["mouseup", button]);
        sleep(Duration::from_millis(200));
    }

    pub fn drag(&self, points: &[(f32, f32)]) {
        self.drag_with("1", points);
    }

    /// Mouse wheel clicks at a point: up zooms in.
    pub fn wheel(&self, at: (f32, f32), up: bool, clicks: u32) {
        self.move_to(at);
        sleep(Duration::from_millis(80));
        for _ in 0..clicks {
            xdotool(&["click", if up { "4" } else { "5" }]);
            sleep(Duration::from_millis(60));
        }
    }

    /// A key chord such as `ctrl+z`, held for a moment like a person does.
    pub fn key(&self, chord: &str) {
        xdotool(&["windowfocus", "--sync", &self.window]);
        xdotool(&["keydown", chord]);
        sleep(Duration::from_millis(120));
        xdotool(&["keyup", chord]);
        sleep(Duration::from_millis(200));
    }

    /// Waits until a few more frames have been made, so that what the hook reports is on
    /// screen too (rendering runs a frame or two behind the world).
    pub fn settle(&mut self) {
        let frame = self.state().map_or(0, |s| s.frame);
        self.wait_until("a few more frames", Duration::from_secs(15), |s| {
            s.frame >= frame + 3
        });
    }

    /// A screenshot of the screen, once it shows the latest state, saved as `NN-<name>.png` in
    /// the test's directory.
    pub fn screenshot(&mut self, name: &str) -> Shot {
        self.settle();
        self.capture(name)
    }

    /// Screenshots every half second until `done` says yes or `limit` has passed, and returns
    /// the last: what comes off the frame lands sooner or later with the machine's load.
    pub fn screenshot_when(
        &mut self,
        name: &str,
        limit: Duration,
        done: impl Fn(&Shot) -> bool,
    ) -> Shot {
        let began = std::time::Instant::now();
        loop {
            let shot = self.screenshot(name);
            if done(&shot) || began.elapsed() >= limit {
                return shot;
            }
            sleep(Duration::from_millis(500));
        }
    }

    /// A screenshot right now.
    fn capture(&mut self, name: &str) -> Shot {
        self.shots += 1;
        capture_screen(self.dir.join(format!("{:02}-{name}.png", self.shots)))
    }
}

/// A screenshot of the whole screen, saved at `path`.
pub fn capture_screen(path: PathBuf) -> Shot {
    let file = path.to_string_lossy().into_owned();
    run("import", &["-window", "root", &file]);
    let raw = Command::new("convert")
        .args([file.as_str(), "-depth", "8", "rgb:-"])
        .output()
        .expect("ImageMagick convert");
    assert_eq!(
        raw.stdout.len(),
        (WIDTH * HEIGHT * 3) as usize,
        "expected a {WIDTH}×{HEIGHT} screen"
    );
    Shot {
        path,
        rgb: raw.stdout,
    }
}

impl Drop for App {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A screenshot's pixels.
pub struct Shot {
    pub path: PathBuf,
    rgb: Vec<u8>,
}

/// A rectangle of the window, in pixels: x from `x0` to `x1`, y from `y0` to `y1` (exclusive).
#[derive(Clone, Copy, Debug)]
pub struct Area {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

/// The map side of the window.
pub const MAP: Area = Area {
    x0: PANEL_RIGHT as u32 + 2,
    y0: 0,
    x1: WIDTH,
    y1: HEIGHT,
};
/// The panel.
pub const PANEL: Area = Area {
    x0: 0,
    y0: 0,
    x1: PANEL_RIGHT as u32 - 2,
    y1: HEIGHT,
};

impl Area {
    /// A square of `radius` pixels around a point, inside the window.
    pub fn around((x, y): (f32, f32), radius: f32) -> Area {
        let clamp = |v: f32, max: u32| v.max(0.0).min(max as f32) as u32;
        Area {
            x0: clamp(x - radius, WIDTH),
            y0: clamp(y - radius, HEIGHT),
            x1: clamp(x + radius, WIDTH),
            y1: clamp(y + radius, HEIGHT),
        }
    }
}

impl Shot {
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * WIDTH + x) * 3) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// How many pixels in `area` are within `tolerance` (per channel) of `color`.
    pub fn count(&self, area: Area, color: [u8; 3], tolerance: u8) -> usize {
        let mut n = 0;
        for y in area.y0..area.y1 {
            for x in area.x0..area.x1 {
                let p = self.pixel(x, y);
                if (0..3).all(|i| p[i].abs_diff(color[i]) <= tolerance) {
                    n += 1;
                }
            }
        }
        n
    }

    /// The bounding box of the pixels of a colour in an area, if any.
    pub fn bounds(&self, area: Area, color: [u8; 3], tolerance: u8) -> Option<Area> {
        let mut b: Option<Area> = None;
        for y in area.y0..area.y1 {
            for x in area.x0..area.x1 {
                let p = self.pixel(x, y);
                if (0..3).all(|i| p[i].abs_diff(color[i]) <= tolerance) {
                    let a = b.get_or_insert(Area {
                        x0: x,
                        y0: y,
                        x1: x + 1,
                        y1: y + 1,
                    });
                    (a.x0, a.y0, a.x1, a.y1) =
                        (a.x0.min(x), a.y0.min(y), a.x1.max(x + 1), a.y1.max(y + 1));
                }
            }
        }
        b
    }

    /// How many pixels differ (by more than `tolerance` in a channel) from another shot in `area`.
    pub fn differences(&self, other: &Shot, area: Area, tolerance: u8) -> usize {
        let mut n = 0;
        for y in area.y0..area.y1 {
            for x in area.x0..area.x1 {
                let (a, b) = (self.pixel(x, y), other.pixel(x, y));
                if (0..3).any(|i| a[i].abs_diff(b[i]) > tolerance) {
                    n += 1;
                }
            }
        }
        n
    }
}

/// The colours the checks look for, as they come out on screen, taken from the app's palette.
pub mod colors {
    use pathfinder_playground::view::palette::{self, rgb8};

    /// The path line (opaque, so exactly its palette colour).
    pub fn path() -> [u8; 3] {
        rgb8(palette::PATH)
    }

    /// Obstacle outlines.
    pub fn obstacle() -> [u8; 3] {
        rgb8(palette::OBSTACLE)
    }

    /// The clearance overlay's rings where a unit of three cells or more fits.
    pub fn clearance_roomy() -> [u8; 3] {
        rgb8(palette::CLEARANCE[2])
    }

    /// The panel's red "No path" text.
    pub fn no_path_text() -> [u8; 3] {
        palette::ERROR_TEXT
    }

    /// A road tile.
    pub fn road() -> [u8; 3] {
        palette::ground(pathfinder_playground::world::terrain::Ground::Road)
    }

    /// The panel's background (egui's dark theme).
    pub fn panel() -> [u8; 3] {
        let c = bevy_egui::egui::Visuals::dark().panel_fill;
        [c.r(), c.g(), c.b()]
    }

    /// A grid line over a road tile, as measured on screen. `palette::GRID` is translucent and
    /// the line one pixel wide, so what shows is a blend of it and the road that depends on the
    /// renderer's line coverage: there is no palette value to compute it from.
    pub const GRID_ON_ROAD: [u8; 3] = [179, 174, 164];
}
