//! A way round the bodies in the way: for a body that PIBT's one step ahead leaves stalled.

use super::rules::{distance_fifths, footprint};
use crate::grid::{Grid, Point};
use crate::movement::Movement;

/// How far [`detour`] looks, in moves.
pub const DETOUR_REACH: u32 = 16;

/// A way round: the first move towards the place nearest `aim` that a body of `size` at `here`
/// can reach within [`DETOUR_REACH`] moves without covering a cell another body on its way
/// covers now (`covered`, a bit per cell index, set under every body on its way, this one too
/// if it is). `None` when no such place is nearer than `here`. With `stop_early` it stops once
/// it finds the best place there could be: the same answer as searching the whole window,
/// which the tests check it against.
///
/// PIBT looks one step ahead, and pushes: two big bodies that must pass each other in the
/// open push each other back and forth along the line between them, since a body two cells
/// high that steps up or down one still covers the line. Heading for a place beside the other
/// body instead, as if it were a wall for a moment, takes one of them round.
pub fn detour(
    sized: &Grid,
    movement: Movement,
    covered: &[u64],
    here: Point,
    size: u8,
    aim: Point,
    stop_early: bool,
) -> Option<Point> {
    // Bodies never overlap, so a covered cell under this body's own footprint is its own.
    let k = i32::from(size);
    let mine = |c: Point| (0..k).contains(&(c.x - here.x)) && (0..k).contains(&(c.y - here.y));
    let free = |p: Point| {
        footprint(p, size).all(|c| {
            mine(c)
                || sized
                    .index_of(c)
                    .is_some_and(|c| covered[c / 64] & 1 << (c % 64) == 0)
        })
    };
    // Breadth first, remembering each place's first move, in a window of the places within
    // reach (a map would hash a thousand places for each stalled body at every tick).
    const SIDE: i32 = 2 * DETOUR_REACH as i32 + 1;
    let slot = |p: Point| {
        let (dx, dy) = (p.x - here.x + SIDE / 2, p.y - here.y + SIDE / 2);
        ((0..SIDE).contains(&dx) && (0..SIDE).contains(&dy)).then(|| (dy * SIDE + dx) as usize)
    };
    let mut best = (distance_fifths(movement, here, aim), here);
    // The best there could be: the nearest place to `aim` in the window (then the least),
    // reachable or not. Once the search finds it, it is the answer and its first move is
    // known, so the search stops there: a body in a queue mostly finds a place beside the body
    // in its way within a few moves, and need not look at a thousand places.
    let open = |q: Point| slot(q).is_some() && sized.is_passable(q) && free(q);
    // With the aim far off, no bound: the search looks at every place in reach.
    let bound = (stop_early && slot(aim).is_some())
        .then(|| nearest_around(movement, aim, SIDE, best, open));
    let mut first = [None::<Point>; (SIDE * SIDE) as usize];
    first[(SIDE * SIDE / 2) as usize] = Some(here);
    let mut frontier = vec![here];
    'search: for _ in 0..DETOUR_REACH {
        let mut next = Vec::new();
        for &p in &frontier {
            if bound == Some(best) {
                break 'search;
            }
            let from = slot(p).and_then(|s| first[s]);
            for q in movement.moves(sized, p) {
                let Some(s) = slot(q) else { continue };
                if first[s].is_some() || !free(q) {
                    continue;
                }
                first[s] = if p == here { Some(q) } else { from };
                best = best.min((distance_fifths(movement, q, aim), q));
                next.push(q);
            }
        }
        frontier = next;
    }
    (best.1 != here)
        .then(|| slot(best.1).and_then(|s| first[s]))
        .flatten()
}

/// The least of `least` and (distance to `aim`, place) over the places `open` says a body may
/// stand on, within `reach` cells of `aim` either way: ring by ring outwards, until a ring's
/// nearest possible place (5 r away: a ring's places are at least r moves off) is further
/// than the best found.
fn nearest_around(
    movement: Movement,
    aim: Point,
    reach: i32,
    least: (u32, Point),
    open: impl Fn(Point) -> bool,
) -> (u32, Point) {
    let mut least = least;
    for r in 0..=reach {
        if 5 * r as u32 > least.0 {
            break;
        }
        // Ring r: its four sides (corners twice, which does no harm), or the aim itself.
        let sides = if r == 0 { 1 } else { 4 };
        let ring = (-r..=r)
            .flat_map(|d| [(d, -r), (d, r), (-r, d), (r, d)].into_iter().take(sides))
            .map(|(dx, dy)| Point::new(aim.x + dx, aim.y + dy));
        for q in ring.filter(|&q| open(q)) {
            least = least.min((distance_fifths(movement, q, aim), q));
        }
    }
    least
}

