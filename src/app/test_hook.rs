//! A test hook for the end-to-end tests: with `PATHFINDER_E2E_STATE=FILE` set, the app writes,
//! every frame, where things are on screen and what the planner says, so a script driving the
//! real window with real X events knows where to click. Nothing else changes.
//!
//! The file is plain lines of `key value...`, replaced atomically:
//!
//! ```text
//! frame 412
//! start 351.2 103.0            (window pixels, logical)
//! goal 1104.9 103.0
//! cell 339.0 91.0 24.4         (centre of cell (0, 0), then the distance between cell centres)
//! plan Found 7 62 33 1         (status, plans so far, path length, path end x y)
//! obstacles 262
//! mode Live
//! widget show_grid 21.0 77.5   (centre of a panel widget)
//! notice The goal can't stand on a wall at (13, 20): back to (3, 24).
//! ```

use crate::AppSystems;
use crate::layout::MapLayout;
use crate::markers::{Goal, MarkerCell, Start};
use crate::nav::NavGrid;
use crate::notice::Notices;
use crate::planner::{Plan, PlanStatus, PlannerMode};
use bevy::diagnostic::FrameCount;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use gridpath::Point;
use std::fmt::Write;
use std::path::PathBuf;

/// The environment variable that turns the hook on.
pub const ENV: &str = "PATHFINDER_E2E_STATE";

/// Where to write, and the panel widgets' positions as the panel reports them.
#[derive(Resource, Debug, Default)]
pub struct E2eHook {
    path: PathBuf,
    widgets: HashMap<&'static str, Vec2>,
}

impl E2eHook {
    /// Records where a panel widget is (its centre, in window pixels).
    pub fn note_widget(&mut self, name: &'static str, centre: Vec2) {
        self.widgets.insert(name, centre);
    }
}

pub(super) fn plugin(app: &mut App) {
    if let Some(path) = std::env::var_os(ENV) {
        app.insert_resource(E2eHook {
            path: path.into(),
            widgets: HashMap::default(),
        })
        .add_systems(Update, write_state.after(AppSystems::Draw));
    }
}

fn write_state(
    hook: Res<E2eHook>,
    frames: Res<FrameCount>,
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    plan: Res<Plan>,
    mode: Res<PlannerMode>,
    notices: Res<Notices>,
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
    for (name, cell) in [("start", start.0), ("goal", goal.0)] {
        if let Some(s) = screen(cell) {
            let _ = writeln!(out, "{name} {:.1} {:.1}", s.x, s.y);
        }
    }
    if let (Some(a), Some(b)) = (screen(Point::new(0, 0)), screen(Point::new(1, 0))) {
        let _ = writeln!(out, "cell {:.2} {:.2} {:.3}", a.x, a.y, b.x - a.x);
    }
    let status = match &plan.status {
        PlanStatus::Pending => "Pending",
        PlanStatus::Found => "Found",
        PlanStatus::Partial => "Partial",
        PlanStatus::NoPath => "NoPath",
        PlanStatus::Refused(_) => "Refused",
    };
    let end = plan.path.last().copied().unwrap_or(Point::new(-1, -1));
    let _ = writeln!(
        out,
        "plan {status} {} {} {} {}",
        plan.count,
        plan.path.len(),
        end.x,
        end.y
    );
    let _ = writeln!(out, "obstacles {}", nav.map_or(0, |n| n.obstacle_count()));
    let _ = writeln!(out, "mode {:?}", *mode);
    let mut widgets: Vec<_> = hook.widgets.iter().collect();
    widgets.sort_by_key(|(name, _)| **name);
    for (name, c) in widgets {
        let _ = writeln!(out, "widget {name} {:.1} {:.1}", c.x, c.y);
    }
    if let Some(n) = notices.latest() {
        let _ = writeln!(out, "notice {}", n.text.replace('\n', " "));
    }
    // Write then rename, so a reader never sees half a file.
    let tmp = hook.path.with_extension("tmp");
    if std::fs::write(&tmp, out)
        .and_then(|()| std::fs::rename(&tmp, &hook.path))
        .is_err()
    {
        warn!("e2e hook: cannot write {}", hook.path.display());
    }
}
