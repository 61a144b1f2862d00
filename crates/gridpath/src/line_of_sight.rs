//! Line of sight between cells, and paths made of straight segments ("any-angle" paths).
//!
//! A grid path turns only in multiples of 45°, so even an optimal one zig-zags where a person
//! would walk straight. Two remedies, both built on one question, *can I walk straight from this
//! cell's centre to that one's?*:
//! - [`smoothen_path`] pulls a finished grid path tight, dropping every cell that a straight
//!   segment can skip (what PathFinding.js calls `smoothenPath`);
//! - Theta* ([`crate::Algorithm::ThetaStar`]) asks the question during the search
//!   ([`crate::algorithms::theta_star`]).
//!
//! **The rule.** A segment from centre to centre has line of sight when every cell it touches
//! is passable, *touching a corner included*: a segment through the point where four cells meet
//! needs all four free, so it can never squeeze between two walls that meet diagonally. That is
//! the "never cut corners" rule of the grid moves, carried over to segments: every legal step of
//! [`crate::movement::Movement::EightWay`]`(`[`crate::movement::CornerRule::NeverCut`]`)` has line of sight, so a
//! straightened path is never longer than the grid path it came from.
//!
//! Lengths are Euclidean, in cells. Any-angle paths only make sense where every cell costs the
//! same (a segment through mud and grass has no single price per cell), so the searches refuse
//! them on terrain costs, as they refuse jump point search.

use crate::grid::{Grid, Point};

/// Can one walk in a straight line from the centre of `from` to the centre of `to`? Both ends and
/// every cell the segment touches, corners included, must be passable (see the
/// [module docs](self)). Symmetric: the answer is the same both ways.
///
/// ```
/// use gridpath::{Grid, Point, line_of_sight};
///
/// let grid = Grid::from_ascii(&[
///     "....",
///     ".#..",
///     "..#.",
/// ]).unwrap();
/// assert!(line_of_sight(&grid, Point::new(0, 0), Point::new(3, 0)));
/// // Through the point where the two walls meet: no squeezing between them.
/// assert!(!line_of_sight(&grid, Point::new(2, 0), Point::new(0, 2)));
/// ```
pub fn line_of_sight(grid: &Grid, from: Point, to: Point) -> bool {
    if !grid.is_passable(from) || !grid.is_passable(to) {
        return false;
    }
    // Walk the cells the segment crosses, in order. Moving along the segment by a fraction t of
    // its length, it meets the next vertical grid line at t = (ix + ½) / nx and the next
    // horizontal one at t = (iy + ½) / ny, where ix and iy count the lines crossed so far.
    // Comparing the two fractions cross-multiplied keeps the arithmetic exact in integers.
    let (nx, ny) = (
        i64::from((to.x - from.x).unsigned_abs()),
        i64::from((to.y - from.y).unsigned_abs()),
    );
    let (sx, sy) = ((to.x - from.x).signum(), (to.y - from.y).signum());
    let (mut x, mut y) = (from.x, from.y);
    let (mut ix, mut iy) = (0, 0);
    while ix < nx || iy < ny {
        let next_vertical = (1 + 2 * ix) * ny;
        let next_horizontal = (1 + 2 * iy) * nx;
        if next_vertical == next_horizontal {
            // Through a grid corner: the segment touches the two cells beside it too.
            if !grid.is_free(x + sx, y) || !grid.is_free(x, y + sy) {
                return false;
            }
            (x, y, ix, iy) = (x + sx, y + sy, ix + 1, iy + 1);
        } else if next_vertical < next_horizontal {
            (x, ix) = (x + sx, ix + 1);
        } else {
            (y, iy) = (y + sy, iy + 1);
        }
        if !grid.is_free(x, y) {
            return false;
        }
    }
    true
}

/// The straight-line distance between two cell centres, in cells.
pub fn euclidean(a: Point, b: Point) -> f64 {
    f64::from(a.x - b.x).hypot(f64::from(a.y - b.y))
}

/// The length of a polyline through cell centres, in cells: the sum of its segments.
pub fn polyline_length(corners: &[Point]) -> f64 {
    corners.windows(2).map(|w| euclidean(w[0], w[1])).sum()
}

