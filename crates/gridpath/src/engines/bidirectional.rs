//! Bidirectional search: one search from the start, one back from the goal, meeting in between.
//!
//! A search from one end spreads over a disc whose radius is the path's length; two searches
//! that each go half way cover two discs of half the radius: half the area on an open map. The
//! catch is knowing when to stop. The first cell both searches reach is *not* always on a
//! shortest path, so each time one side reaches a cell the other has reached, the search notes
//! the route through it, and keeps the best so far, μ. It stops once no better route can exist:
//!
//! - **Dijkstra's ordering** (no heuristic; bidirectional BFS is this with every move costing 1):
//!   stop when `top_f + top_b ≥ μ`, the lowest costs waiting in the two frontiers. A route
//!   cheaper than μ would have to leave the start's searched region and enter the goal's, at a
//!   cost of at least `top_f` on one side and `top_b` on the other.
//! - **A*'s ordering** (each side aims its heuristic at the other end): stop when
//!   `max(top_f, top_b) ≥ μ`, where the tops are now f = g + h (Pohl, 1971). With a consistent
//!   heuristic, every route not yet found passes a frontier cell whose f is a lower bound on its
//!   cost; if either frontier's lowest f is already μ or more, none beats μ.
//!
//! Each side expands in turn, the one with the smaller frontier first (Pohl's cardinality rule),
//! so that neither runs ahead across open ground while the other is boxed in.
//!
//! Steps run backwards over the same moves: a move is legal in one direction exactly when it is
//! in the other (the corner rule looks at the same two side cells), and it costs the same, the
//! entry cost of the cell it enters going forwards. Links may be one way: the backward side takes
//! each from its end to its start, and bounds its heuristic through them the other way round.

use super::engine::Engine;
use crate::grid::{Grid, Point};
use crate::heuristic::Heuristic;
use crate::movement::Movement;
use crate::unit_class::{EntryCosts, UnitClass};
use crate::vocabulary::frontier::{Frontier, Order};
use crate::vocabulary::link_bound::LinkBound;
use crate::vocabulary::nodes::{NO_PARENT, NodeTable};
use crate::vocabulary::{
    NodeInfo, NodeState, Path, QueryError, SearchResult, SearchStatus, Step, TraceEvent, check_ends,
};

/// Which way a side searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the start, towards the goal.
    Forward,
    /// From the goal, back towards the start.
    Backward,
}

/// How each side orders its frontier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ordering {
    /// Fewest moves first: bidirectional breadth-first search. The path has the fewest moves;
    /// on terrain costs it need not be the cheapest.
    BreadthFirst,
    /// Cheapest first, with the heuristic aimed at the other end: bidirectional A* (with
    /// [`Heuristic::Zero`], bidirectional Dijkstra). The heuristic must be admissible for the
    /// moves for the path to be a cheapest one.
    AStar(Heuristic),
}

/// One side's search: the usual node table and frontier, aimed at the other end.
#[derive(Clone, Debug, Default)]
struct Side {
    nodes: NodeTable,
    frontier: Frontier,
    /// The cell this side heads for: the goal going forwards, the start going backwards.
    aim: Point,
    expanded: usize,
    /// On a grid with open links, the heuristic's part for them (a backward side reads each link
    /// from its end to its start).
    links: Option<LinkBound>,
}

/// A reusable, resumable bidirectional search. See the [module docs](self).
///
/// ```
/// use gridpath::{Grid, Heuristic, Movement, Point};
/// use gridpath::bidirectional::{Bidirectional, Ordering};
///
/// let grid = Grid::from_ascii(&[
///     "........",
///     "...##...",
///     "........",
/// ]).unwrap();
/// let mut search = Bidirectional::new();
/// let ordering = Ordering::AStar(Heuristic::Octile);
/// let found = search
///     .find_path(&grid, Point::new(0, 1), Point::new(7, 1), Movement::default(), ordering)
///     .unwrap();
/// assert!((found.path.unwrap().cost - (5.0 + 2.0 * 2f64.sqrt())).abs() < 1e-9);
/// assert!(search.meeting().is_some());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Bidirectional {
    forward: Side,
    backward: Side,
    movement: Movement,
    ordering: Option<Ordering>,
    width: usize,
    len: usize,
    h_scale: f64,
    /// The best route through a cell both sides have reached: its cost, and the cell.
    best: f64,
    meeting: Option<usize>,
    status: SearchStatus,
    path: Vec<Point>,
    cost: f64,
    /// Every open and close, both sides mixed, when asked for ([`Bidirectional::record_trace`]).
    record_trace: bool,
    trace: Vec<TraceEvent>,
    current: Option<usize>,
    /// The unit class the query reads the grid as, if any ([`Bidirectional::begin_as`]).
    class: Option<UnitClass>,
}

