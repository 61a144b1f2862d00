//! Where a straight run stops, as bits: what makes jump point search's straight jumps cheap.
//!
//! A run along a row, say east, stops at the first cell that is a wall (the run ends before it) or
//! that has a *forced neighbour* (a free cell beside it whose own cell one step back is a wall: a
//! jump point). Whether a cell stops an eastward run depends only on the three rows around it, so
//! it can be worked out once, as one bit per cell, and kept up to date when a cell changes: a change
//! can only alter the bits of the three lines around it, at its own position and the next one.
//! A straight jump is then "find the first set bit after `from`": one word of 64 cells per step,
//! a mask for the first word, and `trailing_zeros`.
//!
//! The grid keeps four families of lines, one per direction of travel: rows (east), rows mirrored
//! (west: the last cell first), columns (south: the transposed grid) and columns mirrored (north),
//! so that every run goes forwards and no bits are ever reversed. Each line is padded with a wall
//! bit at both ends (bit `i + 1` is cell `i`), and the families have a wall line before the first
//! line and after the last, so that a run always stops inside its line and the lines beside it
//! always exist. Together the four families take about a quarter of the size of the cost array.
//!
//! This costs every wall change 24 words rewritten (four families, three lines, two words) and
//! saves every straight jump two thirds of its loads and all its shifting: JPS makes about 28
//! straight jumps per expansion.

/// One family of parallel lines (all the rows, or all the columns, forwards or mirrored).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct RunLines {
    words_per_line: usize,
    /// Passability, line by line: bit `i + 1` of line `l + 1` is cell `i` of line `l`.
    free: Vec<u64>,
    /// Where a forward run stops, laid out as `free`: a wall, or a free cell beside whose cell one
    /// step back is a wall.
    stops: Vec<u64>,
}

impl RunLines {
    /// `lines` lines of `length` cells, every cell free.
    fn open(lines: usize, length: usize) -> Self {
        let words_per_line = (length + 2).div_ceil(64);
        let mut free = vec![0; words_per_line * (lines + 2)];
        for line in free.chunks_mut(words_per_line).skip(1).take(lines) {
            for bit in 1..=length {
                line[bit / 64] |= 1 << (bit % 64);
            }
        }
        let stops = vec![0; free.len()];
        let mut open = Self {
            words_per_line,
            free,
            stops,
        };
        open.redo_stops();
        open
    }

    /// Sets cell `position` of line `line` free or not, and updates the stops it affects.
    fn set(&mut self, line: usize, position: usize, free: bool) {
        self.set_free_only(line, position, free);
        let (padded_line, bit) = (line + 1, position + 1);
        // The cell is "beside" for the lines either side of it (at its own bit, and at the next
        // bit, where it is the cell behind), and "on the run" for its own line.
        for l in padded_line - 1..=padded_line + 1 {
            self.update_stops(l, bit / 64);
            if (bit + 1) / 64 != bit / 64 {
                self.update_stops(l, (bit + 1) / 64);
            }
        }
    }

    /// Sets cell `position` of line `line` free or not, leaving the stops to [`Self::redo_stops`].
    fn set_free_only(&mut self, line: usize, position: usize, free: bool) {
        let bit = position + 1;
        let word = &mut self.free[(line + 1) * self.words_per_line + bit / 64];
        if free {
            *word |= 1 << (bit % 64);
        } else {
            *word &= !(1 << (bit % 64));
        }
    }

    /// Works out every stop afresh.
    fn redo_stops(&mut self) {
        for line in 0..self.free.len() / self.words_per_line {
            for word in 0..self.words_per_line {
                self.update_stops(line, word);
            }
        }
    }

    /// Recomputes word `word` of the stops of padded line `line` from the passability bits.
    fn update_stops(&mut self, line: usize, word: usize) {
        let n = self.words_per_line;
        let at = |l: usize, w: usize| self.free[l * n + w];
        let free = at(line, word);
        let stops = if line == 0 || (line + 1) * n >= self.free.len() {
            !free // the wall lines around the map: never run along
        } else {
            // A side cell that is free while the cell behind it (one bit lower) is a wall.
            let forced = |side: usize| {
                let carry = if word == 0 {
                    0
                } else {
                    at(side, word - 1) >> 63
                };
                let behind = at(side, word) << 1 | carry;
                at(side, word) & !behind
            };
            !free | forced(line - 1) | forced(line + 1)
        };
        self.stops[line * n + word] = stops;
    }

    /// Three passability bits of line `line` (-1 and the line count are wall lines): cells
    /// `position − 1`, `position` and `position + 1`, lowest first (outside the line: walls).
    #[inline(always)]
    fn three_free(&self, line: i32, position: i32) -> u8 {
        // Padded, cell `position − 1` is bit `position`, and the three never pass the padding.
        let (bit, start) = (position as usize, (line + 1) as usize * self.words_per_line);
        let (word, shift) = (start + bit / 64, bit % 64);
        let mut bits = self.free.get(word).map_or(0, |w| w >> shift);
        if shift > 61 {
            // The three straddle two words.
            bits |= self.free.get(word + 1).map_or(0, |w| w << (64 - shift));
        }
        (bits & 0b111) as u8
    }

    /// The stops and the passability of line `line` (-1 and the line count are the wall lines).
    #[inline(always)]
    fn line(&self, line: i32) -> RunLine<'_> {
        RunLine {
            stops: &self.stops,
            free: &self.free,
            start: (line + 1) as usize * self.words_per_line,
        }
    }
}

