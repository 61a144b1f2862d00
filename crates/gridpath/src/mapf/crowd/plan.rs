//! `PIBT(i)` (the module docs' pseudo-code): a body takes the best cell it can, pushing those
//! on it, and what a push that failed leaves behind is given back or undone.

use super::mover::Room;
use super::rules::footprint;
use super::rules::steps;
use super::state::{CrowdStep, NONE, UNPLANNED};
use crate::grid::{Grid, Point};
use crate::movement::Movement;

/// The most bodies one push moves at once.
const MOST_PUSHED: usize = 9;

impl CrowdStep {
    /// `PIBT(i)` of the module docs. Returns whether `i` could go somewhere other than staying
    /// put against its will.
    pub(super) fn plan(
        &mut self,
        grids: &[&Grid],
        movement: Movement,
        cost_to_go: &mut impl FnMut(usize, Point) -> u32,
        i: usize,
    ) -> bool {
        let grid = grids[0];
        let (here, size) = (self.from[i], self.size[i]);
        let at = grid.point_of(here);
        let (mut keyed, n) = self.candidates(grids, movement, cost_to_go, i);
        // Two one-cell bodies that must pass each other where there is no room to (see
        // `swap_partner`): this one takes its worst cell first, backing out, and draws the
        // other after it.
        let partner = (size == 1 && self.escape[i].is_none())
            .then(|| self.swap_partner(grid, movement, i, keyed[0].1))
            .flatten();
        if partner.is_some() {
            keyed[..n].reverse();
        }
        let mut first_push = true;
        for (rank, &(_, v)) in keyed[..n].iter().enumerate() {
            let target = grid.point_of(v);
            let cells = || footprint(target, size).filter_map(|q| grid.index_of(q));
            if cells().any(|c| self.taking(c) != NONE)
                || self.swaps(grid, i, v)
                || self.crosses(grid, i, v)
            {
                continue;
            }
            let Some((pushed, count)) = self.to_push(i, cells()) else {
                continue; // more bodies on it than one push may move
            };
            let several = count > 1;
            first_push &= count > 0;
            if several {
                if self.budget == 0 {
                    continue;
                }
                self.budget -= 1;
            }
            let checkpoint = self.log.len();
            self.set_to(i, v);
            for c in cells() {
                self.take(c, i as u32);
            }
            for &k in &pushed[..count] {
                if self.to[k as usize] == UNPLANNED {
                    self.plan(grids, movement, cost_to_go, k as usize);
                }
            }
            let room = Room {
                at: target,
                size,
                from: at,
                priority: self.priority[i],
            };
            if cells().all(|c| self.taking(c) == i as u32) {
                self.ask_the_shoved(grid, i, room, &pushed[..count]);
                if let Some(j) = partner.filter(|_| rank == 0) {
                    self.pull(grid, j, here);
                }
                return true;
            }
            if first_push {
                self.ask_for_room(grid, i, room);
                first_push = false;
            }
            self.give_up_cell(i, several, checkpoint, cells());
        }
        self.set_to(i, here);
        for c in footprint(at, size).filter_map(|q| grid.index_of(q)) {
            self.take(c, i as u32);
        }
        false
    }

    /// The unplanned bodies standing on `cells`, other than `i`, each once: those `i` pushes
    /// by taking them. `None` when there are more than [`MOST_PUSHED`]: a body of 3 × 3 cells
    /// meets at most 9, and a bigger one does not take a place that needs more pushes at once.
    fn to_push(
        &self,
        i: usize,
        cells: impl Iterator<Item = usize>,
    ) -> Option<([u32; MOST_PUSHED], usize)> {
        let mut pushed = [NONE; MOST_PUSHED];
        let mut count = 0;
        for c in cells {
            let k = self.standing(c);
            let unplanned = k != NONE && k as usize != i && self.to[k as usize] == UNPLANNED;
            if unplanned && !pushed[..count].contains(&k) {
                *pushed.get_mut(count)? = k;
                count += 1;
            }
        }
        Some((pushed, count))
    }

