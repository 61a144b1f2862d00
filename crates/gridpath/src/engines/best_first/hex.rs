//! Expanding a cell of a hex map: the six neighbours, each with its hex distance to the target.
//!
//! The general loop ([`Movement::for_each_neighbor`](crate::movement::Movement)) serves hex maps too, but
//! its heuristic converts each opened cell to axial coordinates, and the target with it, and it
//! checks every neighbour against the map's edges. Here a query converts the target once; a cell
//! is converted once when it is expanded, and a neighbour's axial coordinates are the cell's plus
//! one of the six [`AXIAL_STEPS`], in the same order as the layout's offset steps, so the search
//! opens the same cells in the same order and finds the same paths. A cell away from the edges
//! reaches its neighbours by fixed index offsets, one table for each parity of row (or column).
//! Square maps never come here: their loop is the general one, untouched.

use super::opener::Opener;
use crate::grid::{Grid, Point};
use crate::hex::{AXIAL_STEPS, HexLayout};
use crate::unit_class::EntryCosts;

/// What a query on a hex map works out once.
#[derive(Clone, Copy, Debug)]
pub(super) struct HexQuery {
    layout: HexLayout,
    /// The layout as numbers, for [`HexQuery::axial`]: whether rows (rather than columns) are
    /// shifted, by how much to round the halving (1 when the even ones are), and whether any is
    /// (0 in an axial layout).
    rows: bool,
    round: i32,
    shifted: i32,
    /// The target's axial coordinates.
    target: (i32, i32),
    /// The index offsets of the six neighbours of a cell away from the edges, for an even and
    /// an odd row (or column).
    offsets: [[isize; 6]; 2],
}

impl HexQuery {
    pub(super) fn new(layout: HexLayout, width: usize, target: Point) -> Self {
        let table = |parity: i32| {
            layout
                .steps(Point::new(parity, parity))
                .map(|(dx, dy)| dy as isize * width as isize + dx as isize)
        };
        let (round, shifted) = match layout {
            HexLayout::RowOdd | HexLayout::ColumnOdd => (0, 1),
            HexLayout::RowEven | HexLayout::ColumnEven => (1, 1),
            HexLayout::Row | HexLayout::Column => (0, 0),
        };
        Self {
            layout,
            rows: layout.pointy_top(),
            round,
            shifted,
            target: layout.to_axial(target),
            offsets: [table(0), table(1)],
        }
    }

    /// [`HexLayout::to_axial`] of the cell at `(x, y)`, on the map, without a `match`: the
    /// shifted coordinate less half the other, rounded as the layout says.
    #[inline(always)]
    fn axial(&self, x: i32, y: i32) -> (i32, i32) {
        let (major, minor) = if self.rows { (y, x) } else { (x, y) };
        let minor = minor - ((major + self.round) >> 1) * self.shifted;
        if self.rows {
            (minor, major)
        } else {
            (major, minor)
        }
    }

    /// Which of the two offset tables a cell at `(x, y)` takes.
    #[inline(always)]
    fn parity(&self, x: usize, y: usize) -> usize {
        if self.rows { y & 1 } else { x & 1 }
    }
}

/// Offers each open neighbour of `node` (at cost `g_node`) to the opener, with its hex distance
/// to the target (scaled by the cheapest cell cost) as its heuristic.
#[inline(always)]
pub(super) fn offer_neighbours(
    grid: &Grid,
    costs: impl EntryCosts,
    hex: &HexQuery,
    opener: &mut Opener<'_>,
    node: usize,
    g_node: f64,
) {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let (x, y) = (node % w, node / w);
    let (q, r) = hex.axial(x as i32, y as i32);
    let (dq, dr) = (q - hex.target.0, r - hex.target.1);
    // The neighbours first (`usize::MAX` off the map), then one loop that offers them: one
    // call site, so the offer is inlined into it.
    let mut around = [usize::MAX; 6];
    if x > 0 && y > 0 && x + 1 < w && y + 1 < h {
        for (next, &offset) in around.iter_mut().zip(&hex.offsets[hex.parity(x, y)]) {
            *next = node.wrapping_add_signed(offset);
        }
    } else {
        for (next, &(sx, sy)) in around
            .iter_mut()
            .zip(hex.layout.steps(Point::new(x as i32, y as i32)))
        {
            let (tx, ty) = (
                x.wrapping_add_signed(sx as isize),
                y.wrapping_add_signed(sy as isize),
            );
            if tx < w && ty < h {
                *next = ty * w + tx;
            }
        }
    }
    for (&next, &(sq, sr)) in around.iter().zip(&AXIAL_STEPS) {
        let cost = match costs.entry_at(next) {
            Some(cost) if cost != 0 => cost,
            _ => continue,
        };
        opener.offer_estimated(next, node, g_node + f64::from(cost), |query| {
            let (nq, nr) = (dq + sq, dr + sr);
            let distance = nq
                .unsigned_abs()
                .max(nr.unsigned_abs())
                .max((nq + nr).unsigned_abs());
            query.h_scale * f64::from(distance)
        });
    }
}