/// The ways round of one step's stalled bodies, searched with the step they feed (off the frame,
/// when a game plans its step ahead). Which bodies have stalled, and where the others stand, is
/// noted first ([`Detours::stalled`], [`Detours::in_the_way`]); [`Detours::apply`] then runs a
/// [`detour`] for each stalled body and points its aim at the way round's first move. Owned, so
/// that it can run with the step anywhere, and kept between steps for its table of bits.
#[derive(Clone, Debug, Default)]
pub struct Detours {
    /// Each stalled body's index among the movers, and its size.
    stalled: Vec<(usize, u8)>,
    /// Where the bodies on their way stand, and their sizes. They are in the way; those that
    /// have arrived can be pushed aside.
    in_the_way: Vec<(Point, u8)>,
    /// Which cells those cover, a bit per cell: a grid-sized table kept between ticks (hashing
    /// the footprints of thousands of bodies at every tick cost more than the detours).
    covered: Vec<u64>,
}

impl Detours {
    /// None yet, with the table of bits of the last step's (to be used again).
    pub fn new(last: Detours) -> Self {
        Self {
            covered: last.covered,
            ..Self::default()
        }
    }

    /// The body `i` of `size` has stalled.
    pub fn stalled(&mut self, i: usize, size: u8) {
        self.stalled.push((i, size.max(1)));
    }

    /// Whether any body has stalled: only then are the others' places needed.
    pub fn any(&self) -> bool {
        !self.stalled.is_empty()
    }

    /// A body on its way stands at `cell`.
    pub fn in_the_way(&mut self, cell: Point, size: u8) {
        self.in_the_way.push((cell, size));
    }

    /// Points each stalled body's aim at the first move of its way round, if it has one.
    /// `grids`: the grid for each size, from 1.
    pub fn apply(
        &mut self,
        grids: &[&Grid],
        movement: Movement,
        aims: &mut [(Point, Option<Point>)],
    ) {
        if self.stalled.is_empty() {
            return;
        }
        let covered = &mut self.covered;
        covered.clear();
        covered.resize(grids[0].len().div_ceil(64), 0);
        for &(cell, size) in &self.in_the_way {
            for c in footprint(cell, size).filter_map(|p| grids[0].index_of(p)) {
                covered[c / 64] |= 1 << (c % 64);
            }
        }
        for &(i, size) in &self.stalled {
            let Some((here, Some(aim))) = aims.get(i).copied() else {
                continue;
            };
            let Some(sized) = grids.get(usize::from(size) - 1) else {
                continue;
            };
            if let Some(step) = detour(sized, movement, covered, here, size, aim, true) {
                aims[i].1 = Some(step);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clearance::Clearance;
    use crate::grid::Cell;

    #[test]
    fn a_way_round_that_stops_at_the_best_place_there_could_be_is_the_whole_searchs() {
        // Random maps of walls and bodies on their way, random bodies of every size and aims
        // near and far: stopping early never changes the answer.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut roll = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as i32
        };
        let (mut ways, mut none) = (0, 0);
        for case in 0..600 {
            let (w, h) = (24 + roll(40), 24 + roll(40));
            let mut grid = Grid::new(w as u32, h as u32).expect("a grid");
            let density = roll(30) as u64 + 1;
            let mut covered = vec![0u64; grid.len().div_ceil(64)];
            for y in 0..h {
                for x in 0..w {
                    let p = Point::new(x, y);
                    match roll(100) as u64 {
                        d if d < density => grid.set(p, Cell::Blocked).expect("on the grid"),
                        d if d < 2 * density => {
                            let c = grid.index_of(p).expect("on the grid");
                            covered[c / 64] |= 1 << (c % 64);
                        }
                        _ => {}
                    }
                }
            }
            let size = 1 + roll(3) as u8;
            let sized = Clearance::new().grid_for(&grid, size);
            let here = Point::new(roll(w as u64), roll(h as u64));
            let reach = if case % 4 == 0 { 60 } else { 4 };
            let aim = Point::new(
                here.x + roll(2 * reach + 1) - reach as i32,
                here.y + roll(2 * reach + 1) - reach as i32,
            );
            let movement = if case % 3 == 0 {
                Movement::FourWay
            } else {
                Movement::EightWay(crate::movement::CornerRule::NeverCut)
            };
            let whole = detour(&sized, movement, &covered, here, size, aim, false);
            let early = detour(&sized, movement, &covered, here, size, aim, true);
            assert_eq!(early, whole, "case {case}: size {size} at {here} to {aim}");
            if whole.is_some() {
                ways += 1;
            } else {
                none += 1;
            }
        }
        // Both answers came up often.
        assert!(ways > 100 && none > 50, "{ways} ways round, {none} none");
    }
}
