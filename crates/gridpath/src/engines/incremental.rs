//! D* Lite: re-planning that repairs the last search instead of starting again (Koenig and
//! Likhachev, 2002).
//!
//! A game re-plans when something changes: a wall is painted, the agent walks on. A* starts from
//! nothing each time, although almost everything it learnt is still true. D* Lite keeps what it
//! learnt and, told which cells changed, fixes only the values those changes make wrong.
//!
//! **Backwards, from the goal.** It computes every cell's cost *to the goal*, `g`, searching
//! from the goal towards the start. The start may then move (the agent walks) without
//! invalidating anything: costs to the goal do not depend on where you stand.
//!
//! **Two values per cell.** Beside `g` each cell has `rhs`, a one-step look-ahead: the cheapest
//! step cost to a neighbour plus that neighbour's `g` (0 at the goal). A cell is *consistent*
//! when `g = rhs`. When an edit changes step costs, only the cells next to the edit get a new
//! `rhs`; they become inconsistent and enter the priority queue. The loop then takes the most
//! promising inconsistent cell and fixes it:
//! - `g > rhs` (*overconsistent*, a cheaper way appeared): set `g = rhs`; its neighbours may now
//!   do better through it.
//! - `g < rhs` (*underconsistent*, its way got dearer or was cut): set `g = ∞` and let the
//!   neighbours that relied on it look again; it is queued again to settle at its new cost.
//!
//! It stops once the start is consistent and nothing in the queue could still improve it: the
//! queue is ordered like A*'s (`min(g, rhs)` plus the heuristic from the start), so only the
//! cells that matter for the start's route are repaired. The first search is an ordinary A*
//! (backwards); each repair after an edit usually touches a small fraction of it.
//!
//! **Moving start.** The keys already in the queue were computed with the heuristic from the old
//! start. Instead of recomputing them all, D* Lite adds the distance the start moved, `km`, to
//! every new key: old keys stay lower bounds, and a key found out of date is simply re-queued.
//!
//! This implementation is the paper's optimised version (its Figure 4), with one simplification:
//! when a cell's `g` goes up, every neighbour that steps into it recomputes its `rhs` from
//! scratch rather than only those whose `rhs` was exactly through it. Same answers, a few more
//! look-ups, and no comparison of floating-point sums for equality.

use super::engine::Engine;
use crate::grid::{Grid, Point};
use crate::heuristic::Heuristic;
use crate::movement::Movement;
use crate::unit_class::{AnyCosts, EntryCosts, UnitClass, cheapest_step};
use crate::vocabulary::{
    NodeInfo, NodeState, Path, QueryError, SearchStatus, Step, TraceEvent, check_ends,
};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A priority: compared first by `k1 = min(g, rhs) + h + km`, then by `k2 = min(g, rhs)`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key(f64, f64);

impl Key {
    fn cmp(self, other: Key) -> Ordering {
        self.0.total_cmp(&other.0).then(self.1.total_cmp(&other.1))
    }
}

/// A queue entry; the heap is a max-heap, so the order is reversed: lowest key on top.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: Key,
    node: usize,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(self.key).then(other.node.cmp(&self.node))
    }
}

/// The settings a D* Lite search was made for: change any and it starts afresh.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Setup {
    width: u32,
    height: u32,
    goal: usize,
    movement: Movement,
    heuristic: Heuristic,
    h_scale: f64,
}