impl Bidirectional {
    /// A search with no memory yet: it grows to the grid on first use and keeps it.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs a whole query.
    pub fn find_path(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        movement: Movement,
        ordering: Ordering,
    ) -> Result<SearchResult, QueryError> {
        self.begin(grid, start, goal, movement, ordering)?;
        self.run(grid);
        Ok(SearchResult {
            path: (self.status == SearchStatus::Found).then(|| Path {
                cells: self.path.clone(),
                cost: self.cost,
                partial: false,
            }),
            expanded: self.expanded(),
        })
    }

    /// Checks a query and puts the start in one frontier and the goal in the other.
    pub fn begin(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        movement: Movement,
        ordering: Ordering,
    ) -> Result<(), QueryError> {
        self.begin_as(grid, None, start, goal, movement, ordering)
    }

    /// [`Bidirectional::begin`] for a unit class: both sides read the grid as `class` does.
    pub fn begin_as(
        &mut self,
        grid: &Grid,
        class: Option<&UnitClass>,
        start: Point,
        goal: Point,
        movement: Movement,
        ordering: Ordering,
    ) -> Result<(), QueryError> {
        let (s, t) = check_ends(grid, start, goal, true, class)?;
        self.movement = movement;
        self.ordering = Some(ordering);
        self.width = grid.width() as usize;
        self.len = grid.len();
        let cheapest = class.map_or(1, |c| c.cheapest_on(grid));
        self.h_scale = f64::from(grid.min_cost()) * f64::from(cheapest);
        self.class = class.cloned();
        self.best = f64::INFINITY;
        self.meeting = None;
        self.status = SearchStatus::Running;
        self.path.clear();
        self.cost = 0.0;
        self.trace.clear();
        self.current = None;
        let (heuristic, h_scale) = (self.heuristic_kind(), self.h_scale);
        let h = |a: Point, b: Point| h_scale * heuristic.between(movement, a, b);
        let sides = [
            (&mut self.forward, s, goal, false),
            (&mut self.backward, t, start, true),
        ];
        for (side, from, aim, backwards) in sides {
            side.nodes.reset(self.len);
            side.frontier.reset(Order::Priority, self.len);
            side.aim = aim;
            side.expanded = 0;
            side.nodes.open(from, 0.0, NO_PARENT);
            side.links = grid
                .has_open_links()
                .then(|| LinkBound::new(grid, class, aim, backwards, h));
        }
        let (hf, hb) = (
            self.h(Direction::Forward, s),
            self.h(Direction::Backward, t),
        );
        self.forward.frontier.push(s, hf, 0.0);
        self.backward.frontier.push(t, hb, 0.0);
        if s == t {
            (self.best, self.meeting) = (0.0, Some(s));
        }
        if self.record_trace {
            self.trace.push(TraceEvent::Opened(start));
            self.trace.push(TraceEvent::Opened(goal));
        }
        Ok(())
    }

    /// Record every open and close from the next [`Bidirectional::begin`] on (see
    /// [`Bidirectional::trace`]). Off, it costs one branch per cell.
    pub fn record_trace(&mut self, on: bool) {
        self.record_trace = on;
    }

