//! The best-first loop: one resumable loop for nine algorithms, from breadth-first search to
//! JPS+ and Theta*. The frontier's order ([`crate::algorithms`]'s rules) and, for the jump and
//! any-angle searches, the successor rule are what make one algorithm differ from another:
//!
//! ```text
//! put start in the frontier
//! while the frontier is not empty:
//!     take the next cell out of the frontier       ← the order differs here...
//!     if it is the target: done
//!     for each successor of it:                    ← ...and JPS and Theta* differ here
//!         if it is new (or now cheaper, for the cost-aware ones):
//!             remember where we came from, put it in the frontier
//! ```
//!
//! The loop is spread over a few methods because it must be resumable: `begin` puts the start in
//! the frontier, `advance` takes one cell out and expands it, and `finish` lays out the path. For
//! the same algorithm written as one plain function, read [`crate::textbook::astar`]: a test
//! checks that the two agree. It owns all of its working memory and reuses it, so a game can
//! re-plan every frame without allocating.

mod hex;
mod opener;
mod query;

use super::engine::Engine;
use crate::algorithms::{Algorithm, jump_point, jump_point_plus, theta_star};
use crate::grid::{Grid, Point};
use crate::heuristic::Heuristic;
use crate::jump_distances::{JumpDistances, Update};
use crate::unit_class::{AnyCosts, EntryCosts, UnitClass};
use crate::vocabulary::frontier::Frontier;
use crate::vocabulary::link_bound::LinkBound;
use crate::vocabulary::nodes::{NO_PARENT, NodeTable};
use crate::vocabulary::{
    NodeInfo, NodeState, SearchConfig, SearchStatus, Step, TraceEvent, point_at,
};
use opener::Opener;
use query::Query;

/// The best-first loop's state. See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub(crate) struct BestFirst {
    nodes: NodeTable,
    frontier: Frontier,
    /// JPS+'s table of jump distances, repaired when the grid's walls change.
    jumps: JumpDistances,
    query: Option<Query>,
    /// On a hex map searched with the hex distance, what the hex loop works out per query.
    hex: Option<hex::HexQuery>,
    /// The unit class the query reads the grid as; `None` for the grid as it is (and for the
    /// jump searches, which run only where the class changes nothing but the scale).
    class: Option<UnitClass>,
    /// On a grid with open links, the heuristic's part for them; the loop then offers each
    /// expanded cell's links beside its neighbours ([`BestFirst::advance_linked`]).
    links: Option<LinkBound>,
    status: SearchStatus,
    expanded: usize,
    current: Option<usize>,
    path: Vec<Point>,
    /// Scratch for laying out the path: the chain of parent links, start first.
    waypoints: Vec<Point>,
    trace: Vec<TraceEvent>,
}

impl BestFirst {
    /// Sets up a search from cell `start` to cell `target`, both checked by the caller, for
    /// `class` (checked too: the jump searches only on a class [`UnitClass::uniform_on`] the
    /// grid). Theta*'s heuristic is Euclidean whatever the settings say: octile or Manhattan
    /// distances overestimate a path that may go straight.
    pub(crate) fn begin(
        &mut self,
        grid: &Grid,
        start: usize,
        target: usize,
        config: &SearchConfig,
        class: Option<&UnitClass>,
    ) {
        let width = grid.width() as usize;
        let mut config = *config;
        if config.algorithm.is_any_angle() {
            config.heuristic = Heuristic::Euclidean;
        }
        let shear = if config.movement.unstaggered().is_some() {
            usize::MAX
        } else {
            0
        };
        let query = Query {
            config,
            start,
            target,
            target_x: target % width,
            target_y: target / width,
            width,
            len: grid.len(),
            h_scale: f64::from(grid.min_cost())
                * f64::from(class.map_or(1, |c| c.cheapest_on(grid))),
            hex: query::hex_heuristic(config.heuristic, config.movement),
            shear,
            target_row: target / width + ((target % width) & shear),
        };
        self.query = Some(query);
        // The jump searches read the walls' bits, which a class uniform on the grid sees as
        // they are: only its scale, in `h_scale`, differs.
        self.class = class
            .filter(|_| !config.algorithm.is_jump_point_search())
            .cloned();
        self.links = grid
            .has_open_links()
            .then(|| query.link_bound(grid, self.class.as_ref()));
        // The hex loop offers neighbours only: with links, hex maps take the shared loop.
        self.hex = query
            .hex
            .filter(|_| self.links.is_none())
            .map(|layout| hex::HexQuery::new(layout, width, point_at(target, width)));
        self.expanded = 0;
        self.trace.clear();
        self.nodes.reset(query.len);
        self.frontier
            .reset(config.algorithm.rules().order, query.len);
        self.path.clear();
        self.current = None;
        self.status = SearchStatus::Running;
        let h = self.heuristic_at(query.start);
        self.nodes.open(query.start, 0.0, NO_PARENT);
        self.frontier.push(query.start, query.priority(0.0, h), 0.0);
        if config.record_trace {
            self.trace
                .push(TraceEvent::Opened(point_at(query.start, query.width)));
        }
    }

