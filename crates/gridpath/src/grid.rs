//! The map that every search runs on: a rectangle of cells, each blocked or passable with a cost.
//!
//! A passable cell has an *entry cost* of at least 1: stepping into it costs that much (times √2 on
//! a diagonal step). This is Red Blob Games' `cost(from, to) = weight(to)`: mud is expensive to walk
//! *into*, a road is cheap. A blocked cell cannot be entered at all.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::links::{Link, LinkId, Links};
pub use crate::point::Point;
use crate::run_bits::{RunBits, RunLine};
use crate::terrain::{Terrain, TerrainLayer};

/// Every new grid and every change of walls anywhere takes the next number from here, so two
/// grids with the same [`Grid::wall_revision`] have the same walls.
static NEXT_WALL_REVISION: AtomicU64 = AtomicU64::new(1);

fn next_wall_revision() -> u64 {
    NEXT_WALL_REVISION.fetch_add(1, Ordering::Relaxed)
}

/// What one cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// A wall: no move may enter it.
    Blocked,
    /// Open ground. Entering it costs `cost` (≥ 1) on a straight step and `cost × √2` on a diagonal.
    Passable(u32),
}

impl Cell {
    /// Plain floor: passable at cost 1.
    pub const FLOOR: Cell = Cell::Passable(1);

    /// Can a unit enter a cell of this cost? (Everything but a wall.)
    pub fn is_passable(self) -> bool {
        matches!(self, Cell::Passable(_))
    }
}

/// Why a grid could not be made or changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// Width or height is zero, or the grid would hold more than [`Grid::MAX_CELLS`] cells.
    BadSize {
        /// The width asked for.
        width: u32,
        /// The height asked for.
        height: u32,
    },
    /// The point is not inside the grid.
    OutOfBounds(Point),
    /// A passable cell must cost at least 1, or heuristics stop being admissible.
    ZeroCost(Point),
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::BadSize { width, height } => write!(
                f,
                "a grid of {width}×{height} is not allowed: each side must be at least 1 and the \
                 grid at most {} cells",
                Grid::MAX_CELLS
            ),
            GridError::OutOfBounds(p) => write!(f, "{p} is outside the grid"),
            GridError::ZeroCost(p) => write!(f, "the cell at {p} would cost 0; costs start at 1"),
        }
    }
}

impl std::error::Error for GridError {}

/// A rectangular grid of [`Cell`]s, stored row by row.
///
/// Besides the cells it keeps two small summaries up to date on every change, so that a search
/// can ask for them in O(1): the smallest entry cost (heuristics are scaled by it to stay
/// admissible) and whether every passable cell costs the same (jump point search needs that).
/// It also numbers its walls' versions ([`Grid::wall_revision`]), so that what is derived from the
/// walls alone, such as [`crate::components::Components`], knows when to be redone, and remembers the last
/// few wall changes ([`Grid::wall_changes_since`]), so that it can be repaired instead.
#[derive(Clone)]
pub struct Grid {
    width: u32,
    height: u32,
    /// Entry cost per cell, row-major; 0 means blocked.
    costs: Vec<u32>,
    /// How many passable cells have each entry cost.
    cost_histogram: BTreeMap<u32, usize>,
    /// Where straight runs stop, as bits, for jump point search's 64-cells-at-a-time jumps.
    bits: RunBits,
    /// What each cell is made of, for unit classes ([`crate::UnitClass`]).
    terrain: TerrainLayer,
    /// Changes whenever a cell's terrain does ([`Grid::terrain_revision`]).
    terrain_revision: u64,
    wall_revision: u64,
    wall_log: WallLog,
    /// Edges between cells beside the moves: doors, ladders, stairs ([`Grid::add_link`]).
    links: Links,
    /// Changes whenever a link is added, removed, opened or shut ([`Grid::link_revision`]).
    link_revision: u64,
}

/// Equal grids have the same size, cells, terrain and links; their revision numbers do not
/// matter.
impl PartialEq for Grid {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height) == (other.width, other.height)
            && self.costs == other.costs
            && self.terrain == other.terrain
            && self.links == other.links
    }
}

impl Eq for Grid {}

impl Grid {
    /// The largest grid allowed: 2²⁶ (about 67 million) cells, so that indices fit in a `u32`
    /// with room to spare and search buffers stay within a few gigabytes at most.
    pub const MAX_CELLS: u64 = 1 << 26;

