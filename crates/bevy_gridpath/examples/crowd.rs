//! A thousand agents to one goal, on one flow field.
//!
//! A route each would cost a thousand searches, and as many again after every edit. With
//! `SharedFlow` the agents ask for none: the plugin computes one flow field backwards from their
//! shared destination (off the frame), and each agent steps to its cheapest neighbour. A left
//! click moves the goal (a new field, one search); F shows the field's arrows. An agent that
//! arrives starts again from the far side, so the stream never ends.
//!
//! The walls here are plain entities with `Obstacle` and `CellPos`, not tiles. The agents still
//! pass through each other: bodies that take up room are another matter.
//!
//! `cargo run --example crowd` (from the workspace root)

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_gridpath::prelude::*;

const AGENTS: usize = 1000;
const WIDTH: i32 = 90;
const HEIGHT: i32 = 52;
const CELL: f32 = 13.0;

/// Walls with a few doors in each, and some boxes: `#` is a wall.
fn is_wall(x: i32, y: i32) -> bool {
    let band = |at: i32, doors: &[i32]| x == at && !doors.iter().any(|&d| (y - d).abs() <= 1);
    let boxed = |x0: i32, y0: i32| (x0..x0 + 6).contains(&x) && (y0..y0 + 4).contains(&y);
    band(28, &[8, 26, 44]) || band(56, &[4, 36]) || boxed(38, 12) || boxed(40, 32) || boxed(70, 20)
}

/// The goal's cell; a click moves it.
#[derive(Resource)]
struct Goal(Point);

/// A small random number generator (a game would use its own).
#[derive(Resource)]
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: i32) -> i32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as i32
    }
}

#[derive(Component)]
struct GoalMarker;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, GridPathPlugin, GridPathDebugPlugin))
        .insert_resource(Goal(Point::new(84, 26)))
        .insert_resource(Dice(7))
        .add_systems(Startup, spawn_level)
        .add_systems(
            Update,
            (move_goal, send_arrivals_back, toggle_arrows).before(GridPathSystems::SyncGrid),
        )
        .run();
}

fn spawn_level(mut commands: Commands, goal: Res<Goal>, mut dice: ResMut<Dice>) {
    commands.spawn(Camera2d);
    let origin = -Vec2::new(WIDTH as f32 - 1.0, HEIGHT as f32 - 1.0) * CELL / 2.0;
    let layout = GridLayout::new(origin, CELL);
    let nav = NavGrid::new(WIDTH as u32, HEIGHT as u32).expect("a small grid");
    commands.insert_resource(nav.with_layout(layout));
    let square = |color, side| Sprite::from_color(color, Vec2::splat(side));
    for (x, y) in (0..WIDTH).flat_map(|x| (0..HEIGHT).map(move |y| (x, y))) {
        if is_wall(x, y) {
            let at = Transform::from_translation(layout.to_world(Point::new(x, y)).extend(0.0));
            let wall = square(Color::srgb(0.3, 0.32, 0.4), CELL);
            commands.spawn((Obstacle, CellPos(Point::new(x, y)), wall, at));
        }
    }
    let marker = square(Color::srgb(1.0, 0.85, 0.1), CELL * 1.4);
    let at = layout.to_world(goal.0).extend(2.0);
    commands.spawn((GoalMarker, marker, Transform::from_translation(at)));
    for _ in 0..AGENTS {
        spawn_agent(&mut commands, &layout, &mut dice, goal.0);
    }
}

/// An agent on a random free cell in the quarter of the map farthest from the goal.
fn spawn_agent(commands: &mut Commands, layout: &GridLayout, dice: &mut Dice, goal: Point) {
    let far = if goal.x < WIDTH / 2 { WIDTH * 3 / 4 } else { 0 };
    let (x, y) = loop {
        let (x, y) = (far + dice.below(WIDTH / 4), dice.below(HEIGHT));
        if !is_wall(x, y) {
            break (x, y);
        }
    };
    let speed = 3.0 + dice.below(30) as f32 / 10.0;
    let at = layout.to_world(Point::new(x, y)).extend(1.0);
    commands.spawn((
        GridAgent::new(speed),
        SharedFlow,
        Destination(goal),
        Sprite::from_color(Color::srgb(1.0, 0.45, 0.65), Vec2::splat(CELL * 0.5)),
        Transform::from_translation(at),
    ));
}

/// A left click on open ground moves the goal: every agent's destination follows.
fn move_goal(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    nav: Res<NavGrid>,
    mut goal: ResMut<Goal>,
    mut marker: Single<&mut Transform, With<GoalMarker>>,
    mut agents: Query<&mut Destination>,
) {
    let (camera, camera_transform) = *camera;
    let Some(world) = window
        .cursor_position()
        .filter(|_| buttons.just_pressed(MouseButton::Left))
        .and_then(|cursor| camera.viewport_to_world_2d(camera_transform, cursor).ok())
    else {
        return;
    };
    let cell = nav.layout().cell_at(world);
    if !nav.is_passable(cell) {
        return; // outside the map or on a wall
    }
    goal.0 = cell;
    marker.translation = nav.layout().to_world(cell).extend(2.0);
    for mut destination in &mut agents {
        destination.0 = cell;
    }
}

/// An agent at the goal is replaced by a new one on the far side.
fn send_arrivals_back(
    nav: Res<NavGrid>,
    goal: Res<Goal>,
    mut dice: ResMut<Dice>,
    agents: Query<(Entity, &AgentStatus)>,
    mut commands: Commands,
) {
    for (entity, status) in &agents {
        if *status == AgentStatus::Arrived {
            commands.entity(entity).despawn();
            spawn_agent(&mut commands, nav.layout(), &mut dice, goal.0);
        }
    }
}

/// F shows or hides the flow field's arrows.
fn toggle_arrows(keys: Res<ButtonInput<KeyCode>>, mut store: ResMut<GizmoConfigStore>) {
    if keys.just_pressed(KeyCode::KeyF) {
        let (config, _) = store.config_mut::<FlowFieldGizmos>();
        config.enabled = !config.enabled;
    }
}
