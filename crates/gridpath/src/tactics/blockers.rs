//! Cells closed for one request, and the zones of control round enemies.

use super::cell_set::CellSet;
use crate::grid::{Grid, Point};
use crate::movement::Movement;

/// What other units make of the map for one request: cells closed to it, and *zones of control*.
///
/// In a turn-based game the other units are walls for this unit's move, but not for the map: the
/// same grid serves every unit, and each request brings its own blockers. An enemy also holds the
/// cells next to it: a unit may step into an enemy's zone of control, but its move ends there
/// (Civilization's and Battle for Wesnoth's rule). A start inside a zone may still leave it.
///
/// ```
/// use gridpath::tactics::{Blockers, MovementRange};
/// use gridpath::{Grid, Movement, Point};
///
/// let grid = Grid::new(7, 1).unwrap();
/// let mut blockers = Blockers::new();
/// blockers.enemy(&grid, Movement::FourWay, Point::new(4, 0));
/// let mut range = MovementRange::new();
/// range.compute(&grid, Movement::FourWay, Point::new(0, 0), 6.0, &blockers);
/// assert_eq!(range.cost(Point::new(3, 0)), Some(3.0)); // into the zone, and no further
/// assert_eq!(range.cost(Point::new(4, 0)), None); // the enemy's own cell is closed
/// ```
#[derive(Clone, Debug, Default)]
pub struct Blockers {
    closed: CellSet,
    zones: CellSet,
    /// Some enemy was added: only then must a search look up every cell it settles.
    any_zone: bool,
}

impl Blockers {
    /// No blockers: every open cell of the map may be crossed.
    pub fn new() -> Self {
        Self::default()
    }

    /// Closes `p` for this request (a unit standing there). A cell off the grid is ignored.
    pub fn close(&mut self, grid: &Grid, p: Point) -> &mut Self {
        if let Some(i) = grid.index_of(p) {
            self.closed.insert(grid.len(), i);
        }
        self
    }

    /// An enemy at `p`: its cell is closed, and every cell one `movement` step from it (walls
    /// aside) is in its zone of control, where a move ends.
    pub fn enemy(&mut self, grid: &Grid, movement: Movement, p: Point) -> &mut Self {
        self.close(grid, p);
        self.any_zone = true;
        for &(dx, dy) in movement.steps(p) {
            if let Some(i) = grid.index_of(Point::new(p.x + dx, p.y + dy)) {
                self.zones.insert(grid.len(), i);
            }
        }
        self
    }

    /// Forgets every blocker, keeping the memory for the next request.
    pub fn clear(&mut self) {
        self.closed.clear();
        self.zones.clear();
        self.any_zone = false;
    }

    /// Is `p` closed for this request?
    pub fn is_closed(&self, grid: &Grid, p: Point) -> bool {
        grid.index_of(p).is_some_and(|i| self.closed.contains(i))
    }

    /// Is `p` in an enemy's zone of control (a move into it ends there)?
    pub fn in_zone(&self, grid: &Grid, p: Point) -> bool {
        grid.index_of(p).is_some_and(|i| self.zones.contains(i))
    }

    #[inline]
    pub(crate) fn closed_at(&self, i: usize) -> bool {
        self.closed.contains(i)
    }

    /// No zones of control at all: the range need not look at every cell it settles.
    pub(crate) fn zones_empty(&self) -> bool {
        !self.any_zone
    }

    #[inline]
    pub(crate) fn zone_at(&self, i: usize) -> bool {
        self.zones.contains(i)
    }
}
