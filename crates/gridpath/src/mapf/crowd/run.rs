//! One crowd step, from the top: the movers read in and ranked, each planned by PIBT in order,
//! their priorities aged (see the module docs).

use super::mover::{GIVE_WAY_AFTER, HOLD_BACK_LIMIT, Mover, PUSHED_BACK};
use super::rules::footprint;
use super::rules::way_out;
use super::state::{CrowdStep, Layer, NONE, UNPLANNED};
use crate::grid::{Grid, Point};
use crate::mapf::random::SplitMix64;
use crate::movement::Movement;

impl CrowdStep {
    /// A crowd whose random tie-breaks come from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SplitMix64(seed),
            from: Vec::new(),
            to: Vec::new(),
            size: Vec::new(),
            priority: Vec::new(),
            arrived: Vec::new(),
            goal: Vec::new(),
            cells: Vec::new(),
            marked: Vec::new(),
            order: Vec::new(),
            next: Vec::new(),
            largest: 1,
            escape: Vec::new(),
            asked: Vec::new(),
            log: Vec::new(),
            budget: 0,
        }
    }

    /// One step of every free mover: returns each mover's next cell (its own, or a legal move
    /// of `movement` on the grid for its size), and updates their priorities. `grids[k - 1]` is
    /// the grid a mover of size k moves on ([`Clearance::grid_for`](crate::clearance::Clearance::grid_for);
    /// `grids[0]` is the grid itself), all of one width and height. `cost_to_go(i, cell)` is how
    /// far mover `i` would be from where it wants to be, standing on `cell`; lower is better.
    ///
    /// A mover off its grid, where it does not fit, on cells an earlier mover already covers, or
    /// of a size with no grid holds where it is and takes no part: move it somewhere free first.
    pub fn step(
        &mut self,
        grids: &[&Grid],
        movement: Movement,
        movers: &mut [Mover],
        mut cost_to_go: impl FnMut(usize, Point) -> u32,
    ) -> &[Point] {
        let Some(&grid) = grids.first() else {
            self.next = movers.iter().map(|m| m.at).collect();
            return &self.next;
        };
        self.load(grids, movement, movers);
        let mut order = std::mem::take(&mut self.order);
        // Those asked to make room first, then by rank, highest first; ties in the order given.
        // Each key is read once (a comparison that looked both up, at random places in two
        // tables, made this sort a tenth of the step).
        let (ranks, asked) = (&self.priority, &self.escape);
        order.sort_by_cached_key(|&i| (asked[i].is_none(), !ordered_bits(ranks[i])));
        for &i in &order {
            if self.to[i] == UNPLANNED {
                self.log.clear();
                self.plan(grids, movement, &mut cost_to_go, i);
            }
        }
        self.order = order;
        self.age(grid, movers, &mut cost_to_go);
        self.next.clear();
        for (mover, asked) in movers.iter_mut().zip(&self.asked) {
            mover.making_room = *asked;
        }
        for (i, mover) in movers.iter().enumerate() {
            let (from, to, size) = (self.from[i], self.to[i], self.size[i]);
            if from != UNPLANNED {
                self.mark(grid, Layer::Standing, from, size, NONE);
            }
            if to != UNPLANNED {
                self.mark(grid, Layer::Taking, to, size, NONE);
            }
            let next = match to {
                UNPLANNED => mover.at,
                c => grid.point_of(c),
            };
            self.next.push(next);
        }
        &self.next
    }

    /// Reads the movers in: ranks them (aged, held back, asked to make room), marks where each
    /// stands (and where each held one stays), and lists the free ones in `order`, unsorted.
    fn load(&mut self, grids: &[&Grid], movement: Movement, movers: &mut [Mover]) {
        let grid = grids[0];
        if self.cells.len() != grid.len() {
            self.cells = vec![[NONE; 2]; grid.len()];
        }
        self.marked.clear();
        self.marked.resize(grid.len().div_ceil(64), 0);
        self.from.clear();
        self.to.clear();
        self.size.clear();
        self.priority.clear();
        self.arrived.clear();
        self.goal.clear();
        self.order.clear();
        self.escape.clear();
        self.asked.clear();
        self.largest = 1;
        self.budget = 8 * movers.len() + 64;
        for (i, mover) in movers.iter_mut().enumerate() {
            if mover.arrived {
                mover.priority = mover.tie_break;
                mover.held_back = 0.0;
            } else {
                mover.priority += 1.0;
            }
            let fits = mover.size >= 1
                && grids
                    .get(usize::from(mover.size) - 1)
                    .is_some_and(|g| g.is_free_bit(mover.at));
            let clear = fits
                && footprint(mover.at, mover.size)
                    .all(|p| grid.index_of(p).is_some_and(|c| self.standing(c) == NONE));
            self.size.push(mover.size);
            self.arrived.push(mover.arrived);
            self.goal.push(mover.goal);
            self.asked.push(None);
            let room = mover.making_room.take().filter(|_| clear && mover.free);
            // Asked to make room, it plans before everyone who was not (this step only), and
            // pushes with the priority of the body that asked.
            let own = mover.priority - mover.held_back;
            let ranked = room.map_or(own, |r| own.max(r.priority));
            let sized = grids.get(usize::from(mover.size).max(1) - 1).copied();
            let escape = room
                .zip(sized)
                .and_then(|(room, sized)| way_out(sized, movement, mover.at, mover.size, room));
            self.escape.push(escape);
            self.priority.push(ranked);
            match grid.index_of(mover.at).filter(|_| clear) {
                Some(c) => {
                    self.largest = self.largest.max(mover.size);
                    self.from.push(c);
                    self.mark(grid, Layer::Standing, c, mover.size, i as u32);
                    if mover.free {
                        self.to.push(UNPLANNED);
                        self.order.push(i);
                    } else {
                        self.to.push(c);
                        self.mark(grid, Layer::Taking, c, mover.size, i as u32);
                    }
                }
                None => {
                    // Takes no part: it marks no cell, so it holds without blocking anyone.
                    self.from.push(UNPLANNED);
                    self.to.push(UNPLANNED);
                }
            }
        }
    }

    /// The two changes to the paper's priorities that keep a narrow passage flowing one way at
    /// a time (see [`PUSHED_BACK`] and [`GIVE_WAY_AFTER`]), for every mover that planned.
    fn age(
        &self,
        grid: &Grid,
        movers: &mut [Mover],
        cost_to_go: &mut impl FnMut(usize, Point) -> u32,
    ) {
        for (i, mover) in movers.iter_mut().enumerate() {
            let (from, to) = (self.from[i], self.to[i]);
            if mover.arrived || from == UNPLANNED || to == UNPLANNED {
                mover.waiting = 0;
                continue;
            }
            if !mover.free {
                continue;
            }
            let (before, after) = (
                cost_to_go(i, grid.point_of(from)),
                cost_to_go(i, grid.point_of(to)),
            );
            mover.waiting = if after < before { 0 } else { mover.waiting + 1 };
            // Never ranked below its tie-break, as if it had just arrived, nor held back by
            // more than the limit.
            let most = HOLD_BACK_LIMIT
                .min(mover.priority - mover.tie_break)
                .max(0.0);
            if after > before {
                mover.held_back = (mover.held_back + PUSHED_BACK).min(most);
            }
            if mover.waiting >= GIVE_WAY_AFTER {
                mover.held_back = most;
                mover.waiting = 0;
            }
        }
    }
}

/// `x`'s bits as a number that sorts as [`f64::total_cmp`] does.
fn ordered_bits(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}