/// An incremental search. See the [module docs](self).
///
/// ```
/// use gridpath::{Grid, Heuristic, Movement, Point, SearchStatus};
/// use gridpath::incremental::DStarLite;
///
/// let mut grid = Grid::new(30, 10).unwrap();
/// let (start, goal) = (Point::new(0, 5), Point::new(29, 5));
/// let mut planner = DStarLite::new();
/// let moves = (Movement::default(), Heuristic::Octile);
/// let status = planner.plan(&grid, start, goal, moves.0, moves.1).unwrap();
/// assert_eq!(status, SearchStatus::Found);
///
/// // A wall across part of the way: tell D* Lite which cells changed, then plan again.
/// for y in 3..8 {
///     grid.set_blocked(Point::new(15, y), true).unwrap();
/// }
/// planner.cells_changed(&grid, (3..8).map(|y| Point::new(15, y)));
/// planner.plan(&grid, start, goal, moves.0, moves.1).unwrap();
/// assert!(planner.path().iter().all(|p| grid.is_passable(*p)));
/// // The same cost as planning afresh.
/// let mut fresh = DStarLite::new();
/// fresh.plan(&grid, start, goal, moves.0, moves.1).unwrap();
/// let (repaired, afresh) = (planner.found().unwrap().cost, fresh.found().unwrap().cost);
/// assert!((repaired - afresh).abs() < 1e-9);
/// ```
#[derive(Clone, Debug, Default)]
pub struct DStarLite {
    setup: Option<Setup>,
    g: Vec<f64>,
    rhs: Vec<f64>,
    /// The key each queued cell is queued with (`None`: not in the queue). Heap entries with
    /// another key are stale and skipped.
    queued: Vec<Option<Key>>,
    heap: BinaryHeap<Entry>,
    /// The entry costs it last planned on, to find what changed when the caller does not say.
    seen_costs: Vec<u32>,
    start: usize,
    last_start: usize,
    km: f64,
    expanded: usize,
    /// Cells whose `g` the last repair set, in order.
    touched: Vec<usize>,
    status: SearchStatus,
    path: Vec<Point>,
    cost: f64,
    record_trace: bool,
    trace: Vec<TraceEvent>,
    /// Something changed since the last plan (a cell, the start): the next one has work to do.
    dirty: bool,
    /// The unit class it plans for, if any ([`DStarLite::begin_as`]).
    class: Option<UnitClass>,
}

impl DStarLite {
    /// A planner with no grid yet: the first plan sizes it.
    pub fn new() -> Self {
        Self::default()
    }

    /// Plans from `start` to `goal`: the first time (or after a change of goal, map size, moves
    /// or heuristic) from scratch, otherwise by repairing the last plan after the changes told
    /// with [`DStarLite::cells_changed`] (or found by [`DStarLite::find_changes`]) and the move
    /// of the start. The heuristic must be admissible for the moves.
    pub fn plan(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        movement: Movement,
        heuristic: Heuristic,
    ) -> Result<SearchStatus, QueryError> {
        self.begin(grid, start, goal, movement, heuristic)?;
        while let Step::Expanded(_) = self.step(grid) {}
        Ok(self.status)
    }

    /// [`DStarLite::plan`] in steps: checks the query and takes in the start's move; then each
    /// [`DStarLite::step`] fixes one cell, until the plan is ready.
    pub fn begin(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        movement: Movement,
        heuristic: Heuristic,
    ) -> Result<(), QueryError> {
        self.begin_as(grid, None, start, goal, movement, heuristic)
    }

    /// [`DStarLite::begin`] for a unit class: it plans on the grid as `class` reads it, and a
    /// change of class starts afresh.
    pub fn begin_as(
        &mut self,
        grid: &Grid,
        class: Option<&UnitClass>,
        start: Point,
        goal: Point,
        movement: Movement,
        heuristic: Heuristic,
    ) -> Result<(), QueryError> {
        let (s, t) = check_ends(grid, start, goal, true, class)?;
        if self.class.as_ref() != class {
            self.class = class.cloned();
            self.setup = None;
        }
        let setup = Setup {
            width: grid.width(),
            height: grid.height(),
            goal: t,
            movement,
            heuristic,
            h_scale: cheapest_step(grid, class),
        };
        let finished = matches!(self.status, SearchStatus::Found | SearchStatus::NoPath);
        if self.setup == Some(setup) && s == self.start && !self.dirty && finished {
            // Nothing changed: the last plan stands, and so does its report of what it did.
            return Ok(());
        }
        self.expanded = 0;
        self.touched.clear();
        self.trace.clear();
        self.path.clear();
        self.status = SearchStatus::Running;
        self.dirty = false;
        if self.setup != Some(setup) {
            self.reset(grid, setup, s);
        } else if s != self.start {
            // The start moved: raise every later key by the distance, instead of re-keying all.
            self.km += self.h(self.last_start, s);
            self.last_start = s;
            self.start = s;
        }
        Ok(())
    }