    /// Sizes the memory for the grid and, for JPS+, makes or repairs its table of jump
    /// distances (see `Search::prepare`).
    pub(crate) fn prepare(&mut self, grid: &Grid, config: &SearchConfig) -> Update {
        self.nodes.reserve(grid.len());
        self.frontier.reserve(grid.len());
        if config.algorithm == Algorithm::JumpPointPlus {
            self.jumps.update(grid)
        } else {
            Update::Unchanged
        }
    }

    /// JPS+ reads its table on every expansion: if the walls were edited since `begin` (a
    /// stepped search on a map being painted), bring it up to date first.
    fn refresh_jumps(&mut self, grid: &Grid) {
        if self
            .query
            .is_some_and(|q| q.config.algorithm == Algorithm::JumpPointPlus)
        {
            self.jumps.update(grid);
        }
    }

    /// The loop body: expands one cell and returns its index, or `None` once finished.
    fn advance(&mut self, grid: &Grid, costs: impl EntryCosts) -> Option<usize> {
        let node = self.take_next(grid)?;
        if self.status == SearchStatus::Running {
            self.expand(grid, costs, node);
        }
        Some(node)
    }

    /// [`BestFirst::advance`] on a hex map searched with the hex distance: [`hex`]'s loop. A
    /// loop of its own rather than a test in the shared one, where either the square maps'
    /// loop ran 1 % more instructions (the hex loop inlined) or the hex maps' 3 % (called).
    fn advance_hex(&mut self, grid: &Grid, costs: impl EntryCosts) -> Option<usize> {
        let node = self.take_next(grid)?;
        if let (SearchStatus::Running, Some(hex)) = (self.status, self.hex) {
            let g_node = self.nodes.g(node);
            let Self {
                nodes,
                frontier,
                trace,
                query: Some(query),
                ..
            } = self
            else {
                return Some(node);
            };
            let mut opener = Opener {
                nodes,
                frontier,
                trace,
                query,
                rules: query.config.algorithm.rules(),
            };
            hex::offer_neighbours(grid, costs, &hex, &mut opener, node, g_node);
        }
        Some(node)
    }

    /// The head of the loop body: takes the next cell out of the frontier and closes it, or
    /// finishes the search (the target taken, or the frontier empty).
    #[inline(always)]
    fn take_next(&mut self, grid: &Grid) -> Option<usize> {
        let query = self.query.as_ref()?;
        if self.status != SearchStatus::Running {
            return None;
        }
        if grid.len() != query.len || grid.width() as usize != query.width {
            // The grid was swapped under a running search: give up rather than misread it.
            self.finish(SearchStatus::NoPath);
            return None;
        }
        let (record_trace, target) = (query.config.record_trace, query.target);
        let node = loop {
            match self.frontier.pop() {
                Some(node) if self.nodes.is_closed(node) => continue, // queued twice: expanded already
                Some(node) => break node,
                None => {
                    self.finish(SearchStatus::NoPath);
                    return None;
                }
            }
        };
        self.nodes.close(node);
        self.expanded += 1;
        self.current = Some(node);
        if record_trace {
            self.trace.push(TraceEvent::Closed(grid.point_of(node)));
        }
        if node == target {
            self.finish(SearchStatus::Found);
        }
        Some(node)
    }

