//! A hexagon tilemap as a level: click a tile to wall it (or open it again), and watch the
//! walkers' routes bend round it, from hexagon centre to hexagon centre.
//!
//! The only differences from a square level: the map's `TilemapType` goes to
//! `NavGrid::for_tilemap` (which places the cells where bevy_ecs_tilemap draws the tiles, and
//! picks the tile under the pointer as it does), and the agents move between touching
//! hexagons (`movement_for` the layout's shape: `Movement::Hex`). A* on hexagons uses the hex
//! distance, exact on open ground.
//!
//! `cargo run --example hex_level` (from the workspace root)

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;
use bevy_ecs_tilemap::prelude::*;
use bevy_gridpath::prelude::*;
use bevy_gridpath::tilemap::movement_for;

const SIZE: TilemapSize = TilemapSize { x: 27, y: 21 };
/// A pointy-top hexagon 26 pixels wide and 30 high (close to regular: √3 : 2).
const TILE: TilemapTileSize = TilemapTileSize { x: 26.0, y: 30.0 };
/// Odd rows are shifted half a hexagon right.
const MAP_TYPE: TilemapType = TilemapType::Hexagon(HexCoordSystem::RowOdd);
const FLOOR: Color = Color::srgb(0.78, 0.8, 0.72);
const WALL: Color = Color::srgb(0.25, 0.27, 0.33);

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
            (paint_walls.before(GridPathSystems::SyncGrid), turn_back),
        )
        .run();
}

/// A wall from the bottom edge up the middle, with a gap near the top.
fn is_wall(x: u32, y: u32) -> bool {
    x == 13 && y < 16
}

fn spawn_level(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.spawn(Camera2d);
    let grid_size = TILE.into();
    let anchor = TilemapAnchor::Center;
    let nav = NavGrid::for_tilemap(
        &MAP_TYPE,
        &SIZE,
        &grid_size,
        &TILE,
        &anchor,
        &Transform::default(),
    );
    let nav = nav.expect("a hex map fits a grid");
    let layout = *nav.layout();
    commands.insert_resource(nav);

    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(SIZE);
    for x in 0..SIZE.x {
        for y in 0..SIZE.y {
            let position = TilePos { x, y };
            let wall = is_wall(x, y);
            let tile = TileBundle {
                position,
                tilemap_id: TilemapId(map),
                color: if wall { WALL } else { FLOOR }.into(),
                ..default()
            };
            let mut entity = commands.spawn(tile);
            if wall {
                entity.insert(Obstacle);
            }
            storage.set(&position, entity.id());
        }
    }
    commands.entity(map).insert(TilemapBundle {
        grid_size,
        map_type: MAP_TYPE,
        size: SIZE,
        storage,
        tile_size: TILE,
        anchor,
        texture: TilemapTexture::Single(images.add(hexagon_image())),
        ..default()
    });

    // Six walkers from the left edge to the right edge and back, stepping between touching
    // hexagons.
    let movement = movement_for(layout.shape, Movement::default());
    for i in 0..6 {
        let start = Point::new(1, 2 + 3 * i);
        let sprite = Sprite::from_color(
            Color::hsl(i as f32 * 60.0, 0.8, 0.5),
            Vec2::splat(TILE.x * 0.55),
        );
        commands.spawn((
            GridAgent {
                movement,
                ..GridAgent::new(4.0 + i as f32 * 0.4)
            },
            sprite,
            Transform::from_translation(layout.to_world(start).extend(1.0)),
            Destination(Point::new(25, 18 - 3 * i)),
        ));
    }
}

/// A white pointy-top hexagon filling the tile, transparent around it: the tilemap tints it.
fn hexagon_image() -> Image {
    let (w, h) = (TILE.x as u32, TILE.y as u32);
    let mut pixels = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            // Distance from the centre, across and up; the slanted edges meet the sides a
            // quarter of the height from the top and bottom. Half a pixel more all round, so
            // that neighbouring tiles meet without a seam.
            let dx = ((x as f32 + 0.5) - w as f32 / 2.0).abs();
            let dy = ((y as f32 + 0.5) - h as f32 / 2.0).abs();
            let inside = dy <= h as f32 / 2.0 - dx * h as f32 / (2.0 * w as f32) + 0.5;
            pixels.extend_from_slice(&[255, 255, 255, if inside { 255 } else { 0 }]);
        }
    }
    let extent = Extent3d {
        width: w,
        height: h,
        depth_or_array_layers: 1,
    };
    Image::new(
        extent,
        TextureDimension::D2,
        pixels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

/// A left click walls a floor tile or opens a wall tile: the nav grid picks the tile under the
/// pointer as bevy_ecs_tilemap does.
fn paint_walls(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    nav: Res<NavGrid>,
    storage: Single<&TileStorage>,
    mut tiles: Query<(&mut TileColor, Has<Obstacle>)>,
    mut commands: Commands,
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
    let (Ok(x), Ok(y)) = (u32::try_from(cell.x), u32::try_from(cell.y)) else {
        return;
    };
    let Some(tile) = storage.checked_get(&TilePos { x, y }) else {
        return;
    };
    if let Ok((mut color, is_wall)) = tiles.get_mut(tile) {
        if is_wall {
            commands.entity(tile).remove::<Obstacle>();
            color.0 = FLOOR;
        } else {
            commands.entity(tile).insert(Obstacle);
            color.0 = WALL;
        }
    }
}

/// At one edge, a walker sets off for the other.
fn turn_back(mut agents: Query<(&AgentStatus, &mut Destination)>) {
    for (status, mut destination) in &mut agents {
        if *status == AgentStatus::Arrived {
            destination.0.x = 26 - destination.0.x;
        }
    }
}
