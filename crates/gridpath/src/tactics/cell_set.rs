//! A set of cells by index, a bit each: the tactics' marks.

/// A set of cells by index, a bit each: cleared in a few thousand words even on a large map.
#[derive(Clone, Debug, Default)]
pub(crate) struct CellSet {
    bits: Vec<u64>,
}

impl CellSet {
    /// Adds cell `i` of a map of `len` cells; true if it was not in.
    pub(crate) fn insert(&mut self, len: usize, i: usize) -> bool {
        if self.bits.len() < len.div_ceil(64) {
            self.bits.resize(len.div_ceil(64), 0);
        }
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let new = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        new
    }

    /// Is cell `i` in? (Any cell past the last added is not.)
    #[inline]
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.bits
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Empties the set, keeping its memory.
    pub(crate) fn clear(&mut self) {
        self.bits.fill(0);
    }

    /// Takes out the given cells only: a query that touched a few dozen cells of a large map
    /// resets a few dozen words.
    pub(crate) fn clear_cells(&mut self, cells: &[u32]) {
        for &i in cells {
            if let Some(w) = self.bits.get_mut(i as usize / 64) {
                *w = 0;
            }
        }
    }
}
