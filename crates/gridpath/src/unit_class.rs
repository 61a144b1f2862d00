//! Unit classes: one map, read differently by each kind of unit.
//!
//! A cell's [`Terrain`] is a small id; a [`UnitClass`] is a table with one entry per terrain:
//! closed (the unit may not enter), or a cost factor. Entering a cell costs **the cell's own
//! cost times the class's factor for its terrain** (times √2 on a diagonal), so a class that
//! opens every terrain at 1 reads the grid exactly as a search without a class does, and the
//! costs a map already has (a road of cost 1, a hill of 3) keep their meaning for every class.
//! This is the A\* Pathfinding Project's tags and per-seeker tag penalties, and Godot's
//! navigation layers with a cost per query, on a grid.
//!
//! The searches read the class through [`EntryCosts`], a type parameter: the loop without a
//! class compiles exactly as before, and the loop with one reads one more byte per neighbour
//! (the terrain id) and one table entry.

use std::fmt;
use std::sync::Arc;

use crate::grid::{Grid, Point};
use crate::links::LinkEdge;
use crate::terrain::Terrain;

/// What each terrain means to one kind of unit: closed, or open at a cost factor.
///
/// ```
/// use gridpath::{Grid, Point, Terrain, UnitClass};
///
/// const ROAD: Terrain = Terrain(0);
/// const MUD: Terrain = Terrain(3);
/// const WATER: Terrain = Terrain::WATER;
/// let soldier = UnitClass::new().with_cost(MUD, 5).without(WATER);
/// let boat = UnitClass::closed().with_cost(WATER, 1);
///
/// let mut grid = Grid::new(3, 1).unwrap();
/// grid.set_terrain(Point::new(1, 0), MUD).unwrap();
/// grid.set_terrain(Point::new(2, 0), WATER).unwrap();
/// assert_eq!(soldier.entry_cost(&grid, Point::new(0, 0)), Some(1)); // road
/// assert_eq!(soldier.entry_cost(&grid, Point::new(1, 0)), Some(5)); // mud
/// assert_eq!(soldier.entry_cost(&grid, Point::new(2, 0)), None); // water
/// assert_eq!(boat.entry_cost(&grid, Point::new(2, 0)), Some(1));
/// assert_eq!(boat.cost_of(ROAD), None);
/// ```
///
/// Cloning a class is cheap (its table is shared), so a search can keep one per query.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct UnitClass {
    /// A factor per terrain; 0 means closed.
    factors: Arc<[u32; Terrain::COUNT]>,
    /// The largest of them: whether a grid's costs times them fit in a `u32`.
    max_factor: u32,
}

impl UnitClass {
    /// The largest cost factor: a dearer one is stored as this.
    pub const MAX_COST: u32 = 1 << 16;

    /// A class that may enter every terrain at factor 1: the grid as it is.
    pub fn new() -> Self {
        Self {
            factors: Arc::new([1; Terrain::COUNT]),
            max_factor: 1,
        }
    }

    /// A class that may enter no terrain yet: open some with [`UnitClass::with_cost`].
    pub fn closed() -> Self {
        Self {
            factors: Arc::new([0; Terrain::COUNT]),
            max_factor: 0,
        }
    }

    /// This class, with `terrain` open at `cost` (clamped to 1..=[`UnitClass::MAX_COST`]).
    pub fn with_cost(mut self, terrain: Terrain, cost: u32) -> Self {
        Arc::make_mut(&mut self.factors)[terrain.0 as usize] = cost.clamp(1, Self::MAX_COST);
        self.max_factor = self.factors.iter().copied().max().unwrap_or(0);
        self
    }

    /// This class, with `terrain` closed.
    pub fn without(mut self, terrain: Terrain) -> Self {
        Arc::make_mut(&mut self.factors)[terrain.0 as usize] = 0;
        self.max_factor = self.factors.iter().copied().max().unwrap_or(0);
        self
    }

    /// The factor for `terrain`, or `None` when the class may not enter it.
    pub fn cost_of(&self, terrain: Terrain) -> Option<u32> {
        Some(self.factors[terrain.0 as usize]).filter(|&f| f != 0)
    }

