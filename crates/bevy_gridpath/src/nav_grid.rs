//! The navigation grid: what every search runs on, kept in step with the game's own entities.
//!
//! A game does not build a grid by hand and keep it up to date: it marks entities (walls, costly
//! ground) with components, and observers change one cell per edit ([`crate::cells`]). Nothing
//! rebuilds the grid every frame.
//!
//! Searches run off the frame, on Bevy's task pools: [`NavGrid::snapshot`] hands them the grid as
//! it is now, shared rather than copied (an `Arc`). An edit while a snapshot is out copies the grid
//! once (`Arc::make_mut`), so the search keeps the grid it started on and the world moves on.
//! Every change gets a revision number and a line in a short log ([`NavGrid::changes_since`]), so a
//! result can tell whether the cells it used changed since it was planned.
//!
//! Units bigger than one cell move on grids of their own ([`NavGrid::grid_for`]): a cell is
//! floor there where the unit fits with its top-left corner on it. Each is made the first time
//! a unit of that size asks, and repaired from the log after edits, never rebuilt every frame.

use crate::layout::GridLayout;
use crate::off_frame::lock;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use gridpath::mapf::crowd::CrowdMap;
use gridpath::{Cell, Clearance, Grid, GridError, Link, LinkId, Point, Terrain, UnitClass};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The grid every search runs on. Insert one (with [`NavGrid::new`]) when a level loads; the
/// [`crate::cells`] observers keep it in step with walls and costs from then on.
#[derive(Resource, Debug)]
pub struct NavGrid {
    grid: Arc<Grid>,
    layout: GridLayout,
    /// The entry cost of each cell when it is not walled (terrain), row-major.
    ground: Vec<u32>,
    /// Which entity blocks each walled cell, and the other way round.
    obstacles: HashMap<Point, Entity>,
    blocking: HashMap<Entity, Point>,
    /// Changes (walls and ground) get increasing numbers, never reused by another grid.
    revision: u64,
    /// The last [`NavGrid::CHANGE_LOG_LEN`] changed cells with their revisions, oldest first.
    /// A terrain change carries the terrain before and after: a unit class for which both cost
    /// the same can ignore it ([`NavGrid::changes_since_as`]).
    log: VecDeque<(u64, Point, Option<(Terrain, Terrain)>)>,
    /// Below this revision the log cannot tell what changed.
    log_starts: u64,
    /// The grids of units bigger than one cell, made on demand (see the module docs).
    sized: Mutex<SizedGrids>,
    /// The revision at which a link was last added or opened ([`NavGrid::link_opened_since`]).
    link_opened: u64,
}

/// Each size's grid, asked of the [`NavGrid`] once in a system's run rather than once an agent.
pub(crate) struct GridsBySize<'n> {
    nav: &'n NavGrid,
    grids: Vec<Option<Arc<Grid>>>,
}

impl<'n> GridsBySize<'n> {
    pub(crate) fn new(nav: &'n NavGrid) -> Self {
        Self {
            nav,
            grids: Vec::new(),
        }
    }

    /// The grid a unit `size` cells across moves on ([`NavGrid::grid_for`]).
    pub(crate) fn get(&mut self, size: u8) -> Arc<Grid> {
        let k = usize::from(size.max(1));
        if self.grids.len() <= k {
            self.grids.resize(k + 1, None);
        }
        let nav = self.nav;
        Arc::clone(self.grids[k].get_or_insert_with(|| nav.grid_for(size)))
    }
}

/// What a crowd's bookkeeping reads of the map (its gatherings, settling): the trait's boxes
/// round the changed cells come with it.
impl CrowdMap for NavGrid {
    fn grid(&self) -> &Grid {
        NavGrid::grid(self)
    }

    fn grid_for(&self, size: u8) -> Arc<Grid> {
        NavGrid::grid_for(self, size)
    }

    fn revision(&self) -> u64 {
        NavGrid::revision(self)
    }

