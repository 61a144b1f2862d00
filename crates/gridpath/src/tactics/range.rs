//! Movement range: every cell within a cost budget, and the way to each (a bounded Dijkstra).

use super::blockers::Blockers;
use super::cell_set::CellSet;
use crate::grid::{Grid, Point};
use crate::movement::Movement;
use crate::vocabulary::Path;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Slack on a budget: a cost summed in floating point (`√2 + √2 + …`) may land a hair over the
/// budget its exact value meets.
const SLACK: f64 = 1e-9;
const NO_PARENT: u32 = u32::MAX;

/// Every cell a unit can reach within a cost budget, with its cheapest cost and the way there.
///
/// Dijkstra's algorithm from the unit's cell, stopped at the budget (the module's docs say why
/// not A\*): cells come out cheapest first, and the first one past the budget ends the search, so
/// a range of 6 on a map of a million cells touches the few dozen cells in reach. The memory is
/// kept from one query to the next, and only the cells a query touched are reset by the next,
/// so asking every frame allocates nothing once the map's size is known.
///
/// Costs are those of the searches: a step costs the entry cost of the cell it enters, times √2
/// on a diagonal. [`Blockers`] close cells and end moves in zones of control for one query.
///
/// The same search answers the nearest of several targets ([`MovementRange::nearest`]), a route
/// to within range of a goal ([`MovementRange::approach`]) and flight
/// ([`MovementRange::flee`]).
#[derive(Clone, Debug, Default)]
pub struct MovementRange {
    width: u32,
    /// Per cell, its cheapest cost found so far; infinite where not reached.
    cost: Vec<f64>,
    /// Per cell, the cell it is reached from ([`NO_PARENT`] for a start).
    parent: Vec<u32>,
    /// The cells whose cost is final, in the order they came out (cheapest first).
    settled: Vec<u32>,
    /// The cells given a cost, to reset for the next query.
    touched: Vec<u32>,
    /// Cells settled: a cell touched but not settled when a search stops early is not in range.
    done: CellSet,
    /// The targets of [`MovementRange::nearest`], kept for their memory.
    targets: CellSet,
    heap: BinaryHeap<(Reverse<u64>, Reverse<u32>)>,
}

impl MovementRange {
    /// An empty range: its first query sizes it to the grid.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every cell reachable from `from` within `budget` under `movement` and `blockers`. A start
    /// off the grid or on a wall reaches nothing.
    pub fn compute(
        &mut self,
        grid: &Grid,
        movement: Movement,
        from: Point,
        budget: f64,
        blockers: &Blockers,
    ) {
        self.compute_from(grid, movement, &[from], budget, blockers);
    }

    /// Every cell within `budget` of the nearest of `starts`: with several starts, each cell's
    /// cost is from the cheapest of them (how far the nearest threat must walk, say, for
    /// [`MovementRange::flee`]). Starts off the grid or on walls are skipped.
    pub fn compute_from(
        &mut self,
        grid: &Grid,
        movement: Movement,
        starts: &[Point],
        budget: f64,
        blockers: &Blockers,
    ) {
        self.search(grid, movement, starts, budget, blockers, |_| false);
    }

    /// The cost of `p` from the start, if it is in range (after the last query; after a query
    /// that stopped early, such as [`MovementRange::nearest`], the cells it settled).
    pub fn cost(&self, p: Point) -> Option<f64> {
        let i = self.index_of(p)?;
        self.done.contains(i).then(|| self.cost[i])
    }

