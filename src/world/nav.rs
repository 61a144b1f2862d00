//! The navigation grid: what the planner searches, derived from the world's obstacle entities.
//!
//! The world has two layers: walls, each an entity with [`Obstacle`] and [`CellPos`], and the
//! ground under them ([`GroundMap`]). This module is the one place that turns them into the
//! [`NavGrid`], incrementally: two observers block a cell when an obstacle appears and free it
//! when the obstacle goes, and a system applies each [`GroundChanged`] cell. An edit costs O(1),
//! and nothing rebuilds the grid every frame; only a new map builds a new one
//! ([`NavGrid::from_ground`]).

use crate::AppSystems;
use crate::world::terrain::{GroundChanged, GroundMap};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use gridpath::{Cell, Grid, Point};

/// The cell an entity stands on.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellPos(pub Point);

/// A wall. Spawn it with a [`CellPos`]: `commands.spawn((Obstacle, CellPos(p)))`.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Obstacle;

/// The grid the planner searches, kept up to date by observers on [`Obstacle`].
#[derive(Resource, Debug)]
pub struct NavGrid {
    grid: Grid,
    /// The entry cost of each cell when it is not walled (terrain), row-major.
    ground: Vec<u32>,
    /// Which obstacle entity blocks each walled cell.
    obstacles: HashMap<Point, Entity>,
}

impl NavGrid {
    /// An open grid of `width × height` cells of cost 1.
    pub fn new(width: u32, height: u32) -> Result<Self, gridpath::GridError> {
        let grid = Grid::new(width, height)?;
        let ground = vec![1; grid.len()];
        Ok(Self {
            grid,
            ground,
            obstacles: HashMap::default(),
        })
    }

    /// A grid with this ground and no walls yet (the obstacle observers add them).
    pub fn from_ground(ground: &GroundMap) -> Result<Self, gridpath::GridError> {
        let mut nav = Self::new(ground.width(), ground.height())?;
        for i in 0..nav.grid.len() {
            let p = nav.grid.point_of(i);
            if let Some(cost) = ground.cost(p) {
                nav.set_ground_cost(p, cost);
            }
        }
        Ok(nav)
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    pub fn width(&self) -> u32 {
        self.grid.width()
    }

    pub fn height(&self) -> u32 {
        self.grid.height()
    }

    pub fn is_passable(&self, p: Point) -> bool {
        self.grid.is_passable(p)
    }

    /// The obstacle entity on a cell, if there is one.
    pub fn obstacle_at(&self, p: Point) -> Option<Entity> {
        self.obstacles.get(&p).copied()
    }

    pub fn obstacle_count(&self) -> usize {
        self.obstacles.len()
    }

    /// The entry cost a cell has when it is not walled.
    pub fn ground_cost(&self, p: Point) -> Option<u32> {
        self.grid.index_of(p).map(|i| self.ground[i])
    }

    /// Sets a cell's ground cost (terrain). A walled cell keeps its wall, and gets the cost back
    /// when the wall goes.
    pub fn set_ground_cost(&mut self, p: Point, cost: u32) {
        if let Some(i) = self.grid.index_of(p) {
            self.ground[i] = cost.max(1);
            if !self.obstacles.contains_key(&p) {
                let _ = self.grid.set(p, Cell::Passable(self.ground[i]));
            }
        }
    }

    fn block(&mut self, p: Point, entity: Entity) -> bool {
        if !self.grid.contains(p) || self.obstacles.contains_key(&p) {
            return false;
        }
        self.obstacles.insert(p, entity);
        let _ = self.grid.set(p, Cell::Blocked);
        true
    }

    fn unblock(&mut self, p: Point, entity: Entity) {
        if self.obstacles.get(&p) == Some(&entity) {
            self.obstacles.remove(&p);
            if let Some(i) = self.grid.index_of(p) {
                let _ = self.grid.set(p, Cell::Passable(self.ground[i]));
            }
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<GroundChanged>()
        .add_observer(block_cell)
        .add_observer(free_cell)
        .add_systems(Update, follow_ground.in_set(AppSystems::Derive));
}

/// Copies changed ground costs into the grid.
fn follow_ground(
    mut changes: MessageReader<GroundChanged>,
    ground: Option<Res<GroundMap>>,
    nav: Option<ResMut<NavGrid>>,
) {
    let (Some(ground), Some(mut nav)) = (ground, nav) else {
        changes.clear();
        return;
    };
    for GroundChanged(p) in changes.read() {
        if let Some(cost) = ground.cost(*p) {
            nav.set_ground_cost(*p, cost);
        }
    }
}

/// A new obstacle blocks its cell. One outside the map, or on a cell that already has one, is
/// despawned: the grid is the single source of truth for what the planner sees.
fn block_cell(
    add: On<Add, Obstacle>,
    cells: Query<&CellPos>,
    nav: Option<ResMut<NavGrid>>,
    mut commands: Commands,
) {
    let Some(mut nav) = nav else {
        return;
    };
    let Ok(&CellPos(p)) = cells.get(add.entity) else {
        warn!("an Obstacle was spawned without a CellPos; removing it");
        commands.entity(add.entity).despawn();
        return;
    };
    if !nav.block(p, add.entity) {
        debug!("obstacle at {p} is outside the map or doubles another; removing it");
        commands.entity(add.entity).despawn();
    }
}

/// A removed obstacle frees its cell (back to its ground cost).
fn free_cell(remove: On<Remove, Obstacle>, cells: Query<&CellPos>, nav: Option<ResMut<NavGrid>>) {
    if let (Some(mut nav), Ok(&CellPos(p))) = (nav, cells.get(remove.entity)) {
        nav.unblock(p, remove.entity);
    }
}