    /// Ends a plan that cannot succeed (the caller knows the ends are in different regions). What
    /// was learnt stays, for the next plan to repair.
    pub(crate) fn give_up(&mut self) {
        self.status = SearchStatus::NoPath;
        self.path.clear();
        self.dirty = true; // the search itself is still to be done, should one be stepped
    }

    /// Fixes one inconsistent cell, or, when the start's cost is final, lays out the path.
    pub fn step(&mut self, grid: &Grid) -> Step {
        if self.status != SearchStatus::Running {
            return Step::Finished(self.status);
        }
        let same_map = self
            .setup
            .is_some_and(|s| (s.width, s.height) == (grid.width(), grid.height()));
        if !same_map {
            self.setup = None;
            self.status = SearchStatus::NoPath;
            return Step::Finished(self.status);
        }
        let class = self.class.clone();
        let costs = AnyCosts::of(grid, class.as_ref());
        match self.fix_one(grid, costs) {
            Some(u) => Step::Expanded(grid.point_of(u)),
            None => {
                self.lay_out_path(grid, costs);
                Step::Finished(self.status)
            }
        }
    }

    /// Record every cell queued and fixed in [`DStarLite::trace`] (off: one branch per cell).
    pub fn record_trace(&mut self, on: bool) {
        self.record_trace = on;
    }

