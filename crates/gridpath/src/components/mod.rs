//! Connected components: which cells can reach which, so that "no path" costs nothing.
//! The story is on [`Components`].

use crate::grid::{Grid, Point};
use crate::hex::HexLayout;
use crate::movement::{CornerRule, Movement};
use crate::unit_class::{EntryCosts, UnitClass};

mod follow;

/// Connected components: which cells can reach which, so that "no path" costs nothing.
///
/// A search for a goal it cannot reach must look at every cell it *can* reach before it may say
/// "no path": on a large open map that is the slowest query there is. Labelling the grid's
/// regions once (one flood fill each) answers it at once: a start and a goal with different labels
/// cannot be joined. [`crate::search::Search::run`] asks before it searches, and
/// [`crate::GoalMode::ClosestReachable`] uses the labels to find the nearest reachable cell.
///
/// Which cells are connected depends on the movement, but less than one might think. With 4-way
/// moves, and with diagonals that never cut a corner or cut at most one, every diagonal step
/// passes a free side cell, which joins its two ends by straight steps too: the regions are the
/// 4-way ones. Only [`CornerRule::CutAlways`], which slips between two walls, joins cells that
/// touch only at a corner. On a hex map the six neighbours are not the square ones, and the
/// regions are flood-filled from them.
///
/// The labels follow the walls: they are redone, lazily, when [`Grid::wall_revision`] changes,
/// and kept when only costs change (costs never disconnect anything).
///
/// They join cells by moves only. A grid's links ([`crate::Link`]) join regions too, perhaps one
/// way: [`crate::Search`] follows them from the start's region before it answers "no path".
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
    /// The highest label given: above `count` once regions an edit joined gave one up.
    last_label: u32,
    /// What the labels were made for: a grid's walls, and which cells touch.
    made_for: Option<(u64, usize, Joins)>,
    /// Scratch for the labelling, kept so that relabelling does not allocate: the open runs,
    /// row by row, their union-find parents, and each root's label.
    runs: Vec<Run>,
    parent: Vec<u32>,
    label_of: Vec<u32>,
    /// Scratch for following an edit: per cell, the flood that reached it (see `follow.rs`).
    owner: Vec<u32>,
    /// The unit class the labels were made for, with the terrain they saw
    /// ([`Components::update_as`]); `None` for the grid's own walls.
    class: Option<(UnitClass, u64)>,
}

/// Which cells a region joins: those side by side, those that touch at a corner too, a
/// hexagon's six neighbours, or a staggered map's sides (and corners).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Joins {
    Sides,
    Corners,
    Hex(HexLayout),
    Staggered { corners: bool },
}

/// Open cells `start..end` of row `y`.
#[derive(Clone, Copy, Debug)]
struct Run {
    y: u32,
    start: u32,
    end: u32,
}

impl Components {
    /// No grid yet: every query answers "not connected" until the first update.
    pub fn new() -> Self {
        Self::default()
    }

    /// Labels `grid`'s regions under `movement`, unless the labels already fit: the same walls
    /// (by [`Grid::wall_revision`]) and the same kind of connection. O(cells) when it relabels.
    ///
    /// Run-based two-pass labelling (after He, Chao and Suzuki, "A run-based two-scan labeling
    /// algorithm", IEEE TIP 2008): each row's runs of open cells are joined, in a union-find,
    /// to the runs of the row above that they touch; then every run is labelled by its set.
    /// Regions are numbered in the order their first cell comes, row by row, as a flood fill
    /// seeded cell by cell would number them. It reads the grid in order and writes each label
    /// once: a depth-first flood fill, hopping about the map, took 3 ms on 512 × 512, this a
    /// fraction of that.
    ///
    /// But a game paints walls as it runs, and a stroke of a few dozen cells on a large map does
    /// not call for labelling it all again, once per unit size. So 4-way labels follow the walls
    /// changed since they were made ([`Grid::wall_changes_since`]) when that can be done. A
    /// cell opened joins the regions beside it (a pass over the labels) or begins one, under a
    /// new number. Walls keep their regions whole when the open cells beside them still join
    /// one another, which a flood from each of those cells at once finds within a few cells of
    /// a stroke; a part the walls cut off is found by its flood ending, at the cost of its size.
    /// Only walls that cut a region into two large parts are labelled whole.
    pub fn update(&mut self, grid: &Grid, movement: Movement) {
        if self.class.take().is_some() {
            self.made_for = None;
        }
        self.update_by(grid, grid, movement);
    }

