//! Jump distances: what JPS+ precomputes, so that a jump is one table read instead of a scan.
//!
//! Jump point search ([`crate::algorithms::jump_point`]) spends most of its time running along
//! lines looking for the next jump point, and it runs along the same lines query after query.
//! JPS+ (Harabor and Grastien 2014, after Steve Rabin's *JPS+* in Game AI Pro 2) runs every line
//! once, ahead of time, and stores for each cell and each of the eight directions how far to go:
//!
//! * **Straight** (east, west, south, north): `d > 0` means the first jump point is `d` cells
//!   ahead; `d ≤ 0` means there is none, and `-d` free cells lie ahead before a wall or the edge.
//!   Beyond [`STRAIGHT_CAP`] cells the entry is [`ONWARD_FOUND`] or [`ONWARD_NONE`]: go that far,
//!   and read again.
//! * **Diagonal**: a *look* entry ([`look`]) means "go `d` cells, then look": the first cell where
//!   a straight run along either part of the diagonal finds a jump point. It also names which of
//!   the two parts finds one ([`ACROSS`], [`DOWN`] or both), so the search reads only those: on
//!   arena2, 98 % of looks find one along one part only. `d ≤ 0` means `-d` free steps before
//!   the diagonal is blocked (by a wall ahead or beside it: no corner is ever cut). And
//!   [`CARRY_ON`], explained below.
//!
//! The search then jumps by reading the table and checking whether the goal lies within reach on
//! the way, which a table made before the goal was known cannot include.
//!
//! **Edits.** The playground edits its maps, so a full rebuild per edit would waste the point. A
//! wall that comes or goes at `(x, y)` changes the straight distances only on rows `y − 1 ..= y + 1`
//! (its own row, and the rows beside which it may now force a turn) and columns `x − 1 ..= x + 1`,
//! and on each only behind the change: [`JumpDistances::update`] redoes each line from the
//! change backwards while the values still change, and then only the diagonal distances that
//! read what changed, walking back along each diagonal in the same way.
//!
//! **Small entries.** Each distance is one signed byte, so a cell's eight take 8 bytes (9 with
//! the byte of its free neighbours, which the pruning reads) and the table of a 512 × 512 map
//! 2.25 MiB. Memory is what a JPS+ query waits for: with 32-bit entries
//! (8 MiB) JPS+ ran 1.4× slower than JPS on random512-10-0 despite 40 % fewer instructions. A
//! line longer than a byte can count is crossed in hops of [`STRAIGHT_CAP`] cells.
//!
//! **A trade-off that bounds the repair.** On open ground a diagonal can run for hundreds of
//! cells, and one new jump point would change the distance of every cell on every diagonal that
//! reaches it: a triangle of the map. So diagonal distances are capped at [`LEAP`] cells: past
//! that, the table says [`CARRY_ON`] ("go `LEAP` cells, nothing to see, read again"). A change
//! then reaches back at most `LEAP` cells along each diagonal, and a long open diagonal costs the
//! search one extra read per `LEAP` cells. A wall on an open 512 × 512 map makes eight new jump
//! points, each the end of half a row or column of changed straight distances, and every
//! diagonal within `LEAP` cells of those reads a change: with 4, a repair recomputes about
//! 17,600 of the 2.1 million entries (0.84 %), with 8 about 23,800 (1.13 %), and a repair costs
//! about as much per entry as a rebuild. On arena2 4 costs the search 2 % more instructions than
//! 8, on random512-10-0 nothing (see the workspace's `docs/benchmarks/search.md`).

use crate::grid::Grid;
use crate::movement::STEPS;

/// The eight directions in the table's order: the four straight ones, then the four diagonals.
pub(crate) const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// The table's index of direction `(dx, dy)`, each −1, 0 or 1 and not both 0.
#[inline]
pub(crate) const fn direction_index(dx: i32, dy: i32) -> usize {
    match (dx, dy) {
        (1, 0) => 0,
        (-1, 0) => 1,
        (0, 1) => 2,
        (0, -1) => 3,
        (1, 1) => 4,
        (-1, 1) => 5,
        (1, -1) => 6,
        _ => 7,
    }
}