    /// The cells queued (`Opened`) and fixed (`Closed`) by the current plan, in order.
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }

    /// The cell fixed last.
    pub fn current(&self) -> Option<Point> {
        let width = self.setup?.width as usize;
        let &i = self.touched.last()?;
        Some(Point::new((i % width) as i32, (i / width) as i32))
    }

    /// Entries in the queue (stale ones included).
    pub fn frontier_len(&self) -> usize {
        self.heap.len()
    }

    /// Tells D* Lite that these cells changed (a wall came or went, or a terrain cost changed)
    /// since it last planned: the next [`DStarLite::plan`] repairs around them.
    pub fn cells_changed(&mut self, grid: &Grid, cells: impl IntoIterator<Item = Point>) {
        let Some(setup) = self.setup else { return };
        let class = self.class.clone();
        let costs = AnyCosts::of(grid, class.as_ref());
        if (grid.width(), grid.height()) != (setup.width, setup.height)
            || cheapest_step(grid, class.as_ref()) != setup.h_scale
        {
            // Another map, or a cheaper cell that would make the heuristic overestimate.
            self.setup = None;
            return;
        }
        for p in cells {
            let Some(i) = grid.index_of(p) else { continue };
            if self.seen_costs[i] == costs.entry(i) {
                continue; // told, but not changed
            }
            self.dirty = true;
            self.seen_costs[i] = costs.entry(i);
            // The changed cell's own steps, and every step into it or past its corners, start
            // in it or in one of its eight neighbours: their look-aheads may have changed.
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(u) = grid.index_of(Point::new(p.x + dx, p.y + dy)) {
                        self.recompute_rhs(grid, costs, u);
                        self.update_vertex(u);
                    }
                }
            }
        }
    }

    /// Compares the grid with the costs it last planned on and tells itself every difference,
    /// for a caller that does not track its edits. One pass over the map (cheap next to a search).
    pub fn find_changes(&mut self, grid: &Grid) {
        if self.setup.is_none() || self.seen_costs.len() != grid.len() {
            self.setup = None;
            return;
        }
        let class = self.class.clone();
        let costs = AnyCosts::of(grid, class.as_ref());
        let changed: Vec<Point> = (0..grid.len())
            .filter(|&i| self.seen_costs[i] != costs.entry(i))
            .map(|i| grid.point_of(i))
            .collect();
        self.cells_changed(grid, changed);
    }

    fn reset(&mut self, grid: &Grid, setup: Setup, start: usize) {
        let len = grid.len();
        self.setup = Some(setup);
        self.g.clear();
        self.g.resize(len, f64::INFINITY);
        self.rhs.clear();
        self.rhs.resize(len, f64::INFINITY);
        self.queued.clear();
        self.queued.resize(len, None);
        self.heap.clear();
        self.seen_costs.clear();
        let costs = AnyCosts::of(grid, self.class.as_ref());
        let seen = (0..len).map(|i| costs.entry(i));
        self.seen_costs.extend(seen);
        (self.start, self.last_start, self.km) = (start, start, 0.0);
        self.rhs[setup.goal] = 0.0;
        self.update_vertex(setup.goal);
    }

    /// The heuristic between two cells, in cost units (consistent for admissible heuristics).
    fn h(&self, a: usize, b: usize) -> f64 {
        let Some(setup) = self.setup else { return 0.0 };
        let w = setup.width as usize;
        let (a, b) = ((a % w, a / w), (b % w, b / w));
        setup.h_scale * setup.heuristic.between_cells(setup.movement, a, b)
    }

    fn key(&self, s: usize) -> Key {
        let best = self.g[s].min(self.rhs[s]);
        Key(best + self.h(self.start, s) + self.km, best)
    }

    /// Puts an inconsistent cell in the queue with its current key, or takes a consistent one out.
    fn update_vertex(&mut self, u: usize) {
        if self.g[u] != self.rhs[u] {
            let key = self.key(u);
            self.queued[u] = Some(key);
            self.heap.push(Entry { key, node: u });
            if self.record_trace
                && let Some(setup) = self.setup
            {
                let w = setup.width as usize;
                let p = Point::new((u % w) as i32, (u / w) as i32);
                self.trace.push(TraceEvent::Opened(p));
            }
        } else {
            self.queued[u] = None; // its heap entries are now stale
        }
    }

    /// The lowest live entry of the queue, after dropping stale ones.
    fn top(&mut self) -> Option<Entry> {
        while let Some(&top) = self.heap.peek() {
            if self.queued[top.node] == Some(top.key) {
                return Some(top);
            }
            self.heap.pop();
        }
        None
    }

    /// The look-ahead: the cheapest step to a neighbour plus that neighbour's cost to the goal.
    fn recompute_rhs(&mut self, grid: &Grid, costs: AnyCosts, u: usize) {
        let Some(setup) = self.setup else { return };
        if u == setup.goal {
            return;
        }
        let mut best = f64::INFINITY;
        if costs.entry(u) != 0 {
            let g = &self.g;
            setup
                .movement
                .for_each_neighbor_by(grid, costs, u, |next, _, _, step| {
                    best = best.min(step + g[next]);
                });
        }
        self.rhs[u] = best;
    }

    /// The main loop's body: fix the most promising inconsistent cell, unless the start's cost is
    /// final (then `None`).
    fn fix_one(&mut self, grid: &Grid, costs: AnyCosts) -> Option<usize> {
        let setup = self.setup?;
        let width = setup.width as usize;
        loop {
            let top = self.top()?;
            let start = self.start;
            let start_done = self.rhs[start] <= self.g[start];
            if top.key.cmp(self.key(start)) != Ordering::Less && start_done {
                return None;
            }
            let u = top.node;
            let fresh = self.key(u);
            if top.key.cmp(fresh) == Ordering::Less {
                // Queued before the start moved: re-queue with its key now.
                self.queued[u] = Some(fresh);
                self.heap.push(Entry {
                    key: fresh,
                    node: u,
                });
                continue;
            }
            self.expanded += 1;
            self.touched.push(u);
            self.queued[u] = None;
            if self.record_trace {
                self.trace.push(TraceEvent::Closed(grid.point_of(u)));
            }
            if costs.entry(u) == 0 {
                // A wall has no steps: its cost to the goal is infinite and it helps no one.
                self.g[u] = f64::INFINITY;
                self.rhs[u] = f64::INFINITY;
                self.update_predecessors(grid, costs, u, width, true);
            } else if self.g[u] > self.rhs[u] {
                self.g[u] = self.rhs[u];
                self.update_predecessors(grid, costs, u, width, false);
            } else {
                self.g[u] = f64::INFINITY;
                self.update_predecessors(grid, costs, u, width, true);
                self.recompute_rhs(grid, costs, u);
                self.update_vertex(u);
            }
            return Some(u);
        }
    }

    /// After `u`'s cost changed, every cell that can step into `u` looks again: it may now do
    /// better through `u` (`worse` false), or must look for another way (`worse` true).
    fn update_predecessors(
        &mut self,
        grid: &Grid,
        costs: AnyCosts,
        u: usize,
        width: usize,
        worse: bool,
    ) {
        let Some(setup) = self.setup else { return };
        // The cells that step into u are the ones u can step to (moves work both ways); a step
        // into u costs u's entry cost, times √2 on a diagonal (never on a hex map).
        let mut preds = [0usize; 8];
        let mut count = 0;
        let entry = f64::from(costs.entry(u));
        let (ux, uy) = (u % width, u / width);
        if costs.entry(u) != 0 {
            setup
                .movement
                .for_each_neighbor_by(grid, costs, u, |s, _, _, _| {
                    preds[count] = s;
                    count += 1;
                });
        } else {
            // A wall's neighbours may have stepped into it before: they all look again.
            for dy in -1i32..=1 {
                for dx in -1i32..=1 {
                    let p = Point::new(ux as i32 + dx, uy as i32 + dy);
                    if let Some(s) = grid.index_of(p).filter(|&s| s != u) {
                        preds[count] = s;
                        count += 1;
                    }
                }
            }
        }
        for &s in &preds[..count] {
            if s == setup.goal {
                continue;
            }
            if worse {
                self.recompute_rhs(grid, costs, s);
            } else {
                let (dx, dy) = (
                    (s % width) as i32 - ux as i32,
                    (s / width) as i32 - uy as i32,
                );
                let step = setup.movement.step_into(entry, (dx, dy));
                self.rhs[s] = self.rhs[s].min(step + self.g[u]);
            }
            self.update_vertex(s);
        }
    }

    /// Walks from the start to the goal, each time to the neighbour with the least step cost
    /// plus cost to the goal.
    fn lay_out_path(&mut self, grid: &Grid, costs: AnyCosts) {
        self.path.clear();
        self.cost = 0.0;
        let Some(setup) = self.setup else { return };
        // The start's look-ahead, not its g: the loop may stop with the start still waiting to
        // be expanded (rhs < g), once its neighbours' costs are final.
        let start_cost = if self.start == setup.goal {
            0.0
        } else {
            self.rhs[self.start]
        };
        if !start_cost.is_finite() {
            self.status = SearchStatus::NoPath;
            return;
        }
        let mut at = self.start;
        self.path.push(grid.point_of(at));
        while at != setup.goal && self.path.len() <= grid.len() {
            let mut best: Option<(f64, usize, f64)> = None;
            setup
                .movement
                .for_each_neighbor_by(grid, costs, at, |next, _, _, step| {
                    let through = step + self.g[next];
                    if best.is_none_or(|(b, _, _)| through < b) {
                        best = Some((through, next, step));
                    }
                });
            let Some((_, next, step)) = best.filter(|b| b.0.is_finite()) else {
                break;
            };
            self.cost += step;
            at = next;
            self.path.push(grid.point_of(at));
        }
        self.status = if at == setup.goal {
            SearchStatus::Found
        } else {
            self.path.clear();
            SearchStatus::NoPath
        };
    }

    /// Where the last plan stands: found, or no path.
    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// Cells expanded (their cost to the goal set) by the last [`DStarLite::plan`] that had
    /// something to do: a plan with nothing changed since the one before keeps that one's
    /// report (its expansions, [`DStarLite::touched`] and trace), so a visualiser re-planning on
    /// a timer goes on showing the last repair.
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// The cells the last plan expanded, in order: for a first plan the whole search, for a
    /// repair the cells whose values it fixed.
    pub fn touched(&self) -> impl Iterator<Item = Point> + '_ {
        let width = self.setup.map_or(1, |s| s.width as usize);
        self.touched
            .iter()
            .map(move |&i| Point::new((i % width) as i32, (i / width) as i32))
    }

    /// The last plan's cells, from the current start to the goal (empty without one).
    pub fn path(&self) -> &[Point] {
        &self.path
    }

    /// The last path, with its cost (the sum of its step costs).
    pub fn found(&self) -> Option<Path> {
        (self.status == SearchStatus::Found).then(|| Path {
            cells: self.path.clone(),
            cost: self.cost,
            partial: false,
        })
    }

    /// A cell's cost to the goal as far as D* Lite knows (∞ when unknown or unreachable).
    pub fn cost_to_goal(&self, p: Point) -> f64 {
        let Some(setup) = self.setup else {
            return f64::INFINITY;
        };
        let inside =
            p.x >= 0 && p.y >= 0 && (p.x as u32) < setup.width && (p.y as u32) < setup.height;
        if !inside {
            return f64::INFINITY;
        }
        self.g[p.y as usize * setup.width as usize + p.x as usize]
    }

    /// Whether a cell is waiting in the queue (inconsistent), settled, or never looked at.
    pub fn state(&self, p: Point) -> NodeState {
        let Some(setup) = self.setup else {
            return NodeState::Unseen;
        };
        let i = p.y as usize * setup.width as usize + p.x as usize;
        match (self.queued.get(i), self.g.get(i)) {
            (Some(Some(_)), _) => NodeState::Open,
            (_, Some(g)) if g.is_finite() => NodeState::Closed,
            _ => NodeState::Unseen,
        }
    }
}

