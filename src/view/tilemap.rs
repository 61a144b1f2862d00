//! Drawing the map with bevy_ecs_tilemap: a floor or wall tile per cell.
//!
//! A new map (a changed [`MapLayout`]) rebuilds the tilemap from the world. After that, the
//! observers on [`Obstacle`] and the [`GroundChanged`] messages note which cells changed, and only
//! those tiles are updated. The tilemap renders in chunks, so even a 512×512 map is a handful of
//! meshes.

use crate::AppSystems;
use crate::view::textures::{self, TileLook};
use crate::world::layout::{MapLayout, TILE};
use crate::world::nav::{CellPos, NavGrid, Obstacle};
use crate::world::terrain::{Ground, GroundChanged, GroundMap};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use gridpath::Point;

#[derive(Resource)]
struct TileAtlas(Handle<Image>);

/// Marks the tilemap entity.
#[derive(Component)]
struct MapTiles;

/// The tilemap's systems, for others to run after.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TileSystems;

/// The tile entity of a cell.
pub fn tile_entity(storage: &TileStorage, layout: &MapLayout, p: Point) -> Option<Entity> {
    layout
        .contains(p)
        .then(|| storage.get(&tile_pos(layout, p)))
        .flatten()
}

/// Cells whose tile must be redrawn.
#[derive(Resource, Default)]
struct DirtyTiles(Vec<Point>);

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(TilemapPlugin)
        .init_resource::<DirtyTiles>()
        .add_systems(Startup, make_atlas)
        .add_systems(
            Update,
            (note_ground_changes, rebuild_tilemap, redraw_dirty_tiles)
                .chain()
                .in_set(TileSystems)
                .in_set(AppSystems::Draw),
        )
        .add_observer(note_dirty::<Add>)
        .add_observer(note_dirty::<Remove>);
}

fn make_atlas(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.insert_resource(TileAtlas(images.add(textures::tile_atlas())));
}

fn note_dirty<E: EntityEvent>(
    event: On<E, Obstacle>,
    cells: Query<&CellPos>,
    mut dirty: ResMut<DirtyTiles>,
) {
    if let Ok(cell) = cells.get(event.event_target()) {
        dirty.0.push(cell.0);
    }
}

fn note_ground_changes(mut changes: MessageReader<GroundChanged>, mut dirty: ResMut<DirtyTiles>) {
    dirty.0.extend(changes.read().map(|c| c.0));
}

fn look_of(nav: &NavGrid, ground: &GroundMap, p: Point) -> TileLook {
    if nav.obstacle_at(p).is_some() {
        TileLook::Wall
    } else {
        TileLook::of_ground(Ground::from_cost(ground.cost(p).unwrap_or(1)))
    }
}

fn tile_pos(layout: &MapLayout, p: Point) -> TilePos {
    // Tilemap rows count up from the bottom; grid rows count down from the top.
    TilePos {
        x: p.x as u32,
        y: layout.height - 1 - p.y as u32,
    }
}

fn rebuild_tilemap(
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    ground: Option<Res<GroundMap>>,
    atlas: Res<TileAtlas>,
    old: Query<(Entity, &TileStorage), With<MapTiles>>,
    mut dirty: ResMut<DirtyTiles>,
    mut commands: Commands,
) {
    let (Some(layout), Some(nav), Some(ground)) = (layout, nav, ground) else {
        return;
    };
    if !layout.is_changed() {
        return;
    }
    for (map, storage) in &old {
        for tile in storage.iter().flatten() {
            commands.entity(*tile).despawn();
        }
        commands.entity(map).despawn();
    }
    dirty.0.clear();

    let layout = *layout;
    let looks: Vec<u32> = (0..layout.height)
        .flat_map(|y| (0..layout.width).map(move |x| Point::new(x as i32, y as i32)))
        .map(|p| look_of(&nav, &ground, p) as u32)
        .collect();
    let texture = TilemapTexture::Single(atlas.0.clone());
    // One command with direct world access: `World::spawn_batch` hands back the tile ids, and
    // batch spawning is far faster than one command per tile on a 512×512 map.
    commands.queue(move |world: &mut World| spawn_tilemap(world, layout, &looks, texture));
}

fn spawn_tilemap(world: &mut World, layout: MapLayout, looks: &[u32], texture: TilemapTexture) {
    let size = TilemapSize {
        x: layout.width,
        y: layout.height,
    };
    let map = world.spawn((Name::new("Tilemap"), MapTiles)).id();
    let cells = || {
        (0..layout.height)
            .flat_map(|y| (0..layout.width).map(move |x| Point::new(x as i32, y as i32)))
    };
    let bundles = cells().zip(looks).map(|(p, &look)| TileBundle {
        position: tile_pos(&layout, p),
        tilemap_id: TilemapId(map),
        texture_index: TileTextureIndex(look),
        ..default()
    });
    let ids: Vec<Entity> = world.spawn_batch(bundles).collect();
    let mut storage = TileStorage::empty(size);
    for (p, id) in cells().zip(ids) {
        storage.set(&tile_pos(&layout, p), id);
    }
    let tile_size = TilemapTileSize { x: TILE, y: TILE };
    world.entity_mut(map).insert(TilemapBundle {
        grid_size: tile_size.into(),
        map_type: TilemapType::Square,
        size,
        storage,
        texture,
        tile_size,
        anchor: TilemapAnchor::Center,
        ..default()
    });
}

fn redraw_dirty_tiles(
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    ground: Option<Res<GroundMap>>,
    mut dirty: ResMut<DirtyTiles>,
    storage: Query<&TileStorage, With<MapTiles>>,
    mut tiles: Query<&mut TileTextureIndex>,
) {
    let (Some(layout), Some(nav), Some(ground)) = (layout, nav, ground) else {
        return;
    };
    if dirty.0.is_empty() {
        return;
    }
    let Ok(storage) = storage.single() else {
        return;
    };
    for p in dirty.0.drain(..) {
        if !layout.contains(p) {
            continue;
        }
        if let Some(tile) = storage.get(&tile_pos(&layout, p))
            && let Ok(mut index) = tiles.get_mut(tile)
        {
            let look = look_of(&nav, &ground, p) as u32;
            if index.0 != look {
                index.0 = look;
            }
        }
    }
}
