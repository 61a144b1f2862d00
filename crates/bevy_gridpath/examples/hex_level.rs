//! A hexagon tilemap as a level: click a tile to wall it (or open it again), and watch the
//! walkers' routes bend round it, from hexagon centre to hexagon centre.
//!
//! The only differences from a square level: the map's `TilemapType` goes to
//! `NavGrid::for_tilemap` (which places the cells where bevy_ecs_tilemap draws the tiles, and
//! picks the tile under the pointer as it does), and the agents move between touching
//! hexagons (`movement_for` the layout's shape: `Movement::Hex`). A* on hexagons uses the hex
//! distance, exact on open ground.
//!
//! With `--staggered`, the same level on a staggered isometric map (each row of diamonds half
//! a tile right of the row below): the agents move between the diamonds that touch
//! (`Movement::StaggeredEightWay`), and the map is a wide parallelogram, as bevy_ecs_tilemap
//! draws it.
//!
//! `cargo run --example hex_level [-- --staggered]` (from the workspace root)

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;
use bevy_ecs_tilemap::prelude::*;
use bevy_gridpath::prelude::*;
use bevy_gridpath::tilemap::movement_for;

const FLOOR: Color = Color::srgb(0.78, 0.8, 0.72);
const WALL: Color = Color::srgb(0.25, 0.27, 0.33);

/// The level's map: its type, size and tiles.
#[derive(Resource, Clone, Copy)]
struct Level {
    map_type: TilemapType,
    size: TilemapSize,
    tile: TilemapTileSize,
}

impl Level {
    /// Pointy-top hexagons 26 pixels wide and 30 high (close to regular: √3 : 2), odd rows
    /// shifted half a hexagon right.
    const HEX: Level = Level {
        map_type: TilemapType::Hexagon(HexCoordSystem::RowOdd),
        size: TilemapSize { x: 27, y: 21 },
        tile: TilemapTileSize { x: 26.0, y: 30.0 },
    };
    /// Diamonds 28 pixels wide and 14 high, rows half a diamond apart: a row adds only 7
    /// pixels of height, so twice the rows of the hex map make a flatter level.
    const STAGGERED: Level = Level {
        map_type: TilemapType::Isometric(IsoCoordSystem::Staggered),
        size: TilemapSize { x: 20, y: 40 },
        tile: TilemapTileSize { x: 28.0, y: 14.0 },
    };

    /// A wall from the bottom edge up the middle, with a gap near the top.
    fn is_wall(&self, x: u32, y: u32) -> bool {
        x == self.size.x / 2 && y < self.size.y * 3 / 4
    }
}

fn main() {
    let staggered = std::env::args().any(|a| a == "--staggered");
    App::new()
        .insert_resource(if staggered {
            Level::STAGGERED
        } else {
            Level::HEX
        })
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

fn spawn_level(mut commands: Commands, mut images: ResMut<Assets<Image>>, level: Res<Level>) {
    commands.spawn(Camera2d);
    let Level {
        map_type,
        size,
        tile,
    } = *level;
    let grid_size = tile.into();
    let anchor = TilemapAnchor::Center;
    let nav = NavGrid::for_tilemap(
        &map_type,
        &size,
        &grid_size,
        &tile,
        &anchor,
        &Transform::default(),
    );
    let nav = nav.expect("the level fits a grid");
    let layout = *nav.layout();
    commands.insert_resource(nav);

    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for x in 0..size.x {
        for y in 0..size.y {
            let position = TilePos { x, y };
            let wall = level.is_wall(x, y);
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
        map_type,
        size,
        storage,
        tile_size: tile,
        anchor,
        texture: TilemapTexture::Single(images.add(tile_image(&level))),
        ..default()
    });

    // Six walkers from the left edge to the right edge and back, stepping between touching
    // tiles.
    let movement = movement_for(layout.shape, Movement::default());
    let (right, rows) = (size.x as i32 - 2, size.y as i32);
    for i in 0..6 {
        let start = Point::new(1, rows / 10 + rows * i / 7);
        let sprite = Sprite::from_color(
            Color::hsl(i as f32 * 60.0, 0.8, 0.5),
            Vec2::splat(tile.y.min(tile.x) * 0.55),
        );
        commands.spawn((
            GridAgent {
                movement,
                ..GridAgent::new(4.0 + i as f32 * 0.4)
            },
            sprite,
            Transform::from_translation(layout.to_world(start).extend(1.0)),
            Destination(Point::new(right, rows - 1 - start.y)),
        ));
    }
}

/// A white tile of the level's shape, transparent around it: the tilemap tints it. A pointy-top
/// hexagon, or a diamond.
fn tile_image(level: &Level) -> Image {
    let (w, h) = (level.tile.x as u32, level.tile.y as u32);
    let hexagon = matches!(level.map_type, TilemapType::Hexagon(_));
    let mut pixels = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            // Distance from the centre, across and up; a hexagon's slanted edges meet the sides
            // a quarter of the height from the top and bottom, a diamond's meet at its
            // corners. Half a pixel more all round, so that neighbouring tiles meet without a
            // seam.
            let dx = ((x as f32 + 0.5) - w as f32 / 2.0).abs();
            let dy = ((y as f32 + 0.5) - h as f32 / 2.0).abs();
            let slant = dx * h as f32 / w as f32;
            let inside = if hexagon {
                dy <= h as f32 / 2.0 - slant / 2.0 + 0.5
            } else {
                dy <= h as f32 / 2.0 - slant + 0.5
            };
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
fn turn_back(mut agents: Query<(&AgentStatus, &mut Destination)>, level: Res<Level>) {
    for (status, mut destination) in &mut agents {
        if *status == AgentStatus::Arrived {
            destination.0.x = level.size.x as i32 - 1 - destination.0.x;
        }
    }
}
