//! Clearance: how big a unit fits where, so that a unit two cells wide never plans through a gap
//! one cell wide. The story is on [`Clearance`].

use crate::grid::{Cell, Grid, Point};
use crate::links::Link;
use crate::unit_class::{EntryCosts, UnitClass};

/// True clearance (Harabor and Botea, "Hierarchical Path Planning for Multi-Size Agents in
/// Heterogeneous Environments", CIG 2008): for each cell, the side of the largest square of free
/// cells whose top-left corner it is, 0 on a wall.
///
/// A unit of size k (a k × k square) stands with its top-left corner on a cell; it fits there
/// exactly when that cell's clearance is at least k. So a search for a k-unit is an ordinary
/// search on the grid where the cells of clearance below k are walls ([`Clearance::grid_for`]),
/// and every path it finds fits, cell by cell.
///
/// The values come from one sweep, from the bottom-right corner back, because a square at a cell
/// is a cell plus the squares at its right, lower and lower-right neighbours:
///
/// ```text
/// clearance(x, y) = 0                                             if (x, y) is a wall
///                 = 1 + min(clearance(x+1, y), clearance(x, y+1), clearance(x+1, y+1))
///                                                                 otherwise (0 off the grid)
/// ```
///
/// capped at [`Clearance::MAX`]. The cap is what makes an edit cheap to repair: a wall changed at
/// (x, y) can only change the clearance of cells at most `MAX - 1` to its left and above, so
/// [`Clearance::update`] sweeps that box again instead of the whole map.
///
/// ```
/// use gridpath::{Clearance, Grid, Point};
///
/// let grid = Grid::from_ascii(&[
///     "....",
///     "..#.",
///     "....",
/// ]).unwrap();
/// let mut clearance = Clearance::new();
/// clearance.update(&grid);
/// assert_eq!(clearance.at(&grid, Point::new(0, 0)), 2); // a 2 × 2 square of floor
/// assert_eq!(clearance.at(&grid, Point::new(1, 0)), 1); // the wall is below-right
/// assert_eq!(clearance.at(&grid, Point::new(2, 1)), 0); // the wall itself
/// ```
#[derive(Clone, Debug, Default)]
pub struct Clearance {
    values: Vec<u8>,
    width: usize,
    /// The walls the values were made for ([`Grid::wall_revision`]) and the grid's size.
    made_for: Option<(u64, usize, usize)>,
    /// The unit class they were made for, with the terrain they saw ([`Clearance::update_as`]).
    class: Option<(UnitClass, u64)>,
}

impl Clearance {
    /// The largest clearance recorded: units up to this size can be planned for, and an edit
    /// repairs at most a `MAX × MAX` box.
    pub const MAX: u8 = 16;

    /// An empty map, to be sized by the first [`Clearance::update`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Brings the values up to date with `grid`'s walls: nothing if they are already, a repair of
    /// the boxes the changes touch if the grid remembers them ([`Grid::wall_changes_since`]), a
    /// sweep of the whole grid otherwise. Costs never change clearance.
    pub fn update(&mut self, grid: &Grid) {
        if self.class.take().is_some() {
            self.made_for = None;
        }
        self.update_by(grid, grid);
    }

    /// [`Clearance::update`] for a unit class: a terrain it may not enter is a wall to it, so a
    /// tank of one class and a scout of another each get the clearance they see (Harabor and
    /// Botea's annotated clearance, for one capability). Made whole again when the terrain
    /// ([`Grid::terrain_revision`]) or the class change.
    ///
    /// ```
    /// use gridpath::{Clearance, Grid, Point, Terrain, UnitClass};
    ///
    /// let mut grid = Grid::new(3, 3).unwrap();
    /// grid.set_terrain(Point::new(1, 1), Terrain::WATER).unwrap();
    /// let mut clearance = Clearance::new();
    /// clearance.update_as(&grid, &UnitClass::new().without(Terrain::WATER));
    /// assert_eq!(clearance.at(&grid, Point::new(0, 0)), 1); // the water is below-right
    /// clearance.update(&grid);
    /// assert_eq!(clearance.at(&grid, Point::new(0, 0)), 3);
    /// ```
    pub fn update_as(&mut self, grid: &Grid, class: &UnitClass) {
        let wanted = (class.clone(), grid.terrain_revision());
        if self.class.as_ref() != Some(&wanted) {
            self.class = Some(wanted);
            self.made_for = None;
        }
        self.update_by(grid, class.on(grid));
    }

