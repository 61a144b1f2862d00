//! Units that differ: soldiers, boats and tanks on one map.
//!
//! One `NavGrid`, three `UnitClass`es. Each cell's `CellTerrain` says what it is made of; each
//! class says what each terrain means to it:
//! - soldiers (blue) walk on ground, wade through mud at five times the cost, and never swim:
//!   they cross the river at the ford, its shallows at three times the cost;
//! - boats (white) sail on the river and over the shallows, and nowhere else;
//! - tanks (green, two cells across) drive on ground and through the ford: no water, no mud.
//!
//! A ladder (violet) spans the river in the west: a link between two cells, of a kind soldiers
//! may climb and tanks may not (a `NavLink` entity; the debug plugin draws it). A soldier takes
//! it as one step: it waits at its foot for its cost, then stands on the far bank.
//!
//! Everyone goes back and forth between two places, and the debug plugin draws each route in
//! its unit's colour. The door in the wall at the bottom (orange) shuts and opens every four
//! seconds: an `Obstacle` added and removed, and the units that need it plan again.
//!
//! `cargo run --example unit_classes` (from the workspace root)

use bevy::prelude::*;
use bevy_gridpath::gridpath::Link;
use bevy_gridpath::prelude::*;
use bevy_gridpath::{NavLink, RouteColor};

const CELL: f32 = 26.0;
/// `#` wall, `~` water, `s` shallows (the ford), `m` mud, `D` the door, `.` ground.
const MAP: [&str; 16] = [
    "##################################",
    "#...............mmmm.............#",
    "#...............mmmm.............#",
    "#...............mmmm.............#",
    "#~~~~~~~~~~~~~~~~~~~~~~~~ss~~~~~~#",
    "#~~~~~~~~~~~~~~~~~~~~~~~~ss~~~~~~#",
    "#~~~~~~~~~~~~~~~~~~~~~~~~ss~~~~~~#",
    "#...............#................#",
    "#...............#................#",
    "#...............#................#",
    "#...............D................#",
    "#...............D................#",
    "#...............#................#",
    "#...............#................#",
    "#...............#................#",
    "##################################",
];
const MUD: Terrain = Terrain(3);
const SHALLOWS: Terrain = Terrain(4);
/// A kind of link, not of ground: what a class says of it decides who climbs.
const LADDER: Terrain = Terrain(10);

/// Where a unit goes back and forth between.
#[derive(Component)]
struct Shuttle(Point, Point);

/// One of the door's walls, open or shut.
#[derive(Component)]
struct Door;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, GridPathPlugin, GridPathDebugPlugin))
        .add_systems(Startup, spawn_level)
        .add_systems(
            Update,
            (shuttle, swing_the_door).before(GridPathSystems::SyncGrid),
        )
        .run();
}

fn layout() -> GridLayout {
    let (w, h) = (MAP[0].len() as f32, MAP.len() as f32);
    let origin = Vec2::new(-(w - 1.0), h - 1.0) * CELL / 2.0;
    GridLayout::square(origin, Vec2::new(CELL, -CELL))
}

