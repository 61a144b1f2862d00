//! Connected components: which cells can reach which, so that "no path" costs nothing.
//! The story is on [`Components`].

use crate::grid::{Grid, Point};
use crate::movement::{CornerRule, Movement};

/// Connected components: which cells can reach which, so that "no path" costs nothing.
///
/// A search for a goal it cannot reach must look at every cell it *can* reach before it may say
/// "no path": on a large open map that is the slowest query there is. Labelling the grid's
/// regions once (one flood fill each) answers it at once: a start and a goal with different labels
/// cannot be joined. [`crate::Search::run`] asks before it searches, and
/// [`crate::GoalMode::ClosestReachable`] uses the labels to find the nearest reachable cell.
///
/// Which cells are connected depends on the movement, but less than one might think. With 4-way
/// moves, and with diagonals that never cut a corner or cut at most one, every diagonal step
/// passes a free side cell, which joins its two ends by straight steps too: the regions are the
/// 4-way ones. Only [`CornerRule::CutAlways`], which slips between two walls, joins cells that
/// touch only at a corner.
///
/// The labels follow the walls: they are redone, lazily, when [`Grid::wall_revision`] changes,
/// and kept when only costs change (costs never disconnect anything).
///
/// The regions of one grid under one movement, kept between queries.
///
/// ```
/// use gridpath::{Components, Grid, Movement, Point};
///
/// let grid = Grid::from_ascii(&["..#..", "..#..", "..#.."]).unwrap();
/// let mut regions = Components::new();
/// regions.update(&grid, Movement::default());
/// assert_eq!(regions.count(), 2);
/// assert!(regions.connected(&grid, Point::new(0, 0), Point::new(1, 2)));
/// assert!(!regions.connected(&grid, Point::new(0, 0), Point::new(4, 0)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Components {
    /// Per cell: 0 for a wall, otherwise its region's number, from 1.
    labels: Vec<u32>,
    count: u32,
    /// What the labels were made for: a grid's walls, and whether corners join cells.
    made_for: Option<(u64, usize, bool)>,
    /// Scratch for the flood fill, kept so that relabelling does not allocate.
    stack: Vec<u32>,
}

impl Components {
    pub fn new() -> Self {
        Self::default()
    }

    /// Labels `grid`'s regions under `movement`, unless the labels already fit: the same walls
    /// (by [`Grid::wall_revision`]) and the same kind of connection. O(cells) when it relabels.
    pub fn update(&mut self, grid: &Grid, movement: Movement) {
        let corners = movement == Movement::EightWay(CornerRule::CutAlways);
        let wanted = Some((grid.wall_revision(), grid.len(), corners));
        if self.made_for == wanted {
            return;
        }
        self.made_for = wanted;
        self.labels.clear();
        self.labels.resize(grid.len(), 0);
        self.count = 0;
        for seed in 0..grid.len() {
            if self.labels[seed] == 0 && grid.raw_cost(seed) != 0 {
                self.count += 1;
                self.flood(grid, seed, corners);
            }
        }
    }

    /// Gives every cell reachable from `seed` the current label: a depth-first flood fill.
    fn flood(&mut self, grid: &Grid, seed: usize, corners: bool) {
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        let label = self.count;
        self.labels[seed] = label;
        self.stack.push(seed as u32);
        while let Some(i) = self.stack.pop() {
            let i = i as usize;
            let (x, y) = (i % w, i / w);
            let (west, east, north, south) = (x > 0, x + 1 < w, y > 0, y + 1 < h);
            let mut visit = |exists: bool, dx: isize, dy: isize| {
                if exists {
                    let j = (y.wrapping_add_signed(dy)) * w + x.wrapping_add_signed(dx);
                    if self.labels[j] == 0 && grid.raw_cost(j) != 0 {
                        self.labels[j] = label;
                        self.stack.push(j as u32);
                    }
                }
            };
            visit(north, 0, -1);
            visit(east, 1, 0);
            visit(south, 0, 1);
            visit(west, -1, 0);
            if corners {
                visit(north && east, 1, -1);
                visit(south && east, 1, 1);
                visit(south && west, -1, 1);
                visit(north && west, -1, -1);
            }
        }
    }