/// One line's bits, as [`RunLine::first_stop`] reads them: the whole tables and where the line
/// starts in them. (Not the line's own slices: cutting them out costs three bounds checks per
/// jump, and a diagonal run makes two jumps per step.)
pub(crate) struct RunLine<'a> {
    stops: &'a [u64],
    free: &'a [u64],
    start: usize,
}

impl RunLine<'_> {
    /// The first position after `from` where a forward run stops, and whether the run reaches it:
    /// true for a jump point, false for a wall (the run ended on the cell before). `None` only
    /// if `from` is outside the tables.
    ///
    /// The scan cannot run past the line's end: its last bits are walls, which are stops.
    #[inline(always)]
    pub(crate) fn first_stop(&self, from: i32) -> Option<(i32, bool)> {
        let first = from as usize + 2; // the padded bit of the first cell ahead of `from`
        let mut word = self.start + first / 64;
        let mut stops = self.stops.get(word)? & !((1u64 << (first % 64)) - 1);
        while stops == 0 {
            word += 1;
            stops = *self.stops.get(word)?;
        }
        let bit = stops.trailing_zeros();
        let free = self.free.get(word).is_some_and(|f| f >> bit & 1 == 1);
        let position = (word - self.start) * 64 + bit as usize;
        Some((position as i32 - 1, free))
    }
}

/// The four families: one per direction a straight run can take.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct RunBits {
    width: usize,
    height: usize,
    east: RunLines,
    west: RunLines,
    south: RunLines,
    north: RunLines,
}

impl RunBits {
    pub(crate) fn open(width: u32, height: u32) -> Self {
        let (w, h) = (width as usize, height as usize);
        Self {
            width: w,
            height: h,
            east: RunLines::open(h, w),
            west: RunLines::open(h, w),
            south: RunLines::open(w, h),
            north: RunLines::open(w, h),
        }
    }

    /// Sets a cell free or not, and updates the stops around it.
    pub(crate) fn set(&mut self, x: u32, y: u32, free: bool) {
        self.each_family(x, y, |lines, line, position| {
            lines.set(line, position, free)
        });
    }

    /// Sets a cell free or not, leaving the stops to [`Self::redo_stops`]: for many cells at once.
    pub(crate) fn set_free_only(&mut self, x: u32, y: u32, free: bool) {
        self.each_family(x, y, |lines, line, position| {
            lines.set_free_only(line, position, free)
        });
    }

    pub(crate) fn redo_stops(&mut self) {
        for lines in [
            &mut self.east,
            &mut self.west,
            &mut self.south,
            &mut self.north,
        ] {
            lines.redo_stops();
        }
    }

    /// Calls `f(lines, line, position)` with cell `(x, y)`'s line and position in each family.
    fn each_family(&mut self, x: u32, y: u32, mut f: impl FnMut(&mut RunLines, usize, usize)) {
        let (x, y) = (x as usize, y as usize);
        f(&mut self.east, y, x);
        f(&mut self.west, y, self.width - 1 - x);
        f(&mut self.south, x, y);
        f(&mut self.north, x, self.height - 1 - y);
    }

    /// Which of the eight cells around `(x, y)` (inside the map) are free, as the bits of
    /// [`crate::grid::Grid::free_neighbours`]: three reads of the padded rows, no bounds tests
    /// on the map's edges.
    #[inline(always)]
    pub(crate) fn free_neighbours(&self, x: i32, y: i32) -> u8 {
        let above = self.east.three_free(y - 1, x);
        let row = self.east.three_free(y, x);
        let below = self.east.three_free(y + 1, x);
        above | (row & 1) << 3 | (row >> 2) << 4 | below << 5
    }

    /// Which of the nine cells centred on `(x, y)` (inside the map) are free, as the bits of
    /// [`crate::grid::Grid::free_block`].
    #[inline(always)]
    pub(crate) fn free_block(&self, x: i32, y: i32) -> u16 {
        let above = self.east.three_free(y - 1, x);
        let row = self.east.three_free(y, x);
        let below = self.east.three_free(y + 1, x);
        u16::from(above) | u16::from(row) << 3 | u16::from(below) << 6
    }

    /// Row `y` for a run east, or west (`mirrored`: position `p` is cell `width − 1 − p`).
    #[inline(always)]
    pub(crate) fn row(&self, y: i32, mirrored: bool) -> RunLine<'_> {
        if mirrored { &self.west } else { &self.east }.line(y)
    }

    /// Column `x` for a run south, or north (`mirrored`: position `p` is row `height − 1 − p`).
    #[inline(always)]
    pub(crate) fn column(&self, x: i32, mirrored: bool) -> RunLine<'_> {
        if mirrored { &self.north } else { &self.south }.line(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Stops kept up to date cell by cell equal stops worked out afresh for the final walls.
        #[test]
        fn edits_keep_the_stops_as_a_fresh_build_would(
            (w, h, edits) in (1usize..140, 1usize..6).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec((0..w, 0..h, any::<bool>()), 0..200))
            }),
        ) {
            let mut lines = RunLines::open(h, w);
            for &(position, line, free) in &edits {
                lines.set(line, position, free);
            }
            let mut fresh = lines.clone();
            fresh.stops.fill(0);
            fresh.redo_stops();
            prop_assert!(lines == fresh);
        }
    }
}
