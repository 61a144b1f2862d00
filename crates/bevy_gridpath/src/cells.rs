//! Walls and costs from the game's own entities.
//!
//! An entity with [`Obstacle`] walls the cell it stands on; one with [`CellCost`] sets the entry
//! cost of its cell. Its cell is its [`CellPos`], or with the `tilemap` feature a tile's
//! `TilePos`. Observers apply each addition and removal at once (O(1) per edit) and a system
//! follows moved walls and changed costs, so the [`NavGrid`] is always the world as it is now.
//!
//! A [`NavGrid`] inserted when walls and costs already exist (a level's tiles spawned first), or
//! replaced by a new one, reads every [`Obstacle`] and [`CellCost`] in the world at once: the
//! order in which a game spawns its level and inserts its grid does not matter.
//!
//! A second wall on a walled cell, or one outside the grid, walls nothing: the plugin says why in
//! the log, triggers [`ObstacleIgnored`] on it and leaves the entity alone (the game owns it, and
//! may despawn it).

use crate::classes::CellTerrain;
use crate::nav_grid::NavGrid;
use bevy::ecs::system::SystemParam;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use gridpath::{Point, Terrain};

/// The cell an entity stands on (for walls, costs and agents that are not tiles).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellPos(pub Point);

/// Walls the entity's cell: `commands.spawn((Obstacle, CellPos(p)))`, or add it to a tile.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Obstacle;

/// The entry cost of the entity's cell (1 is plain ground; mud might be 3). Several entities on
/// one cell: the last one set wins, and removing it puts the cell back to 1.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellCost(pub u32);

/// Triggered on an [`Obstacle`] that walls nothing: outside the grid, without a position, or on a
/// cell another entity walls already. Observe it to despawn such walls, or to warn the player.
#[derive(EntityEvent, Clone, Copy, Debug)]
pub struct ObstacleIgnored {
    /// The obstacle.
    pub entity: Entity,
}

/// Where an entity is on the grid: its [`CellPos`], else its tile position.
#[derive(SystemParam)]
pub struct CellOf<'w, 's> {
    cells: Query<'w, 's, &'static CellPos>,
    #[cfg(feature = "tilemap")]
    tiles: Query<'w, 's, &'static bevy_ecs_tilemap::tiles::TilePos>,
}

impl CellOf<'_, '_> {
    /// The entity's cell, if it has a position.
    pub fn get(&self, entity: Entity) -> Option<Point> {
        if let Ok(CellPos(p)) = self.cells.get(entity) {
            return Some(*p);
        }
        #[cfg(feature = "tilemap")]
        if let Ok(t) = self.tiles.get(entity) {
            return Some(Point::new(t.x as i32, t.y as i32));
        }
        None
    }
}

/// Moved walls and changed costs are followed in `sync`.
pub(crate) fn plugin(app: &mut App, sync: impl SystemSet) {
    app.add_observer(read_the_world)
        .add_observer(block_cell)
        .add_observer(free_cell)
        .add_observer(set_cost)
        .add_observer(clear_cost)
        .add_systems(
            Update,
            (
                follow_moved_walls,
                follow_changed_costs,
                follow_changed_terrain,
            )
                .in_set(sync),
        );
}

/// A new obstacle walls its cell. Before there is a grid it waits: the grid reads it when it
/// comes ([`read_the_world`]).
fn block_cell(
    add: On<Add, Obstacle>,
    cell_of: CellOf,
    nav: Option<ResMut<NavGrid>>,
    mut commands: Commands,
) {
    let Some(mut nav) = nav else {
        return;
    };
    if let Err(why) = place(&mut nav, add.entity, cell_of.get(add.entity)) {
        warn!("an Obstacle walls nothing: {why}");
        commands.trigger(ObstacleIgnored { entity: add.entity });
    }
}

/// A nav grid inserted or replaced reads the walls and costs already in the world (see the
/// module docs). The obstacles that wall nothing are told of in one line, whatever their number.
fn read_the_world(
    _: On<Insert, NavGrid>,
    walls: Query<Entity, With<Obstacle>>,
    costs: Query<(Entity, &CellCost)>,
    terrains: Query<(Entity, &CellTerrain)>,
    cell_of: CellOf,
    mut nav: ResMut<NavGrid>,
    mut commands: Commands,
) {
    for (entity, cost) in &costs {
        if let Some(p) = cell_of.get(entity) {
            nav.set_ground_cost(p, cost.0);
        }
    }
    for (entity, terrain) in &terrains {
        if let Some(p) = cell_of.get(entity) {
            nav.set_terrain(p, terrain.0);
        }
    }
    let mut ignored = Vec::new();
    for entity in &walls {
        if let Err(why) = place(&mut nav, entity, cell_of.get(entity)) {
            ignored.push(why);
            commands.trigger(ObstacleIgnored { entity });
        }
    }
    if let Some(first) = ignored.first() {
        warn!(
            "{} of the {} Obstacles already spawned wall nothing on the new grid ({first}...)",
            ignored.len(),
            walls.iter().len()
        );
    }
}

