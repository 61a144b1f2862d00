//! Who stands on each cell and who takes it next, with the log that undoes a plan given up.

use super::rules::footprint;
use super::state::{CrowdStep, Layer, NONE, Undo};
use crate::grid::Grid;

impl CrowdStep {
    /// Writes `who` on every cell of the footprint at cell index `at` in one layer.
    pub(super) fn mark(&mut self, grid: &Grid, layer: Layer, at: usize, size: u8, who: u32) {
        for p in footprint(grid.point_of(at), size) {
            if let Some(c) = grid.index_of(p) {
                self.write(c, layer, who);
            }
        }
    }

    /// Takes cell `c` for `who` (or frees it: `NONE`), remembering what it was.
    pub(super) fn take(&mut self, c: usize, who: u32) {
        self.log.push(Undo::Taking(c, self.taking(c)));
        self.write(c, Layer::Taking, who);
    }

    /// One mark on cell `c`: `NONE` without a look at `cells` if no mark was written there
    /// this step.
    pub(super) fn read(&self, c: usize, layer: Layer) -> u32 {
        if self.marked[c / 64] & 1 << (c % 64) == 0 {
            NONE
        } else {
            self.cells[c][layer as usize]
        }
    }

    /// Writes one mark on cell `c`, and its bit in `marked`.
    pub(super) fn write(&mut self, c: usize, layer: Layer, who: u32) {
        self.marked[c / 64] |= 1 << (c % 64);
        self.cells[c][layer as usize] = who;
    }

    /// Who stands on cell `c` now.
    pub(super) fn standing(&self, c: usize) -> u32 {
        self.read(c, Layer::Standing)
    }

    /// Who takes cell `c` next.
    pub(super) fn taking(&self, c: usize) -> u32 {
        self.read(c, Layer::Taking)
    }

    /// Plans mover `i` to cell `v` (or unplans it), remembering what it was.
    pub(super) fn set_to(&mut self, i: usize, v: usize) {
        self.log.push(Undo::To(i, self.to[i]));
        self.to[i] = v;
    }

    /// Undoes every [`CrowdStep::take`] and [`CrowdStep::set_to`] since the log was `len` long.
    pub(super) fn rollback(&mut self, len: usize) {
        while self.log.len() > len {
            match self.log.pop() {
                Some(Undo::Taking(c, who)) => self.write(c, Layer::Taking, who),
                Some(Undo::To(i, v)) => self.to[i] = v,
                None => break,
            }
        }
    }
}