    fn changes_since(&self, revision: u64) -> Option<Box<dyn Iterator<Item = Point> + '_>> {
        let changes = NavGrid::changes_since(self, revision)?;
        Some(Box::new(changes))
    }
}

/// The clearance and the grids made from it: for each size, the revision it is up to date with.
#[derive(Debug, Default)]
struct SizedGrids {
    clearance: Clearance,
    grids: Vec<(u8, u64, Arc<Grid>)>,
    /// The same for units of a class: its clearance, and its grids by size and revision.
    class_clearance: Clearance,
    classed: Vec<(UnitClass, u8, u64, Arc<Grid>)>,
}

/// Revision numbers shared by all grids, so that one from an older level is never mistaken for
/// one of the current level.
fn next_revision() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl NavGrid {
    /// An open grid of `width × height` cells of cost 1, one world unit per cell.
    pub fn new(width: u32, height: u32) -> Result<Self, GridError> {
        let grid = Grid::new(width, height)?;
        let ground = vec![1; grid.len()];
        let revision = next_revision();
        Ok(Self {
            grid: Arc::new(grid),
            layout: GridLayout::default(),
            ground,
            obstacles: HashMap::default(),
            blocking: HashMap::default(),
            revision,
            log: VecDeque::new(),
            log_starts: revision,
            sized: Mutex::default(),
            link_opened: 0,
        })
    }

    /// The same grid, with cells placed in the world by `layout`.
    pub fn with_layout(mut self, layout: GridLayout) -> Self {
        self.layout = layout;
        self
    }

    /// Where the cells are in the world.
    pub fn layout(&self) -> &GridLayout {
        &self.layout
    }

    /// Moves the cells in the world (a camera-independent change: no revision).
    pub fn set_layout(&mut self, layout: GridLayout) {
        self.layout = layout;
    }

    /// The grid as it is now, to read (a search, a flow field, a drawing).
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The grid a unit `size` cells across moves on, as it is now: a cell is floor where the
    /// unit fits with its top-left corner there, and costs the dearest cell under it
    /// ([`Clearance::grid_for`]). Size 1 (or 0) is [`NavGrid::snapshot`]. Made the first time it
    /// is asked for, then repaired around the cells edited since (a full remake only when the
    /// log cannot say what changed). Sizes above [`Clearance::MAX`] fit nowhere.
    pub fn grid_for(&self, size: u8) -> Arc<Grid> {
        if size <= 1 {
            return self.snapshot();
        }
        let mut sized = lock(&self.sized);
        let SizedGrids {
            clearance, grids, ..
        } = &mut *sized;
        clearance.update(&self.grid);
        let entry = match grids.iter().position(|g| g.0 == size) {
            Some(k) => &mut grids[k],
            None => {
                let fresh = Arc::new(clearance.grid_for(&self.grid, size));
                grids.push((size, self.revision, fresh));
                return Arc::clone(&grids[grids.len() - 1].2);
            }
        };
        if entry.1 != self.revision {
            // A clone keeps the links it was made with: after a link's change, made again.
            let same_links = entry.2.link_revision() == self.grid.link_revision();
            match self.changes_since(entry.1).filter(|_| same_links) {
                Some(changes) => {
                    let grid = Arc::make_mut(&mut entry.2);
                    clearance.repair(&self.grid, grid, size, changes);
                }
                None => entry.2 = Arc::new(clearance.grid_for(&self.grid, size)),
            }
            entry.1 = self.revision;
        }
        Arc::clone(&entry.2)
    }

    /// [`NavGrid::grid_for`] for a unit of `class` and `size` above 1: the grid it moves on, in
    /// the class's costs, to search without a class ([`Clearance::grid_for_as`]). Made again
    /// after any edit (the class's clearance is not repaired cell by cell). For size 1, search
    /// [`NavGrid::snapshot`] with the class.
    pub fn grid_for_as(&self, class: &UnitClass, size: u8) -> Arc<Grid> {
        let mut sized = lock(&self.sized);
        let found = sized
            .classed
            .iter()
            .position(|(c, k, revision, _)| c == class && *k == size && *revision == self.revision);
        if let Some(k) = found {
            return Arc::clone(&sized.classed[k].3);
        }
        let SizedGrids {
            class_clearance,
            classed,
            ..
        } = &mut *sized;
        class_clearance.update_as(&self.grid, class);
        let fresh = Arc::new(class_clearance.grid_for_as(&self.grid, class, size.max(1)));
        classed.retain(|(c, k, _, _)| !(c == class && *k == size));
        if classed.len() >= 16 {
            classed.remove(0);
        }
        classed.push((class.clone(), size, self.revision, Arc::clone(&fresh)));
        fresh
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
    /// when the log cannot say (too old, or another grid's revision): treat everything as changed.
    pub fn changes_since(&self, revision: u64) -> Option<impl Iterator<Item = Point> + '_> {
        (revision >= self.log_starts && revision <= self.revision).then(|| {
            // The log is in revision order: find where the changes after `revision` begin
            // (asked every frame by every body, mostly of the latest revision: no changes).
            let first = self.log.partition_point(|&(r, ..)| r <= revision);
            self.log.range(first..).map(|(_, p, _)| *p)
        })
    }

    /// Was a path found on revision `revision` overtaken by an edit it depends on? A path is, if
    /// a changed cell lies on it or at a corner it cuts past; "no path" (empty) is, if anything
    /// changed, since the change may have opened a way.
    pub fn changed_under(&self, revision: u64, path: &[Point]) -> bool {
        self.changed_under_unit(revision, path, 1)
    }

    /// [`NavGrid::changed_under`] for the path of a unit `size` cells across: an edit under any
    /// cell it covers on the way counts.
    pub fn changed_under_unit(&self, revision: u64, path: &[Point], size: u8) -> bool {
        if revision == self.revision {
            return false;
        }
        let Some(changes) = self.changes_since(revision) else {
            return true; // too long ago to tell, or another grid
        };
        let changed = corners_touched(changes, size);
        path.is_empty() || path_touches(path, &changed)
    }

    /// Has a wall gone since `revision` (a way that may be shorter than a route planned then)?
    /// `true` when the log cannot say.
    pub fn freed_since(&self, revision: u64) -> bool {
        match self.changes_since(revision) {
            Some(mut changes) => changes.any(|p| self.is_passable(p)),
            None => revision != self.revision,
        }
    }

    /// The passable cell nearest to `from` in steps (breadth-first over the 8 neighbours, walls
    /// included): where a unit under a newly painted wall goes. `None` on a grid with no free
    /// cell.
    pub fn nearest_free(&self, from: Point) -> Option<Point> {
        nearest_passable(&self.grid, from)
    }

    /// The cell nearest to `from` where a unit `size` cells across fits, as
    /// [`NavGrid::nearest_free`] finds it for one cell.
    pub fn nearest_fit(&self, from: Point, size: u8) -> Option<Point> {
        nearest_passable(&self.grid_for(size), from)
    }

    /// Sets a cell of the shared grid, copying it first if a search still holds a snapshot.
    fn set_cell(&mut self, p: Point, cell: Cell) {
        if self.grid.cell(p) == Some(cell) {
            return;
        }
        let _ = Arc::make_mut(&mut self.grid).set(p, cell);
        self.record(p);
    }

    /// What the cell at `p` is made of ([`crate::CellTerrain`] sets it): what a unit class
    /// reads. `None` outside the grid.
    pub fn terrain(&self, p: Point) -> Option<Terrain> {
        self.grid.terrain(p)
    }

    /// Sets what the cell at `p` is made of; a change is an edit like a wall's (a revision, a
    /// line in the log), so routes over it are planned again.
    pub fn set_terrain(&mut self, p: Point, terrain: Terrain) {
        if let Some(before) = self.grid.terrain(p).filter(|&t| t != terrain) {
            let _ = Arc::make_mut(&mut self.grid).set_terrain(p, terrain);
            self.log_change(p, Some((before, terrain)));
        }
    }

    /// Adds a link between two cells (a door, stairs, a teleporter: [`gridpath::Link`]); `None`
    /// when an end is off the grid. [`crate::NavLink`] on an entity does this for a game. A
    /// change is logged at both ends, as an edit of those cells: routes through them, and units
    /// waiting for a way, plan again.
    pub fn add_link(&mut self, link: Link) -> Option<LinkId> {
        let id = Arc::make_mut(&mut self.grid).add_link(link).ok()?;
        self.record_link(&link);
        if link.open {
            self.link_opened = self.revision;
        }
        Some(id)
    }

    /// Removes a link; what it was, if there was one.
    pub fn remove_link(&mut self, id: LinkId) -> Option<Link> {
        let link = Arc::make_mut(&mut self.grid).remove_link(id)?;
        self.record_link(&link);
        Some(link)
    }

    /// Opens or shuts a link (a door); whether anything changed.
    pub fn set_link_open(&mut self, id: LinkId, open: bool) -> bool {
        let Some(&link) = self.grid.link(id).filter(|l| l.open != open) else {
            return false;
        };
        Arc::make_mut(&mut self.grid).set_link_open(id, open);
        self.record_link(&link);
        if open {
            self.link_opened = self.revision;
        }
        true
    }

    /// Has a link been added or opened since `revision`? It may be a shortcut for any route,
    /// wherever its ends are: agents plan again.
    pub fn link_opened_since(&self, revision: u64) -> bool {
        self.link_opened > revision
    }

    /// Every link, open or shut, with its id.
    pub fn links(&self) -> impl Iterator<Item = (LinkId, &Link)> + '_ {
        self.grid.links()
    }

    /// A link's change, logged at both its ends.
    fn record_link(&mut self, link: &Link) {
        self.record(link.from);
        self.record(link.to);
    }

    /// [`NavGrid::changes_since`] as a unit of `class` sees them: a terrain changed to one the
    /// class reads the same (both closed, or both at one factor) is left out, so units of that
    /// class keep their routes. `None` (the grid as it is) leaves out every terrain change.
    pub fn changes_since_as<'a>(
        &'a self,
        revision: u64,
        class: Option<&'a UnitClass>,
    ) -> Option<impl Iterator<Item = Point> + 'a> {
        (revision >= self.log_starts && revision <= self.revision).then(move || {
            let first = self.log.partition_point(|&(r, ..)| r <= revision);
            let matters = move |terrain: &Option<(Terrain, Terrain)>| match (terrain, class) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some((before, after)), Some(class)) => {
                    class.cost_of(*before) != class.cost_of(*after)
                }
            };
            self.log
                .range(first..)
                .filter(move |(_, _, terrain)| matters(terrain))
                .map(|(_, p, _)| *p)
        })
    }

    /// [`NavGrid::changed_under_unit`] for a unit of `class`: only the edits that class sees
    /// ([`NavGrid::changes_since_as`]) count.
    pub fn changed_under_unit_as(
        &self,
        revision: u64,
        path: &[Point],
        size: u8,
        class: Option<&UnitClass>,
    ) -> bool {
        if revision == self.revision {
            return false;
        }
        let Some(changes) = self.changes_since_as(revision, class) else {
            return true; // too long ago to tell, or another grid
        };
        let changed = corners_touched(changes, size);
        path.is_empty() || path_touches(path, &changed)
    }

    /// A new revision for a change of a wall or a cost at `p`, logged.
    fn record(&mut self, p: Point) {
        self.log_change(p, None);
    }

    /// A new revision for a change at `p` (of its terrain, from and to, if that is what changed),
    /// logged.
    fn log_change(&mut self, p: Point, terrain: Option<(Terrain, Terrain)>) {
        self.revision = next_revision();
        if self.log.len() == Self::CHANGE_LOG_LEN
            && let Some((dropped, ..)) = self.log.pop_front()
        {
            self.log_starts = dropped;
        }
        self.log.push_back((self.revision, p, terrain));
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.grid.width()
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.grid.height()
    }

    /// Is `p` on the grid and not a wall?
    pub fn is_passable(&self, p: Point) -> bool {
        self.grid.is_passable(p)
    }

    /// The entity walling a cell, if there is one.
    pub fn obstacle_at(&self, p: Point) -> Option<Entity> {
        self.obstacles.get(&p).copied()
    }

    /// How many cells are walled.
    pub fn obstacle_count(&self) -> usize {
        self.obstacles.len()
    }

    /// The walled cells.
    pub fn obstacles(&self) -> impl Iterator<Item = Point> + '_ {
        self.obstacles.keys().copied()
    }

    /// The entry cost a cell has when it is not walled.
    pub fn ground_cost(&self, p: Point) -> Option<u32> {
        self.grid.index_of(p).map(|i| self.ground[i])
    }

    /// Sets a cell's ground cost (terrain; at least 1). A walled cell keeps its wall, and gets the
    /// cost back when the wall goes.
    pub fn set_ground_cost(&mut self, p: Point, cost: u32) {
        if let Some(i) = self.grid.index_of(p) {
            self.ground[i] = cost.max(1);
            if !self.obstacles.contains_key(&p) {
                self.set_cell(p, Cell::Passable(self.ground[i]));
            }
        }
    }

    /// Walls `p` for `entity`. `false` (and no change) when `p` is outside the grid or another
    /// entity walls it already.
    pub fn block(&mut self, p: Point, entity: Entity) -> bool {
        if !self.grid.contains(p) || self.obstacles.contains_key(&p) {
            return false;
        }
        if let Some(old) = self.blocking.get(&entity).copied() {
            self.unblock(entity);
            debug_assert!(old != p);
        }
        self.obstacles.insert(p, entity);
        self.blocking.insert(entity, p);
        self.set_cell(p, Cell::Blocked);
        true
    }

    /// Frees the cell `entity` walls, if any (back to its ground cost).
    pub fn unblock(&mut self, entity: Entity) {
        if let Some(p) = self.blocking.remove(&entity) {
            self.obstacles.remove(&p);
            if let Some(i) = self.grid.index_of(p) {
                self.set_cell(p, Cell::Passable(self.ground[i]));
            }
        }
    }

    /// The cell `entity` walls, if it walls one.
    pub fn blocked_by(&self, entity: Entity) -> Option<Point> {
        self.blocking.get(&entity).copied()
    }
}