    /// What entering the cell at `p` costs this class on a straight step: the cell's cost times
    /// the factor for its terrain. `None` off the grid, on a wall, or on a closed terrain.
    pub fn entry_cost(&self, grid: &Grid, p: Point) -> Option<u32> {
        let i = grid.index_of(p)?;
        Some(self.on(grid).entry(i)).filter(|&c| c != 0)
    }

    /// The unit of the Moving AI benchmark at `start`: its maps' swamp (`S`) is crossed like
    /// ground, and water (`W`) is entered only from water. A route never changes between the two,
    /// so the unit is a class of land (ground and swamp) or of water, by the terrain it starts
    /// on. (On a wall or off the map: land.)
    pub fn moving_ai_for(grid: &Grid, start: Point) -> Self {
        if grid.terrain(start) == Some(Terrain::WATER) && grid.is_passable(start) {
            Self::moving_ai_water()
        } else {
            Self::moving_ai_land()
        }
    }

    /// The Moving AI benchmark's unit on land: ground and swamp at 1, water closed.
    pub fn moving_ai_land() -> Self {
        UnitClass::new().without(Terrain::WATER)
    }

    /// The Moving AI benchmark's unit on water: water at 1, the rest closed.
    pub fn moving_ai_water() -> Self {
        UnitClass::closed().with_cost(Terrain::WATER, 1)
    }

    /// The class's view of `grid`, for the searches' loops: a cost too dear for a `u32` is
    /// stored as `u32::MAX`.
    pub(crate) fn on<'a>(&'a self, grid: &'a Grid) -> ClassCosts<'a> {
        ClassCosts {
            costs: grid.raw_costs(),
            terrain: grid.terrain_ids(),
            factors: &self.factors,
        }
    }

    /// [`UnitClass::on`] without the check for a cost too dear for a `u32`, when none can be
    /// (the grid's dearest cost times the class's largest factor fits): the best-first loop's
    /// view, 3 % fewer instructions a cell (Dijkstra on arena2).
    pub(crate) fn on_exact<'a>(&'a self, grid: &'a Grid) -> Option<ClassCosts<'a, false>> {
        let dearest = u64::from(grid.max_cost()) * u64::from(self.max_factor);
        (dearest <= u64::from(u32::MAX)).then(|| ClassCosts {
            costs: grid.raw_costs(),
            terrain: grid.terrain_ids(),
            factors: &self.factors,
        })
    }

    /// The smallest factor among the terrains of `grid`'s passable cells that the class may
    /// enter (1 when it may enter none): with the grid's cheapest cost, a lower bound on every
    /// step, which keeps a heuristic admissible.
    pub(crate) fn cheapest_on(&self, grid: &Grid) -> u32 {
        grid.terrains_present()
            .filter_map(|t| self.cost_of(t))
            .min()
            .unwrap_or(1)
    }

    /// `Some(factor)` when the class may enter every terrain on `grid`'s passable cells, all at
    /// that one factor: then it sees the grid's own walls, and costs scaled by one number (what
    /// jump point search and Theta\* need). `None` otherwise.
    pub(crate) fn uniform_on(&self, grid: &Grid) -> Option<u32> {
        let mut factors = grid.terrains_present().map(|t| self.factors[t.0 as usize]);
        let first = factors.next().unwrap_or(1);
        (first != 0 && factors.all(|f| f == first)).then_some(first)
    }
}

impl Default for UnitClass {
    fn default() -> Self {
        Self::new()
    }
}

/// Lists the terrains that are not at factor 1: `UnitClass { 2: closed, 3: 5 }`.
impl fmt::Debug for UnitClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        for (t, &factor) in self.factors.iter().enumerate() {
            match factor {
                0 => map.entry(&t, &"closed"),
                1 => continue,
                _ => map.entry(&t, &factor),
            };
        }
        map.finish()
    }
}

/// What a search reads of a map: the cost of entering each cell, 0 for "may not". `&Grid` is
/// the grid as it is; [`ClassCosts`] is a class's view of it. A type parameter of the searches'
/// loops, so that each compiles once per view with nothing to test at run time.
pub(crate) trait EntryCosts: Copy {
    /// The entry cost of the cell at `index` (below the grid's length); 0 when closed.
    fn entry(self, index: usize) -> u32;