    #[inline(always)]
    fn expand(&mut self, grid: &Grid, costs: impl EntryCosts, node: usize) {
        let Some(query) = self.query.as_ref() else {
            return;
        };
        let rules = query.config.algorithm.rules();
        let g_node = self.nodes.g(node);
        let parent = self.nodes.parent(node);
        // Theta*'s second route starts at the parent: read its cost only for Theta* (this is
        // every search's innermost loop).
        let g_parent = match (query.config.algorithm, parent) {
            (Algorithm::ThetaStar, Some(p)) => self.nodes.g(p),
            _ => 0.0,
        };
        let Self {
            nodes,
            frontier,
            trace,
            jumps,
            ..
        } = self;
        let mut opener = Opener {
            nodes,
            frontier,
            trace,
            query,
            rules,
        };
        let unit = query.h_scale; // on a uniform grid every cell costs the cheapest cost
        // The jump searches report many successors from deep in their jump loops: `move`, so
        // the closure holds its numbers (and the opener's address) itself instead of the
        // address of each, two loads per number per successor (JPS+ 1 % fewer instructions).
        let offer_jump = {
            let opener = &mut opener;
            move |next, x, y, distance: f64| {
                opener.offer_jump_point(next, x, y, node, g_node + distance * unit)
            }
        };
        match query.config.algorithm {
            Algorithm::JumpPoint => {
                jump_point::for_each_successor(grid, node, parent, query.target_cell(), offer_jump)
            }
            Algorithm::JumpPointPlus => jump_point_plus::for_each_successor(
                grid,
                jumps,
                node,
                parent,
                query.target_cell(),
                offer_jump,
            ),
            Algorithm::ThetaStar => query.config.movement.for_each_neighbor_by(
                grid,
                costs,
                node,
                |next, x, y, step_cost| match theta_star::shortcut(grid, parent, next) {
                    Some((p, distance)) => {
                        opener.offer_call(next, x, y, p, g_parent + distance * unit)
                    }
                    None => opener.offer_call(next, x, y, node, g_node + step_cost),
                },
            ),
            _ => query.config.movement.for_each_neighbor_by(
                grid,
                costs,
                node,
                |next, x, y, step_cost| opener.offer(next, x, y, node, g_node + step_cost),
            ),
        }
    }

    /// [`BestFirst::advance`] on a grid with open links: each cell's
    /// links are offered beside its neighbours, and every cell opened is estimated through the
    /// links' bound (`vocabulary::link_bound`). A loop of its own, so that the searches on grids without links
    /// compile as if links did not exist.
    fn advance_linked(&mut self, grid: &Grid, costs: impl EntryCosts) -> Option<usize> {
        let node = self.take_next(grid)?;
        let Self {
            nodes,
            frontier,
            trace,
            query: Some(query),
            links: Some(bound),
            status: SearchStatus::Running,
            ..
        } = self
        else {
            return Some(node);
        };
        let g_node = nodes.g(node);
        let mut opener = Opener {
            nodes,
            frontier,
            trace,
            query,
            rules: query.config.algorithm.rules(),
        };
        let bound = &*bound;
        let h = |x, y| move |q: &Query| q.linked_heuristic(bound, x, y);
        query
            .config
            .movement
            .for_each_neighbor_by(grid, costs, node, |next, x, y, step_cost| {
                opener.offer_estimated(next, node, g_node + step_cost, h(x, y))
            });
        for edge in grid.link_table().edges_from(node) {
            if let Some(cost) = costs.link_cost(edge) {
                let to = edge.to as usize;
                let (x, y) = (to % query.width, to / query.width);
                opener.offer_estimated(to, node, g_node + cost, h(x, y));
            }
        }
        Some(node)
    }

