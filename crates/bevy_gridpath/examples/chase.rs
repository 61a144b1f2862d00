//! Enemies chase the player round the walls of a bevy_ecs_tilemap level.
//!
//! The arrow keys move the player (a yellow square). Each wall tile carries `Obstacle`, so the
//! plugin builds its nav grid from the map itself. Every frame the enemies (red squares) get the
//! player's cell as their `Destination`; they ask for a new route only when it moves to another
//! cell, and the searches run off the frame.
//!
//! `cargo run --example chase` (from the workspace root)

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;
use bevy_gridpath::prelude::*;

const LEVEL: [&str; 14] = [
    "######################",
    "#..........#.........#",
    "#..####....#...###...#",
    "#..#.......#.....#...#",
    "#..#...#######...#...#",
    "#......#.............#",
    "#......#....####.....#",
    "####...#.......#...###",
    "#..........#...#.....#",
    "#..######..#...####..#",
    "#.......#..#.........#",
    "#.......#..#####.....#",
    "#....................#",
    "######################",
];
const TILE: f32 = 32.0;
const FLOOR: Color = Color::srgb(0.75, 0.78, 0.7);
const WALL: Color = Color::srgb(0.22, 0.24, 0.3);

#[derive(Component)]
struct Player;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins,
            TilemapPlugin,
            GridPathPlugin,
            GridPathDebugPlugin,
        ))
        .add_systems(Startup, spawn_level)
        .add_systems(
            Update,
            (move_player, chase_player)
                .chain()
                .before(GridPathSystems::Plan),
        )
        .run();
}

fn spawn_level(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.spawn(Camera2d);
    let size = TilemapSize::new(LEVEL[0].len() as u32, LEVEL.len() as u32);
    let tile_size = TilemapTileSize { x: TILE, y: TILE };
    let grid_size = tile_size.into();
    let anchor = TilemapAnchor::Center;
    // The nav grid reads the wall tiles whenever it comes: before them, as here, or after.
    let placed = Transform::default();
    let nav = NavGrid::for_tilemap(
        &TilemapType::Square,
        &size,
        &grid_size,
        &tile_size,
        &anchor,
        &placed,
    );
    commands.insert_resource(nav.expect("the level fits a grid"));
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for (row, line) in LEVEL.iter().enumerate() {
        for (x, c) in line.bytes().enumerate() {
            // The level is written top row first; tile rows count up from the bottom.
            let position = TilePos::new(x as u32, size.y - 1 - row as u32);
            let color = TileColor(if c == b'#' { WALL } else { FLOOR });
            let tile = TileBundle {
                position,
                tilemap_id: TilemapId(map),
                color,
                ..default()
            };
            let mut tile = commands.spawn(tile);
            if c == b'#' {
                tile.insert(Obstacle); // the plugin walls its cell
            }
            storage.set(&position, tile.id());
        }
    }
    // One white tile, tinted by each tile's colour.
    let extent = Extent3d {
        width: 32,
        height: 32,
        ..default()
    };
    let (format, usage) = (TextureFormat::Rgba8UnormSrgb, RenderAssetUsages::default());
    let white = Image::new_fill(extent, TextureDimension::D2, &[255; 4], format, usage);
    commands.entity(map).insert(TilemapBundle {
        grid_size,
        size,
        storage,
        tile_size,
        anchor,
        texture: TilemapTexture::Single(images.add(white)),
        ..default()
    });
    // A sprite on tile (x, y); the player above the enemies.
    let at = |x: f32, y: f32, z| Transform::from_xyz((x - 10.5) * TILE, (y - 6.5) * TILE, z);
    let square = |color, side| Sprite::from_color(color, Vec2::splat(side));
    let yellow = square(Color::srgb(1.0, 0.85, 0.1), 14.0);
    commands.spawn((Player, yellow, at(19.0, 1.0, 2.0)));
    let starts = [(1, 11), (2, 1), (9, 12), (13, 6)];
    for (i, &(x, y)) in starts.iter().enumerate() {
        let speed = 3.0 + i as f32 * 0.4; // a little different, so they do not bunch up
        let red = square(Color::srgb(0.9, 0.2, 0.2), 20.0);
        let agent = (GridAgent::new(speed), Destination(Point::new(x, y)));
        commands.spawn((agent, red, at(x as f32, y as f32, 1.0)));
    }
}

/// The arrow keys move the player, 6 cells a second, and walls stop it.
fn move_player(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    nav: Res<NavGrid>,
    mut player: Single<&mut Transform, With<Player>>,
) {
    let axis = |less, more| keys.pressed(more) as i32 as f32 - keys.pressed(less) as i32 as f32;
    let direction = Vec2::new(
        axis(KeyCode::ArrowLeft, KeyCode::ArrowRight),
        axis(KeyCode::ArrowDown, KeyCode::ArrowUp),
    );
    let next = player.translation.truncate()
        + direction.normalize_or_zero() * 6.0 * TILE * time.delta_secs();
    // Each corner of the player's square must be on open ground.
    let open = |dx, dy| nav.is_passable(nav.layout().cell_at(next + Vec2::new(dx, dy)));
    if open(-7.0, -7.0) && open(7.0, -7.0) && open(-7.0, 7.0) && open(7.0, 7.0) {
        player.translation = next.extend(player.translation.z);
    }
}

/// Every enemy heads for the player's cell. Only a new cell makes them plan again.
fn chase_player(
    nav: Res<NavGrid>,
    player: Single<&Transform, With<Player>>,
    mut enemies: Query<&mut Destination>,
) {
    let goal = nav.layout().cell_at(player.translation.truncate());
    for mut destination in &mut enemies {
        destination.set_if_neq(Destination(goal));
    }
}