/// One stored distance. See "Small entries" in the [module docs](self).
type Distance = i8;

/// The longest straight distance stored exactly: 126 cells.
pub const STRAIGHT_CAP: i32 = Distance::MAX as i32 - 1;

/// The straight entry that means "the next jump point is more than [`STRAIGHT_CAP`] cells
/// ahead: go that far and read again".
pub const ONWARD_FOUND: i32 = Distance::MAX as i32;

/// The straight entry that means "no jump point, and more than [`STRAIGHT_CAP`] free cells
/// ahead: go that far and read again". Negative, like every "none" entry.
pub const ONWARD_NONE: i32 = Distance::MIN as i32;

/// A repair seed whose wall came or went (the other seeds name a straight direction, 0–3).
const WALL: usize = 8;

/// The longest diagonal distance stored; see the [module docs](self).
pub const LEAP: i32 = 4;

/// The diagonal entry that means "no stop within [`LEAP`] cells, and no wall: go `LEAP` cells and
/// read the table again".
pub const CARRY_ON: i32 = LEAP + 1;

/// In a diagonal [`look`] entry: the straight run along the diagonal's horizontal part (east for
/// a diagonal south-east) finds a jump point.
pub const ACROSS: i32 = 1;

/// In a diagonal [`look`] entry: the straight run along its vertical part finds a jump point.
pub const DOWN: i32 = 2;

/// The diagonal entry "go `steps` cells (1 to [`LEAP`]), then run the straight parts named in
/// `parts` ([`ACROSS`], [`DOWN`], or both)". Both fit one byte: the steps in the low 3 bits, the
/// parts above them, so a look is always a positive entry other than [`CARRY_ON`] (which names
/// no part).
pub const fn look(steps: i32, parts: i32) -> i32 {
    steps | parts << 3
}

/// A [`look`] entry's steps and parts.
#[inline(always)]
pub const fn look_steps_and_parts(entry: i32) -> (i32, i32) {
    (entry & 7, entry >> 3)
}

/// What [`JumpDistances::update`] had to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    /// The table was made for these walls already.
    Unchanged,
    /// Repaired after `changes` wall changes; `entries` distances were recomputed.
    Repaired {
        /// Wall changes repaired.
        changes: usize,
        /// Distances recomputed.
        entries: usize,
    },
    /// Made from scratch (the first time, after a change of size, or after many changes).
    Rebuilt,
}

/// Says what was done, for a status line: "repaired after 2 wall changes (312 entries)".
impl std::fmt::Display for Update {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Update::Unchanged => write!(f, "up to date (no wall changed)"),
            Update::Repaired { changes, entries } => {
                let s = if *changes == 1 { "" } else { "s" };
                write!(
                    f,
                    "repaired after {changes} wall change{s} ({entries} entries)"
                )
            }
            Update::Rebuilt => write!(f, "built"),
        }
    }
}