    /// The number of regions (0 before the first [`Components::update`]).
    pub fn count(&self) -> usize {
        self.count as usize
    }

    /// The region of a cell: `None` for a wall, a cell off the grid, or labels not made yet.
    pub fn region(&self, grid: &Grid, p: Point) -> Option<u32> {
        let i = grid.index_of(p)?;
        self.labels.get(i).copied().filter(|&l| l != 0)
    }

    /// Can a unit at `a` walk to `b`? False when either is a wall or off the grid.
    pub fn connected(&self, grid: &Grid, a: Point, b: Point) -> bool {
        self.region(grid, a)
            .is_some_and(|r| Some(r) == self.region(grid, b))
    }

    /// By index, for the search: both cells are on the grid the labels were made for.
    pub(crate) fn connected_at(&self, a: usize, b: usize) -> bool {
        self.labels[a] != 0 && self.labels[a] == self.labels[b]
    }

    /// The cell of `start`'s region nearest to `goal` in a straight line; ties go to the lower
    /// index. Requires labels made for this grid.
    pub(crate) fn nearest_in_region(&self, grid: &Grid, start: usize, goal: Point) -> usize {
        let region = self.labels[start];
        let distance2 = |i: usize| {
            let p = grid.point_of(i);
            let (dx, dy) = (i64::from(p.x - goal.x), i64::from(p.y - goal.y));
            dx * dx + dy * dy
        };
        (0..self.labels.len())
            .filter(|&i| self.labels[i] == region)
            .min_by_key(|&i| (distance2(i), i))
            .unwrap_or(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_join_cells_only_when_diagonals_slip_between_walls() {
        let grid = Grid::from_ascii(&[".#", "#."]).unwrap();
        let (a, b) = (Point::new(0, 0), Point::new(1, 1));
        let mut regions = Components::new();
        for movement in [
            Movement::FourWay,
            Movement::EightWay(CornerRule::NeverCut),
            Movement::EightWay(CornerRule::CutOneCorner),
        ] {
            regions.update(&grid, movement);
            assert_eq!(regions.count(), 2, "{movement:?}");
            assert!(!regions.connected(&grid, a, b));
        }
        regions.update(&grid, Movement::EightWay(CornerRule::CutAlways));
        assert_eq!(regions.count(), 1);
        assert!(regions.connected(&grid, a, b));
        assert!(!regions.connected(&grid, a, Point::new(1, 0)), "a wall");
    }

    #[test]
    fn labels_follow_the_walls_not_the_costs() {
        let mut grid = Grid::from_ascii(&["...", "...", "..."]).unwrap();
        let index = |p: Point| (p.y * 3 + p.x) as usize;
        let mut regions = Components::new();
        regions.update(&grid, Movement::FourWay);
        assert_eq!(regions.count(), 1);
        for y in 0..3 {
            grid.set_blocked(Point::new(1, y), true).unwrap();
        }
        regions.update(&grid, Movement::FourWay);
        assert_eq!(regions.count(), 2);
        let (left, right) = (Point::new(0, 1), Point::new(2, 0));
        assert!(!regions.connected(&grid, left, right));
        // The left region's cell nearest the unreachable (2, 0) is (0, 0).
        let nearest = regions.nearest_in_region(&grid, index(left), right);
        assert_eq!(nearest, index(Point::new(0, 0)));
        grid.set(Point::new(1, 1), crate::Cell::Passable(9))
            .unwrap();
        regions.update(&grid, Movement::FourWay);
        assert!(regions.connected(&grid, left, right), "a door of mud");
    }
}
