//! A test hook for the end-to-end tests: with `PATHFINDER_E2E_STATE=FILE` set, the app writes,
//! every frame, where things are on screen and what the planner says, so a script driving the
//! real window with real X events knows where to click. Nothing else changes.
//!
//! In a browser, which has neither files nor environment variables, `?test_hook` in the page's
//! address turns it on, and the text goes to the page's `window.pathfinderState` instead.
//!
//! The file is plain lines of `key value...`, replaced atomically:
//!
//! ```text
//! frame 412
//! map rooms.map 40 28          (the map's name, width and height)
//! start 351.2 103.0            (window pixels, logical)
//! goal 1104.9 103.0
//! cell 339.0 91.0 24.4         (centre of cell (0, 0), then the distance between cell centres)
//! cell_down 339.0 115.4        (centre of cell (0, 1): rows run down, and on hexagons closer)
//! shape octile                 (the cells' shape, as a map file's type line names it)
//! plan Found 7 62 33 1         (status, plans so far, path length, path end x y)
//! path 1 1 2 2 3 2 ...         (the path's cells, x y each, if it has at most 500)
//! obstacles 262
//! mode Live
//! widget show_grid 21.0 77.5   (centre of a panel widget)
//! notice The goal can't stand on a wall at (13, 20): back to (3, 24).
//! agents 16 12 0 4             (agents, walking, stuck, arrived)
//! agent 27 14                  (each agent's cell, at most 100 lines)
//! bodies 80 12 8 0 0           (bodies: moving, waiting, arrived, deadlocked, and cells two
//!                               bodies cover at once, which must be 0)
//! lab open 12 Bucharest | 418 | ...   (the graph lab: open or closed, trace rows, the last one)
//! hand 9 10                   (working the lab by hand: right answers, answers)
//! mapf 400 26.4 86 0           (the multi-agent plan on screen: agents, time, last step, and
//!                               1 while its solve is still improving it)
//! ```

use crate::agents::AgentStats;
use crate::frame::AppSystems;
use crate::mapf::{Playback, ShownPlan, Solving};
use crate::notices::Notices;
use crate::planner::{Plan, PlanStatus, PlannerMode};
use crate::ui::lab_state::GraphLab;
use crate::ui::widgets::PanelWidgets;
use crate::world::agents::{Agent, AgentPos};
use crate::world::layout::MapLayout;
use crate::world::map_load::CurrentMap;
use crate::world::markers::{Goal, MarkerCell, Start};
use crate::world::nav::NavGrid;
use bevy::diagnostic::FrameCount;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy_gridpath::{AgentProgress, Body, GridAgent};
use gridpath::Point;
use std::fmt::Write;
use std::path::PathBuf;

/// The environment variable that turns the hook on.
pub const ENV: &str = "PATHFINDER_E2E_STATE";

/// The page address's key that turns the hook on in a browser.
pub const QUERY_KEY: &str = "test_hook";

/// Where to write.
#[derive(Resource, Debug)]
pub enum TestHook {
    File(PathBuf),
    /// The web page's `window.pathfinderState`.
    Page,
}