/// JPS+'s table of jump distances for one grid's walls, kept between queries and repaired after
/// edits. See the [module docs](self).
///
/// ```
/// use gridpath::{Grid, JumpDistances, Point, jump_distances::Update};
///
/// let mut grid = Grid::from_ascii(&["....", "....", "..#."]).unwrap();
/// let mut table = JumpDistances::new();
/// assert_eq!(table.update(&grid), Update::Rebuilt);
/// assert_eq!(table.update(&grid), Update::Unchanged);
/// grid.set_blocked(Point::new(0, 0), true).unwrap();
/// assert!(matches!(table.update(&grid), Update::Repaired { changes: 1, .. }));
/// ```
#[derive(Clone, Debug, Default)]
pub struct JumpDistances {
    width: usize,
    height: usize,
    /// Per cell, one distance per direction in [`DIRECTIONS`] order: 8 bytes, one read.
    distances: Vec<[Distance; 8]>,
    /// Per cell, which of its eight neighbours are free ([`Grid::free_neighbours`]), kept here
    /// because the pruning reads it at every expansion: one byte instead of three words of the
    /// grid's rows (JPS+ on arena2: 5 % fewer instructions). A wall change redoes nine.
    free_neighbours: Vec<u8>,
    /// The wall revision the table was made for.
    made_for: Option<u64>,
    /// Scratch for a repair: cells whose diagonal inputs changed (and which: [`WALL`] or the
    /// straight direction whose answer flipped), and the stretches of lines to redo: a pair of
    /// straight directions (0 for east and west, 2 for south and north), the line, and the
    /// position along it of a changed cell.
    seeds: Vec<(usize, usize)>,
    lines: Vec<(usize, i32, i32)>,
}

impl JumpDistances {
    /// An empty table: the first update makes it for its grid.
    pub fn new() -> Self {
        Self::default()
    }

    /// Brings the table up to date with `grid`'s walls: nothing if it is already, a repair of
    /// what the changes touch if the grid remembers them ([`Grid::wall_changes_since`]) and they
    /// are few, a rebuild otherwise.
    pub fn update(&mut self, grid: &Grid) -> Update {
        let same_size = (self.width, self.height)
            == (grid.width() as usize, grid.height() as usize)
            && self.distances.len() == grid.len();
        let revision = grid.wall_revision();
        match self.made_for {
            Some(made_for) if same_size && made_for == revision => return Update::Unchanged,
            Some(made_for) if same_size => {
                // Worth repairing while the lines to redo are a small part of the map.
                let limit = (self.width + self.height) / 16;
                if let Some(changes) = grid.wall_changes_since(made_for)
                    && changes.len() <= limit.max(1)
                {
                    let changes: usize = changes.map(|p| self.note_change(grid, p)).count();
                    let entries = self.repair(grid);
                    self.made_for = Some(revision);
                    return Update::Repaired { changes, entries };
                }
            }
            _ => {}
        }
        self.rebuild(grid);
        Update::Rebuilt
    }

    /// The distance from cell `index` in direction `DIRECTIONS[direction]`.
    #[inline]
    pub(crate) fn distance(&self, index: usize, direction: usize) -> i32 {
        i32::from(self.distances[index][direction])
    }

    /// Which of cell `index`'s eight neighbours are free.
    #[inline]
    pub(crate) fn free_neighbours(&self, index: usize) -> u8 {
        self.free_neighbours[index]
    }

    /// Stores a distance; every value computed here fits (see the constants).
    #[inline]
    fn store(&mut self, index: usize, direction: usize, value: i32) -> i32 {
        debug_assert!(i32::from(Distance::MIN) <= value && value <= i32::from(Distance::MAX));
        i32::from(std::mem::replace(
            &mut self.distances[index][direction],
            value as Distance,
        ))
    }

    fn rebuild(&mut self, grid: &Grid) {
        (self.width, self.height) = (grid.width() as usize, grid.height() as usize);
        self.distances.clear();
        self.distances.resize(grid.len(), [0; 8]);
        self.free_neighbours.clear();
        for y in 0..self.height as i32 {
            let row = (0..self.width as i32).map(|x| grid.free_neighbours(x, y));
            self.free_neighbours.extend(row);
        }
        for y in 0..self.height as i32 {
            self.straight_line(grid, 0, y);
            self.straight_line(grid, 1, y);
        }
        for x in 0..self.width as i32 {
            self.straight_line(grid, 2, x);
            self.straight_line(grid, 3, x);
        }
        self.fill_diagonal::<1, 1>();
        self.fill_diagonal::<-1, 1>();
        self.fill_diagonal::<1, -1>();
        self.fill_diagonal::<-1, -1>();
        // A rebuild needs no seeds: drop the ones its lines left, and any queued repair.
        self.seeds.clear();
        self.lines.clear();
        self.made_for = Some(grid.wall_revision());
    }