    /// [`Components::update`] for a unit class: its regions, where a terrain it may not enter
    /// is a wall (a lake is one region to a boat and a gap between two to a soldier). Relabelled
    /// whole when the walls, the terrain ([`Grid::terrain_revision`]) or the class change.
    ///
    /// ```
    /// use gridpath::{Components, Grid, Movement, Point, Terrain, UnitClass};
    ///
    /// let mut grid = Grid::new(3, 1).unwrap();
    /// grid.set_terrain(Point::new(1, 0), Terrain::WATER).unwrap();
    /// let mut regions = Components::new();
    /// regions.update_as(&grid, &UnitClass::new().without(Terrain::WATER), Movement::FourWay);
    /// assert_eq!(regions.count(), 2);
    /// assert!(!regions.connected(&grid, Point::new(0, 0), Point::new(2, 0)));
    /// ```
    pub fn update_as(&mut self, grid: &Grid, class: &UnitClass, movement: Movement) {
        let wanted = (class.clone(), grid.terrain_revision());
        if self.class.as_ref() != Some(&wanted) {
            self.class = Some(wanted);
            self.made_for = None;
        }
        self.update_by(grid, class.on(grid), movement);
    }

    fn update_by(&mut self, grid: &Grid, costs: impl EntryCosts, movement: Movement) {
        let joins = match movement {
            Movement::Hex(layout) => Joins::Hex(layout),
            Movement::EightWay(CornerRule::CutAlways) => Joins::Corners,
            // A diagonal past a free side joins no cells that the side does not.
            Movement::StaggeredEightWay(CornerRule::CutAlways) => {
                Joins::Staggered { corners: true }
            }
            Movement::StaggeredFourWay | Movement::StaggeredEightWay(_) => {
                Joins::Staggered { corners: false }
            }
            _ => Joins::Sides,
        };
        let wanted = Some((grid.wall_revision(), grid.len(), joins));
        if self.made_for == wanted {
            return;
        }
        let before = self
            .made_for
            .replace((grid.wall_revision(), grid.len(), joins));
        // Walls painted and taken away are followed on the grid's own labels; a class's are
        // made whole.
        if let Some((revision, len, Joins::Sides)) = before
            && (len, joins) == (grid.len(), Joins::Sides)
            && self.class.is_none()
            && self.follow_walls(grid, revision)
        {
            return;
        }
        match joins {
            Joins::Sides => self.find_runs(grid, costs, |_, _, _| (0, 0)),
            Joins::Corners => self.find_runs(grid, costs, |_, _, _| (1, 1)),
            Joins::Hex(layout) => self.find_runs(grid, costs, |y, start, end| {
                // Every cell of a run touches the cell above it; the run's ends may reach one
                // further, as their row's (or column's) parity says.
                let reaches = |x: u32, step| {
                    let at = Point::new(x as i32, y as i32);
                    u32::from(layout.steps(at).contains(&step))
                };
                (reaches(start, (-1, -1)), reaches(end - 1, (1, -1)))
            }),
            Joins::Staggered { corners } => self.find_cells(grid, costs, corners),
        }
        self.labels.clear();
        self.labels.resize(grid.len(), 0);
        self.count = 0;
        let w = grid.width() as usize;
        let mut label_of = std::mem::take(&mut self.label_of);
        label_of.clear();
        label_of.resize(self.runs.len(), 0);
        for r in 0..self.runs.len() {
            let root = self.root(r as u32) as usize;
            if label_of[root] == 0 {
                self.count += 1;
                label_of[root] = self.count;
            }
            let Run { y, start, end } = self.runs[r];
            let row = y as usize * w;
            self.labels[row + start as usize..row + end as usize].fill(label_of[root]);
        }
        self.label_of = label_of;
        self.last_label = self.count;
    }