    /// A push for `cells` failed: what it leaves behind is given back (one pushed: it stayed,
    /// taking back its cell, and so did all it pushed) or undone back to `checkpoint` (several:
    /// one made room and another did not, and one that made room may have stepped onto a cell
    /// `i` was to leave).
    fn give_up_cell(
        &mut self,
        i: usize,
        several: bool,
        checkpoint: usize,
        cells: impl Iterator<Item = usize>,
    ) {
        if several {
            self.rollback(checkpoint);
            return;
        }
        for c in cells {
            if self.taking(c) == i as u32 {
                self.take(c, NONE);
            }
        }
        self.set_to(i, UNPLANNED);
    }

    /// `C` of the pseudo-code: `i`'s cell and its legal moves, each with its key, best first,
    /// and how many. Nearest first; between equals a footprint on no one else (no one to
    /// push); then at random. One key each: a cost, a bit and seven random bits.
    fn candidates(
        &mut self,
        grids: &[&Grid],
        movement: Movement,
        cost_to_go: &mut impl FnMut(usize, Point) -> u32,
        i: usize,
    ) -> ([(u64, usize); 9], usize) {
        let grid = grids[0];
        let (here, size) = (self.from[i], self.size[i]);
        let at = grid.point_of(here);
        let dice = self.rng.next();
        let mut keyed = [(0u64, here); 9];
        let mut n = 0;
        let moves = movement.moves(grids[usize::from(size) - 1], at);
        for p in std::iter::once(at).chain(moves) {
            let Some(c) = grid.index_of(p) else { continue };
            let taken = footprint(p, size).any(|q| {
                let k = grid.index_of(q).map_or(NONE, |q| self.standing(q));
                k != NONE && k as usize != i
            });
            // Out of the way first, if asked; then along its own way.
            let out = self.escape[i].map_or(0, |e| steps(movement, p, e).min(31));
            let key = (u64::from(out) << 58)
                | (u64::from(cost_to_go(i, p)).min((1 << 45) - 1) << 13)
                | (u64::from(taken) << 12)
                | ((dice >> (7 * n)) & 0x7f);
            keyed[n] = (key, c);
            n += 1;
        }
        keyed[..n].sort_unstable_by_key(|&(key, _)| key);
        (keyed, n)
    }

    /// A big body shoved straight on ahead of a body going its way will be in the way again at
    /// the next step (and ahead of it the next, a convoy): `i`, having taken `room.at`, asks
    /// those of the `pushed` it shoved on to step aside instead.
    fn ask_the_shoved(&mut self, grid: &Grid, i: usize, room: Room, pushed: &[u32]) {
        let (dx, dy) = (room.at.x - room.from.x, room.at.y - room.from.y);
        for &k in pushed {
            let k = k as usize;
            let (k_from, k_to) = (grid.point_of(self.from[k]), self.to[k]);
            let shoved = k_to != UNPLANNED && {
                let k_to = grid.point_of(k_to);
                (k_to.x - k_from.x) * dx + (k_to.y - k_from.y) * dy > 0
            };
            if shoved && (self.size[i] > 1 || self.size[k] > 1) {
                self.ask(k, room);
            }
        }
    }

    /// `i`'s best cell is held by bodies that could not leave it in one move: it asks the big
    /// ones, or all when it is big itself, to head out of it at the next step. (One cell
    /// pushing one cell asks nothing: that push failed only if the other was boxed in, and
    /// PIBT's priorities see to that.)
    fn ask_for_room(&mut self, grid: &Grid, i: usize, room: Room) {
        let size = self.size[i];
        for c in footprint(room.at, size).filter_map(|q| grid.index_of(q)) {
            let k = self.taking(c);
            if k != NONE && k as usize != i && (size > 1 || self.size[k as usize] > 1) {
                self.ask(k as usize, room);
            }
        }
    }

    /// The swap's other half: `j`, if it has not planned, steps onto the cell `into` that the
    /// body backing out for it leaves, when no one takes it and the step breaks no rule.
    pub(super) fn pull(&mut self, grid: &Grid, j: usize, into: usize) {
        if self.to[j] == UNPLANNED
            && self.taking(into) == NONE
            && !self.swaps(grid, j, into)
            && !self.crosses(grid, j, into)
        {
            self.set_to(j, into);
            self.take(into, j as u32);
        }
    }

    /// Asks mover `k` to make `room` at the next step, unless a body of higher priority has.
    pub(super) fn ask(&mut self, k: usize, room: Room) {
        if self.asked[k].is_none_or(|r| r.priority < room.priority) {
            self.asked[k] = Some(room);
        }
    }
}