/// Pulls a grid path tight: keeps its first and last cells and only the cells where it must turn,
/// so that each kept cell sees the next one (see [`line_of_sight`]). Greedy, as PathFinding.js's
/// `smoothenPath`: from the last kept cell, walk along the path while the cell after still has
/// line of sight, and keep the last one that does.
///
/// If every step of `cells` has line of sight (a path of 8-way moves that never cut corners, or
/// of 4-way moves), so does every segment of the result, and the result is never longer. Not
/// optimal: the best any-angle path may leave the grid path's corridor altogether (Theta* comes
/// closer). An empty or one-cell path comes back as it is.
///
/// ```
/// use gridpath::{Grid, Point, line_of_sight::{polyline_length, smoothen_path}};
///
/// let grid = Grid::from_ascii(&["......", "......", "......"]).unwrap();
/// // Two steps right, one diagonal, two right: a grid path of cost 4 + √2.
/// let cells = [(0, 0), (1, 0), (2, 0), (3, 1), (4, 1), (5, 1)].map(|(x, y)| Point::new(x, y));
/// let smooth = smoothen_path(&grid, &cells);
/// assert_eq!(smooth, vec![Point::new(0, 0), Point::new(5, 1)]);
/// assert!(polyline_length(&smooth) < 4.0 + 2f64.sqrt());
/// ```
pub fn smoothen_path(grid: &Grid, cells: &[Point]) -> Vec<Point> {
    let Some((&first, rest)) = cells.split_first() else {
        return Vec::new();
    };
    let mut corners = vec![first];
    let mut previous = first;
    for &cell in rest {
        let anchor = corners[corners.len() - 1];
        if previous != anchor && !line_of_sight(grid, anchor, cell) {
            corners.push(previous);
        }
        previous = cell;
    }
    if previous != corners[corners.len() - 1] {
        corners.push(previous);
    }
    corners
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_ascii(rows).unwrap()
    }

    #[test]
    fn a_wall_on_the_segment_blocks_it() {
        let g = grid(&["......", "..#...", "......"]);
        assert!(!line_of_sight(&g, Point::new(0, 1), Point::new(5, 1)));
        assert!(line_of_sight(&g, Point::new(0, 0), Point::new(5, 0)));
        // A shallow slope from (0,0) to (5,2) crosses row 1 at x 1.5..3.5: through the wall.
        assert!(!line_of_sight(&g, Point::new(0, 0), Point::new(5, 2)));
    }

    #[test]
    fn touching_a_wall_corner_blocks_it() {
        // The diagonal from (0,0) to (2,2) passes the corner where (1,0) and (0,1) meet (1,1)...
        let g = grid(&["...", ".#.", "..."]);
        assert!(!line_of_sight(&g, Point::new(0, 0), Point::new(2, 2)));
        // ...and (0,2) to (2,0) passes through the wall itself.
        assert!(!line_of_sight(&g, Point::new(0, 2), Point::new(2, 0)));
        // A single wall beside a diagonal step: the step cuts its corner.
        let g = grid(&["#.", ".."]);
        assert!(!line_of_sight(&g, Point::new(1, 0), Point::new(0, 1)));
        assert!(line_of_sight(&g, Point::new(1, 0), Point::new(1, 1)));
    }

    #[test]
    fn it_is_symmetric_and_ends_must_be_free() {
        let g = grid(&["....#", ".#...", "....."]);
        for a in 0..15 {
            for b in 0..15 {
                let (p, q) = (g.point_of(a), g.point_of(b));
                assert_eq!(line_of_sight(&g, p, q), line_of_sight(&g, q, p), "{p} {q}");
            }
        }
        assert!(!line_of_sight(&g, Point::new(4, 0), Point::new(4, 0)));
        assert!(line_of_sight(&g, Point::new(0, 0), Point::new(0, 0)));
    }

    #[test]
    fn smoothing_keeps_the_corner_around_a_wall() {
        let g = grid(&["....", "###.", "...."]);
        let cells = [
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (3, 1),
            (3, 2),
            (2, 2),
            (1, 2),
            (0, 2),
        ];
        let cells = cells.map(|(x, y)| Point::new(x, y));
        let smooth = smoothen_path(&g, &cells);
        let corners = [(0, 0), (3, 0), (3, 2), (0, 2)].map(|(x, y)| Point::new(x, y));
        assert_eq!(smooth, corners);
        assert_eq!(polyline_length(&smooth), 8.0);
        assert!(smoothen_path(&g, &[]).is_empty());
        assert_eq!(smoothen_path(&g, &cells[..1]), vec![Point::new(0, 0)]);
    }
}
