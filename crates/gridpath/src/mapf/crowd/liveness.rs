//! Liveness: which bodies are deadlocked, as against waiting in a queue that moves.

use super::rules::distance_fifths;
use super::rules::footprint;
use crate::grid::{Grid, Point};
use crate::mapf::fx::FxMap;
use crate::movement::Movement;

/// The cell a body at `here` steps onto first to head for `aim`, as the crowd steers it: the
/// neighbour it may step onto (on `sized`, the grid for the body's size) nearest `aim`, which is
/// `aim` itself when that is one. A body pushed far off its route waits behind whoever stands
/// there, not behind whoever stands where it is going.
pub fn first_step(sized: &Grid, movement: Movement, here: Point, aim: Point) -> Option<Point> {
    movement
        .neighbors(sized, here)
        .map(|(p, _)| p)
        .min_by_key(|&p| (distance_fifths(movement, p, aim), p))
}

/// A body as [`blocked`] sees it.
pub struct Wait {
    /// Its cell (the top-left of its footprint).
    pub cell: Point,
    /// Its size, in cells across.
    pub size: u8,
    /// The cell it steps onto next to follow its route ([`first_step`]), if it is stalled:
    /// whoever stands there is who it waits behind.
    pub behind: Option<Point>,
    /// No nearer for long (the plugin's `DEADLOCK_SECONDS`).
    pub stalled: bool,
    /// On the cell it goes to: arrived, or gliding back onto it after a push. Passers-by
    /// jostle such a body to and fro, and it glides at every tick; but it is not on its way
    /// anywhere, and a body waiting behind it is not in a queue.
    pub home: bool,
}

/// Which bodies are stalled and not queued, by index. A body in a queue gets no nearer for as
/// long as the queue ahead takes, and that is waiting, not deadlock: a stalled body is *queued*
/// when the body it waits behind is on the move, or queued itself. It is blocked when the chain
/// of bodies it waits behind ends at a body on its own cell (one that should have been pushed
/// aside, even if pushes jostle it to and fro), at a body with no cell to step onto, or comes
/// back round on itself. A chain that ends at a free cell is a queue whose head steps on at its
/// next tick.
pub fn blocked(waits: &[Wait]) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum Seen {
        No,
        Visiting,
        Queued,
        Stuck,
    }
    if !waits.iter().any(|w| w.stalled) {
        return vec![false; waits.len()];
    }
    // Who covers each cell.
    let at: FxMap<Point, usize> = waits
        .iter()
        .enumerate()
        .flat_map(|(i, w)| footprint(w.cell, w.size).map(move |c| (c, i)))
        .collect();
    let mut seen = vec![Seen::No; waits.len()];
    let mut chain = Vec::new();
    for start in 0..waits.len() {
        if !waits[start].stalled || seen[start] != Seen::No {
            continue;
        }
        // Walk the chain of stalled bodies ahead, then label it all by how it ends.
        let mut i = start;
        let end = loop {
            match seen[i] {
                Seen::Queued => break Seen::Queued,
                Seen::Stuck | Seen::Visiting => break Seen::Stuck,
                Seen::No => {}
            }
            seen[i] = Seen::Visiting;
            chain.push(i);
            let w = &waits[i];
            let Some(next) = w.behind else {
                break Seen::Stuck;
            };
            // Whoever covers a cell it would cover at its next step, other than itself.
            let ahead =
                footprint(next, w.size).find_map(|c| at.get(&c).copied().filter(|&k| k != i));
            match ahead {
                Some(k) if waits[k].stalled => i = k,
                Some(k) if !waits[k].home => break Seen::Queued,
                Some(_) => break Seen::Stuck,
                // The head of a queue whose front has just stepped off: it steps on at its
                // next tick.
                None => break Seen::Queued,
            }
        };
        for i in chain.drain(..) {
            seen[i] = end;
        }
    }
    seen.into_iter().map(|s| s == Seen::Stuck).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deadlocked(waits: &[Wait]) -> usize {
        blocked(waits).into_iter().filter(|&b| b).count()
    }

    fn wait(x: i32, behind: Option<i32>, stalled: bool, home: bool) -> Wait {
        Wait {
            cell: Point::new(x, 0),
            size: 1,
            behind: behind.map(|b| Point::new(b, 0)),
            stalled,
            home,
        }
    }

    #[test]
    fn a_queue_behind_a_body_on_the_move_is_not_deadlocked() {
        // 0 ← 1 ← 2 ← 3: body 0 moves on, 1 to 3 have waited long behind it.
        let waits = [
            wait(0, Some(-1), false, false),
            wait(1, Some(0), true, false),
            wait(2, Some(1), true, false),
            wait(3, Some(2), true, false),
        ];
        assert_eq!(deadlocked(&waits), 0);
    }

    #[test]
    fn the_head_of_a_queue_whose_front_just_left_is_not_deadlocked() {
        // 0 has just stepped off cell 1 and glided on; 1 to 3 have waited long in the queue, and
        // 2, at its head now, steps onto the free cell at its next tick.
        let waits = [
            wait(0, Some(-1), false, false),
            wait(2, Some(1), true, false),
            wait(3, Some(2), true, false),
            wait(4, Some(3), true, false),
        ];
        assert_eq!(deadlocked(&waits), 0);
    }

    #[test]
    fn a_chain_that_ends_at_no_one_moving_or_comes_round_is_deadlocked() {
        // 1 and 2 wait behind an arrived body that never made room; 4 and 5 wait for each other;
        // 7 has no cell to step onto at all.
        let waits = [
            wait(0, None, false, true),
            wait(1, Some(0), true, false),
            wait(2, Some(1), true, false),
            wait(4, Some(5), true, false),
            wait(5, Some(4), true, false),
            wait(7, None, true, false),
        ];
        assert_eq!(deadlocked(&waits), 5);
    }

    #[test]
    fn a_body_pushed_off_its_route_waits_behind_the_cell_it_steps_onto_first() {
        // A corridor along y = 1 with a bay above x = 3; the body's route ends at (6, 1).
        let grid = Grid::from_ascii(&["###.###", "......."]).expect("a grid");
        let movement = Movement::EightWay(crate::movement::CornerRule::NeverCut);
        let aim = Point::new(6, 1);
        // Next to its aim: the aim itself.
        assert_eq!(
            first_step(&grid, movement, Point::new(5, 1), aim),
            Some(aim)
        );
        // Pushed back down the corridor, or into the bay: the next cell its way, not the far
        // cell it heads for (whoever stands there is not who it waits behind).
        let back = first_step(&grid, movement, Point::new(1, 1), aim);
        assert_eq!(back, Some(Point::new(2, 1)));
        let bay = first_step(&grid, movement, Point::new(3, 0), aim);
        assert_eq!(bay, Some(Point::new(3, 1)));
    }
}