/// Walls `at` for `entity`, or says why it cannot.
fn place(nav: &mut NavGrid, entity: Entity, at: Option<Point>) -> Result<(), String> {
    let Some(p) = at else {
        return Err("it has no CellPos (or TilePos)".into());
    };
    if nav.blocked_by(entity) == Some(p) || nav.block(p, entity) {
        Ok(())
    } else if !nav.grid().contains(p) {
        let (w, h) = (nav.width(), nav.height());
        Err(format!("{p} is outside the {w} × {h} grid"))
    } else {
        Err(format!("{p} is walled by another entity already"))
    }
}

/// A removed (or despawned) obstacle frees its cell, back to its ground cost.
fn free_cell(remove: On<Remove, Obstacle>, nav: Option<ResMut<NavGrid>>) {
    if let Some(mut nav) = nav {
        nav.unblock(remove.entity);
    }
}

fn set_cost(
    insert: On<Insert, CellCost>,
    costs: Query<&CellCost>,
    cell_of: CellOf,
    nav: Option<ResMut<NavGrid>>,
) {
    if let (Some(mut nav), Ok(cost), Some(p)) =
        (nav, costs.get(insert.entity), cell_of.get(insert.entity))
    {
        nav.set_ground_cost(p, cost.0);
    }
}

fn clear_cost(remove: On<Remove, CellCost>, cell_of: CellOf, nav: Option<ResMut<NavGrid>>) {
    if let (Some(mut nav), Some(p)) = (nav, cell_of.get(remove.entity)) {
        nav.set_ground_cost(p, 1);
    }
}

/// Terrain entities added or changed (set again through `&mut CellTerrain`) apply their
/// terrain; removed or despawned ones put their cell back to ground (the cell each one set is
/// remembered, as a despawned entity has no position left to read). A system in `SyncGrid`,
/// not observers as walls and costs have: the grid follows before anything plans in the frame,
/// and a game without terrain gets no more observers than it had.
fn follow_changed_terrain(
    changed: Query<(Entity, &CellTerrain), Changed<CellTerrain>>,
    mut removed: RemovedComponents<CellTerrain>,
    cell_of: CellOf,
    nav: Option<ResMut<NavGrid>>,
    mut set_by: Local<HashMap<Entity, Point>>,
) {
    let Some(mut nav) = nav else {
        return;
    };
    for entity in removed.read() {
        if let Some(p) = set_by.remove(&entity) {
            nav.set_terrain(p, Terrain::GROUND);
        }
    }
    for (entity, terrain) in &changed {
        if let Some(p) = cell_of.get(entity) {
            nav.set_terrain(p, terrain.0);
            set_by.insert(entity, p);
        }
    }
}

/// A wall whose position changed moves its wall (or keeps the old one when the new cell is taken).
fn follow_moved_walls(
    moved: Query<Entity, (With<Obstacle>, Or<(Changed<CellPos>, ChangedTile)>)>,
    cell_of: CellOf,
    nav: Option<ResMut<NavGrid>>,
) {
    let Some(mut nav) = nav else {
        return;
    };
    for entity in &moved {
        let Some(p) = cell_of.get(entity) else {
            continue;
        };
        if nav.blocked_by(entity) != Some(p) && nav.obstacle_at(p).is_none() {
            nav.unblock(entity);
            nav.block(p, entity);
        }
    }
}

/// A cost entity whose cost changed (set again through `&mut CellCost`) applies it.
fn follow_changed_costs(
    changed: Query<(Entity, &CellCost), Changed<CellCost>>,
    cell_of: CellOf,
    nav: Option<ResMut<NavGrid>>,
) {
    let Some(mut nav) = nav else {
        return;
    };
    for (entity, cost) in &changed {
        if let Some(p) = cell_of.get(entity) {
            nav.set_ground_cost(p, cost.0);
        }
    }
}

#[cfg(feature = "tilemap")]
type ChangedTile = Changed<bevy_ecs_tilemap::tiles::TilePos>;
#[cfg(not(feature = "tilemap"))]
type ChangedTile = Changed<CellPos>;