    /// Queues the lines a wall change at `p` touches, and marks `p` itself as a seed.
    fn note_change(&mut self, grid: &Grid, p: crate::grid::Point) {
        for d in -1..=1 {
            self.lines.push((0, p.y + d, p.x));
            self.lines.push((2, p.x + d, p.y));
        }
        for (dx, dy) in [(0, 0)].into_iter().chain(STEPS) {
            if let Some(i) = grid.index_of(crate::grid::Point::new(p.x + dx, p.y + dy)) {
                self.free_neighbours[i] = grid.free_neighbours(p.x + dx, p.y + dy);
            }
        }
        if let Some(i) = grid.index_of(p) {
            self.seeds.push((i, WALL));
        }
    }

    /// Redoes the queued lines, then walks back along the diagonals from every seed. Returns how
    /// many entries were recomputed.
    fn repair(&mut self, grid: &Grid) -> usize {
        let mut lines = std::mem::take(&mut self.lines);
        lines.sort_unstable();
        lines.dedup();
        let mut entries = 0;
        for &(first_direction, line, at) in &lines {
            let line_count = if first_direction == 0 {
                self.height
            } else {
                self.width
            };
            if (0..line_count as i32).contains(&line) {
                for direction in [first_direction, first_direction + 1] {
                    // The change is read by the cells at `at` and one step behind it (a wall
                    // ahead, or behind a side cell): from one step ahead, back while the values
                    // change. A cell's straight entry depends only on the cells ahead of it.
                    let forwards = DIRECTIONS[direction].0 + DIRECTIONS[direction].1;
                    let stretch = (at + forwards, at - forwards);
                    entries += self.straight_stretch::<true>(grid, direction, line, stretch);
                }
            }
        }
        lines.clear();
        self.lines = lines;

        // In any order, and repeats are harmless: a walk stops at the first entry that keeps its
        // value, and a cell's entries depend only on the cells ahead of it. (Sorting the seeds
        // first cost a seventh of a repair.)
        let mut seeds = std::mem::take(&mut self.seeds);
        for &(seed, what) in &seeds {
            let (sx, sy) = ((seed % self.width) as i32, (seed / self.width) as i32);
            for (direction, &(dx, dy)) in DIRECTIONS.iter().enumerate().skip(4) {
                if what == WALL {
                    // The cells whose diagonal step reads the seed: ahead, or beside the step.
                    for (bx, by) in [(dx, dy), (dx, 0), (0, dy)] {
                        entries += self.walk_back(sx - bx, sy - by, direction);
                    }
                } else if what == direction_index(dx, 0) || what == direction_index(0, dy) {
                    // A straight answer flipped: only the diagonals made of that direction read it.
                    entries += self.walk_back(sx - dx, sy - dy, direction);
                }
            }
        }
        seeds.clear();
        self.seeds = seeds;
        entries
    }

    /// Fills diagonal direction `(DX, DY)` for the whole map (after the straight directions).
    fn fill_diagonal<const DX: i32, const DY: i32>(&mut self) {
        let direction = direction_index(DX, DY);
        // Each cell reads the next one along its diagonal: fill those first.
        for row in 0..self.height as i32 {
            let y = if DY > 0 {
                self.height as i32 - 1 - row
            } else {
                row
            };
            for x in 0..self.width as i32 {
                let i = self.index(x, y);
                let value = self.diagonal_value::<DX, DY>(i);
                self.store(i, direction, value);
            }
        }
    }

