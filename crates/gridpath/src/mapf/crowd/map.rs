//! The map as a live crowd's bookkeeping reads it ([`CrowdMap`]): the grid now, the grid each
//! size fits on, and what changed since an earlier revision.
//!
//! A game edits its map between ticks (a wall painted, a door shut), and the crowd keeps work
//! from frame to frame (a gathering's cells, where settled bodies stand) that only an edit near
//! it can spoil. So it asks what changed, not whether anything did.

use crate::grid::{Grid, Point};
use std::sync::Arc;

/// A map that keeps a log of its edits.
pub trait CrowdMap {
    /// The grid as it is now.
    fn grid(&self) -> &Grid;

    /// The grid a body `size` cells across moves on: a cell is floor where it fits with its
    /// top-left corner there.
    fn grid_for(&self, size: u8) -> Arc<Grid>;

    /// A number that grows with every edit.
    fn revision(&self) -> u64;

    /// The cells changed since the map had `revision`, oldest first; `None` when the log cannot
    /// say (too old): treat everything as changed.
    fn changes_since(&self, revision: u64) -> Option<Box<dyn Iterator<Item = Point> + '_>>;

    /// Boxes `(low, high)` round the cells changed since `revision`, in the order they changed:
    /// a cell next to the last box grows it, so the cells of a stroke make one box, and the
    /// undone stroke before it another. (A box may hold cells that did not change: what is near
    /// a box is near an edit or close to one.)
    fn changed_boxes_since(&self, revision: u64) -> Option<Vec<(Point, Point)>> {
        let mut boxes: Vec<(Point, Point)> = Vec::new();
        for p in self.changes_since(revision)? {
            match boxes.last_mut() {
                Some((low, high))
                    if p.x >= low.x - 1
                        && p.x <= high.x + 1
                        && p.y >= low.y - 1
                        && p.y <= high.y + 1 =>
                {
                    *low = Point::new(low.x.min(p.x), low.y.min(p.y));
                    *high = Point::new(high.x.max(p.x), high.y.max(p.y));
                }
                _ => boxes.push((p, p)),
            }
        }
        Some(boxes)
    }
}

/// Is `p` more than `reach` moves along x or y from `to`?
pub fn beyond(to: Point, p: Point, reach: u32) -> bool {
    p.x.abs_diff(to.x).max(p.y.abs_diff(to.y)) > reach
}