    /// [`EntryCosts::entry`], or `None` off the end of the grid.
    fn entry_at(self, index: usize) -> Option<u32>;

    /// The factor on a link of `kind` ([`crate::Link::kind`]); 0 when closed.
    fn link_factor(self, kind: Terrain) -> u32;

    /// What taking `edge` costs in this view of the grid: `None` when the class may not take a
    /// link of its kind, or stand where it leads.
    #[inline]
    fn link_cost(self, edge: &LinkEdge) -> Option<f64> {
        let factor = edge.kind.map_or(1, |kind| self.link_factor(kind));
        let lands = self.entry(edge.to as usize) != 0;
        (factor != 0 && lands).then(|| f64::from(edge.cost) * f64::from(factor))
    }
}

impl EntryCosts for &Grid {
    #[inline(always)]
    fn entry(self, index: usize) -> u32 {
        self.raw_cost(index)
    }

    #[inline(always)]
    fn entry_at(self, index: usize) -> Option<u32> {
        self.raw_cost_at(index)
    }

    #[inline(always)]
    fn link_factor(self, _: Terrain) -> u32 {
        1
    }
}

/// A class's view of a grid: the cell's cost times the factor for its terrain (0 stays 0, a
/// closed terrain gives 0), saturating at `u32::MAX` unless `SATURATING` is false (a grid and
/// class whose products all fit: [`UnitClass::on_exact`]).
#[derive(Clone, Copy)]
pub(crate) struct ClassCosts<'a, const SATURATING: bool = true> {
    costs: &'a [u32],
    terrain: &'a [u8],
    factors: &'a [u32; Terrain::COUNT],
}

impl<const SATURATING: bool> EntryCosts for ClassCosts<'_, SATURATING> {
    #[inline(always)]
    fn entry(self, index: usize) -> u32 {
        let factor = self.factors[self.terrain[index] as usize];
        if SATURATING {
            self.costs[index].saturating_mul(factor)
        } else {
            self.costs[index].wrapping_mul(factor)
        }
    }

    #[inline(always)]
    fn entry_at(self, index: usize) -> Option<u32> {
        (index < self.costs.len()).then(|| self.entry(index))
    }

    #[inline(always)]
    fn link_factor(self, kind: Terrain) -> u32 {
        self.factors[kind.0 as usize]
    }
}

/// A grid read as it is or through a class, chosen at run time: for D\* Lite, whose repairs
/// run a few cells at a time from many places, where one copy of each per view would buy
/// nothing.
#[derive(Clone, Copy)]
pub(crate) enum AnyCosts<'a> {
    /// The grid as it is.
    Plain(&'a Grid),
    /// A class's view.
    Class(ClassCosts<'a>),
}

impl<'a> AnyCosts<'a> {
    pub(crate) fn of(grid: &'a Grid, class: Option<&'a UnitClass>) -> Self {
        match class {
            None => AnyCosts::Plain(grid),
            Some(class) => AnyCosts::Class(class.on(grid)),
        }
    }
}

impl EntryCosts for AnyCosts<'_> {
    #[inline]
    fn entry(self, index: usize) -> u32 {
        match self {
            AnyCosts::Plain(grid) => grid.raw_cost(index),
            AnyCosts::Class(class) => class.entry(index),
        }
    }

    #[inline]
    fn entry_at(self, index: usize) -> Option<u32> {
        match self {
            AnyCosts::Plain(grid) => grid.raw_cost_at(index),
            AnyCosts::Class(class) => class.entry_at(index),
        }
    }

    #[inline]
    fn link_factor(self, kind: Terrain) -> u32 {
        match self {
            AnyCosts::Plain(grid) => grid.link_factor(kind),
            AnyCosts::Class(class) => class.link_factor(kind),
        }
    }
}