    /// A grid of `width × height` floor cells (passable, cost 1).
    pub fn new(width: u32, height: u32) -> Result<Self, GridError> {
        let cells = u64::from(width) * u64::from(height);
        if width == 0 || height == 0 || cells > Self::MAX_CELLS {
            return Err(GridError::BadSize { width, height });
        }
        let len = cells as usize;
        let wall_revision = next_wall_revision();
        Ok(Self {
            width,
            height,
            costs: vec![1; len],
            cost_histogram: BTreeMap::from([(1, len)]),
            bits: RunBits::open(width, height),
            terrain: TerrainLayer::ground(len),
            terrain_revision: next_wall_revision(),
            wall_revision,
            wall_log: WallLog::starting_at(wall_revision),
            links: Links::default(),
            link_revision: next_wall_revision(),
        })
    }

    /// Builds a grid from rows of text, one character per cell: `#` is blocked, `.` is floor, and
    /// a digit `1`–`9` is floor with that entry cost. Handy in tests and examples.
    ///
    /// ```
    /// let grid = gridpath::Grid::from_ascii(&["..#", ".9#", "..."]).unwrap();
    /// assert_eq!(grid.width(), 3);
    /// assert_eq!(grid.cell((1, 1).into()), Some(gridpath::Cell::Passable(9)));
    /// ```
    pub fn from_ascii(rows: &[&str]) -> Result<Self, String> {
        let height = rows.len() as u32;
        let width = rows.first().map_or(0, |r| r.chars().count()) as u32;
        let mut grid = Grid::new(width, height).map_err(|e| e.to_string())?;
        for (y, row) in rows.iter().enumerate() {
            let cells = row.chars().count();
            if cells as u32 != width {
                return Err(format!("row {y} has {cells} cells, expected {width}"));
            }
            for (x, ch) in row.chars().enumerate() {
                let cell = match ch {
                    '#' => Cell::Blocked,
                    '.' => Cell::FLOOR,
                    '1'..='9' => Cell::Passable(ch as u32 - '0' as u32),
                    other => return Err(format!("unknown cell {other:?} at ({x}, {y})")),
                };
                grid.set(Point::new(x as i32, y as i32), cell)
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(grid)
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells, `width × height`.
    pub fn len(&self) -> usize {
        self.costs.len()
    }

    /// Always false: a grid has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.costs.is_empty()
    }

    /// Is `p` inside the grid?
    pub fn contains(&self, p: Point) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height
    }

    /// The row-major index of `p`, or `None` when it is outside.
    pub fn index_of(&self, p: Point) -> Option<usize> {
        self.contains(p)
            .then(|| p.y as usize * self.width as usize + p.x as usize)
    }

    /// The point at a row-major index (which must be below [`Grid::len`]).
    pub fn point_of(&self, index: usize) -> Point {
        let w = self.width as usize;
        Point::new((index % w) as i32, (index / w) as i32)
    }

    /// The cell at `p`, or `None` when `p` is outside the grid.
    pub fn cell(&self, p: Point) -> Option<Cell> {
        self.index_of(p).map(|i| cell_from_cost(self.costs[i]))
    }

    /// True when `p` is inside the grid and not blocked.
    pub fn is_passable(&self, p: Point) -> bool {
        self.index_of(p).is_some_and(|i| self.costs[i] != 0)
    }

    /// Sets one cell.
    pub fn set(&mut self, p: Point, cell: Cell) -> Result<(), GridError> {
        self.set_cell(p, cell, RunBitsUpdate::Now)
    }

    /// Sets many cells, as [`Grid::set`] would one by one, stopping at the first error. Faster for
    /// a whole map: the bits that jump point search reads are redone once, at the end, instead of
    /// around every cell.
    pub fn set_many(
        &mut self,
        cells: impl IntoIterator<Item = (Point, Cell)>,
    ) -> Result<(), GridError> {
        let result = cells
            .into_iter()
            .try_for_each(|(p, cell)| self.set_cell(p, cell, RunBitsUpdate::Later));
        self.bits.redo_stops();
        result
    }

    fn set_cell(&mut self, p: Point, cell: Cell, update: RunBitsUpdate) -> Result<(), GridError> {
        let i = self.index_of(p).ok_or(GridError::OutOfBounds(p))?;
        let new = match cell {
            Cell::Blocked => 0,
            Cell::Passable(0) => return Err(GridError::ZeroCost(p)),
            Cell::Passable(cost) => cost,
        };
        let old = std::mem::replace(&mut self.costs[i], new);
        if (old == 0) != (new == 0) {
            let (x, y, free) = (p.x as u32, p.y as u32, new != 0);
            match update {
                RunBitsUpdate::Now => self.bits.set(x, y, free),
                RunBitsUpdate::Later => self.bits.set_free_only(x, y, free),
            }
            self.wall_revision = next_wall_revision();
            self.wall_log.record(self.wall_revision, i as u32);
            self.terrain.count(i, free);
        }
        if old != new {
            if old != 0 {
                self.forget_cost(old);
            }
            if new != 0 {
                *self.cost_histogram.entry(new).or_default() += 1;
            }
        }
        Ok(())
    }

    /// The terrain of the cell at `p` (whether or not it is a wall), or `None` outside the grid.
    pub fn terrain(&self, p: Point) -> Option<Terrain> {
        self.index_of(p).map(|i| self.terrain.get(i))
    }

    /// Sets what the cell at `p` is made of. Its cost and whether it is a wall stay as they are:
    /// a [`crate::UnitClass`] decides what the terrain means to each kind of unit.
    pub fn set_terrain(&mut self, p: Point, terrain: Terrain) -> Result<(), GridError> {
        let i = self.index_of(p).ok_or(GridError::OutOfBounds(p))?;
        let passable = self.costs[i] != 0;
        if self.terrain.set(i, terrain, passable) {
            self.terrain_revision = next_wall_revision();
        }
        Ok(())
    }

    /// A number that changes whenever a cell's terrain changes, never reused, as
    /// [`Grid::wall_revision`] is for walls: what a class's regions, say, were made for.
    pub fn terrain_revision(&self) -> u64 {
        self.terrain_revision
    }

    /// Adds a link between two cells ([`Link`]): a door, a ladder, the stairs between two
    /// floors. Both ends must be on the grid (either may be a wall: a link to a wall is never
    /// taken). Links are few, a handful to a few hundred: each change lays them all out again.
    pub fn add_link(&mut self, link: Link) -> Result<LinkId, GridError> {
        for end in [link.from, link.to] {
            if !self.contains(end) {
                return Err(GridError::OutOfBounds(end));
            }
        }
        self.link_revision = next_wall_revision();
        Ok(self.links.add(link, self.width))
    }

    /// Removes a link; `None` if there was none of that id.
    pub fn remove_link(&mut self, id: LinkId) -> Option<Link> {
        let link = self.links.remove(id, self.width)?;
        self.link_revision = next_wall_revision();
        Some(link)
    }

    /// Opens or shuts a link (a door); whether anything changed.
    pub fn set_link_open(&mut self, id: LinkId, open: bool) -> bool {
        let changed = self.links.set_open(id, open, self.width);
        if changed {
            self.link_revision = next_wall_revision();
        }
        changed
    }

    /// The link of that id, if there is one.
    pub fn link(&self, id: LinkId) -> Option<&Link> {
        self.links.get(id)
    }

    /// Every link, open or shut, with its id.
    pub fn links(&self) -> impl Iterator<Item = (LinkId, &Link)> + '_ {
        self.links.iter()
    }

