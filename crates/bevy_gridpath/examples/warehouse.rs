//! A warehouse's robots: the lifelong benchmark's sorting centre, run as a game runs it.
//!
//! The map, the 800 robots and their tasks are the League of Robot Runners' sorting centre
//! (`assets/lifelong`, the benchmark of Chen et al., AAAI 2024). Each robot is a one-cell `Body`
//! on 4-way moves; the moment its cell is its destination, it is given its next task. The crowd
//! is set for a warehouse: robots sent to one chute visit it in turn (`Crowd::gather` off), and
//! each follows a guide path planned to keep out of the way of the paths coming the other way
//! (`CrowdWays::GuidePaths`, the lifelong planner's focal guide paths): files bound opposite ways
//! take different aisles instead of meeting head-on. The window's title counts the tasks
//! finished.
//!
//! Space switches the robots' ways: guide paths, their destinations' distance tables (the true
//! distance, whoever pushed them where, but every robot takes the shortest aisle), and their
//! routes (the plugin's default), to see the difference. On this map, in 1,000 ticks, they finish
//! about 13,000, 7,300 and 3,200 tasks: robots pushed about in the packed aisles head back to
//! their routes as the crow flies.
//!
//! `cargo run --example warehouse` (from the workspace root)

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_gridpath::prelude::*;
use bevy_gridpath::{AgentProgress, CrowdWays};
use gridpath::lifelong::LifelongInstance;

const CELL: f32 = 14.0;
/// Seconds a tick: each robot crosses a cell a tick.
const TICK: f32 = 0.1;

/// A robot: which of the instance's agents it is, and how many tasks it was given.
#[derive(Component)]
struct Robot {
    agent: usize,
    given: usize,
}

/// The instance, and the tasks finished so far.
#[derive(Resource)]
struct Warehouse {
    instance: LifelongInstance,
    finished: u64,
}

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/lifelong/sortation_small_0_800.json"
    );
    let instance = match LifelongInstance::read(path) {
        Ok(instance) => instance,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    App::new()
        .add_plugins((DefaultPlugins, GridPathPlugin))
        .insert_resource(Warehouse {
            instance,
            finished: 0,
        })
        .add_systems(Startup, spawn_level)
        .add_systems(Update, switch_ways.before(GridPathSystems::SyncGrid))
        .add_systems(Update, next_tasks.after(GridPathSystems::Move))
        .run();
}

fn spawn_level(mut commands: Commands, warehouse: Res<Warehouse>, mut crowd: ResMut<Crowd>) {
    commands.spawn(Camera2d);
    crowd.tick = Some(TICK);
    crowd.gather = false;
    crowd.ways = CrowdWays::GuidePaths;
    let grid = &warehouse.instance.grid;
    let (width, height) = (grid.width() as f32, grid.height() as f32);
    // Row 0 at the top of the screen.
    let origin = Vec2::new(-(width - 1.0), height - 1.0) * CELL / 2.0;
    let layout = GridLayout::square(origin, Vec2::new(CELL, -CELL));
    let nav = NavGrid::new(grid.width(), grid.height()).expect("the instance's grid");
    commands.insert_resource(nav.with_layout(layout));
    for y in 0..grid.height() as i32 {
        for x in 0..grid.width() as i32 {
            let cell = Point::new(x, y);
            if !grid.is_passable(cell) {
                let at = layout.to_world(cell).extend(0.0);
                let wall = Sprite::from_color(Color::srgb(0.3, 0.32, 0.4), Vec2::splat(CELL));
                commands.spawn((
                    Obstacle,
                    CellPos(cell),
                    wall,
                    Transform::from_translation(at),
                ));
            }
        }
    }
    for (agent, &start) in warehouse.instance.starts.iter().enumerate() {
        let hue = agent as f32 * 137.5 % 360.0;
        let sprite = Sprite::from_color(Color::hsl(hue, 0.7, 0.6), Vec2::splat(CELL - 3.0));
        let place = Transform::from_translation(layout.to_world(start).extend(1.0));
        let mut robot = GridAgent::new(1.0 / TICK);
        robot.movement = Movement::FourWay;
        let task = Destination(warehouse.instance.task(agent, 0));
        let tag = Robot { agent, given: 0 };
        commands.spawn((robot, Body, task, tag, sprite, place));
    }
}

/// A robot whose cell is its destination has finished its task, and is given the next one. (Its
/// cell, not its status: in the packed aisles a robot that has just stepped onto its place may
/// be pushed off it at the next tick, before its glide in ends and it would read as arrived.)
fn next_tasks(
    mut warehouse: ResMut<Warehouse>,
    mut robots: Query<(&mut Robot, &AgentProgress, &mut Destination)>,
    crowd: Res<Crowd>,
    mut window: Single<&mut Window, With<PrimaryWindow>>,
) {
    for (mut robot, progress, mut destination) in &mut robots {
        if progress.placed_cell() == Some(destination.0) {
            robot.given += 1;
            destination.0 = warehouse.instance.task(robot.agent, robot.given);
            warehouse.finished += 1;
        }
    }
    let ways = match crowd.ways {
        CrowdWays::GuidePaths => "guide paths",
        CrowdWays::GoalTables => "goal tables",
        CrowdWays::Routes => "routes",
    };
    let title = format!(
        "warehouse: {} robots by {ways}, {} tasks in {} ticks (Space: switch)",
        robots.iter().len(),
        warehouse.finished,
        crowd.ticks()
    );
    if window.title != title {
        window.title = title;
    }
}

/// Space switches the robots' ways: guide paths, their destinations' tables, their routes.
fn switch_ways(keys: Res<ButtonInput<KeyCode>>, mut crowd: ResMut<Crowd>) {
    if keys.just_pressed(KeyCode::Space) {
        crowd.ways = match crowd.ways {
            CrowdWays::GuidePaths => CrowdWays::GoalTables,
            CrowdWays::GoalTables => CrowdWays::Routes,
            CrowdWays::Routes => CrowdWays::GuidePaths,
        };
    }
}