    /// Expands up to `max_expansions` cells of a search on a grid with links
    /// ([`BestFirst::advance_linked`]). Out of line, as [`BestFirst::run_hex`] is.
    #[inline(never)]
    fn run_linked(&mut self, grid: &Grid, costs: impl EntryCosts, max_expansions: usize) {
        for _ in 0..max_expansions {
            if self.advance_linked(grid, costs).is_none() {
                break;
            }
        }
    }

    /// The heuristic at the cell at `index` (0 for the algorithms that use none), through the
    /// links' bound when there is one.
    fn heuristic_at(&self, index: usize) -> f64 {
        let Some(query) = self.query.as_ref() else {
            return 0.0;
        };
        match &self.links {
            Some(bound) if query.config.algorithm.uses_heuristic() => {
                query.linked_heuristic(bound, index % query.width, index / query.width)
            }
            _ => query.heuristic_at(index),
        }
    }

    /// Links opened, shut or added under a stepped search: the heuristic's part for them is
    /// worked out again, so that it never overestimates.
    fn refresh_links(&mut self, grid: &Grid) {
        let stale = match &self.links {
            Some(bound) => !bound.fits(grid),
            None => grid.has_open_links(),
        };
        if let (true, Some(query)) = (stale, self.query.as_ref())
            && grid.len() == query.len
            && self.hex.is_none()
        {
            self.links = Some(query.link_bound(grid, self.class.as_ref()));
        }
    }

    /// Expands up to `max_expansions` cells of a search on a hex map ([`hex`]'s loop). Out of
    /// line, so that the square maps' loop, in the caller, compiles as if it were not there.
    #[inline(never)]
    fn run_hex(&mut self, grid: &Grid, costs: impl EntryCosts, max_expansions: usize) {
        for _ in 0..max_expansions {
            if self.advance_hex(grid, costs).is_none() {
                break;
            }
        }
    }

    /// Expands up to `max_expansions` cells, reading the grid through `costs`: the loop, one
    /// copy per view of the grid (`&Grid`, or a class's).
    fn run_on(&mut self, grid: &Grid, costs: impl EntryCosts, max_expansions: usize) {
        if self.hex.is_some() {
            return self.run_hex(grid, costs, max_expansions);
        }
        for _ in 0..max_expansions {
            if self.advance(grid, costs).is_none() {
                break;
            }
        }
    }

    /// [`BestFirst::run_on`] through the query's class, if it has one: decided once per call,
    /// not per cell.
    fn run_for(&mut self, grid: &Grid, max_expansions: usize) {
        let class = self.class.take();
        match class.as_ref().map(|c| (c, c.on_exact(grid))) {
            _ if self.links.is_some() => {
                let costs = AnyCosts::of(grid, class.as_ref());
                self.run_linked(grid, costs, max_expansions)
            }
            None => self.run_on(grid, grid, max_expansions),
            Some((_, Some(exact))) => self.run_on(grid, exact, max_expansions),
            Some((class, None)) => self.run_on(grid, class.on(grid), max_expansions),
        }
        self.class = class;
    }

    /// One expansion, through the query's class if it has one.
    fn advance_once(&mut self, grid: &Grid) -> Option<usize> {
        let class = self.class.take();
        let node = match (&class, self.hex.is_some(), self.links.is_some()) {
            (None, true, _) => self.advance_hex(grid, grid),
            (None, false, true) => self.advance_linked(grid, grid),
            (None, false, false) => self.advance(grid, grid),
            (Some(class), true, _) => self.advance_hex(grid, class.on(grid)),
            (Some(class), false, true) => self.advance_linked(grid, class.on(grid)),
            (Some(class), false, false) => self.advance(grid, class.on(grid)),
        };
        self.class = class;
        node
    }