    /// Whether any link is open: what the searches that cannot take one ask.
    pub fn has_open_links(&self) -> bool {
        !self.links.edges().is_empty()
    }

    /// A number that changes whenever a link is added, removed, opened or shut, never reused:
    /// what regions joined by links were worked out for.
    pub fn link_revision(&self) -> u64 {
        self.link_revision
    }

    /// The grid's links, for the searches.
    pub(crate) fn link_table(&self) -> &Links {
        &self.links
    }

    /// The terrains of the passable cells, each once, in order.
    pub fn terrains_present(&self) -> impl Iterator<Item = Terrain> + '_ {
        self.terrain.present()
    }

    /// A number that changes whenever a cell becomes blocked or passable (not when a cost changes).
    /// Numbers are never reused, by this grid or any other, so a cache of something derived from
    /// the walls can keep the number it was made for and compare: equal means still valid. A
    /// clone keeps the number, since it has the same walls.
    pub fn wall_revision(&self) -> u64 {
        self.wall_revision
    }

    /// The cells whose walls came or went since the grid had `revision` as its
    /// [`Grid::wall_revision`], oldest first (a cell may appear more than once). `None` when the
    /// grid cannot say: the revision is older than the last [`Grid::WALL_LOG_LEN`] changes, or
    /// belongs to another grid. Then whatever was derived from the walls must be redone whole.
    ///
    /// ```
    /// use gridpath::{Grid, Point};
    ///
    /// let mut grid = Grid::new(4, 4).unwrap();
    /// let before = grid.wall_revision();
    /// grid.set_blocked(Point::new(1, 2), true).unwrap();
    /// let changed: Vec<Point> = grid.wall_changes_since(before).unwrap().collect();
    /// assert_eq!(changed, [Point::new(1, 2)]);
    /// assert!(grid.wall_changes_since(Grid::new(4, 4).unwrap().wall_revision()).is_none());
    /// ```
    pub fn wall_changes_since(
        &self,
        revision: u64,
    ) -> Option<impl ExactSizeIterator<Item = Point> + '_> {
        let changes = self.wall_log.since(revision)?;
        Some(changes.map(|i| self.point_of(i as usize)))
    }

    /// How many wall changes [`Grid::wall_changes_since`] remembers.
    pub const WALL_LOG_LEN: usize = 1024;

    /// Blocks or unblocks a cell. Unblocking makes it floor of cost 1.
    pub fn set_blocked(&mut self, p: Point, blocked: bool) -> Result<(), GridError> {
        self.set(p, if blocked { Cell::Blocked } else { Cell::FLOOR })
    }

    /// The smallest entry cost of any passable cell (1 on a grid with no passable cell). Every
    /// step costs at least this much, so a heuristic scaled by it never overestimates.
    pub fn min_cost(&self) -> u32 {
        self.cost_histogram.keys().next().copied().unwrap_or(1)
    }

    /// The largest entry cost of any passable cell (1 on a grid with no passable cell).
    pub fn max_cost(&self) -> u32 {
        self.cost_histogram.keys().next_back().copied().unwrap_or(1)
    }

    /// True when all passable cells share one entry cost: the "uniform-cost grid" that jump
    /// point search assumes.
    pub fn is_uniform_cost(&self) -> bool {
        self.cost_histogram.len() <= 1
    }

    /// Is `(x, y)` inside the grid and passable? The searches' hot loops use this.
    #[inline]
    pub(crate) fn is_free(&self, x: i32, y: i32) -> bool {
        // Negative coordinates wrap to huge unsigned values and fail the bounds test.
        (x as u32) < self.width
            && (y as u32) < self.height
            && self.costs[y as usize * self.width as usize + x as usize] != 0
    }

    /// Which of the eight cells around `(x, y)` are free, one bit each, row by row: bit 0 for
    /// `(x − 1, y − 1)`, 1 for `(x, y − 1)`, 2 for `(x + 1, y − 1)`, 3 and 4 for the cells
    /// left and right, 5 to 7 for the row below. A cell outside the map counts as a wall. This
    /// is what jump point search prunes by.
    #[inline(always)]
    pub(crate) fn free_neighbours(&self, x: i32, y: i32) -> u8 {
        self.bits.free_neighbours(x, y)
    }

    /// Which of the nine cells centred on `(x, y)` are free, one bit each, row by row: bit
    /// `3 (dy + 1) + dx + 1` for `(x + dx, y + dy)`, the centre's own at bit 4. A cell outside
    /// the map counts as a wall. Three reads of the bit rows, which are a thirty-second of the
    /// cost array: what a step of a crowd spread over the whole map reads for each body
    /// ([`crate::movement::Movement::moves`]), as the cost array falls out of the cache between steps.
    #[inline(always)]
    pub(crate) fn free_block(&self, x: i32, y: i32) -> u16 {
        if self.contains(Point::new(x, y)) {
            self.bits.free_block(x, y)
        } else {
            0
        }
    }

    /// [`Grid::is_passable`] read from the bit rows ([`Grid::free_block`]).
    #[inline(always)]
    pub(crate) fn is_free_bit(&self, p: Point) -> bool {
        self.free_block(p.x, p.y) & 1 << 4 != 0
    }

    /// Row `y` as bits for a straight run east, or west with `mirrored` (position `p` is then
    /// cell `width − 1 − p`). Rows -1 and `height` exist and are all walls.
    #[inline(always)]
    pub(crate) fn row_run(&self, y: i32, mirrored: bool) -> RunLine<'_> {
        self.bits.row(y, mirrored)
    }

    /// Column `x` as bits for a straight run south, or north with `mirrored` (position `p` is
    /// then row `height − 1 − p`). Columns -1 and `width` exist and are all walls.
    #[inline(always)]
    pub(crate) fn column_run(&self, x: i32, mirrored: bool) -> RunLine<'_> {
        self.bits.column(x, mirrored)
    }

    /// Entry cost by index; 0 means blocked. The searches' hot loops use this.
    #[inline]
    pub(crate) fn raw_cost(&self, index: usize) -> u32 {
        self.costs[index]
    }

    /// Every cell's entry cost, row-major; 0 means blocked.
    pub(crate) fn raw_costs(&self) -> &[u32] {
        &self.costs
    }

    /// Every cell's terrain id, row-major.
    pub(crate) fn terrain_ids(&self) -> &[u8] {
        self.terrain.ids()
    }

    /// [`Grid::raw_cost`], or `None` off the end of the grid.
    #[inline]
    pub(crate) fn raw_cost_at(&self, index: usize) -> Option<u32> {
        self.costs.get(index).copied()
    }

    fn forget_cost(&mut self, cost: u32) {
        if let Some(count) = self.cost_histogram.get_mut(&cost) {
            *count -= 1;
            if *count == 0 {
                self.cost_histogram.remove(&cost);
            }
        }
    }
}