    fn update_by(&mut self, grid: &Grid, costs: impl EntryCosts) {
        let size = (grid.width() as usize, grid.height() as usize);
        let revision = grid.wall_revision();
        if let Some((made_for, width, height)) = self.made_for
            && (width, height) == size
        {
            if made_for == revision {
                return;
            }
            if let Some(changes) = grid.wall_changes_since(made_for) {
                // One box around all the changes, swept once: boxes swept one by one could read
                // a neighbour that a later box has yet to redo.
                let reach = i32::from(Self::MAX) - 1;
                let mut lowest = Point::new(i32::MAX, i32::MAX);
                let mut highest = Point::new(i32::MIN, i32::MIN);
                for p in changes {
                    lowest = Point::new(lowest.x.min(p.x - reach), lowest.y.min(p.y - reach));
                    highest = Point::new(highest.x.max(p.x), highest.y.max(p.y));
                }
                self.sweep(grid, costs, lowest, highest);
                self.made_for = Some((revision, size.0, size.1));
                return;
            }
        }
        self.width = size.0;
        self.values = vec![0; grid.len()];
        let corner = Point::new(size.0 as i32 - 1, size.1 as i32 - 1);
        self.sweep(grid, costs, Point::new(0, 0), corner);
        self.made_for = Some((revision, size.0, size.1));
    }

    /// Recomputes the box from `lowest` to `highest` (clipped to the grid), bottom-right first,
    /// from the values to its right and below, which it does not change.
    fn sweep(&mut self, grid: &Grid, costs: impl EntryCosts, lowest: Point, highest: Point) {
        let (width, height) = (grid.width() as i32, grid.height() as i32);
        let (x0, y0) = (lowest.x.max(0), lowest.y.max(0));
        let (x1, y1) = (highest.x.min(width - 1), highest.y.min(height - 1));
        let value = |values: &[u8], x: i32, y: i32| -> u8 {
            if x < width && y < height {
                values[y as usize * width as usize + x as usize]
            } else {
                0
            }
        };
        for y in (y0..=y1).rev() {
            for x in (x0..=x1).rev() {
                let i = y as usize * width as usize + x as usize;
                self.values[i] = if costs.entry(i) != 0 {
                    let right = value(&self.values, x + 1, y);
                    let below = value(&self.values, x, y + 1);
                    let across = value(&self.values, x + 1, y + 1);
                    (1 + right.min(below).min(across)).min(Self::MAX)
                } else {
                    0
                };
            }
        }
    }

    /// The clearance at `p`: 0 on a wall or off the grid. Call [`Clearance::update`] first.
    pub fn at(&self, grid: &Grid, p: Point) -> u8 {
        grid.index_of(p)
            .and_then(|i| self.values.get(i).copied())
            .unwrap_or(0)
    }

    /// Whether a unit of `size` fits with its top-left corner on `p`.
    pub fn fits(&self, grid: &Grid, p: Point, size: u8) -> bool {
        size >= 1 && self.at(grid, p) >= size
    }

    /// The grid a unit of `size` moves on: a cell is floor where the unit fits with its top-left
    /// corner there, and costs the dearest cell under the unit (a 2 × 2 unit wades as soon as one
    /// of its four cells is in mud); elsewhere it is a wall. A unit of size 1 moves on `grid`
    /// itself. O(cells × size²): keep it while [`Grid::wall_revision`] and the costs hold.
    ///
    /// Diagonal steps keep their corner rule: with [`crate::movement::CornerRule::NeverCut`] the two cells
    /// beside a diagonal step must fit the unit too, which covers every cell it sweeps.
    pub fn grid_for(&self, grid: &Grid, size: u8) -> Grid {
        let mut sized = grid.clone();
        if size > 1 {
            let cells: Vec<(Point, Cell)> = (0..grid.len())
                .map(|i| grid.point_of(i))
                .map(|p| (p, self.sized_cell(grid, p, size)))
                .collect();
            // Every point is on the grid and every cost at least 1: nothing here can fail.
            let _ = sized.set_many(cells);
        }
        sized
    }