    /// Ends the search and, when it reached its target, writes out the path.
    ///
    /// Never inlined: it runs once per query, and inlined into the loop that calls it, it made
    /// that loop's code worse (A* +5 % instructions).
    #[inline(never)]
    fn finish(&mut self, status: SearchStatus) -> Step {
        self.status = status;
        self.path.clear();
        let Some(query) = self.query else {
            return Step::Finished(status);
        };
        if status == SearchStatus::Found {
            // Walk the parent links back from the target, then lay the path out forwards.
            let mut at = Some(query.target);
            self.waypoints.clear();
            while let Some(i) = at {
                self.waypoints.push(point_at(i, query.width));
                at = self.nodes.parent(i);
            }
            self.waypoints.reverse();
            if !query.config.algorithm.is_jump_point_search() {
                // Neighbours (or, for any-angle paths, corners joined by straight segments): the
                // chain is the path.
                self.path.extend_from_slice(&self.waypoints);
                return Step::Finished(status);
            }
            // Jump point search links jump points: fill in the run between two, diagonal first,
            // then straight. Each part is one `extend` of known length with a constant step, so
            // a cell costs a few instructions (stepping one cell at a time, and working out the
            // step's direction each time, cost 29 a cell).
            let mut cell = self.waypoints[0];
            self.path.push(cell);
            for &next in &self.waypoints[1..] {
                let (dx, dy) = (next.x - cell.x, next.y - cell.y);
                let (sx, sy) = (dx.signum(), dy.signum());
                let diagonal = dx.abs().min(dy.abs());
                let corner = Point::new(cell.x + diagonal * sx, cell.y + diagonal * sy);
                let diagonal_part =
                    (1..diagonal + 1).map(|k| Point::new(cell.x + k * sx, cell.y + k * sy));
                self.path.extend(diagonal_part);
                let (ax, ay) = if dx.abs() > dy.abs() {
                    (sx, 0)
                } else {
                    (0, sy)
                };
                let straight = dx.abs().max(dy.abs()) - diagonal;
                let straight_part =
                    (1..straight + 1).map(|k| Point::new(corner.x + k * ax, corner.y + k * ay));
                self.path.extend(straight_part);
                cell = next;
            }
        }
        Step::Finished(status)
    }
}

impl Engine for BestFirst {
    fn step(&mut self, grid: &Grid) -> Step {
        self.refresh_jumps(grid);
        self.refresh_links(grid);
        match self.advance_once(grid) {
            Some(node) => Step::Expanded(grid.point_of(node)),
            None => Step::Finished(self.status),
        }
    }

    /// So that a frame never stalls on a large map, without a call through the trait per cell.
    fn step_many(&mut self, grid: &Grid, max_expansions: usize) -> SearchStatus {
        self.refresh_jumps(grid);
        self.refresh_links(grid);
        self.run_for(grid, max_expansions);
        self.status
    }

    fn run(&mut self, grid: &Grid) -> SearchStatus {
        self.refresh_jumps(grid);
        self.refresh_links(grid);
        self.run_for(grid, usize::MAX);
        self.status
    }

    fn give_up(&mut self) {
        self.finish(SearchStatus::NoPath);
    }

    fn status(&self) -> SearchStatus {
        self.status
    }

    fn expanded(&self) -> usize {
        self.expanded
    }

    fn path(&self) -> &[Point] {
        &self.path
    }

    fn cost(&self) -> Option<f64> {
        let query = self.query?;
        (self.status == SearchStatus::Found).then(|| self.nodes.g(query.target))
    }

    fn current(&self) -> Option<Point> {
        let query = self.query?;
        self.current.map(|i| point_at(i, query.width))
    }

    fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }

    fn frontier_len(&self) -> usize {
        self.frontier.len()
    }

    fn node(&self, p: Point) -> NodeInfo {
        let Some(q) = self.query else {
            return NodeInfo::UNSEEN;
        };
        let i = p.y as usize * q.width + p.x as usize;
        let state = self.nodes.state(i);
        let g = if state == NodeState::Unseen {
            f64::INFINITY
        } else {
            self.nodes.g(i)
        };
        let h = self.heuristic_at(i);
        NodeInfo {
            state,
            g,
            h,
            f: q.priority(g, h),
            parent: self
                .nodes
                .parent(i)
                .filter(|_| state != NodeState::Unseen)
                .map(|j| point_at(j, q.width)),
        }
    }
}