/// The last [`Grid::WALL_LOG_LEN`] wall changes: for each, the revision it made and its cell.
#[derive(Clone)]
struct WallLog {
    /// The revision just before the oldest change kept.
    base: u64,
    changes: VecDeque<(u64, u32)>,
}

impl WallLog {
    fn starting_at(revision: u64) -> Self {
        Self {
            base: revision,
            changes: VecDeque::new(),
        }
    }

    fn record(&mut self, revision: u64, cell: u32) {
        if self.changes.len() == Grid::WALL_LOG_LEN
            && let Some((oldest, _)) = self.changes.pop_front()
        {
            self.base = oldest;
        }
        self.changes.push_back((revision, cell));
    }

    /// The cells changed after `revision`, if it is this log's base or one of its changes.
    /// Revisions only grow, so the changes are sorted by them.
    fn since(&self, revision: u64) -> Option<impl ExactSizeIterator<Item = u32> + '_> {
        let first = if revision == self.base {
            0
        } else {
            self.changes
                .binary_search_by_key(&revision, |&(r, _)| r)
                .ok()?
                + 1
        };
        Some(self.changes.range(first..).map(|&(_, cell)| cell))
    }
}

/// When [`Grid::set_cell`] updates the run bits' stops: around each cell, or all at once later.
enum RunBitsUpdate {
    Now,
    Later,
}