    /// Both sides' opens and closes, in order; [`Bidirectional::state`] tells whose a cell is.
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }

    /// The cell expanded last, by either side.
    pub fn current(&self) -> Option<Point> {
        self.current.map(|i| self.point(i))
    }

    /// Cells in both frontiers.
    pub fn frontier_len(&self) -> usize {
        self.forward.frontier.len() + self.backward.frontier.len()
    }

    /// One side's cost from its end to `p` and the cell it came from, once that side reached it.
    pub fn reached(&self, direction: Direction, p: Point) -> Option<(f64, Option<Point>)> {
        if self.state(direction, p) == NodeState::Unseen {
            return None;
        }
        let nodes = &self.side(direction).nodes;
        let i = p.y as usize * self.width + p.x as usize;
        Some((nodes.g(i), nodes.parent(i).map(|j| self.point(j))))
    }

    /// A side's heuristic estimate from `p` to the end it heads for (0 for breadth-first).
    pub fn heuristic(&self, direction: Direction, p: Point) -> f64 {
        let i = p.y.max(0) as usize * self.width + p.x.max(0) as usize;
        self.h(direction, i)
    }

    fn point(&self, i: usize) -> Point {
        Point::new((i % self.width) as i32, (i / self.width) as i32)
    }

    /// Ends a search that cannot succeed (the caller knows the ends are in different regions).
    pub(crate) fn give_up(&mut self) {
        self.status = SearchStatus::NoPath;
        self.path.clear();
    }

    /// Runs to the end.
    pub fn run(&mut self, grid: &Grid) -> SearchStatus {
        while let Step::Expanded(_) = self.step(grid) {}
        self.status
    }

    /// Expands one cell, on the side with the smaller frontier, or finishes.
    pub fn step(&mut self, grid: &Grid) -> Step {
        if self.status != SearchStatus::Running {
            return Step::Finished(self.status);
        }
        if grid.len() != self.len || grid.width() as usize != self.width {
            return self.finish(grid, SearchStatus::NoPath);
        }
        let (Some(top_f), Some(top_b)) =
            (self.top(Direction::Forward), self.top(Direction::Backward))
        else {
            // One side has run out of cells: every route has been seen.
            let status = if self.meeting.is_some() {
                SearchStatus::Found
            } else {
                SearchStatus::NoPath
            };
            return self.finish(grid, status);
        };
        let proven = match self.ordering {
            Some(Ordering::AStar(h)) if h != Heuristic::Zero => top_f.max(top_b) >= self.best,
            _ => top_f + top_b >= self.best,
        };
        if proven {
            return self.finish(grid, SearchStatus::Found);
        }
        let direction = if self.forward.frontier.len() <= self.backward.frontier.len() {
            Direction::Forward
        } else {
            Direction::Backward
        };
        let node = match self.class.take() {
            None => self.expand(grid, grid, direction),
            Some(class) => {
                let node = self.expand(grid, class.on(grid), direction);
                self.class = Some(class);
                node
            }
        };
        Step::Expanded(grid.point_of(node))
    }

    /// The lowest key in a side's frontier.
    fn top(&self, direction: Direction) -> Option<f64> {
        self.side(direction).frontier.peek().map(|(_, key)| key)
    }

    /// Takes the next cell out of one side's frontier, closes it, and offers its neighbours the
    /// route through it, noting every cell the other side has reached as a meeting.
    fn expand(&mut self, grid: &Grid, costs: impl EntryCosts, direction: Direction) -> usize {
        match self.side(direction).links.is_some() {
            true => self.expand_as::<true>(grid, costs, direction),
            false => self.expand_as::<false>(grid, costs, direction),
        }
    }

    /// [`Bidirectional::expand`]; with `LINKED`, its links too. Two copies, so that on a grid
    /// without links the offer compiles into the neighbour loop as it did before links (called
    /// from a second place, it was not, and bidirectional A\* ran 22 % more instructions).
    ///
    /// Why one long function: the offer is a macro expanded in the neighbour loop and the link
    /// loop, so that both compile into this function with the side's fields borrowed once.
    fn expand_as<const LINKED: bool>(
        &mut self,
        grid: &Grid,
        costs: impl EntryCosts,
        direction: Direction,
    ) -> usize {
        let breadth_first = self.ordering == Some(Ordering::BreadthFirst);
        let (movement, width) = (self.movement, self.width);
        let (heuristic, h_scale) = (self.heuristic_kind(), self.h_scale);
        let (this, other) = match direction {
            Direction::Forward => (&mut self.forward, &self.backward),
            Direction::Backward => (&mut self.backward, &self.forward),
        };
        let node = this.frontier.pop().unwrap_or_default();
        this.nodes.close(node);
        this.expanded += 1;
        self.current = Some(node);
        let mut trace = self.record_trace.then_some(&mut self.trace);
        if let Some(trace) = trace.as_mut() {
            trace.push(TraceEvent::Closed(grid.point_of(node)));
        }
        let g_node = this.nodes.g(node);
        let (best, meeting) = (&mut self.best, &mut self.meeting);
        let Side {
            nodes,
            frontier,
            aim,
            links,
            ..
        } = this;
        let aim = *aim;
        // Offers `next` (at column `x`, row `y`) the route through `node` with this step. A
        // macro, not a closure: a closure called from the neighbour loop and the link loop was
        // left out of line, and bidirectional A* ran 7 % more instructions without links.
        macro_rules! offer {
            ($next:expr, $x:expr, $y:expr, $step:expr) => {{
                let (next, x, y): (usize, usize, usize) = ($next, $x, $y);
                let g = g_node + $step;
                let seen = match nodes.state_and_g(next) {
                    (NodeState::Unseen, _) => Some(false),
                    (NodeState::Open, known) if g < known => Some(true),
                    _ => None,
                };
                if let Some(seen) = seen {
                    nodes.open(next, g, node as u32);
                    let h = estimate(heuristic, movement, h_scale, (x, y), aim);
                    let h = match links.as_ref().filter(|_| LINKED) {
                        None => h,
                        Some(bound) => bound.estimate(h, Point::new(x as i32, y as i32), |a, b| {
                            h_scale * heuristic.between(movement, a, b)
                        }),
                    };
                    if seen {
                        frontier.improve(next, g + h, g);
                    } else {
                        frontier.push(next, g + h, g);
                    }
                    if let Some(trace) = trace.as_mut() {
                        trace.push(TraceEvent::Opened(Point::new(x as i32, y as i32)));
                    }
                    if other.nodes.state(next) != NodeState::Unseen {
                        let through = g + other.nodes.g(next);
                        if through < *best {
                            (*best, *meeting) = (through, Some(next));
                        }
                    }
                }
            }};
        }
        movement.for_each_neighbor_by(grid, costs, node, |next, x, y, forward_step| {
            // Forwards, a step costs what `for_each_neighbor` says; backwards it enters `node`
            // instead of `next`: the same multiplier (1 or √2) on `node`'s entry cost (1 for
            // every step of a hex map, where a step may change both x and y).
            let step = match direction {
                _ if breadth_first => 1.0,
                Direction::Forward => forward_step,
                Direction::Backward => {
                    let entry = f64::from(costs.entry(node));
                    let (nx, ny) = (node % width, node / width);
                    movement.step_into(entry, (x as i32 - nx as i32, y as i32 - ny as i32))
                }
            };
            offer!(next, x, y, step);
        });
        if LINKED {
            // Links out of `node` going forwards; backwards, the links into it, from a cell one
            // may stand on.
            let table = grid.link_table();
            let edges = match direction {
                Direction::Forward => table.edges_from(node),
                Direction::Backward => table.edges_into(node),
            };
            for edge in edges {
                let next = match direction {
                    Direction::Forward => edge.to,
                    Direction::Backward => edge.from,
                } as usize;
                if let Some(step) = costs.link_cost(edge).filter(|_| costs.entry(next) != 0) {
                    let step = if breadth_first { 1.0 } else { step };
                    offer!(next, next % width, next / width, step);
                }
            }
        }
        node
    }

    /// Ends the search; when found, joins the two halves at the meeting cell and adds up the
    /// real step costs (bidirectional BFS counted moves, not costs).
    fn finish(&mut self, grid: &Grid, status: SearchStatus) -> Step {
        self.status = status;
        self.path.clear();
        if let (SearchStatus::Found, Some(meet)) = (status, self.meeting) {
            let mut at = Some(meet);
            while let Some(i) = at {
                self.path.push(grid.point_of(i));
                at = self.forward.nodes.parent(i);
            }
            self.path.reverse();
            let mut at = self.backward.nodes.parent(meet);
            while let Some(i) = at {
                self.path.push(grid.point_of(i));
                at = self.backward.nodes.parent(i);
            }
            let class = self.class.as_ref();
            let step = |w: &[Point]| {
                let moved = match class {
                    None => self.movement.step_cost(grid, w[0], w[1]),
                    Some(class) => self.movement.step_cost_as(grid, class, w[0], w[1]),
                };
                // A link's step (the cheaper, where a link joins two neighbours).
                match (moved, grid.link_cost(w[0], w[1], class)) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            };
            self.cost = self.path.windows(2).filter_map(step).sum();
        }
        Step::Finished(status)
    }

    fn h(&self, direction: Direction, i: usize) -> f64 {
        let at = (i % self.width, i / self.width);
        let (heuristic, movement, h_scale) = (self.heuristic_kind(), self.movement, self.h_scale);
        let side = self.side(direction);
        let direct = estimate(heuristic, movement, h_scale, at, side.aim);
        match &side.links {
            None => direct,
            Some(bound) => {
                let at = Point::new(at.0 as i32, at.1 as i32);
                bound.estimate(direct, at, |a, b| {
                    h_scale * heuristic.between(movement, a, b)
                })
            }
        }
    }

    /// The heuristic each side aims with: none for breadth-first.
    fn heuristic_kind(&self) -> Heuristic {
        match self.ordering {
            Some(Ordering::AStar(h)) => h,
            _ => Heuristic::Zero,
        }
    }

    fn side(&self, direction: Direction) -> &Side {
        match direction {
            Direction::Forward => &self.forward,
            Direction::Backward => &self.backward,
        }
    }

    /// Where the search stands: still running, or finished and how.
    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// Cells expanded by both sides together.
    pub fn expanded(&self) -> usize {
        self.forward.expanded + self.backward.expanded
    }

    /// Cells expanded by one side.
    pub fn expanded_by(&self, direction: Direction) -> usize {
        self.side(direction).expanded
    }

    /// The path, start to goal, once found; consecutive cells are neighbours.
    pub fn path(&self) -> &[Point] {
        &self.path
    }

    /// The path's cost (the sum of its step costs), once found.
    pub fn cost(&self) -> Option<f64> {
        (self.status == SearchStatus::Found).then_some(self.cost)
    }

    /// The cell where the best route found so far passes from one side's search to the other's.
    pub fn meeting(&self) -> Option<Point> {
        self.meeting
            .map(|i| Point::new((i % self.width) as i32, (i / self.width) as i32))
    }

    /// What one side knows of a cell: unseen, in its frontier, or expanded by it.
    pub fn state(&self, direction: Direction, p: Point) -> NodeState {
        let inside = p.x >= 0 && p.y >= 0 && (p.x as usize) < self.width;
        let i = p.y as usize * self.width + p.x as usize;
        if !inside || i >= self.len || self.ordering.is_none() {
            return NodeState::Unseen;
        }
        self.side(direction).nodes.state(i)
    }
}