fn spawn_level(mut commands: Commands, mut classes: ResMut<UnitClasses>) {
    commands.spawn(Camera2d);
    let layout = layout();
    let nav = NavGrid::new(MAP[0].len() as u32, MAP.len() as u32).expect("a small grid");
    commands.insert_resource(nav.with_layout(layout));
    let soldier = UnitClass::new()
        .without(Terrain::WATER)
        .with_cost(MUD, 5)
        .with_cost(SHALLOWS, 3);
    let boat = UnitClass::closed()
        .with_cost(Terrain::WATER, 1)
        .with_cost(SHALLOWS, 1);
    let tank = UnitClass::new()
        .without(Terrain::WATER)
        .without(MUD)
        .without(LADDER)
        .with_cost(SHALLOWS, 2);
    let (soldier, boat, tank) = (
        classes.add("soldier", soldier),
        classes.add("boat", boat),
        classes.add("tank", tank),
    );
    for (y, row) in MAP.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            let at = Point::new(x as i32, y as i32);
            let place = Transform::from_translation(layout.to_world(at).extend(0.0));
            // Every cell a tile of its colour, at its cell; what it is made of, or a wall.
            let (r, g, b) = match c {
                b'#' => (0.3, 0.3, 0.36),
                b'~' => (0.1, 0.25, 0.5),
                b's' => (0.25, 0.45, 0.55),
                b'm' => (0.4, 0.3, 0.15),
                b'D' => (0.9, 0.55, 0.1),
                _ => (0.16, 0.2, 0.14),
            };
            let sprite = Sprite::from_color(Color::srgb(r, g, b), Vec2::splat(CELL - 1.0));
            let mut tile = commands.spawn((CellPos(at), sprite, place));
            match c {
                b'#' => tile.insert(Obstacle),
                b'~' => tile.insert(CellTerrain(Terrain::WATER)),
                b's' => tile.insert(CellTerrain(SHALLOWS)),
                b'm' => tile.insert(CellTerrain(MUD)),
                b'D' => tile.insert((Door, Obstacle)),
                _ => &mut tile,
            };
        }
    }
    // The ladder across the river, from bank to bank: 4 to climb.
    let ladder = Link::new(Point::new(3, 3), Point::new(3, 7), 4).of_kind(LADDER);
    commands.spawn(NavLink(ladder));
    // (class, size, colour, from, to)
    let units = [
        (soldier, 1, (0.3, 0.55, 1.0), (2, 2), (31, 13)),
        (soldier, 1, (0.3, 0.55, 1.0), (31, 1), (3, 12)),
        (soldier, 1, (0.3, 0.55, 1.0), (8, 1), (24, 3)),
        (boat, 1, (0.95, 0.95, 0.95), (2, 5), (31, 6)),
        (boat, 1, (0.95, 0.95, 0.95), (30, 4), (4, 4)),
        (tank, 2, (0.3, 0.85, 0.35), (2, 8), (30, 12)),
    ];
    for (class, size, (r, g, b), from, to) in units {
        let (from, to) = (Point::new(from.0, from.1), Point::new(to.0, to.1));
        let colour = Color::srgb(r, g, b);
        let side = CELL * f32::from(size) - 6.0;
        commands.spawn((
            GridAgent::new(5.0).with_size(size).with_class(class),
            Destination(to),
            Shuttle(from, to),
            RouteColor(colour),
            Sprite::from_color(colour, Vec2::splat(side)),
            // The Transform places it on its cell; from then on the plugin moves it.
            Transform::from_translation(layout.to_world(from).extend(1.0)),
        ));
    }
}

/// A unit that arrived turns back.
fn shuttle(mut units: Query<(&AgentStatus, &Shuttle, &mut Destination), Changed<AgentStatus>>) {
    for (status, shuttle, mut destination) in &mut units {
        if *status == AgentStatus::Arrived {
            destination.0 = if destination.0 == shuttle.1 {
                shuttle.0
            } else {
                shuttle.1
            };
        }
    }
}

/// Every four seconds the door shuts (its walls come back) or opens (they go).
fn swing_the_door(
    time: Res<Time>,
    mut shut: Local<Option<bool>>,
    doors: Query<(Entity, Has<Obstacle>), With<Door>>,
    mut sprites: Query<&mut Sprite>,
    mut commands: Commands,
) {
    let now_shut = ((time.elapsed_secs() / 4.0) as u32).is_multiple_of(2);
    if *shut == Some(now_shut) {
        return;
    }
    *shut = Some(now_shut);
    for (entity, walled) in &doors {
        if now_shut && !walled {
            commands.entity(entity).insert(Obstacle);
        } else if !now_shut && walled {
            commands.entity(entity).remove::<Obstacle>();
        }
        if let Ok(mut sprite) = sprites.get_mut(entity) {
            let alpha = if now_shut { 1.0 } else { 0.25 };
            sprite.color = Color::srgba(0.9, 0.55, 0.1, alpha);
        }
    }
}