fn cell_from_cost(cost: u32) -> Cell {
    if cost == 0 {
        Cell::Blocked
    } else {
        Cell::Passable(cost)
    }
}

/// Draws the grid as in [`Grid::from_ascii`] (costs above 9 show as `+`).
impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Grid {}×{}", self.width, self.height)?;
        for row in self.costs.chunks(self.width as usize) {
            for &c in row {
                let ch = match c {
                    0 => '#',
                    1 => '.',
                    2..=9 => char::from_digit(c, 10).unwrap_or('+'),
                    _ => '+',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbourhood bits, read from the padded rows, say what `is_free` says of each of the
    /// eight cells: on every cell of grids wide enough for the three bits to straddle two words,
    /// with walls, edits (which go through the bits' own bookkeeping) and the map's edges.
    #[test]
    fn free_neighbours_say_what_is_free_says() {
        for (width, height) in [(1, 1), (3, 2), (64, 3), (130, 4)] {
            let mut g = Grid::new(width, height).unwrap();
            for i in 0..g.len() {
                if (i * 7919) % 5 < 2 {
                    g.set_blocked(g.point_of(i), true).unwrap();
                }
            }
            for i in 0..g.len() {
                let Point { x, y } = g.point_of(i);
                let around = [
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                    (-1, 0),
                    (1, 0),
                    (-1, 1),
                    (0, 1),
                    (1, 1),
                ];
                let expected = around.iter().enumerate().fold(0u8, |bits, (k, &(dx, dy))| {
                    bits | u8::from(g.is_free(x + dx, y + dy)) << k
                });
                assert_eq!(
                    g.free_neighbours(x, y),
                    expected,
                    "({x}, {y}) on {width}×{height}"
                );
            }
        }
    }

    #[test]
    fn rejects_empty_and_huge_sizes() {
        assert!(matches!(Grid::new(0, 5), Err(GridError::BadSize { .. })));
        assert!(matches!(Grid::new(5, 0), Err(GridError::BadSize { .. })));
        assert!(matches!(
            Grid::new(1 << 14, 1 << 13),
            Err(GridError::BadSize { .. })
        ));
        assert!(Grid::new(1, 1).is_ok());
    }

    #[test]
    fn out_of_bounds_is_an_error_not_a_panic() {
        let mut g = Grid::new(3, 2).unwrap();
        assert_eq!(g.cell(Point::new(-1, 0)), None);
        assert_eq!(g.cell(Point::new(3, 0)), None);
        assert!(!g.is_passable(Point::new(0, 2)));
        assert_eq!(
            g.set_blocked(Point::new(0, -1), true),
            Err(GridError::OutOfBounds(Point::new(0, -1)))
        );
    }

    #[test]
    fn tracks_min_cost_and_uniformity() {
        let mut g = Grid::new(2, 2).unwrap();
        assert_eq!(g.min_cost(), 1);
        assert!(g.is_uniform_cost());
        g.set(Point::new(0, 0), Cell::Passable(5)).unwrap();
        assert!(!g.is_uniform_cost());
        for p in [(0, 1), (1, 0), (1, 1)] {
            g.set(p.into(), Cell::Passable(3)).unwrap();
        }
        assert_eq!(g.min_cost(), 3);
        g.set_blocked(Point::new(0, 0), true).unwrap();
        assert!(g.is_uniform_cost());
        assert_eq!(
            g.set(Point::new(0, 0), Cell::Passable(0)),
            Err(GridError::ZeroCost(Point::new(0, 0)))
        );
    }

    #[test]
    fn the_wall_revision_changes_with_the_walls_only() {
        let mut g = Grid::new(3, 3).unwrap();
        let (first, other) = (g.wall_revision(), Grid::new(3, 3).unwrap().wall_revision());
        assert_ne!(first, other);
        g.set(Point::new(1, 1), Cell::Passable(7)).unwrap();
        assert_eq!(g.wall_revision(), first, "a cost is not a wall");
        g.set_blocked(Point::new(1, 1), true).unwrap();
        let walled = g.wall_revision();
        assert_ne!(walled, first);
        g.set_blocked(Point::new(1, 1), true).unwrap();
        assert_eq!(g.wall_revision(), walled, "no change, no new number");
        assert_eq!(g.clone().wall_revision(), walled);
        assert_eq!(Grid::new(3, 3).unwrap(), Grid::new(3, 3).unwrap());
    }

    #[test]
    fn the_wall_log_lists_changes_until_it_forgets_them() {
        let mut g = Grid::new(40, 40).unwrap();
        let start = g.wall_revision();
        let changes = |g: &Grid, since| g.wall_changes_since(since).map(|c| c.collect::<Vec<_>>());
        assert_eq!(changes(&g, start), Some(vec![]));
        g.set(Point::new(3, 4), Cell::Passable(9)).unwrap();
        assert_eq!(changes(&g, start), Some(vec![]), "costs are not walls");
        g.set_blocked(Point::new(3, 4), true).unwrap();
        let middle = g.wall_revision();
        g.set_blocked(Point::new(5, 6), true).unwrap();
        g.set_blocked(Point::new(3, 4), false).unwrap();
        let all = vec![Point::new(3, 4), Point::new(5, 6), Point::new(3, 4)];
        assert_eq!(changes(&g, start), Some(all.clone()));
        assert_eq!(changes(&g, middle), Some(all[1..].to_vec()));
        assert_eq!(changes(&g.clone(), middle), Some(all[1..].to_vec()));
        // Another grid's revision, or one this grid never had, cannot be answered.
        assert_eq!(changes(&g, Grid::new(2, 2).unwrap().wall_revision()), None);
        // After more changes than the log keeps, the oldest revisions are forgotten.
        for i in 0..Grid::WALL_LOG_LEN {
            g.set_blocked(g.point_of(i), true).unwrap();
        }
        assert_eq!(changes(&g, middle), None);
        assert_eq!(changes(&g, start), None);
    }

    #[test]
    fn ascii_round_trip() {
        let g = Grid::from_ascii(&[".#", "3."]).unwrap();
        assert_eq!(g.cell(Point::new(1, 0)), Some(Cell::Blocked));
        assert_eq!(g.cell(Point::new(0, 1)), Some(Cell::Passable(3)));
        assert_eq!(format!("{g:?}"), "Grid 2×2\n.#\n3.\n");
    }
}