    /// The cells in range with their costs, cheapest first.
    pub fn cells(&self) -> impl Iterator<Item = (Point, f64)> + '_ {
        self.settled
            .iter()
            .map(|&i| (self.point_of(i as usize), self.cost[i as usize]))
    }

    /// How many cells are in range.
    pub fn len(&self) -> usize {
        self.settled.len()
    }

    /// Is nothing in range (a start on a wall)?
    pub fn is_empty(&self) -> bool {
        self.settled.is_empty()
    }

    /// The cheapest route from the start to `p`, if `p` is in range.
    pub fn path_to(&self, p: Point) -> Option<Path> {
        let end = self.index_of(p).filter(|&i| self.done.contains(i))?;
        let mut cells = vec![p];
        let mut at = end;
        while self.parent[at] != NO_PARENT {
            at = self.parent[at] as usize;
            cells.push(self.point_of(at));
        }
        cells.reverse();
        Some(Path {
            cells,
            cost: self.cost[end],
            partial: false,
        })
    }

    /// The cheapest route from `from` to whichever of `goals` is cheapest to reach: one search,
    /// stopped at the first goal it settles, where a search a goal would repeat the same work.
    /// `None` when no goal can be reached.
    pub fn nearest(
        &mut self,
        grid: &Grid,
        movement: Movement,
        from: Point,
        goals: &[Point],
        blockers: &Blockers,
    ) -> Option<Path> {
        let mut targets = std::mem::take(&mut self.targets);
        targets.clear();
        for &goal in goals {
            if let Some(i) = grid.index_of(goal) {
                targets.insert(grid.len(), i);
            }
        }
        let found = self.search(grid, movement, &[from], f64::INFINITY, blockers, |i| {
            targets.contains(i)
        });
        self.targets = targets;
        self.path_to(self.point_of(found?))
    }

    /// The search of every query: Dijkstra from `starts`, no further than `budget`, stopped at
    /// the first settled cell `stop` accepts (which it returns).
    pub(crate) fn search(
        &mut self,
        grid: &Grid,
        movement: Movement,
        starts: &[Point],
        budget: f64,
        blockers: &Blockers,
        mut stop: impl FnMut(usize) -> bool,
    ) -> Option<usize> {
        self.reset(grid);
        let limit = budget + SLACK;
        for &start in starts {
            let Some(i) = grid.index_of(start).filter(|_| grid.is_passable(start)) else {
                continue;
            };
            if self.cost[i] > 0.0 && budget >= 0.0 {
                self.cost[i] = 0.0;
                self.touched.push(i as u32);
                self.heap
                    .push((Reverse(0.0f64.to_bits()), Reverse(i as u32)));
            }
        }
        let zones = !blockers.zones_empty();
        while let Some((Reverse(bits), Reverse(i))) = self.heap.pop() {
            let (i, cost) = (i as usize, f64::from_bits(bits));
            if cost > self.cost[i] || !self.done.insert(grid.len(), i) {
                continue; // a stale entry: this cell came out cheaper already
            }
            self.settled.push(i as u32);
            if stop(i) {
                return Some(i);
            }
            // A move into an enemy's zone of control ends there; a start may leave one.
            if zones && blockers.zone_at(i) && self.parent[i] != NO_PARENT {
                continue;
            }
            let Self {
                cost: costs,
                parent,
                touched,
                heap,
                ..
            } = self;
            movement.for_each_neighbor(grid, i, |j, _, _, step| {
                let through = cost + step;
                if through <= limit && through < costs[j] && !blockers.closed_at(j) {
                    if costs[j].is_infinite() {
                        touched.push(j as u32);
                    }
                    costs[j] = through;
                    parent[j] = i as u32;
                    heap.push((Reverse(through.to_bits()), Reverse(j as u32)));
                }
            });
        }
        None
    }

    /// Forgets the last query: resets the cells it touched (all of them if the grid's size
    /// changed).
    fn reset(&mut self, grid: &Grid) {
        if self.cost.len() != grid.len() || self.width != grid.width() {
            self.width = grid.width();
            self.cost.clear();
            self.cost.resize(grid.len(), f64::INFINITY);
            self.parent.clear();
            self.parent.resize(grid.len(), NO_PARENT);
            self.done = CellSet::default();
        } else {
            for &i in &self.touched {
                self.cost[i as usize] = f64::INFINITY;
                self.parent[i as usize] = NO_PARENT;
            }
            self.done.clear_cells(&self.touched);
        }
        self.touched.clear();
        self.settled.clear();
        self.heap.clear();
    }

    pub(crate) fn index_of(&self, p: Point) -> Option<usize> {
        let height = self.cost.len() / (self.width.max(1) as usize);
        (p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as usize) < height)
            .then(|| p.y as usize * self.width as usize + p.x as usize)
    }

    pub(crate) fn point_of(&self, i: usize) -> Point {
        let w = self.width.max(1) as usize;
        Point::new((i % w) as i32, (i / w) as i32)
    }
}
