//! The heuristic on a grid with links.
//!
//! A link breaks the plain distance: stairs from one floor to the other (two regions side by side
//! on one grid) or a teleporter make a cell far away on the map a step away, and the octile
//! distance to the goal would overestimate. Any route that takes links crosses the grid to the
//! start of its first link and ends with its last link and the way from there to the goal, so
//!
//! ```text
//! h'(n) = min( h(n, goal),  min over links L of h(n, L.from)  +  D )
//! D     = min over links L of ( cost(L) + h(L.to, goal) )
//! ```
//!
//! never overestimates, and it stays consistent: both terms are consistent along a move, and
//! along a link `n → m`, `h'(n) ≤ D ≤ cost(L) + h'(m)`. (The usual bound for portals and
//! teleporters, as in Goldberg and Harrelson's landmark arguments: a route is cut where it leaves
//! the plain grid.) Only links the query's class may take count.
//!
//! With many links the inner minimum is a loop over their starts at every cell opened: past
//! [`MAX_STARTS`] of them it is left out (taken as 0), which keeps `h' = min(h, D)`, weaker but
//! still consistent. A search from the goal (the bidirectional search's second side) reads each
//! link the other way: from its end to its start, aimed at the start.

use crate::grid::{Grid, Point};
use crate::unit_class::{AnyCosts, EntryCosts, UnitClass};

/// How many link starts the heuristic measures to, at most: a loop over them runs for every
/// cell opened.
pub(crate) const MAX_STARTS: usize = 32;

/// The parts of `h'` that depend on the links, worked out once per query (and side).
#[derive(Clone, Debug)]
pub(crate) struct LinkBound {
    /// The cells where a link the class may take starts (empty past [`MAX_STARTS`]).
    starts: Vec<Point>,
    /// `D`: the least a route's last link and what follows it can cost.
    beyond: f64,
    /// The grid's [`Grid::link_revision`] and the terrain's when it was worked out.
    made_for: (u64, u64),
}

impl LinkBound {
    /// The bound for a search heading for `aim` on `grid`'s links as `class` reads them, with
    /// `h` the plain heuristic between two cells. `backwards`: a search from the goal (the
    /// bidirectional search's second side), which takes each link from its end to its start.
    pub(crate) fn new(
        grid: &Grid,
        class: Option<&UnitClass>,
        aim: Point,
        backwards: bool,
        h: impl Fn(Point, Point) -> f64,
    ) -> Self {
        let costs = AnyCosts::of(grid, class);
        let links = grid.link_table();
        let edges = if backwards {
            links.incoming()
        } else {
            links.edges()
        };
        let mut starts = Vec::new();
        let mut beyond = f64::INFINITY;
        for edge in edges {
            let Some(cost) = costs.link_cost(edge) else {
                continue;
            };
            let (enter, leave) = match backwards {
                false => (edge.from, edge.to),
                true => (edge.to, edge.from),
            };
            let (enter, leave) = (grid.point_of(enter as usize), grid.point_of(leave as usize));
            beyond = beyond.min(cost + h(leave, aim));
            if starts.last() != Some(&enter) {
                starts.push(enter); // the edges are sorted by where the search enters them
            }
        }
        if starts.len() > MAX_STARTS {
            starts.clear();
        }
        // With no link the class may take, `beyond` is infinite and `h'` is `h`.
        Self {
            starts,
            beyond,
            made_for: (grid.link_revision(), grid.terrain_revision()),
        }
    }

    /// Whether it was worked out for `grid`'s links and terrain as they are.
    pub(crate) fn fits(&self, grid: &Grid) -> bool {
        self.made_for == (grid.link_revision(), grid.terrain_revision())
    }

    /// `h'` at `at`, whose plain heuristic is `direct`.
    #[inline]
    pub(crate) fn estimate(&self, direct: f64, at: Point, h: impl Fn(Point, Point) -> f64) -> f64 {
        if direct <= self.beyond {
            return direct; // the second term is at least `beyond`
        }
        let to_a_link = self.starts.iter().map(|&s| h(at, s)).fold(
            if self.starts.is_empty() {
                0.0
            } else {
                f64::INFINITY
            },
            f64::min,
        );
        direct.min(to_a_link + self.beyond)
    }
}
