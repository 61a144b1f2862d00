//! Staggered isometric maps: bevy_ecs_tilemap's `IsoCoordSystem::Staggered`.
//!
//! Every row of a staggered map is drawn half a tile to the right of the row below it, so each
//! diamond-shaped tile touches two tiles of the row above and two of the row below, and none
//! beside it in its own row. It is the diamond isometric map (a square grid turned 45°) with its
//! cells renamed: tile `(x, y)` is the diamond map's cell `(x, x + y)`, a *shear*, as
//! bevy_ecs_tilemap converts them (`StaggeredPos` to `DiamondPos`). So its moves are the
//! square grid's, sheared:
//!
//! ```text
//! square step (dx, dy)   staggered step (dx, dy − dx)
//! sides       N  (0,−1) E (1, 0) S (0, 1) W (−1, 0)   →   (0,−1) (1,−1) (0, 1) (−1, 1)
//! corners    NE  (1,−1) SE (1, 1) SW (−1, 1) NW (−1,−1) →   (1,−2) (1, 0) (−1, 2) (−1, 0)
//! ```
//!
//! and its distances are the square grid's between the sheared cells (Manhattan for the four
//! tiles that share a side, octile with the corners). Move by
//! [`Movement::StaggeredFourWay`](crate::movement::Movement::StaggeredFourWay) or
//! [`Movement::StaggeredEightWay`](crate::movement::Movement::StaggeredEightWay): the searches of a
//! square grid run on it with the same heuristics (measured between sheared cells), but jump
//! point search, JPS+ and Theta\*, whose jumps and lines of sight run along rows and columns of
//! squares, refuse.
//!
//! ```
//! use gridpath::{Algorithm, CornerRule, Grid, Movement, Point, SearchConfig, find_path, staggered};
//!
//! // Tiles (1, 0) and (0, 1) look side by side on screen but touch at a corner only.
//! let grid = Grid::from_ascii(&["...", "...", "..."]).unwrap();
//! let config = SearchConfig::astar(Movement::StaggeredFourWay);
//! let found = find_path(&grid, Point::new(1, 0), Point::new(0, 1), &config).unwrap();
//! assert_eq!(found.path.unwrap().cost, 1.0); // (1, 0) → (0, 1) is the step (−1, 1): a side
//! assert_eq!(staggered::to_square(Point::new(1, 0)), Point::new(1, 1));
//! // Jump point search's jumps run along rows of squares: it refuses, saying why.
//! let jps = SearchConfig::astar(Movement::StaggeredEightWay(CornerRule::NeverCut))
//!     .with_algorithm(Algorithm::JumpPoint);
//! let refused = find_path(&grid, Point::new(1, 0), Point::new(0, 1), &jps).unwrap_err();
//! assert!(refused.to_string().contains("staggered"), "{refused}");
//! ```

use crate::grid::{Cell, Grid, GridError, Point};

/// The staggered map's steps in [`crate::movement::STEPS`] order: the four tiles sharing a side, then the
/// four sharing a corner.
pub const STEPS: [(i32, i32); 8] = [
    (0, -1), // north
    (1, -1), // east
    (0, 1),  // south
    (-1, 1), // west
    (1, -2), // north-east
    (1, 0),  // south-east
    (-1, 2), // south-west
    (-1, 0), // north-west
];

/// The square (diamond map) cell a staggered tile is.
#[inline]
pub fn to_square(p: Point) -> Point {
    Point::new(p.x, p.y + p.x)
}

/// The staggered tile a square (diamond map) cell is: the inverse of [`to_square`].
#[inline]
pub fn from_square(p: Point) -> Point {
    Point::new(p.x, p.y - p.x)
}

/// The square grid a staggered map is a shear of: `width` × (`width` + `height` − 1) cells,
/// tile `(x, y)` at [`to_square`]`(x, y)` with its cost, every other cell a wall.
///
/// The multi-agent solvers ([`crate::mapf`]) plan the field's 4-way moves by the cells'
/// indices, which on a staggered map are not its moves (a step along a row crosses a corner).
/// Plan on this grid instead, the starts and goals through [`to_square`], and bring the plan
/// back through [`from_square`]: each of its steps is then one between tiles that share a side.
pub fn square_grid(tiles: &Grid) -> Result<Grid, GridError> {
    let (w, h) = (tiles.width(), tiles.height());
    let mut square = Grid::new(w, w + h - 1)?;
    for y in 0..square.height() as i32 {
        for x in 0..w as i32 {
            let cell = tiles.cell(from_square(Point::new(x, y)));
            square.set(Point::new(x, y), cell.unwrap_or(Cell::Blocked))?;
        }
    }
    Ok(square)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_the_square_steps_sheared() {
        for (&(sx, sy), &(dx, dy)) in crate::movement::STEPS.iter().zip(&STEPS) {
            let p = Point::new(3, -2);
            let q = Point::new(p.x + dx, p.y + dy);
            let (a, b) = (to_square(p), to_square(q));
            assert_eq!((b.x - a.x, b.y - a.y), (sx, sy));
            assert_eq!(from_square(a), p);
        }
    }

    #[test]
    fn many_agents_planned_on_the_square_grid_step_between_tiles_that_share_a_side() {
        use crate::mapf::{Instance, LacamOutcome, solve_with_lacam};
        use crate::movement::Movement;
        let tiles = Grid::from_ascii(&["......", "..#...", "......", "...#..", "......"]).unwrap();
        let square = square_grid(&tiles).unwrap();
        let (starts, goals): (Vec<Point>, Vec<Point>) = [((0, 0), (5, 4)), ((5, 0), (0, 4))]
            .into_iter()
            .chain([((0, 2), (5, 2)), ((5, 2), (0, 2)), ((2, 4), (3, 0))])
            .map(|((a, b), (c, d))| (to_square(Point::new(a, b)), to_square(Point::new(c, d))))
            .unzip();
        let instance = Instance::new(square, starts, goals).unwrap();
        let (LacamOutcome::Solved(plan), _) =
            solve_with_lacam(&instance, std::time::Duration::from_secs(5), 1)
        else {
            panic!("a plan exists");
        };
        for pair in plan.windows(2) {
            for (&a, &b) in pair[0].iter().zip(&pair[1]) {
                let (a, b) = (from_square(a), from_square(b));
                assert!(tiles.is_passable(b), "onto a wall at {b}");
                let moved = a != b;
                let side = Movement::StaggeredFourWay.step_cost(&tiles, a, b).is_some();
                assert!(!moved || side, "{a} → {b} is no side step");
            }
        }
    }
}
