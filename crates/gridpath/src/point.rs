//! A cell's coordinates: what every other module names cells by, so it sits below them all.

use std::fmt;

/// A cell coordinate: `x` is the column and `y` the row, with (0, 0) the top-left corner, as in
/// the Moving AI map format.
///
/// The fields are signed so that a point left of or above the map is still a point: asking about
/// it answers "outside the grid" instead of wrapping around.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// The column, from 0 at the left.
    pub x: i32,
    /// The row, from 0 at the top.
    pub y: i32,
}

impl Point {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl From<(i32, i32)> for Point {
    fn from((x, y): (i32, i32)) -> Self {
        Self { x, y }
    }
}
