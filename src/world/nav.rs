//! The navigation grid: what the planner searches, derived from the world's obstacle entities.
//!
//! The world has two layers: walls, each an entity with [`Obstacle`] and [`CellPos`], and the
//! ground under them ([`GroundMap`]). This module is the one place that turns them into the
//! [`NavGrid`], incrementally: two observers block a cell when an obstacle appears and free it
//! when the obstacle goes, and a system applies each [`GroundChanged`] cell. An edit costs O(1),
//! and nothing rebuilds the grid every frame; only a new map builds a new one
//! ([`NavGrid::from_ground`]).
//!
//! Searches may run off the frame, on Bevy's task pools: [`NavGrid::snapshot`] hands them the
//! grid as it is now, shared rather than copied (an `Arc`). An edit while a snapshot is out
//! copies the grid once (`Arc::make_mut`), so the search keeps the grid it started on and the
//! world moves on. Every change also gets a revision number and a line in a short log
//! ([`NavGrid::changes_since`]), so a result can tell whether the cells it used changed since.

use crate::AppSystems;
use crate::world::terrain::{GroundChanged, GroundMap};
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use gridpath::{Cell, Grid, Point};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The cell an entity stands on.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellPos(pub Point);

/// A wall. Spawn it with a [`CellPos`]: `commands.spawn((Obstacle, CellPos(p)))`.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Obstacle;

/// The grid the planner searches, kept up to date by observers on [`Obstacle`].
#[derive(Resource, Debug)]
pub struct NavGrid {
    grid: Arc<Grid>,
    /// The entry cost of each cell when it is not walled (terrain), row-major.
    ground: Vec<u32>,
    /// Which obstacle entity blocks each walled cell.
    obstacles: HashMap<Point, Entity>,
    /// Changes (walls and ground) get increasing numbers, never reused by another grid.
    revision: u64,
    /// The last [`NavGrid::CHANGE_LOG_LEN`] changed cells with their revisions, oldest first.
    log: VecDeque<(u64, Point)>,
    /// Below this revision the log cannot tell what changed.
    log_starts: u64,
}

