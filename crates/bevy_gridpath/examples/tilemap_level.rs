//! The nav grid built from a tilemap's own tiles: click a tile to wall it (or open it again),
//! and watch the routes bend.
//!
//! A tile is a wall when it carries `Obstacle`; inserting or removing the component is all it
//! takes, and the plugin's observers update that one cell of the nav grid. Agents whose routes the
//! edit touches ask for new ones, planned off the frame; the debug plugin draws them in green.
//!
//! `cargo run --example tilemap_level` (from the workspace root)

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;
use bevy_ecs_tilemap::prelude::*;
use bevy_gridpath::prelude::*;

const SIZE: TilemapSize = TilemapSize { x: 30, y: 20 };
const TILE: f32 = 24.0;
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

fn spawn_level(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.spawn(Camera2d);
    let tile_size = TilemapTileSize { x: TILE, y: TILE };
    let grid_size = tile_size.into();
    let anchor = TilemapAnchor::Center;
    let nav = NavGrid::for_tilemap(
        &TilemapType::Square,
        &SIZE,
        &grid_size,
        &tile_size,
        &anchor,
        &Transform::default(),
    );
    commands.insert_resource(nav.expect("the level fits a grid"));

    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(SIZE);
    for x in 0..SIZE.x {
        for y in 0..SIZE.y {
            let position = TilePos { x, y };
            let wall = x == 15 && y > 3; // one long wall with a gap at the bottom
            let color = if wall { WALL } else { FLOOR };
            let tile = TileBundle {
                position,
                tilemap_id: TilemapId(map),
                color: color.into(),
                ..default()
            };
            let mut entity = commands.spawn(tile);
            if wall {
                entity.insert(Obstacle);
            }
            storage.set(&position, entity.id());
        }
    }
    let side = TILE as u32;
    let extent = Extent3d {
        width: side,
        height: side,
        depth_or_array_layers: 1,
    };
    let white = Image::new_fill(
        extent,
        TextureDimension::D2,
        &[255; 4],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    commands.entity(map).insert(TilemapBundle {
        grid_size,
        size: SIZE,
        storage,
        tile_size,
        anchor,
        texture: TilemapTexture::Single(images.add(white)),
        ..default()
    });

    // Eight walkers, from the left edge to the right edge and back.
    for i in 0..8 {
        let start = Vec3::new(-14.5 * TILE, (i as f32 * 2.5 - 9.0) * TILE, 1.0);
        let sprite = Sprite::from_color(
            Color::hsl(i as f32 * 45.0, 0.8, 0.5),
            Vec2::splat(TILE * 0.7),
        );
        commands.spawn((
            GridAgent::new(4.0 + i as f32 * 0.3),
            sprite,
            Transform::from_translation(start),
            Destination(Point::new(29, 19 - i * 2)),
        ));
    }
}

/// A left click walls a floor tile or opens a wall tile.
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
            destination.0.x = 29 - destination.0.x;
        }
    }
}
