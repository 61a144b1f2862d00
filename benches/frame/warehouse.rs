//! The lifelong benchmark's sorting centre through `bevy_gridpath`, as a warehouse game runs it:
//! its 800 robots as one-cell bodies on 4-way moves, a tick every tenth of a second at 60 frames
//! a second, each robot given its next task the frame its cell is its destination. The crowd as
//! a game ships it: each tick's step planned off the frame, routes searched on the task pool.
//! Prints the tasks finished (beside `gridpath lifelong`'s on the same instance) and the frame's
//! and the crowd step's times.

use super::print_times;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridpath::prelude::*;
use bevy_gridpath::{AgentProgress, CrowdWays};
use gridpath::lifelong::LifelongInstance;
use std::time::{Duration, Instant};

/// Seconds a tick: each robot crosses a cell a tick, as in the `warehouse` example.
const TICK: f32 = 0.1;

/// A robot: which of the instance's agents it is, and how many tasks it was given.
#[derive(Component)]
struct Robot {
    agent: usize,
    given: usize,
}

/// Runs `ticks` ticks of the sorting centre with the robots' `ways`.
pub fn warehouse(ticks: u64, ways: CrowdWays) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/lifelong/sortation_small_0_800.json"
    );
    let instance = match LifelongInstance::read(path) {
        Ok(instance) => instance,
        Err(e) => return println!("warehouse: {e}"),
    };
    let mut app = warehouse_app(&instance, ways);
    let (mut frames, mut steps, mut finished) = (Vec::new(), Vec::new(), 0);
    while app.world().resource::<Crowd>().ticks() < ticks {
        let began = Instant::now();
        app.update();
        frames.push(began.elapsed());
        let crowd = app.world().resource::<Crowd>();
        steps.push(Duration::from_secs_f64(crowd.step_micros() / 1e6));
        let mut robots = app
            .world_mut()
            .query::<(&mut Robot, &AgentProgress, &mut Destination)>();
        for (mut robot, progress, mut destination) in robots.iter_mut(app.world_mut()) {
            if progress.placed_cell() == Some(destination.0) {
                robot.given += 1;
                destination.0 = instance.task(robot.agent, robot.given);
                finished += 1;
            }
        }
    }
    let name = format!("800 robots by {ways:?}");
    print_times(&format!("{name}: the frame"), frames);
    print_times(&format!("{name}: the crowd's step"), steps);
    println!("  {finished} tasks finished in {ticks} ticks");
}

/// The plugin's app on the instance's map, its robots spawned at their starts with their first
/// tasks.
fn warehouse_app(instance: &LifelongInstance, ways: CrowdWays) -> App {
    let grid = &instance.grid;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, GridPathPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(super::FRAME));
    if let Ok(nav) = NavGrid::new(grid.width(), grid.height()) {
        app.insert_resource(nav);
    }
    let world = app.world_mut();
    let mut crowd = world.resource_mut::<Crowd>();
    (crowd.tick, crowd.gather, crowd.ways) = (Some(TICK), false, ways);
    for y in 0..grid.height() as i32 {
        for x in 0..grid.width() as i32 {
            let cell = Point::new(x, y);
            if !grid.is_passable(cell) {
                world.spawn((Obstacle, CellPos(cell)));
            }
        }
    }
    for (agent, &start) in instance.starts.iter().enumerate() {
        let mut robot = GridAgent::new(1.0 / TICK);
        robot.movement = Movement::FourWay;
        let place = Transform::from_xyz(start.x as f32, start.y as f32, 0.0);
        let task = Destination(instance.task(agent, 0));
        world.spawn((robot, Body, place, task, Robot { agent, given: 0 }));
    }
    app
}
