//! A step planned ahead of its tick, checked when it is taken: the moves that no longer fit
//! what the game did meanwhile hold, and so does every body that would step onto a held one.

use super::rules::covers;
use crate::grid::{Grid, Point};

/// Holds every move that no longer fits the world: into a wall of its body's size, or onto a
/// cell another body covers once the others have moved or held. `cells` and `sizes` are the
/// bodies' as they stand now, `next` where each would go; `sized` the grid for each size from 1
/// up. `counts` is scratch space.
/// Holding never makes two bodies swap or cross, so what is left is a valid step. `unchanged`:
/// every body stands where the plan found it, and no other came: then only the walls can
/// break PIBT's own valid step. Returns how many moves were held.
pub fn hold_what_no_longer_fits(
    sized: &[&Grid],
    cells: &[Point],
    sizes: &[u8],
    next: &mut [Point],
    unchanged: bool,
    counts: &mut Vec<u16>,
) -> usize {
    let for_size = |size: u8| sized[usize::from(size.max(1)) - 1];
    let grid = for_size(1);
    let mut held = 0;
    for i in 0..next.len() {
        if next[i] != cells[i] && !for_size(sizes[i]).is_passable(next[i]) {
            next[i] = cells[i];
            held += 1;
        }
    }
    if unchanged && held == 0 {
        return 0;
    }
    // A held body may block one that was to step onto its cell, and that one the next in
    // line: again until no move lands on a covered cell.
    loop {
        counts.clear();
        counts.resize(grid.len(), 0);
        for i in 0..next.len() {
            for c in covers(grid, next[i], sizes[i]) {
                counts[c] = counts[c].saturating_add(1);
            }
        }
        let mut more = 0;
        for i in 0..next.len() {
            if next[i] != cells[i] && covers(grid, next[i], sizes[i]).any(|c| counts[c] > 1) {
                next[i] = cells[i];
                more += 1;
            }
        }
        if more == 0 {
            return held;
        }
        held += more;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn a_move_into_a_new_wall_holds_and_so_does_the_body_behind_it() {
        // A queue of three going east along a row; a wall has dropped where the first steps.
        let mut grid = Grid::new(6, 1).expect("a grid");
        grid.set_blocked(p(3, 0), true).expect("on the map");
        let sized = [&grid];
        let cells = [p(2, 0), p(1, 0), p(0, 0)];
        let mut next = [p(3, 0), p(2, 0), p(1, 0)];
        let held = hold_what_no_longer_fits(&sized, &cells, &[1; 3], &mut next, true, &mut vec![]);
        assert_eq!((held, next), (3, cells));
    }

    #[test]
    fn a_move_onto_a_body_that_came_since_holds_and_the_others_go() {
        // Two bodies the plan knew, each moving on; a third came since onto where one steps.
        let grid = Grid::new(6, 3).expect("a grid");
        let sized = [&grid];
        let cells = [p(0, 0), p(0, 2), p(1, 2)];
        let mut next = [p(1, 0), p(1, 2), p(1, 2)];
        let held = hold_what_no_longer_fits(&sized, &cells, &[1; 3], &mut next, false, &mut vec![]);
        assert_eq!((held, next), (1, [p(1, 0), p(0, 2), p(1, 2)]));
    }

    #[test]
    fn a_big_body_holds_when_its_footprint_would_cover_another() {
        let grid = Grid::new(5, 5).expect("a grid");
        let sized = [&grid, &grid];
        // A 2 × 2 body at (0, 0) steps east onto (1..3, 0..2); a body of one cell holds at (2, 1).
        let cells = [p(0, 0), p(2, 1)];
        let mut next = [p(1, 0), p(2, 1)];
        let held = hold_what_no_longer_fits(&sized, &cells, &[2, 1], &mut next, false, &mut vec![]);
        assert_eq!((held, next), (1, cells));
    }

    #[test]
    fn a_plan_that_still_fits_is_taken_as_it_is() {
        let grid = Grid::new(4, 1).expect("a grid");
        let sized = [&grid];
        let cells = [p(1, 0), p(0, 0)];
        let mut next = [p(2, 0), p(1, 0)];
        let held = hold_what_no_longer_fits(&sized, &cells, &[1; 2], &mut next, false, &mut vec![]);
        assert_eq!((held, next), (0, [p(2, 0), p(1, 0)]));
    }
}