/// Revision numbers shared by all grids, so that one from an older map is never mistaken for one
/// of the current map.
fn next_revision() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl NavGrid {
    /// An open grid of `width × height` cells of cost 1.
    pub fn new(width: u32, height: u32) -> Result<Self, gridpath::GridError> {
        let grid = Grid::new(width, height)?;
        let ground = vec![1; grid.len()];
        let revision = next_revision();
        Ok(Self {
            grid: Arc::new(grid),
            ground,
            obstacles: HashMap::default(),
            revision,
            log: VecDeque::new(),
            log_starts: revision,
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

    /// The grid as it is now, to search away from the frame: shared, not copied.
    pub fn snapshot(&self) -> Arc<Grid> {
        Arc::clone(&self.grid)
    }

    /// A number that grows with every change of a wall or a ground cost.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// How many changes [`NavGrid::changes_since`] remembers.
    pub const CHANGE_LOG_LEN: usize = 4096;

    /// The cells changed (walls or ground) since the grid had `revision`, oldest first; `None`
    /// when the log cannot say (too old, or another map's revision): treat everything as changed.
    pub fn changes_since(&self, revision: u64) -> Option<impl Iterator<Item = Point> + '_> {
        (revision >= self.log_starts && revision <= self.revision).then(|| {
            self.log
                .iter()
                .skip_while(move |(r, _)| *r <= revision)
                .map(|(_, p)| *p)
        })
    }

    /// Was a path found on revision `revision` overtaken by an edit it depends on? A path is, if
    /// a changed cell lies on it or at a corner it cuts past; "no path" (empty) is, if anything
    /// changed, since the change may have opened a way.
    pub fn changed_under(&self, revision: u64, path: &[Point]) -> bool {
        if revision == self.revision {
            return false;
        }
        let Some(changes) = self.changes_since(revision) else {
            return true; // too long ago to tell, or another map
        };
        let changed: HashSet<Point> = changes.collect();
        path.is_empty() || path_touches(path, &changed)
    }

    /// Sets a cell of the shared grid, copying it first if a search still holds a snapshot.
    fn set_cell(&mut self, p: Point, cell: Cell) {
        if self.grid.cell(p) == Some(cell) {
            return;
        }
        let _ = Arc::make_mut(&mut self.grid).set(p, cell);
        self.revision = next_revision();
        if self.log.len() == Self::CHANGE_LOG_LEN
            && let Some((dropped, _)) = self.log.pop_front()
        {
            self.log_starts = dropped;
        }
        self.log.push_back((self.revision, p));
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
                self.set_cell(p, Cell::Passable(self.ground[i]));
            }
        }
    }

    pub(in crate::world) fn block(&mut self, p: Point, entity: Entity) -> bool {
        if !self.grid.contains(p) || self.obstacles.contains_key(&p) {
            return false;
        }
        self.obstacles.insert(p, entity);
        self.set_cell(p, Cell::Blocked);
        true
    }

    fn unblock(&mut self, p: Point, entity: Entity) {
        if self.obstacles.get(&p) == Some(&entity) {
            self.obstacles.remove(&p);
            if let Some(i) = self.grid.index_of(p) {
                self.set_cell(p, Cell::Passable(self.ground[i]));
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

/// Does a change to any of `changed` touch this path: a cell on it, or a corner that one of its
/// diagonal steps passes (a wall there forbids the step, as the planner does not cut corners)?
pub fn path_touches(path: &[Point], changed: &HashSet<Point>) -> bool {
    if changed.is_empty() {
        return false;
    }
    path.iter().any(|p| changed.contains(p))
        || path.windows(2).any(|w| {
            let (a, b) = (w[0], w[1]);
            a.x != b.x
                && a.y != b.y
                && (changed.contains(&Point::new(a.x, b.y))
                    || changed.contains(&Point::new(b.x, a.y)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_touches_a_path_on_it_or_at_a_corner_it_passes() {
        let path = [Point::new(0, 0), Point::new(1, 1), Point::new(2, 1)];
        let set = |ps: &[(i32, i32)]| ps.iter().map(|&(x, y)| Point::new(x, y)).collect();
        assert!(path_touches(&path, &set(&[(2, 1)])));
        assert!(
            path_touches(&path, &set(&[(1, 0)])),
            "the corner of the diagonal step"
        );
        assert!(path_touches(&path, &set(&[(0, 1)])), "the other corner");
        assert!(!path_touches(&path, &set(&[(2, 0), (3, 3)])));
        assert!(!path_touches(&path, &HashSet::default()));
    }

    #[test]
    fn a_result_is_stale_if_an_edit_touches_its_path_or_any_edit_follows_no_path() {
        let mut nav = NavGrid::new(4, 4).expect("a grid");
        let before = nav.revision();
        let path = [Point::new(0, 0), Point::new(1, 0)];
        assert!(!nav.changed_under(before, &path));
        assert!(!nav.changed_under(before, &[]), "nothing changed");
        nav.set_ground_cost(Point::new(3, 3), 4);
        assert!(!nav.changed_under(before, &path), "not on the path");
        assert!(nav.changed_under(before, &[]), "may have opened a way");
        nav.set_ground_cost(Point::new(1, 0), 4);
        assert!(nav.changed_under(before, &path));
        assert!(nav.changed_under(0, &path), "another map's revision");
    }

    #[test]
    fn the_change_log_names_what_changed_since_a_revision() {
        let mut nav = NavGrid::new(4, 4).expect("a grid");
        let before = nav.revision();
        let held = nav.snapshot();
        nav.set_ground_cost(Point::new(1, 1), 5);
        assert!(nav.block(Point::new(2, 2), Entity::PLACEHOLDER));
        nav.set_ground_cost(Point::new(3, 3), 1); // no change: not logged
        let changed: Vec<Point> = nav.changes_since(before).expect("logged").collect();
        assert_eq!(changed, [Point::new(1, 1), Point::new(2, 2)]);
        assert_eq!(
            nav.changes_since(nav.revision()).map(Iterator::count),
            Some(0)
        );
        // The snapshot taken before is the grid as it was: the edit copied.
        assert!(held.is_passable(Point::new(2, 2)));
        assert!(!nav.is_passable(Point::new(2, 2)));
        // Another grid's revision, or one older than the log, cannot be answered.
        let other = NavGrid::new(4, 4).expect("a grid");
        assert!(nav.changes_since(other.revision()).is_none());
        for i in 0..NavGrid::CHANGE_LOG_LEN as u32 + 1 {
            nav.set_ground_cost(Point::new(0, 0), 2 + i % 2);
        }
        assert!(nav.changes_since(before).is_none());
    }
}