pub(super) fn plugin(app: &mut App) {
    if let Some(hook) = wanted() {
        app.insert_resource(hook)
            .add_systems(Update, write_state.after(AppSystems::Draw));
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn wanted() -> Option<TestHook> {
    std::env::var_os(ENV).map(|path| TestHook::File(path.into()))
}

#[cfg(target_arch = "wasm32")]
fn wanted() -> Option<TestHook> {
    let query = web_sys::window()?.location().search().ok()?;
    let keys = query.trim_start_matches('?').split('&');
    let mut keys = keys.map(|pair| pair.split('=').next().unwrap_or_default());
    keys.any(|key| key == QUERY_KEY).then_some(TestHook::Page)
}

/// Why one long function: it writes the state file, a key and its values a line, in the order
/// the end-to-end tests read them; split, the file's lines would be spread over functions.
fn write_state(
    hook: Res<TestHook>,
    widgets: Res<PanelWidgets>,
    frames: Res<FrameCount>,
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    plan: Res<Plan>,
    mode: Res<State<PlannerMode>>,
    notices: Res<Notices>,
    current: Res<CurrentMap>,
    agent_stats: Res<AgentStats>,
    agents: Query<&AgentPos, With<Agent>>,
    extra: (Res<GraphLab>, Res<ShownPlan>, Res<Playback>, Res<Solving>),
    bodies: Query<(&AgentProgress, &GridAgent), With<Body>>,
    start: Single<&MarkerCell, With<Start>>,
    goal: Single<&MarkerCell, With<Goal>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera2d>>,
) {
    let Some(layout) = layout else { return };
    let (camera, transform) = *camera;
    let screen = |p: Point| {
        camera
            .world_to_viewport(transform, layout.cell_center(p).extend(0.0))
            .ok()
    };
    let mut out = String::new();
    let _ = writeln!(out, "frame {}", frames.0);
    if let Some(nav) = &nav {
        let name = current.name.replace(char::is_whitespace, "_");
        let _ = writeln!(out, "map {name} {} {}", nav.width(), nav.height());
    }
    for (name, cell) in [("start", start.0), ("goal", goal.0)] {
        if let Some(s) = screen(cell) {
            let _ = writeln!(out, "{name} {:.1} {:.1}", s.x, s.y);
        }
    }
    if let (Some(a), Some(b)) = (screen(Point::new(0, 0)), screen(Point::new(1, 0))) {
        let _ = writeln!(out, "cell {:.2} {:.2} {:.3}", a.x, a.y, b.x - a.x);
    }
    if let Some(c) = screen(Point::new(0, 1)) {
        let _ = writeln!(out, "cell_down {:.2} {:.2}", c.x, c.y);
    }
    let _ = writeln!(out, "shape {}", layout.shape.word());
    let _ = writeln!(out, "{}", plan_line(&plan));
    if plan.has_path() && plan.path.len() <= 500 {
        let _ = write!(out, "path");
        for p in &plan.path {
            let _ = write!(out, " {} {}", p.x, p.y);
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "obstacles {}", nav.map_or(0, |n| n.obstacle_count()));
    let _ = writeln!(out, "mode {:?}", mode.get());
    for (name, c) in widgets.sorted() {
        let _ = writeln!(out, "widget {name} {:.1} {:.1}", c.x, c.y);
    }
    if let Some(n) = notices.latest() {
        let _ = writeln!(out, "notice {}", n.text.replace('\n', " "));
    }
    let a = &*agent_stats;
    let _ = writeln!(
        out,
        "agents {} {} {} {}",
        a.agents, a.walking, a.stuck, a.arrived
    );
    for pos in agents.iter().take(100) {
        let cell = pos.cell();
        let _ = writeln!(out, "agent {} {}", cell.x, cell.y);
    }
    if !bodies.is_empty() {
        let c = &a.crowd;
        let _ = writeln!(
            out,
            "bodies {} {} {} {} {}",
            c.moving,
            c.waiting,
            c.arrived,
            c.deadlocked,
            doubly_covered(&bodies)
        );
    }
    let (lab, mapf, playback, solving) = extra;
    let open = if lab.open { "open" } else { "closed" };
    let rows = lab.search.steps().len();
    let last = lab.last_row().unwrap_or_default().replace('\n', " ");
    let _ = writeln!(out, "lab {open} {rows} {last}");
    if let Some(hand) = &lab.hand {
        let (right, asked) = hand.run.score();
        let _ = writeln!(out, "hand {right} {asked}");
    }
    if let Some(plan) = &mapf.0 {
        let _ = writeln!(
            out,
            "mapf {} {:.2} {} {}",
            plan.agents(),
            playback.time,
            plan.last_step(),
            u8::from(solving.running_for().is_some())
        );
    }
    match &*hook {
        TestHook::File(path) => {
            // Write then rename, so a reader never sees half a file.
            let tmp = path.with_extension("tmp");
            if std::fs::write(&tmp, out)
                .and_then(|()| std::fs::rename(&tmp, path))
                .is_err()
            {
                warn!("e2e hook: cannot write {}", path.display());
            }
        }
        TestHook::Page => to_page(&out),
    }
}

#[cfg(target_arch = "wasm32")]
fn to_page(text: &str) {
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &"pathfinderState".into(), &text.into());
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn to_page(_: &str) {}

/// `plan STATUS COUNT LENGTH END_X END_Y`.
fn plan_line(plan: &Plan) -> String {
    let status = match &plan.status {
        PlanStatus::Pending => "Pending",
        PlanStatus::Found => "Found",
        PlanStatus::Partial => "Partial",
        PlanStatus::NoPath => "NoPath",
        PlanStatus::Refused(_) => "Refused",
    };
    let end = plan.path.last().copied().unwrap_or(Point::new(-1, -1));
    let (count, length) = (plan.count, plan.path.len());
    format!("plan {status} {count} {length} {} {}", end.x, end.y)
}

/// How many cells two bodies or more cover at once (each counted once): 0 unless the crowd broke
/// its one rule.
fn doubly_covered(bodies: &Query<(&AgentProgress, &GridAgent), With<Body>>) -> usize {
    let (mut covered, mut twice) = (HashSet::new(), HashSet::new());
    for (progress, agent) in bodies {
        let (at, k) = (progress.cell(), i32::from(agent.size.max(1)));
        for dy in 0..k {
            for dx in 0..k {
                let cell = Point::new(at.x + dx, at.y + dy);
                if !covered.insert(cell) {
                    twice.insert(cell);
                }
            }
        }
    }
    twice.len()
}
