//! Ways round for the stalled bodies ([`detour`]), searched with the step they feed: off the
//! frame when the step is planned ahead.
//!
//! A body that has got no nearer for a while heads round the bodies in its way instead of for
//! its route's next cell. Which bodies have stalled, and where the others stand, is read in the
//! frame; the searches (a few hundred at 10,000 bodies after a stroke, up to 4 ms in all) run
//! where the step runs, and change nothing but the cells the step draws the stalled bodies to.

use super::body::covers;
use gridpath::mapf::crowd::detour;
use gridpath::{Grid, Movement, Point};

/// What the searches need, owned, so that they can run with the step anywhere.
#[derive(Default)]
pub(super) struct Detours {
    /// Each stalled body's index among the movers, and its size.
    stalled: Vec<(usize, u8)>,
    /// Where the bodies on their way stand, and their sizes. They are in the way; those that
    /// have arrived can be pushed aside.
    in_the_way: Vec<(Point, u8)>,
    /// Which cells those cover, a bit per cell: a grid-sized table kept between ticks (hashing
    /// the footprints of thousands of bodies at every tick cost more than the detours).
    pub(super) covered: Vec<u64>,
}

impl Detours {
    /// None yet, with the table of bits handed back by the last step.
    pub(super) fn new(covered: Vec<u64>) -> Self {
        Self {
            covered,
            ..Self::default()
        }
    }

    /// The body `i` of `size` has stalled.
    pub(super) fn stalled(&mut self, i: usize, size: u8) {
        self.stalled.push((i, size.max(1)));
    }

    /// Whether any body has stalled: only then are the others' places needed.
    pub(super) fn any(&self) -> bool {
        !self.stalled.is_empty()
    }

    /// A body on its way stands at `cell`.
    pub(super) fn in_the_way(&mut self, cell: Point, size: u8) {
        self.in_the_way.push((cell, size));
    }

    /// Points each stalled body's aim at the first move of its way round, if it has one.
    /// `grids`: the grid for each size, from 1.
    pub(super) fn apply(
        &mut self,
        grids: &[&Grid],
        movement: Movement,
        aims: &mut [(Point, Option<Point>)],
    ) {
        if self.stalled.is_empty() {
            return;
        }
        let covered = &mut self.covered;
        covered.clear();
        covered.resize(grids[0].len().div_ceil(64), 0);
        for &(cell, size) in &self.in_the_way {
            for c in covers(grids[0], cell, size) {
                covered[c / 64] |= 1 << (c % 64);
            }
        }
        for &(i, size) in &self.stalled {
            let Some((here, Some(aim))) = aims.get(i).copied() else {
                continue;
            };
            let Some(sized) = grids.get(usize::from(size) - 1) else {
                continue;
            };
            if let Some(step) = detour(sized, movement, covered, here, size, aim, true) {
                aims[i].1 = Some(step);
            }
        }
    }
}
