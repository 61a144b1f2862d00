//! Bodies of three sizes through one door.
//!
//! Two rooms and a door three cells wide. Sixty units stand in the left room: most one cell
//! across, some two, a few three. Each is a `Body` with a `GridAgent` of its size, bound for the
//! mirror of its place in the right room. No two ever overlap: the plugin's crowd moves them a
//! cell a tick, a big unit only goes where it fits, and it pushes small ones aside (or asks them
//! to step aside first) on its way. A click sends everyone back to the other side.
//!
//! The sprite of a unit k cells across is k cells wide: its `Transform` is the middle of the
//! cells it covers.
//!
//! `cargo run --example door` (from the workspace root)

use bevy::prelude::*;
use bevy_gridpath::prelude::*;

const WIDTH: i32 = 41;
const HEIGHT: i32 = 30;
const CELL: f32 = 20.0;
/// The wall down the middle, and its door's rows.
const WALL_X: i32 = 20;
const DOOR: std::ops::RangeInclusive<i32> = 13..=15;

/// A unit's size and its two places, one in each room.
#[derive(Component)]
struct Unit {
    size: u8,
    left: Point,
}

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, GridPathPlugin))
        .add_systems(Startup, spawn_level)
        .add_systems(Update, send_across.before(GridPathSystems::SyncGrid))
        .run();
}

/// The mirror of a place of a unit `size` across, in the other room.
fn mirror(at: Point, size: u8) -> Point {
    Point::new(WIDTH - i32::from(size) - at.x, at.y)
}

fn spawn_level(mut commands: Commands) {
    commands.spawn(Camera2d);
    // Row 0 at the top of the screen.
    let origin = Vec2::new(-(WIDTH as f32 - 1.0), HEIGHT as f32 - 1.0) * CELL / 2.0;
    let layout = GridLayout::square(origin, Vec2::new(CELL, -CELL));
    let nav = NavGrid::new(WIDTH as u32, HEIGHT as u32).expect("a small grid");
    commands.insert_resource(nav.with_layout(layout));
    for y in (0..HEIGHT).filter(|y| !DOOR.contains(y)) {
        let at = layout.to_world(Point::new(WALL_X, y)).extend(0.0);
        let wall = Sprite::from_color(Color::srgb(0.3, 0.32, 0.4), Vec2::splat(CELL));
        commands.spawn((
            Obstacle,
            CellPos(Point::new(WALL_X, y)),
            wall,
            Transform::from_translation(at),
        ));
    }
    // Three units of 3, eight of 2 and the rest of 1, side by side in the left room.
    let mut units: Vec<(Point, u8)> = Vec::new();
    units.extend((0..3).map(|i| (Point::new(1 + 4 * i, 2), 3)));
    units.extend((0..8).map(|i| (Point::new(1 + 3 * (i % 4), 7 + 3 * (i / 4)), 2)));
    units.extend((0..49).map(|i| (Point::new(i % 14, 14 + i / 14 * 2), 1)));
    for (n, &(at, size)) in units.iter().enumerate() {
        let hue = n as f32 * 137.5 % 360.0;
        let side = CELL * f32::from(size) - 4.0;
        let sprite = Sprite::from_color(Color::hsl(hue, 0.7, 0.6), Vec2::splat(side));
        // The Transform places it on its cell; from then on the plugin moves it.
        let place = Transform::from_translation(layout.to_world(at).extend(1.0));
        let agent = GridAgent::new(5.0).with_size(size);
        let unit = Unit { size, left: at };
        commands.spawn((
            agent,
            Body,
            Destination(mirror(at, size)),
            unit,
            sprite,
            place,
        ));
    }
}

/// A click sends every unit to its place in the room it is not bound for now.
fn send_across(mouse: Res<ButtonInput<MouseButton>>, mut units: Query<(&Unit, &mut Destination)>) {
    if !mouse.just_pressed(MouseButton::Left) {
        return;
    }
    for (unit, mut destination) in &mut units {
        let right = mirror(unit.left, unit.size);
        destination.0 = if destination.0 == right {
            unit.left
        } else {
            right
        };
    }
}