    /// [`Clearance::grid_for`] for a unit class, after [`Clearance::update_as`] for it: the grid
    /// a unit of `class` and `size` moves on, in the class's costs (a cell costs the dearest
    /// cell under the unit, as the class reads it), every terrain ground. Search it without a
    /// class. One grid per class and size: keep it while the walls, the terrain and the links
    /// hold.
    pub fn grid_for_as(&self, grid: &Grid, class: &UnitClass, size: u8) -> Grid {
        let costs = class.on(grid);
        // A grid of `grid`'s own size cannot fail to be made; the fallback is never taken.
        let mut sized = Grid::new(grid.width(), grid.height()).unwrap_or_else(|_| grid.clone());
        let cells: Vec<(Point, Cell)> = (0..grid.len())
            .map(|i| grid.point_of(i))
            .map(|p| (p, self.sized_cell_by(grid, costs, p, size.max(1))))
            .collect();
        // Every point is on the grid and every cost at least 1: nothing here can fail.
        let _ = sized.set_many(cells);
        // The links too, as the class reads them: a kind it may not take is a shut link.
        for (_, &link) in grid.links() {
            let factor = link.kind.map_or(Some(1), |kind| class.cost_of(kind));
            let cost = link.cost.saturating_mul(factor.unwrap_or(1));
            let read = Link {
                cost,
                kind: None,
                ..link
            }
            .opened(link.open && factor.is_some());
            let _ = sized.add_link(read); // its ends are on a grid of the same size
        }
        sized
    }

    /// Repairs `sized`, made by [`Clearance::grid_for`] for `size`, after the cells `changed`
    /// (walls or costs) changed in `grid`: whether a unit fits at a cell, and what it pays
    /// there, depend only on the `size × size` cells below and right of it, so each change
    /// touches the cells up to `size - 1` above and left of it. Bring the clearance up to date
    /// first ([`Clearance::update`]).
    pub fn repair(
        &self,
        grid: &Grid,
        sized: &mut Grid,
        size: u8,
        changed: impl IntoIterator<Item = Point>,
    ) {
        let reach = i32::from(size.max(1)) - 1;
        let mut cells = Vec::new();
        for p in changed {
            for y in p.y - reach..=p.y {
                for x in p.x - reach..=p.x {
                    let q = Point::new(x, y);
                    if grid.contains(q) {
                        let cell = match size {
                            0 | 1 => grid.cell(q).unwrap_or(Cell::Blocked),
                            _ => self.sized_cell(grid, q, size),
                        };
                        cells.push((q, cell));
                    }
                }
            }
        }
        // On the grid, with costs of at least 1: nothing here can fail. A few cells are set one
        // by one (each repairs its lines); many at once redo the lines once.
        if cells.len() < 1024 {
            for (q, cell) in cells {
                let _ = sized.set(q, cell);
            }
        } else {
            let _ = sized.set_many(cells);
        }
    }

    /// What a unit of `size` finds with its top-left corner on `p` (see [`Clearance::grid_for`]).
    fn sized_cell(&self, grid: &Grid, p: Point, size: u8) -> Cell {
        self.sized_cell_by(grid, grid, p, size)
    }

    /// [`Clearance::sized_cell`], reading the entry costs from `costs`.
    fn sized_cell_by(&self, grid: &Grid, costs: impl EntryCosts, p: Point, size: u8) -> Cell {
        if !self.fits(grid, p, size) {
            return Cell::Blocked;
        }
        let k = i32::from(size);
        let dearest = (0..k)
            .flat_map(|dy| (0..k).map(move |dx| Point::new(p.x + dx, p.y + dy)))
            .filter_map(|q| grid.index_of(q).map(|j| costs.entry(j)))
            .max()
            .unwrap_or(1);
        Cell::Passable(dearest.max(1))
    }
}