    /// The first scan: every row's runs of open cells, each joined to the runs of the row above
    /// that it touches. `reach(y, start, end)` says how far past its ends, to the left and to
    /// the right, the run `start..end` of row `y` touches the row above: not at all for
    /// squares side by side, a cell for squares that touch at corners; on hexagons a cell or
    /// none at each end, by its parity. (Every cell touches the cell above it, and cells side
    /// by side touch, on every shape here.)
    fn find_runs(
        &mut self,
        grid: &Grid,
        costs: impl EntryCosts,
        reach: impl Fn(u32, u32, u32) -> (u32, u32),
    ) {
        let (w, h) = (grid.width(), grid.height());
        self.runs.clear();
        self.parent.clear();
        let mut above = 0..0;
        for y in 0..h {
            let row = y as usize * w as usize;
            let first = self.runs.len();
            let mut x = 0;
            while x < w {
                if costs.entry(row + x as usize) == 0 {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < w && costs.entry(row + x as usize) != 0 {
                    x += 1;
                }
                let r = self.runs.len() as u32;
                self.runs.push(Run { y, start, end: x });
                self.parent.push(r);
                // The runs above that touch [start - left, x + right): those ending after its
                // start and starting before its end. (A run that ends before one run's reach
                // ends before every later run's: runs lie at least a wall apart.)
                let (left, right) = reach(y, start, x);
                while above.start < above.end && self.runs[above.start].end + left <= start {
                    above.start += 1;
                }
                for a in above.clone() {
                    if self.runs[a].start >= x + right {
                        break;
                    }
                    self.union(a as u32, r);
                }
            }
            // The last run above that touched one here may touch the next row's first too:
            // `above` restarts with this row.
            above = first..self.runs.len();
        }
    }

    /// The first scan on a staggered map, where no two cells side by side in a row touch (they
    /// meet at a corner) and a corner's neighbour is two rows away: every open cell a run of its
    /// own, joined to each neighbour scanned before it: the sides above it, `(0, −1)` and
    /// `(1, −1)`, and with `corners` the corners `(−1, 0)` and `(1, −2)`
    /// ([`crate::staggered::STEPS`]).
    fn find_cells(&mut self, grid: &Grid, costs: impl EntryCosts, corners: bool) {
        let before: &[(i32, i32)] = if corners {
            &[(0, -1), (1, -1), (-1, 0), (1, -2)]
        } else {
            &[(0, -1), (1, -1)]
        };
        self.runs.clear();
        self.parent.clear();
        // Each cell's run, from 1 (0: a wall), in the labels until they are written.
        let mut run_of = std::mem::take(&mut self.labels);
        run_of.clear();
        run_of.resize(grid.len(), 0);
        for i in 0..grid.len() {
            if costs.entry(i) == 0 {
                continue;
            }
            let r = self.runs.len() as u32;
            let p = grid.point_of(i);
            self.runs.push(Run {
                y: p.y as u32,
                start: p.x as u32,
                end: p.x as u32 + 1,
            });
            self.parent.push(r);
            run_of[i] = r + 1;
            for &(dx, dy) in before {
                let q = Point::new(p.x + dx, p.y + dy);
                let joined = grid.index_of(q).map_or(0, |j| run_of[j]);
                if joined != 0 {
                    self.union(joined - 1, r);
                }
            }
        }
        self.labels = run_of;
    }

    /// The set's root: its first run (path halving on the way).
    fn root(&mut self, mut r: u32) -> u32 {
        while self.parent[r as usize] != r {
            let grand = self.parent[self.parent[r as usize] as usize];
            self.parent[r as usize] = grand;
            r = grand;
        }
        r
    }

    /// Joins two runs' sets, under the earlier root.
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.root(a), self.root(b));
        let (low, high) = (ra.min(rb), ra.max(rb));
        self.parent[high as usize] = low;
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
        self.nearest_in(grid, &[self.labels[start]], start, goal)
    }

    /// The cell of any of `regions` nearest to `goal` (ties to the lower index), or `start`
    /// when they hold none.
    pub(crate) fn nearest_in(
        &self,
        grid: &Grid,
        regions: &[u32],
        start: usize,
        goal: Point,
    ) -> usize {
        let distance2 = |i: usize| {
            let p = grid.point_of(i);
            let (dx, dy) = (i64::from(p.x - goal.x), i64::from(p.y - goal.y));
            dx * dx + dy * dy
        };
        (0..self.labels.len())
            .filter(|&i| self.labels[i] != 0 && regions.contains(&self.labels[i]))
            .min_by_key(|&i| (distance2(i), i))
            .unwrap_or(start)
    }

    /// The regions a unit at the cell `start` reaches on a grid with links: its own, and every
    /// region a link it may take (as `costs` reads the grid) leads to from one it reaches. Links
    /// may be one way, so this is reach, not a region of its own: worked out per query, from the
    /// links alone (a few of them), not the cells. Empty when `start` is a wall.
    pub(crate) fn reached_by_links(
        &self,
        grid: &Grid,
        costs: impl EntryCosts,
        start: usize,
    ) -> Vec<u32> {
        let label = |i: u32| self.labels.get(i as usize).copied().unwrap_or(0);
        let mut reached: Vec<u32> = vec![self.labels[start]];
        reached.retain(|&l| l != 0);
        let edges = grid.link_table().edges();
        let mut grew = !reached.is_empty();
        while grew {
            grew = false;
            for edge in edges {
                let (from, to) = (label(edge.from), label(edge.to));
                if to != 0
                    && reached.contains(&from)
                    && !reached.contains(&to)
                    && costs.link_cost(edge).is_some()
                {
                    reached.push(to);
                    grew = true;
                }
            }
        }
        reached
    }

    /// The region label of the cell at `index` (0 for a wall).
    pub(crate) fn label_at(&self, index: usize) -> u32 {
        self.labels[index]
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
        grid.set(Point::new(1, 1), crate::grid::Cell::Passable(9))
            .unwrap();
        regions.update(&grid, Movement::FourWay);
        assert!(regions.connected(&grid, left, right), "a door of mud");
    }

    /// Walls that cut a corner off: the cut-off part is found by its own flood and numbered
    /// anew, the rest keeps its label (labelled whole, the corner would come first, as 1).
    /// Walled in whole, the corner is gone.
    #[test]
    fn a_part_cut_off_is_followed_not_labelled_whole() {
        let mut grid = Grid::new(40, 40).unwrap();
        let mut regions = Components::new();
        regions.update(&grid, Movement::FourWay);
        let (corner, far) = (Point::new(0, 0), Point::new(30, 30));
        assert_eq!(regions.region(&grid, far), Some(1));
        let wall = |grid: &mut Grid, cells: [(i32, i32); 4]| {
            for (x, y) in cells {
                grid.set_blocked(Point::new(x, y), true).unwrap();
            }
        };
        wall(&mut grid, [(2, 0), (2, 1), (0, 2), (1, 2)]);
        regions.update(&grid, Movement::FourWay);
        assert_eq!(regions.count(), 2);
        assert_eq!(
            regions.region(&grid, far),
            Some(1),
            "the rest keeps its label"
        );
        assert_eq!(regions.region(&grid, corner), Some(2));
        assert!(regions.connected(&grid, corner, Point::new(1, 1)));
        wall(&mut grid, [(0, 0), (1, 0), (0, 1), (1, 1)]);
        regions.update(&grid, Movement::FourWay);
        assert_eq!(regions.count(), 1, "the corner walled whole is gone");
        assert_eq!(regions.region(&grid, far), Some(1));
        grid.set_blocked(Point::new(2, 1), false).unwrap();
        regions.update(&grid, Movement::FourWay);
        assert_eq!((regions.count(), regions.region(&grid, far)), (1, Some(1)));
    }
}