/// The heuristic from cell `(x, y)` to `aim`, scaled by the cheapest cell cost.
#[inline]
fn estimate(
    heuristic: Heuristic,
    movement: Movement,
    h_scale: f64,
    at: (usize, usize),
    aim: Point,
) -> f64 {
    h_scale * heuristic.between_cells(movement, at, (aim.x as usize, aim.y as usize))
}

impl Engine for Bidirectional {
    fn step(&mut self, grid: &Grid) -> Step {
        Bidirectional::step(self, grid)
    }

    fn give_up(&mut self) {
        Bidirectional::give_up(self)
    }

    fn status(&self) -> SearchStatus {
        Bidirectional::status(self)
    }

    fn expanded(&self) -> usize {
        Bidirectional::expanded(self)
    }

    fn path(&self) -> &[Point] {
        Bidirectional::path(self)
    }

    fn cost(&self) -> Option<f64> {
        Bidirectional::cost(self)
    }

    fn current(&self) -> Option<Point> {
        Bidirectional::current(self)
    }

    fn trace(&self) -> &[TraceEvent] {
        Bidirectional::trace(self)
    }

    fn frontier_len(&self) -> usize {
        Bidirectional::frontier_len(self)
    }

    /// The forward side's view of a cell if it reached it, else the backward side's (g then
    /// counts from the goal).
    fn node(&self, p: Point) -> NodeInfo {
        let direction = match self.state(Direction::Forward, p) {
            NodeState::Unseen => Direction::Backward,
            _ => Direction::Forward,
        };
        let (g, parent) = self.reached(direction, p).unwrap_or((f64::INFINITY, None));
        let h = self.heuristic(direction, p);
        NodeInfo {
            state: self.state(direction, p),
            g,
            h,
            f: g + h,
            parent,
        }
    }
}