    /// Recomputes the diagonal distances from `(x, y)` backwards along `direction`, while they
    /// change. A cell whose own inputs changed is some seed's neighbour and is walked from there.
    fn walk_back(&mut self, x: i32, y: i32, direction: usize) -> usize {
        // One copy per direction, its steps constants: a repair makes thousands of short walks.
        match DIRECTIONS[direction] {
            (1, 1) => self.walk_back_along::<1, 1>(x, y),
            (-1, 1) => self.walk_back_along::<-1, 1>(x, y),
            (1, -1) => self.walk_back_along::<1, -1>(x, y),
            _ => self.walk_back_along::<-1, -1>(x, y),
        }
    }

    fn walk_back_along<const DX: i32, const DY: i32>(&mut self, x: i32, y: i32) -> usize {
        let direction = direction_index(DX, DY);
        let (w, h) = (self.width as i32, self.height as i32);
        if !((0..w).contains(&x) && (0..h).contains(&y)) {
            return 0;
        }
        // The cells from (x, y) back to the edge of the map.
        let back_x = if DX > 0 { x + 1 } else { w - x };
        let back_y = if DY > 0 { y + 1 } else { h - y };
        let step_back = -(DY as isize * self.width as isize + DX as isize);
        let mut i = self.index(x, y);
        let mut entries = 0;
        for _ in 0..back_x.min(back_y) {
            let value = self.diagonal_value::<DX, DY>(i);
            entries += 1;
            if self.store(i, direction, value) == value {
                break;
            }
            i = i.wrapping_add_signed(step_back);
        }
        entries
    }

    /// Fills one straight direction (0–3) along one row (east, west) or column (south, north),
    /// starting from the far end so that each cell reads the one ahead of it. Returns the number
    /// of entries written.
    fn straight_line(&mut self, grid: &Grid, direction: usize, line: i32) -> usize {
        let (dx, dy) = DIRECTIONS[direction];
        let length = if dx != 0 { self.width } else { self.height } as i32;
        let far_end = if dx + dy > 0 {
            (length - 1, 0)
        } else {
            (0, length - 1)
        };
        self.straight_stretch::<false>(grid, direction, line, far_end)
    }

    /// Recomputes straight `direction` along `line` from position `first` back to position
    /// `last` (against the direction of travel), and with `WHILE_CHANGING` on past `last` for
    /// as long as the values change (a constant, so that a rebuild's loop does not test it).
    /// Every cell whose answer to "is there a jump point ahead?" changes becomes a seed for the
    /// diagonals. Returns the number of entries written.
    fn straight_stretch<const WHILE_CHANGING: bool>(
        &mut self,
        grid: &Grid,
        direction: usize,
        line: i32,
        (first, last): (i32, i32),
    ) -> usize {
        let (dx, dy) = DIRECTIONS[direction];
        let length = if dx != 0 { self.width } else { self.height } as i32;
        let cell = |k: i32| if dx != 0 { (k, line) } else { (line, k) };
        let forwards = dx + dy; // the direction of travel along the line: +1 or -1
        let mut k = first.clamp(0, length - 1);
        let mut ahead = if (0..length).contains(&(k + forwards)) {
            let (x, y) = cell(k + forwards);
            self.distance(self.index(x, y), direction)
        } else {
            0
        };
        let mut written = 0;
        while (0..length).contains(&k) {
            let (x, y) = cell(k);
            let (nx, ny) = (x + dx, y + dy);
            let value = if !grid.is_free(nx, ny) {
                0
            } else if forced(grid, nx, ny, dx, dy) {
                1
            } else {
                match ahead {
                    ONWARD_FOUND | ONWARD_NONE => ahead,
                    STRAIGHT_CAP => ONWARD_FOUND,
                    a if a > 0 => a + 1,
                    a if 1 - a > STRAIGHT_CAP => ONWARD_NONE,
                    a => a - 1,
                }
            };
            let i = self.index(x, y);
            let old = self.store(i, direction, value);
            if (old > 0) != (value > 0) {
                self.seeds.push((i, direction));
            }
            written += 1;
            // At `last` or behind it, and this value kept: so will all those behind.
            if WHILE_CHANGING && old == value && (k - last) * forwards <= 0 {
                break;
            }
            ahead = value;
            k -= forwards;
        }
        written as usize
    }

