//! One query as the best-first loop sees it: the settings, the start and the target as cell
//! indices, and the heuristic towards the target.

use crate::grid::{Grid, Point};
use crate::heuristic::{Heuristic, axis_distance};
use crate::hex::HexLayout;
use crate::movement::Movement;
use crate::unit_class::UnitClass;
use crate::vocabulary::SearchConfig;
use crate::vocabulary::link_bound::LinkBound;

#[derive(Clone, Copy, Debug)]
pub(super) struct Query {
    pub(super) config: SearchConfig,
    pub(super) start: usize,
    /// Where the search is heading: the goal, or the nearest reachable cell to it (the facade
    /// decides).
    pub(super) target: usize,
    /// The target's column and row, kept so the heuristic needs no division.
    pub(super) target_x: usize,
    pub(super) target_y: usize,
    pub(super) width: usize,
    pub(super) len: usize,
    /// The heuristic is multiplied by this (the cheapest cell cost) to stay admissible.
    pub(super) h_scale: f64,
    /// The layout when the heuristic is the hex distance on a hex map: looked at once here,
    /// rather than both settings at every cell opened (that cost A* 3 % more instructions).
    pub(super) hex: Option<HexLayout>,
    /// All ones on a staggered map, else 0: the heuristic measures on the square grid the map
    /// is a shear of ([`crate::staggered`]), where cell `(x, y)` is at row `y + x`. A mask
    /// rather than a third case: A* ran 2 % more instructions on square maps with a branch.
    pub(super) shear: usize,
    /// The target's row on that square grid: `target_y + (target_x & shear)`.
    pub(super) target_row: usize,
}

/// The layout whose hex distance the heuristic is, if it is.
pub(super) fn hex_heuristic(heuristic: Heuristic, movement: Movement) -> Option<HexLayout> {
    movement.hex().filter(|_| heuristic == Heuristic::Hex)
}

impl Query {
    /// The heuristic estimate from the cell at column `x`, row `y` to the target.
    ///
    /// Always inlined: with the links' heuristic calling it too, the compiler left it out of
    /// line in JPS+'s offer, which ran 2 % more instructions.
    #[inline(always)]
    pub(super) fn heuristic(&self, x: usize, y: usize) -> f64 {
        if let Some(layout) = self.hex {
            let at = Point::new(x as i32, y as i32);
            let target = Point::new(self.target_x as i32, self.target_y as i32);
            return self.h_scale * f64::from(layout.distance(at, target));
        }
        let dx = axis_distance(x, self.target_x);
        let dy = axis_distance(y + (x & self.shear), self.target_row);
        self.h_scale * self.config.heuristic.estimate_cells(dx, dy)
    }

    /// The heuristic between any two cells, as [`Query::heuristic`] measures towards the target
    /// (the link heuristic measures to where links start).
    pub(super) fn heuristic_between(&self, a: Point, b: Point) -> f64 {
        self.h_scale * self.config.heuristic.between(self.config.movement, a, b)
    }

    /// The bound on routes through `grid`'s links for this query ([`LinkBound`]).
    pub(super) fn link_bound(&self, grid: &Grid, class: Option<&UnitClass>) -> LinkBound {
        let target = Point::new(self.target_x as i32, self.target_y as i32);
        LinkBound::new(grid, class, target, false, |a, b| {
            self.heuristic_between(a, b)
        })
    }

    /// The heuristic at column `x`, row `y` on a grid with links: [`Query::heuristic`] bounded
    /// through them.
    #[inline]
    pub(super) fn linked_heuristic(&self, bound: &LinkBound, x: usize, y: usize) -> f64 {
        let at = Point::new(x as i32, y as i32);
        bound.estimate(self.heuristic(x, y), at, |a, b| {
            self.heuristic_between(a, b)
        })
    }

    /// [`Query::heuristic`] by cell index, or 0 for algorithms that ignore it.
    pub(super) fn heuristic_at(&self, i: usize) -> f64 {
        if self.config.algorithm.uses_heuristic() {
            self.heuristic(i % self.width, i / self.width)
        } else {
            0.0
        }
    }

    /// The target's column and row.
    #[inline]
    pub(super) fn target_cell(&self) -> (i32, i32) {
        (self.target_x as i32, self.target_y as i32)
    }

    #[inline]
    pub(super) fn priority(&self, g: f64, h: f64) -> f64 {
        self.config.algorithm.priority(g, h, self.config.weight)
    }
}
