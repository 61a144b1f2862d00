//! A flow field: every cell's cost to the nearest goal, from one search, for any number of units.
//! The story is on [`FlowField`].

use crate::grid::{Grid, Point};
use crate::movement::Movement;
use crate::unit_class::{AnyCosts, EntryCosts, UnitClass};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A flow field: every cell's cost to the nearest goal, from one search, for any number of units.
///
/// When a hundred units chase one goal, a hundred A* searches repeat each other's work: near the
/// goal they all expand the same cells. A *Dijkstra map* (Red Blob Games' name; "flow field" in
/// tower-defense games) turns the question around. One Dijkstra search runs **from the goals
/// outwards** and records, for every cell it reaches, the cost of the cheapest way from that cell
/// to a goal. A unit anywhere then needs no search at all: it steps to the neighbour whose cost,
/// plus the step, is lowest, and so walks a cheapest path. Several goals are no harder than one
/// (they all start at cost 0), and each cell heads for whichever goal is cheapest to reach.
///
/// Searching backwards needs one care with terrain: a step from `p` into `c` costs `c`'s entry
/// cost, so when the search reaches `p` from `c` it adds what *entering `c`* costs, not `p`.
/// Which moves are legal does not change with their direction (the same two side cells decide a
/// diagonal either way). A link may be one way: the search reaches a link's start from the cell
/// it leads to ([`crate::Link`]).
///
/// Every cell's cost to the nearest goal.
///
/// ```
/// use gridpath::{FlowField, Grid, Movement, Point};
///
/// let grid = Grid::from_ascii(&[
///     "....",
///     ".##.",
///     "....",
/// ]).unwrap();
/// let mut field = FlowField::new();
/// field.compute(&grid, &[Point::new(3, 1)], Movement::FourWay);
/// assert_eq!(field.cost(Point::new(0, 1)), Some(5.0)); // around the wall
/// assert_eq!(field.next_step(&grid, Point::new(0, 1)), Some(Point::new(0, 0)));
/// assert_eq!(field.cost(Point::new(1, 1)), None); // a wall
/// ```
#[derive(Clone, Debug, Default)]
pub struct FlowField {
    width: usize,
    movement: Movement,
    /// Per cell, the cost to the nearest goal; infinite where no goal can be reached.
    costs: Vec<f64>,
    /// Scratch for the search, kept so that recomputing does not allocate.
    heap: BinaryHeap<(Reverse<u64>, Reverse<u32>)>,
    /// The unit class it was computed for, if any ([`FlowField::compute_as`]).
    class: Option<UnitClass>,
}

impl FlowField {
    /// An empty field: its first build sizes it to the grid.
    pub fn new() -> Self {
        Self::default()
    }

    /// Computes every cell's cost to the nearest of `goals` under `movement`. Goals outside the
    /// grid or on walls are skipped (a unit cannot stand there); with none left, no cell can reach
    /// a goal. O(cells · log cells).
    pub fn compute(&mut self, grid: &Grid, goals: &[Point], movement: Movement) {
        self.class = None;
        self.compute_by(grid, grid, goals, movement);
    }

    /// [`FlowField::compute`] for a unit class: costs as `class` reads the grid, and
    /// [`FlowField::next_step`] keeps to the terrains it may enter. A goal on a terrain closed to
    /// it is skipped, as one on a wall is.
    ///
    /// ```
    /// use gridpath::{FlowField, Grid, Movement, Point, Terrain, UnitClass};
    ///
    /// let mut grid = Grid::new(3, 2).unwrap();
    /// grid.set_terrain(Point::new(1, 0), Terrain::WATER).unwrap();
    /// let soldier = UnitClass::new().without(Terrain::WATER);
    /// let mut field = FlowField::new();
    /// field.compute_as(&grid, &soldier, &[Point::new(2, 0)], Movement::FourWay);
    /// assert_eq!(field.cost(Point::new(0, 0)), Some(4.0)); // round the water
    /// assert_eq!(field.next_step(&grid, Point::new(0, 0)), Some(Point::new(0, 1)));
    /// ```
    pub fn compute_as(
        &mut self,
        grid: &Grid,
        class: &UnitClass,
        goals: &[Point],
        movement: Movement,
    ) {
        self.class = Some(class.clone());
        self.compute_by(grid, class.on(grid), goals, movement);
    }

