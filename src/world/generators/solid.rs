//! The grid every generator starts from: all walls, to carve rooms and passages out of.

use gridpath::Grid;

/// A grid of the given size, all walls. (The size is always valid here: clamped to 8..=512.)
pub(super) fn solid(width: u32, height: u32) -> Grid {
    let mut grid =
        Grid::new(width, height).unwrap_or_else(|_| unreachable!("generator sizes are valid"));
    for i in 0..grid.len() {
        let _ = grid.set(grid.point_of(i), gridpath::Cell::Blocked);
    }
    grid
}
