//! Gathering: the cells round a shared destination, one for each body bound there, and TSWAP's
//! handing round of those cells so that no body has to push through the gathering.

use super::rules::footprint;
use crate::grid::{Grid, Point};
use crate::mapf::fx::{FxMap, FxSet};
use crate::movement::Movement;

/// The squared straight-line distance between two cells.
pub fn d2(a: Point, b: Point) -> i32 {
    (a.x - b.x).pow(2) + (a.y - b.y).pow(2)
}

/// The place among `cells` nearest to `at` where a body of `size` fits (`fits`, its grid)
/// covering no cell `claimed` says is taken.
pub fn nearest_free(
    cells: &[Point],
    fits: &Grid,
    claimed: impl Fn(Point) -> bool,
    at: Point,
    size: u8,
) -> Option<Point> {
    cells
        .iter()
        .copied()
        .filter(|&p| fits.is_passable(p))
        .filter(|&p| footprint(p, size).all(|q| !claimed(q)))
        .min_by_key(|&p| (d2(p, at), p))
}

/// A gathering body as [`hand_round`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct Mate {
    /// The cell it stands on.
    pub at: Point,
    /// The cell it steps onto next on its way to its own, if it is not on its own.
    pub next: Option<Point>,
    /// Its size, in cells across.
    pub size: u8,
}

/// How many bodies TSWAP follows, each stepping onto the next one's cell, looking for a ring.
pub const RING_REACH: usize = 16;

/// TSWAP (Okumura and Défago, ICAPS 2022), Algorithm 1's two rules, for bodies of one size
/// (to whom cells are alike), each handed round once a call: `cells[i]` is the cell mate `i`
/// is bound for, and is changed in place.
///
/// ```text
/// for each body a not on its cell, whose next cell b stands on:
///     if b is on its own cell: swap a's and b's cells       -- a stops there, b walks on
///     else if a, b, ..., z each step onto the next one's cell, and z onto a's:
///         each takes the cell of the one behind it            -- a deadlock, undone
/// ```
///
/// The second rule undoes what PIBT cannot: two bodies in a passage one body wide, each bound
/// past the other, with no room at either end to let one by. Handing the cells round needs no
/// room: each is now bound for a cell on its own side. (The sum of the bodies' distances to
/// their cells falls by the ring's length, so rings cannot turn for ever.)
pub fn hand_round(mates: &[Mate], cells: &mut [Option<Point>]) {
    let on: FxMap<Point, usize> = mates.iter().enumerate().map(|(i, m)| (m.at, i)).collect();
    let mut done = vec![false; mates.len()];
    for (a, &ma) in mates.iter().enumerate() {
        if done[a] {
            continue;
        }
        let mut ring = vec![a];
        let mut next = ma.next;
        while let Some(&b) = next.and_then(|c| on.get(&c)) {
            if b == a {
                // Each takes the cell of the one that steps onto its own.
                let before: Vec<Option<Point>> = ring.iter().map(|&i| cells[i]).collect();
                for (k, &i) in ring.iter().enumerate() {
                    let behind = before[(k + ring.len() - 1) % ring.len()];
                    if behind.is_some() {
                        cells[i] = behind;
                    }
                    done[i] = true;
                }
                break;
            }
            let mb = mates[b];
            if done[b] || mb.size != ma.size || ring.contains(&b) || ring.len() >= RING_REACH {
                break;
            }
            if ring.len() == 1 && cells[b] == Some(mb.at) {
                // b is on its own cell: a stops there, b walks on to a's.
                let Some(deeper) = cells[a] else {
                    break;
                };
                cells[a] = Some(mb.at);
                cells[b] = Some(deeper);
                done[a] = true;
                done[b] = true;
                break;
            }
            ring.push(b);
            next = mb.next;
        }
    }
}

/// The `n` free cells nearest `to` (by straight-line distance) among those reachable from it
/// (fewer if fewer are reachable), and how far the search reached (in moves along x or y).
pub fn gather_cells(grid: &Grid, movement: Movement, to: Point, n: usize) -> (Vec<Point>, u32) {
    if !grid.is_passable(to) {
        return (Vec::new(), 0);
    }
    // Breadth first to twice as many as needed, then the nearest as the crow flies: a round
    // gathering rather than the square rings 8-way steps make.
    let want = 2 * n + 8;
    let mut found = vec![to];
    let mut seen = FxSet::default();
    seen.insert(to);
    let mut k = 0;
    while k < found.len() && found.len() < want {
        for (next, _) in movement.neighbors(grid, found[k]) {
            if seen.insert(next) {
                found.push(next);
            }
        }
        k += 1;
    }
    let reach = found
        .iter()
        .map(|p| p.x.abs_diff(to.x).max(p.y.abs_diff(to.y)))
        .max()
        .unwrap_or(0);
    found.sort_by_key(|&p| (d2(p, to), p));
    found.truncate(n);
    (found, reach)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mates in order: where each stands, its next cell, its size and the cell it was given.
    fn hand_round_on(mates: &[(Point, Option<Point>, u8, Point)]) -> Vec<Point> {
        let seen: Vec<Mate> = mates
            .iter()
            .map(|&(at, next, size, _)| Mate { at, next, size })
            .collect();
        let mut cells: Vec<Option<Point>> = mates.iter().map(|m| Some(m.3)).collect();
        hand_round(&seen, &mut cells);
        cells.into_iter().flatten().collect()
    }

    #[test]
    fn a_ring_of_mates_each_stepping_onto_the_next_hands_its_cells_round() {
        // Round a square: each steps onto the next one's cell, bound for the cell beyond it.
        let (a, b, c, d) = (
            Point::new(0, 0),
            Point::new(1, 0),
            Point::new(1, 1),
            Point::new(0, 1),
        );
        let ring = [
            (a, Some(b), 1, c),
            (b, Some(c), 1, d),
            (c, Some(d), 1, a),
            (d, Some(a), 1, b),
        ];
        // Each takes the cell of the one stepping onto its own: one step nearer than that was.
        assert_eq!(hand_round_on(&ring), [b, c, d, a]);
        // Mates of another size are not alike: the ring is left be.
        let mut mixed = ring;
        mixed[2].2 = 2;
        assert_eq!(hand_round_on(&mixed), [c, d, a, b]);
    }

    #[test]
    fn a_mate_stepping_onto_one_on_its_own_cell_takes_it_and_sends_it_on() {
        let (a, b, deep) = (Point::new(0, 0), Point::new(1, 0), Point::new(2, 0));
        let cells = hand_round_on(&[(a, Some(b), 1, deep), (b, None, 1, b)]);
        assert_eq!(cells, [b, deep]);
    }
}
