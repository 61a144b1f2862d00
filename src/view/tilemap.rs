//! Drawing the map with bevy_ecs_tilemap: a floor or wall tile per cell.
//!
//! A new map (a changed [`MapLayout`]) rebuilds the tilemap from the world. After that, the
//! observers on [`Obstacle`] and the [`GroundChanged`] messages note which cells changed, and only
//! those tiles are updated. The tilemap renders in chunks, so even a 512×512 map is a handful of
//! meshes.

use crate::frame::AppSystems;
use crate::view::textures::{self, TileLook};
use crate::world::layout::MapLayout;
use crate::world::nav::{CellPos, NavGrid, Obstacle};
use crate::world::terrain::{Ground, GroundChanged, GroundMap};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use gridpath::Point;
use gridpath::movingai::MapShape;

/// The tile atlas for each shape of cell, made when a map of that shape first shows.
#[derive(Resource, Default)]
struct TileAtlas(Vec<(MapShape, Handle<Image>)>);

impl TileAtlas {
    fn for_shape(&mut self, layout: &MapLayout, images: &mut Assets<Image>) -> Handle<Image> {
        if let Some((_, handle)) = self.0.iter().find(|(s, _)| *s == layout.shape) {
            return handle.clone();
        }
        let tile = layout.tiles().tile;
        let image = match layout.shape {
            MapShape::Octile => textures::tile_atlas(),
            _ => textures::shaped_tile_atlas(tile.as_uvec2(), &layout.tile_corners()),
        };
        let handle = images.add(image);
        self.0.push((layout.shape, handle.clone()));
        handle
    }
}

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
        .then(|| storage.get(&layout.tiles().tile_pos(p)))
        .flatten()
}

/// Cells whose tile must be redrawn.
#[derive(Resource, Default)]
struct DirtyTiles(Vec<Point>);

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(TilemapPlugin)
        .init_resource::<DirtyTiles>()
        .init_resource::<TileAtlas>()
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

fn rebuild_tilemap(
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    ground: Option<Res<GroundMap>>,
    mut atlas: ResMut<TileAtlas>,
    mut images: ResMut<Assets<Image>>,
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
    let texture = TilemapTexture::Single(atlas.for_shape(&layout, &mut images));
    // One command with direct world access: `World::spawn_batch` hands back the tile ids, and
    // batch spawning is far faster than one command per tile on a 512×512 map.
    commands.queue(move |world: &mut World| spawn_tilemap(world, layout, &looks, texture));
}

fn spawn_tilemap(world: &mut World, layout: MapLayout, looks: &[u32], texture: TilemapTexture) {
    let tiles = layout.tiles();
    let size = TilemapSize {
        x: tiles.size.x,
        y: tiles.size.y,
    };
    let map = world.spawn((Name::new("Tilemap"), MapTiles)).id();
    let cells = || {
        (0..layout.height)
            .flat_map(|y| (0..layout.width).map(move |x| Point::new(x as i32, y as i32)))
    };
    let bundles = cells().zip(looks).map(|(p, &look)| TileBundle {
        position: tiles.tile_pos(p),
        tilemap_id: TilemapId(map),
        texture_index: TileTextureIndex(look),
        ..default()
    });
    let ids: Vec<Entity> = world.spawn_batch(bundles).collect();
    let mut storage = TileStorage::empty(size);
    for (p, id) in cells().zip(ids) {
        storage.set(&tiles.tile_pos(p), id);
    }
    let tile_size = TilemapTileSize {
        x: tiles.tile.x,
        y: tiles.tile.y,
    };
    let grid_size = tile_size.into();
    // Placed so that cell (0, 0)'s tile lands where the layout puts the cell: every other tile
    // then lands on its cell too (the layout's tests check it).
    let origin = tiles.tile_pos(Point::new(0, 0));
    let unplaced = origin.center_in_world(
        &size,
        &grid_size,
        &tile_size,
        &tiles.map_type,
        &TilemapAnchor::None,
    );
    let shift = layout.cell_center(Point::new(0, 0)) - unplaced;
    world.entity_mut(map).insert(TilemapBundle {
        grid_size,
        map_type: tiles.map_type,
        size,
        storage,
        texture,
        tile_size,
        anchor: TilemapAnchor::None,
        transform: Transform::from_translation(shift.extend(0.0)),
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
        if let Some(tile) = storage.get(&layout.tiles().tile_pos(p))
            && let Ok(mut index) = tiles.get_mut(tile)
        {
            let look = look_of(&nav, &ground, p) as u32;
            if index.0 != look {
                index.0 = look;
            }
        }
    }
}