    /// The diagonal distance at cell `i` in diagonal direction `(DX, DY)`, from the cell ahead.
    ///
    /// It reads the table only, never the grid: a straight distance is 0 exactly when the next
    /// cell that way is a wall or off the map, so the straight entries (made first) say whether
    /// the three cells of the diagonal step are free. Three bytes read instead of three wall
    /// tests with their bounds checks: the rebuild and the repair each ran about a third fewer
    /// instructions.
    #[inline]
    fn diagonal_value<const DX: i32, const DY: i32>(&self, i: usize) -> i32 {
        let direction = direction_index(DX, DY);
        let (across, down) = (direction_index(DX, 0), direction_index(0, DY));
        let here = &self.distances[i];
        if here[across] == 0 || here[down] == 0 {
            return 0; // never cut a corner: both cells beside the step must be free
        }
        // Both cells are on the map now, so their indices are plain sums.
        let beside = i.wrapping_add_signed(DX as isize);
        if self.distances[beside][down] == 0 {
            return 0; // the diagonal cell itself, one step down from the cell across
        }
        let next = &self.distances[beside.wrapping_add_signed(DY as isize * self.width as isize)];
        let parts =
            if next[across] > 0 { ACROSS } else { 0 } | if next[down] > 0 { DOWN } else { 0 };
        if parts != 0 {
            return look(1, parts); // a straight run from the next cell finds a jump point
        }
        match i32::from(next[direction]) {
            CARRY_ON => CARRY_ON,
            ahead if ahead > 0 => match look_steps_and_parts(ahead) {
                (steps, parts) if steps < LEAP => look(steps + 1, parts),
                _ => CARRY_ON, // a look more than `LEAP` cells away
            },
            // `1 − ahead` free steps from here and then a wall.
            ahead if 1 - ahead < LEAP => ahead - 1,
            // A wall more than `LEAP` cells away.
            _ => CARRY_ON,
        }
    }

    #[inline]
    fn index(&self, x: i32, y: i32) -> usize {
        y as usize * self.width + x as usize
    }
}