    fn compute_by(
        &mut self,
        grid: &Grid,
        entry_costs: impl EntryCosts,
        goals: &[Point],
        movement: Movement,
    ) {
        self.width = grid.width() as usize;
        self.movement = movement;
        self.costs.clear();
        self.costs.resize(grid.len(), f64::INFINITY);
        self.heap.clear();
        for &goal in goals {
            if let Some(i) = grid.index_of(goal).filter(|&i| entry_costs.entry(i) != 0) {
                self.costs[i] = 0.0;
                self.heap
                    .push((Reverse(0.0f64.to_bits()), Reverse(i as u32)));
            }
        }
        // Dijkstra, backwards: take the cheapest cell not yet final, and offer each cell that can
        // step into it the cost of that step plus its own.
        while let Some((Reverse(bits), Reverse(cell))) = self.heap.pop() {
            let (cell, cost) = (cell as usize, f64::from_bits(bits));
            if cost > self.costs[cell] {
                continue; // a stale entry: a cheaper one came out already
            }
            let (cx, cy) = (cell % self.width, cell / self.width);
            let entry = f64::from(entry_costs.entry(cell));
            let Self { costs, heap, .. } = self;
            let mut offer = |from: usize, through: f64| {
                if through < costs[from] {
                    costs[from] = through;
                    heap.push((Reverse(through.to_bits()), Reverse(from as u32)));
                }
            };
            movement.for_each_neighbor_by(grid, entry_costs, cell, |from, x, y, _| {
                offer(
                    from,
                    cost + movement.step_into(entry, (x as i32 - cx as i32, y as i32 - cy as i32)),
                )
            });
            // The links into this cell: whoever stands at a link's start may take it here.
            for edge in grid.link_table().edges_into(cell) {
                let from = edge.from as usize;
                if let Some(step) = entry_costs.link_cost(edge).filter(|_| {
                    entry_costs.entry(from) != 0 // one may stand there
                }) {
                    offer(from, cost + step);
                }
            }
        }
    }

    /// The cost from `p` to the nearest goal, or `None` when `p` is outside the grid, a wall, or
    /// cut off from every goal. (Costs are those of the last [`FlowField::compute`].)
    pub fn cost(&self, p: Point) -> Option<f64> {
        let i = self.index_of(p)?;
        let cost = self.costs[i];
        cost.is_finite().then_some(cost)
    }

    /// The costs of every cell that can reach a goal, row by row: for a colour scale, or to count
    /// them.
    pub fn reachable_costs(&self) -> impl Iterator<Item = f64> + '_ {
        self.costs.iter().copied().filter(|c| c.is_finite())
    }

    /// Where a unit at `p` should step next: the neighbour with the cheapest step plus cost to go
    /// (the first in [`STEPS`](crate::movement::STEPS) order on a tie), or where a link from `p`
    /// leads, when taking it is cheaper still ([`crate::Link`]). `None` at a goal, or where no goal can be reached.
    /// `grid` must be the grid the field was computed on.
    pub fn next_step(&self, grid: &Grid, p: Point) -> Option<Point> {
        let here = self.cost(p)?;
        if here == 0.0 {
            return None; // at a goal
        }
        let i = self.index_of(p)?;
        let mut best: Option<(f64, usize)> = None;
        let costs = AnyCosts::of(grid, self.class.as_ref());
        self.movement
            .for_each_neighbor_by(grid, costs, i, |next, _, _, step| {
                let through = step + self.costs.get(next).copied().unwrap_or(f64::INFINITY);
                if through.is_finite() && best.is_none_or(|(b, _)| through < b) {
                    best = Some((through, next));
                }
            });
        // A link out of here, where one is cheaper than every step.
        for edge in grid.link_table().edges_from(i) {
            let Some(step) = costs.link_cost(edge) else {
                continue;
            };
            let through = step
                + self
                    .costs
                    .get(edge.to as usize)
                    .copied()
                    .unwrap_or(f64::INFINITY);
            if through.is_finite() && best.is_none_or(|(b, _)| through < b) {
                best = Some((through, edge.to as usize));
            }
        }
        best.map(|(_, next)| grid.point_of(next))
    }

    /// The cells a unit walks from `p` by following the field, `p` first and a goal last; empty
    /// when `p` cannot reach a goal. Each step lowers the cost to go, so it always ends.
    pub fn path_from(&self, grid: &Grid, p: Point) -> Vec<Point> {
        let mut path = Vec::new();
        if self.cost(p).is_none() {
            return path;
        }
        path.push(p);
        let mut at = p;
        // A field computed on another grid could mislead; never take more steps than cells.
        while let Some(next) = self
            .next_step(grid, at)
            .filter(|_| path.len() <= grid.len())
        {
            path.push(next);
            at = next;
        }
        path
    }

    /// Was it computed on a grid of `grid`'s size? A field from another grid points nowhere
    /// useful there: compute it again.
    pub fn fits(&self, grid: &Grid) -> bool {
        self.width == grid.width() as usize && self.costs.len() == grid.len()
    }

    fn index_of(&self, p: Point) -> Option<usize> {
        let width = self.width as i32;
        (p.x >= 0 && p.y >= 0 && p.x < width)
            .then(|| p.y as usize * self.width + p.x as usize)
            .filter(|&i| i < self.costs.len())
    }
}
