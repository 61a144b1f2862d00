//! Headless tests of the real app systems: MinimalPlugins, Bevy's InputPlugin fed with mouse and
//! keyboard messages, and a manual clock that advances 100 ms per update. One test binary, one
//! module per concern.

mod agents;
mod any_angle;
mod bidirectional;
mod classes;
mod editing;
mod flow_field;
mod import_circles;
mod incremental;
mod lifelong;
mod links;
mod long_functions;
mod mapf;
mod maps;
mod markers_and_planner;
mod off_frame;
mod search;
mod shapes;
mod tactics;

use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use gridpath::{Grid, Point};
use pathfinder_playground::headless_plugin;
use pathfinder_playground::input::pointer::{PointerOverUi, PointerWorld};
use pathfinder_playground::notices::Notices;
use pathfinder_playground::planner::{Plan, PlanStatus, PlannerSettings, ReplanNow};
use pathfinder_playground::world::layout::MapLayout;
use pathfinder_playground::world::map_load::{InitialMap, LoadMap};
use pathfinder_playground::world::markers::{Goal, MarkerCell, Start};
use pathfinder_playground::world::nav::{CellPos, NavGrid, Obstacle};
use std::time::Duration;

pub const STEP: Duration = Duration::from_millis(100);

/// The headless playground on a manual clock, not yet started, with `initial` as the map to
/// load at start-up (without one, the built-in map loads).
pub fn headless_app(initial: Option<LoadMap>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(STEP));
    if let Some(map) = initial {
        app.insert_resource(InitialMap(map));
    }
    app.add_plugins(headless_plugin);
    app
}

/// An app on the given map, with the markers on `start` and `goal` and one fresh plan made.
pub fn app_on(rows: &[&str], start: (i32, i32), goal: (i32, i32)) -> App {
    let grid = Grid::from_ascii(rows).expect("test map");
    let mut app = headless_app(Some(LoadMap::new("test", grid)));
    app.update(); // start-up and map load
    set_marker::<Start>(&mut app, start);
    set_marker::<Goal>(&mut app, goal);
    replan_now(&mut app);
    app
}

pub fn set_marker<M: Component>(app: &mut App, cell: (i32, i32)) {
    let world = app.world_mut();
    let mut q = world.query_filtered::<&mut MarkerCell, With<M>>();
    q.single_mut(world).expect("one marker").0 = cell.into();
}

pub fn marker<M: Component>(app: &mut App) -> Point {
    let world = app.world_mut();
    let mut q = world.query_filtered::<&MarkerCell, With<M>>();
    q.single(world).expect("one marker").0
}

/// Asks for a plan now and runs the frame that makes it.
pub fn replan_now(app: &mut App) {
    app.world_mut().write_message(ReplanNow);
    app.update();
}

pub fn plan(app: &App) -> &Plan {
    app.world().resource::<Plan>()
}

/// Runs updates for `seconds` of app time.
pub fn run_for(app: &mut App, seconds: f32) {
    let frames = (seconds / STEP.as_secs_f32()).round() as u32;
    for _ in 0..frames {
        app.update();
    }
}

pub fn replan_interval(app: &App) -> f32 {
    app.world().resource::<PlannerSettings>().interval
}

pub fn spawn_wall(app: &mut App, cell: (i32, i32)) -> Entity {
    let id = app.world_mut().spawn((Obstacle, CellPos(cell.into()))).id();
    app.world_mut().flush();
    id
}

pub fn world_pos(app: &App, cell: (i32, i32)) -> Vec2 {
    app.world().resource::<MapLayout>().cell_center(cell.into())
}

pub fn mouse(app: &mut App, state: ButtonState) {
    app.world_mut().write_message(MouseButtonInput {
        button: MouseButton::Left,
        state,
        window: Entity::PLACEHOLDER,
    });
}

/// A real drag: press at `from`, move to `to`, release there. Positions are world points.
pub fn drag(app: &mut App, from: Vec2, to: Vec2) {
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(from);
    mouse(app, ButtonState::Pressed);
    app.update();
    app.world_mut().resource_mut::<PointerWorld>().0 = Some((from + to) / 2.0);
    app.update();
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(to);
    app.update();
    mouse(app, ButtonState::Released);
    app.update();
}

pub fn latest_notice(app: &App) -> String {
    app.world()
        .resource::<Notices>()
        .latest()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

pub const OPEN: [&str; 5] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

/// Presses and releases a key, with modifiers held around it, as real keyboard messages.
pub fn key_chord(app: &mut App, modifiers: &[KeyCode], key: KeyCode) {
    chord(app, modifiers, key, false);
}

/// The same chord, pressed and released between two frames (a fast typist, or a slow frame).
pub fn key_chord_in_one_frame(app: &mut App, modifiers: &[KeyCode], key: KeyCode) {
    chord(app, modifiers, key, true);
}

fn chord(app: &mut App, modifiers: &[KeyCode], key: KeyCode, one_frame: bool) {
    use bevy::input::keyboard::{Key, KeyboardInput};
    let send = |app: &mut App, key_code: KeyCode, state: ButtonState| {
        app.world_mut().write_message(KeyboardInput {
            key_code,
            logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
    };
    for &m in modifiers {
        send(app, m, ButtonState::Pressed);
    }
    send(app, key, ButtonState::Pressed);
    if !one_frame {
        app.update();
    }
    send(app, key, ButtonState::Released);
    for &m in modifiers {
        send(app, m, ButtonState::Released);
    }
    app.update();
}

/// A drag along several cells: press on the first, pass over the others, release on the last.
pub fn stroke(app: &mut App, cells: &[(i32, i32)]) {
    let Some((&first, rest)) = cells.split_first() else {
        return;
    };
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(world_pos(app, first));
    mouse(app, ButtonState::Pressed);
    app.update();
    for &c in rest {
        app.world_mut().resource_mut::<PointerWorld>().0 = Some(world_pos(app, c));
        app.update();
    }
    mouse(app, ButtonState::Released);
    app.update();
}

pub fn is_wall(app: &App, cell: (i32, i32)) -> bool {
    app.world()
        .resource::<NavGrid>()
        .obstacle_at(cell.into())
        .is_some()
}

pub fn nav_cell(app: &App, cell: (i32, i32)) -> Option<gridpath::Cell> {
    app.world().resource::<NavGrid>().grid().cell(cell.into())
}

/// Runs frames until the plans asked for before this call have come back from the task pool (a
/// big map's plans run off the frame): a new plan is shown and none is in flight. Sleeps a
/// millisecond between frames to let the worker run.
pub fn settle(app: &mut App) {
    let before = plan(app).count;
    for _ in 0..5000 {
        app.update();
        if plan(app).count > before && !plan(app).in_flight {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("no plan came back");
}

/// Sets a cell's ground cost directly (as a finished terrain stroke would) and announces it.
pub fn set_ground(app: &mut App, cell: (i32, i32), cost: u32) {
    use pathfinder_playground::world::terrain::{GroundChanged, GroundMap};
    app.world_mut()
        .resource_mut::<GroundMap>()
        .set_cost(cell.into(), cost);
    app.world_mut().write_message(GroundChanged(cell.into()));
    app.update();
}