/// Does a straight run moving `(dx, dy)` have to stop at `(x, y)`? When a cell beside it is free
/// but the cell behind that one is a wall: only a turn here reaches the side cell optimally.
#[inline]
pub(crate) fn forced(grid: &Grid, x: i32, y: i32, dx: i32, dy: i32) -> bool {
    let (side_x, side_y) = (dy, dx);
    [1, -1].into_iter().any(|s| {
        let (ax, ay) = (x + s * side_x, y + s * side_y);
        grid.is_free(ax, ay) && !grid.is_free(ax - dx, ay - dy)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Point;
    use proptest::prelude::*;

    fn random_grid(w: u32, h: u32, rolls: &[u8], wall_pct: u8) -> Grid {
        let mut grid = Grid::new(w, h).expect("small grid");
        for (i, roll) in rolls.iter().enumerate() {
            grid.set_blocked(grid.point_of(i), *roll < wall_pct)
                .expect("inside");
        }
        grid
    }

    /// The distances as their definitions read, walking cell by cell. A diagonal asks the
    /// table whether a straight run finds a jump point, so check the straight entries first.
    fn by_definition(table: &JumpDistances, grid: &Grid, x: i32, y: i32, direction: usize) -> i32 {
        let (dx, dy) = DIRECTIONS[direction];
        let diagonal = dx != 0 && dy != 0;
        let free = |x, y| grid.is_free(x, y);
        let (mut cx, mut cy, mut steps) = (x, y, 0);
        loop {
            let step_ok =
                free(cx + dx, cy + dy) && (!diagonal || free(cx + dx, cy) && free(cx, cy + dy));
            if !step_ok {
                return if !diagonal && steps > STRAIGHT_CAP {
                    ONWARD_NONE
                } else {
                    -steps
                };
            }
            (cx, cy, steps) = (cx + dx, cy + dy, steps + 1);
            if diagonal {
                let i = table.index(cx, cy);
                let finds = |direction| table.distance(i, direction) > 0;
                let across = if finds(direction_index(dx, 0)) {
                    ACROSS
                } else {
                    0
                };
                let down = if finds(direction_index(0, dy)) {
                    DOWN
                } else {
                    0
                };
                if across | down != 0 {
                    return look(steps, across | down);
                }
            } else if forced(grid, cx, cy, dx, dy) {
                return if steps > STRAIGHT_CAP {
                    ONWARD_FOUND
                } else {
                    steps
                };
            }
            if diagonal && steps == LEAP {
                return CARRY_ON; // capped: nothing within reach, go this far and read again
            }
        }
    }

    fn assert_matches_definition(table: &JumpDistances, grid: &Grid) {
        for directions in [0..4, 4..8] {
            for i in 0..grid.len() {
                let Point { x, y } = grid.point_of(i);
                for direction in directions.clone() {
                    assert_eq!(
                        table.distance(i, direction),
                        by_definition(table, grid, x, y, direction),
                        "({x}, {y}) direction {:?} on {grid:?}",
                        DIRECTIONS[direction]
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// A rebuilt table says what the definitions say, on grids large enough for capped
        /// diagonals.
        #[test]
        fn a_rebuilt_table_matches_the_definition(
            (w, h, rolls) in prop_oneof![
                (1u32..80, 1u32..80),
                (120u32..300, 1u32..6),
                (1u32..6, 120u32..300),
            ].prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec(0u8..100, (w * h) as usize))
            }),
            wall_pct in 0u8..40,
        ) {
            let grid = random_grid(w, h, &rolls, wall_pct);
            let mut table = JumpDistances::new();
            prop_assert_eq!(table.update(&grid), Update::Rebuilt);
            assert_matches_definition(&table, &grid);
        }

        /// After any sequence of wall edits, a repaired table equals a rebuilt one.
        #[test]
        fn a_repaired_table_equals_a_rebuilt_one(
            (w, h, rolls) in prop_oneof![
                (1u32..70, 1u32..70),
                (120u32..300, 1u32..6),
            ].prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec(0u8..100, (w * h) as usize))
            }),
            wall_pct in 0u8..40,
            edits in prop::collection::vec((any::<usize>(), any::<bool>(), 1usize..4), 1..12),
        ) {
            let mut grid = random_grid(w, h, &rolls, wall_pct);
            let mut table = JumpDistances::new();
            table.update(&grid);
            for (cell, blocked, batch) in edits {
                for k in 0..batch {
                    let p = grid.point_of((cell + k * 7) % grid.len());
                    grid.set_blocked(p, blocked).expect("inside");
                }
                table.update(&grid);
                let mut fresh = JumpDistances::new();
                fresh.update(&grid);
                prop_assert!(table.distances == fresh.distances, "after edits on {:?}", grid);
                prop_assert!(table.free_neighbours == fresh.free_neighbours);
            }
        }
    }

    #[test]
    fn a_single_edit_on_a_large_map_is_repaired_not_rebuilt() {
        let mut grid = Grid::new(200, 100).unwrap();
        let mut table = JumpDistances::new();
        table.update(&grid);
        grid.set_blocked(Point::new(50, 50), true).unwrap();
        let Update::Repaired { changes, entries } = table.update(&grid) else {
            panic!("expected a repair")
        };
        assert_eq!(changes, 1);
        // The stretches of six lines that changed, and the capped diagonals that read them: under
        // 5 % of the 8 × 20,000 entries (5,529 when this was written).
        assert!(entries < 8_000, "{entries} entries recomputed");
        let mut fresh = JumpDistances::new();
        fresh.update(&grid);
        assert!(table.distances == fresh.distances);
        assert!(table.free_neighbours == fresh.free_neighbours);
    }
}