impl Engine for DStarLite {
    fn step(&mut self, grid: &Grid) -> Step {
        DStarLite::step(self, grid)
    }

    fn give_up(&mut self) {
        DStarLite::give_up(self)
    }

    fn status(&self) -> SearchStatus {
        DStarLite::status(self)
    }

    fn expanded(&self) -> usize {
        DStarLite::expanded(self)
    }

    fn path(&self) -> &[Point] {
        DStarLite::path(self)
    }

    fn cost(&self) -> Option<f64> {
        (self.status == SearchStatus::Found).then_some(self.cost)
    }

    fn current(&self) -> Option<Point> {
        DStarLite::current(self)
    }

    fn trace(&self) -> &[TraceEvent] {
        DStarLite::trace(self)
    }

    fn frontier_len(&self) -> usize {
        DStarLite::frontier_len(self)
    }

    /// A cell's cost to the goal as far as D* Lite knows it, and the heuristic towards the goal.
    fn node(&self, p: Point) -> NodeInfo {
        let Some(setup) = self.setup else {
            return NodeInfo::UNSEEN;
        };
        let g = self.cost_to_goal(p);
        let i = p.y as usize * setup.width as usize + p.x as usize;
        let h = self.h(i, setup.goal);
        NodeInfo {
            state: self.state(p),
            g,
            h,
            f: g + h,
            parent: None,
        }
    }
}