/// The cells where a unit `size` cells across, standing with its top-left corner there, covers
/// one of `changed`: each change and the cells up to `size - 1` above and left of it.
pub fn corners_touched(changed: impl IntoIterator<Item = Point>, size: u8) -> HashSet<Point> {
    let reach = i32::from(size.max(1)) - 1;
    let mut touched = HashSet::default();
    for p in changed {
        for y in p.y - reach..=p.y {
            for x in p.x - reach..=p.x {
                touched.insert(Point::new(x, y));
            }
        }
    }
    touched
}

/// The passable cell of `grid` nearest to `from` in steps, breadth first over every cell.
fn nearest_passable(grid: &Grid, from: Point) -> Option<Point> {
    gridpath::mapf::crowd::nearest_where(grid, from, |p| grid.is_passable(p))
}

/// Does a change to any of `changed` touch this path: a cell on it, or a corner that one of its
/// diagonal steps passes (a wall there forbids the step unless corners may be cut)?
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
        assert!(nav.changed_under(0, &path), "another grid's revision");
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

    #[test]
    fn a_wall_moved_by_its_entity_frees_the_old_cell() {
        let mut nav = NavGrid::new(4, 4).expect("a grid");
        let wall = Entity::PLACEHOLDER;
        assert!(nav.block(Point::new(1, 1), wall));
        let before = nav.revision();
        assert!(!nav.freed_since(before));
        assert!(nav.block(Point::new(2, 1), wall));
        assert!(nav.is_passable(Point::new(1, 1)));
        assert!(!nav.is_passable(Point::new(2, 1)));
        assert_eq!(nav.obstacle_count(), 1);
        assert!(nav.freed_since(before));
    }
}
