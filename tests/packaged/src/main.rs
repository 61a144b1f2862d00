//! The plugin README's quick start, run headless by a game outside the workspace: `MinimalPlugins`
//! and a manual clock in place of `DefaultPlugins` and a window, and no debug plugin (its gizmos
//! need a renderer). Everything else is the README's code, word for word (a test checks it).
//!
//! `cargo run` runs it and says where the enemy got to; `cargo test` checks it reaches the
//! player's cell, round the wall, within a bounded number of frames (never a timing assertion).

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridpath::prelude::*;
use std::time::Duration;

/// The quick start's app, headless.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, GridPathPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            20,
        )))
        .add_systems(Startup, setup)
        .add_systems(Update, chase.before(GridPathSystems::Plan));
    app
}

// From here to the end of `chase`: the README's quick start.

#[derive(Component)]
struct Player;

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    // A 20 × 12 grid of 32-pixel cells, centred on the screen.
    let layout = GridLayout::new(Vec2::new(-304.0, -176.0), 32.0);
    commands.insert_resource(NavGrid::new(20, 12).unwrap().with_layout(layout));
    // Walls are any entities with a cell: a bevy_ecs_tilemap tile, a sprite, nothing at all.
    for y in 2..10 {
        commands.spawn((Obstacle, CellPos(Point::new(10, y))));
    }
    commands.spawn((Player, Transform::from_xyz(240.0, 0.0, 0.0)));
    // An enemy walks 5 cells a second to wherever its Destination says.
    commands.spawn((GridAgent::new(5.0), Transform::from_xyz(-240.0, 0.0, 0.0)));
}

/// Enemies head for the player's cell; the plugin plans, re-plans and walks.
fn chase(
    nav: Res<NavGrid>,
    player: Single<&Transform, With<Player>>,
    enemies: Query<Entity, With<GridAgent>>,
    mut commands: Commands,
) {
    let goal = nav.layout().cell_at(player.translation.truncate());
    for enemy in &enemies {
        commands.entity(enemy).insert(Destination(goal));
    }
}

/// Runs frames until the enemy stands on the player's cell: the frame it got there, or `None`
/// after `frames`. Every frame checks it is not on a wall.
fn run(app: &mut App, frames: u32) -> Option<u32> {
    for frame in 0..frames {
        app.update();
        let world = app.world_mut();
        let enemy = world
            .query_filtered::<&Transform, With<GridAgent>>()
            .single(world)
            .ok()?
            .translation
            .truncate();
        let nav = world.resource::<NavGrid>();
        let at = nav.layout().cell_at(enemy);
        assert!(
            nav.grid().is_passable(at),
            "frame {frame}: on a wall at {at}"
        );
        let player = nav.layout().cell_at(Vec2::new(240.0, 0.0));
        if at == player {
            return Some(frame);
        }
    }
    None
}

fn main() {
    let mut app = app();
    match run(&mut app, 1000) {
        Some(frame) => println!("the enemy reached the player's cell at frame {frame}"),
        None => {
            eprintln!("the enemy did not reach the player's cell in 1000 frames");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_start_walks_the_enemy_round_the_wall_to_the_player() {
        // 15 cells there and more round the wall, at 5 cells a second and 50 frames a second:
        // about 200 frames; 1000 is room enough for any machine (the clock is manual).
        let frame = run(&mut app(), 1000).expect("the enemy reaches the player");
        assert!(frame > 100, "it walked, it did not jump: frame {frame}");
    }

    /// The code above is the README's: every line of its quick start from `struct Player` to the
    /// end of `chase` is here, in order.
    #[test]
    fn this_is_the_readme_quick_start() {
        let readme = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../crates/bevy_gridpath/README.md"
        );
        let readme = std::fs::read_to_string(readme).expect("the plugin's README");
        let start = readme
            .find("#[derive(Component)]\nstruct Player;")
            .expect("its Player");
        let end = start + readme[start..].find("\n```").expect("the block's end");
        let here = include_str!("main.rs");
        let mut from = 0;
        for line in readme[start..end].lines() {
            let found = here[from..].find(line);
            assert!(found.is_some(), "not here, or not in order: {line:?}");
            from += found.unwrap_or(0) + line.len();
        }
    }
}