/// Links as a class reads them. Here rather than beside the grid's other link methods, so that
/// the grid need not know what a class is.
impl Grid {
    /// What the cheapest open link from `from` straight to `to` costs a unit of `class` (or of
    /// no class): `None` when there is none it may take, or it may not stand at `to`. A route
    /// steps from one cell to the next by a move or by a link; this is how a unit walking one
    /// tells the two apart.
    ///
    /// ```
    /// use gridpath::{Grid, Link, Point, Terrain, UnitClass};
    ///
    /// const LADDER: Terrain = Terrain(9);
    /// let mut grid = Grid::new(6, 1).unwrap();
    /// let (foot, top) = (Point::new(0, 0), Point::new(5, 0));
    /// grid.add_link(Link::new(foot, top, 3).of_kind(LADDER)).unwrap();
    /// assert_eq!(grid.link_cost(foot, top, None), Some(3.0));
    /// assert_eq!(grid.link_cost(top, foot, None), Some(3.0), "two-way");
    /// let tank = UnitClass::new().without(LADDER);
    /// assert_eq!(grid.link_cost(foot, top, Some(&tank)), None);
    /// ```
    pub fn link_cost(&self, from: Point, to: Point, class: Option<&UnitClass>) -> Option<f64> {
        if !self.has_open_links() {
            return None; // asked for every step of a route by those who walk one
        }
        let (from, to) = (self.index_of(from)?, self.index_of(to)? as u32);
        let costs = AnyCosts::of(self, class);
        self.link_table()
            .edges_from(from)
            .iter()
            .filter(|e| e.to == to)
            .filter_map(|e| costs.link_cost(e))
            .reduce(f64::min)
    }
}

/// The cheapest entry cost on `grid` for `class` (or for the grid as it is): what a heuristic
/// is scaled by to stay admissible.
pub(crate) fn cheapest_step(grid: &Grid, class: Option<&UnitClass>) -> f64 {
    f64::from(grid.min_cost()) * f64::from(class.map_or(1, |c| c.cheapest_on(grid)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_multiplies_the_cells_cost_and_closes_terrains() {
        let mut grid = Grid::from_ascii(&["3.#"]).unwrap();
        grid.set_terrain(Point::new(0, 0), Terrain(7)).unwrap();
        grid.set_terrain(Point::new(1, 0), Terrain(8)).unwrap();
        let class = UnitClass::new()
            .with_cost(Terrain(7), 4)
            .without(Terrain(8));
        assert_eq!(class.entry_cost(&grid, Point::new(0, 0)), Some(12));
        assert_eq!(class.entry_cost(&grid, Point::new(1, 0)), None);
        assert_eq!(class.entry_cost(&grid, Point::new(2, 0)), None, "a wall");
        assert_eq!(class.entry_cost(&grid, Point::new(3, 0)), None, "outside");
        assert_eq!(
            class.cheapest_on(&grid),
            4,
            "terrain 8 is closed, 0 is only under the wall"
        );
        assert_eq!(class.uniform_on(&grid), None);
        assert_eq!(UnitClass::new().uniform_on(&grid), Some(1));
        assert_eq!(format!("{class:?}"), "{7: 4, 8: \"closed\"}");
    }

    /// The loop's view without the saturation check only where no product can overflow.
    #[test]
    fn costs_too_dear_for_a_u32_saturate() {
        let mut grid = Grid::new(2, 1).unwrap();
        let class = UnitClass::new().with_cost(Terrain::GROUND, 3);
        assert!(class.on_exact(&grid).is_some());
        grid.set(Point::new(1, 0), crate::grid::Cell::Passable(2_000_000_000))
            .unwrap();
        assert!(class.on_exact(&grid).is_none());
        assert_eq!(class.entry_cost(&grid, Point::new(1, 0)), Some(u32::MAX));
    }

    #[test]
    fn the_terrain_counts_follow_walls_and_edits() {
        let mut grid = Grid::new(2, 1).unwrap();
        grid.set_terrain(Point::new(0, 0), Terrain::WATER).unwrap();
        let present = |g: &Grid| g.terrains_present().collect::<Vec<_>>();
        assert_eq!(present(&grid), [Terrain::GROUND, Terrain::WATER]);
        grid.set_blocked(Point::new(0, 0), true).unwrap();
        assert_eq!(present(&grid), [Terrain::GROUND]);
        grid.set_blocked(Point::new(0, 0), false).unwrap();
        grid.set_terrain(Point::new(1, 0), Terrain::WATER).unwrap();
        assert_eq!(present(&grid), [Terrain::WATER]);
        grid.set_terrain(Point::new(1, 0), Terrain(200)).unwrap();
        assert_eq!(present(&grid), [Terrain::WATER, Terrain(200)]);
    }
}
