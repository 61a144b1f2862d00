//! PIBT for bodies in a live world: one step of a crowd whose members each know their own way.
//!
//! [`Pibt`](super::Pibt) is the benchmark's PIBT: 4-way moves, every agent moves at every step,
//! one cell per agent, and an agent's way is a breadth-first distance table to its goal. A game's
//! crowd breaks all four: units move 8-way round corners, a slow unit (or one in mud) is still on
//! its way into its cell while the others step, units come in sizes, and a table per goal is
//! 4 bytes a cell for every distinct goal, recomputed after every edit. And its crowds meet
//! head-on in passages one body wide, where the paper's fixed order of priorities turns the
//! file back and forth. So [`CrowdStep`] runs the same Algorithm 1 of Okumura et al. (AIJ 2022)
//! with six changes:
//!
//! - **The caller says how far each cell is** (`cost_to_go`): a game already has a route for
//!   each unit, searched off the frame, and the distance to the next cell of that route is all
//!   PIBT needs to order a unit's choices.
//! - **Held bodies**: a [`Mover`] that is not `free` this step stays where it is, and no one may
//!   push it. It is a wall for one step.
//! - **8-way moves** keep the movement's corner rule, and two bodies never cross diagonally.
//! - **Footprints**: a mover of size k covers the k × k cells right of and below its cell, and
//!   moves on the grid for its size ([`Clearance::grid_for`](crate::Clearance::grid_for)), so it
//!   only stands where it fits. Taking a cell means taking all its footprint's cells, and may
//!   push several bodies at once.
//! - **Priorities that let a passage flow one way at a time, and still let everyone through**:
//!   a body is ranked by the paper's priority (steps since it was last where it wanted to be)
//!   less a *held-back* amount: [`PUSHED_BACK`] more each time it is pushed back, the whole
//!   [`HOLD_BACK_LIMIT`] once it has got no nearer for [`GIVE_WAY_AFTER`] steps, never more
//!   than that limit, and never below its tie-break (as if it had just arrived). (The paper's
//!   priorities grow by one a step for everyone on the way, so they never change order until a
//!   body arrives.) Because what is held back is bounded, a body
//!   that has waited `HOLD_BACK_LIMIT` steps longer than another always ranks above it: PIBT's
//!   one guarantee, that the longest waiting eventually goes first, is kept.
//! - **LaCAM\*'s emulated swap** (Okumura, IJCAI 2023) for one-cell bodies with a
//!   [`Mover::goal`]: two that must pass each other in a passage one body wide (bound into a
//!   dead end, or each for a cell of a passage open at both ends), which PIBT alone never lets
//!   them do, back out of it together to the nearest fork, one drawing the other after it.
//!
//! ```text
//! for each free mover i, highest priority first:
//!     if i has not planned: PIBT(i)
//!
//! PIBT(i):
//!     C ← i's cell and its legal moves, lowest cost_to_go first (ties: a footprint on no one
//!         else, then at random); reversed if i must back out of a passage for a body
//!     for v in C:
//!         skip v if any cell of F(v) is taken, if the step swaps with a body (each steps onto
//!             a cell the other leaves), or if it crosses a body's diagonal step
//!         take every cell of F(v)
//!         for each unplanned mover k standing on F(v): PIBT(k)
//!         if every cell of F(v) is still i's: draw the body it backs out for (if it does, on
//!             C's first) onto i's cell; return valid
//!         one k pushed:  give back what is left of F(v)     -- k stayed on it
//!         several:       undo every plan made since taking F(v)
//!     stay (take F(i's cell)); return invalid
//! ```
//!
//! **Making room.** A body pushed off one cell always has somewhere to go if any cell round it
//! is free; a body under part of a big footprint may need two moves to leave it, and PIBT looks
//! one move ahead. So when a big body's best cell fails because bodies pushed off it stayed,
//! they are asked ([`Mover::making_room`]) to head out of it at the next step: each plans
//! before those not asked, with the asker's priority, guided first to the nearest position
//! clear of the wanted footprint and of the asker. Without it a big body waits for ever behind
//! a small one in a corner of the cells it wants.
//!
//! With sizes of 1 this is exactly the paper's PIBT: one body is pushed at a time, it cannot
//! step onto its pusher's cell (that would be a swap), and the push fails when it stays.
//!
//! Why undo when several were pushed: a body that stays takes back its own cells, even from
//! its pushers (still deciding, they see it when the pushes are done). With one body pushed
//! that is all a failure leaves behind, since a failed push is, all the way down, bodies that
//! stayed. With several, the first may have made room, and someone behind it may have stepped
//! onto a cell `i` was about to leave; if the second stays, `i` does not leave after all. So
//! the moves made for that cell are undone, and those bodies planned again later. Such undone
//! pushes are rationed per step (8 a body), which bounds a step's work; when they run out, a
//! body simply does not take cells that need several pushes.
//!
//! What the step guarantees, whatever the caller's costs: no two footprints overlap, no swaps,
//! no diagonal crossings, every move legal on its size's grid as it is. What it does not:
//! PIBT's promise that the highest-priority body reaches its goal needs true distances; with a
//! route's guidance it holds while the routes are right, and a body pushed far off its route
//! should ask for a new one.
//!
//! The step is here; `plan` is `PIBT(i)`, `swap` the emulated swap, `rules` the geometry of
//! footprints, swaps and crossings, `table` who stands on and who takes each cell. Beside the
//! step, what a game's crowd needs round it, with no engine in it: ways round a jam
//! ([`detour`]), a gathering's cells and TSWAP's handing round of them ([`gather_cells`],
//! [`hand_round`]), and the deadlock count ([`blocked`]).

use super::instance::SplitMix64;
use crate::grid::{Grid, Point};
use crate::movement::Movement;
use rules::way_out;
use table::{Layer, Undo};

mod detour;
mod gather;
mod joint;
mod liveness;
mod plan;
mod region;
mod rules;
mod swap;
mod table;
mod untangle;

pub use detour::{DETOUR_REACH, detour};
pub use gather::{Mate, RING_REACH, d2, gather_cells, hand_round, nearest_free};
pub use joint::{SizedBody, untangle_sizes};
pub use liveness::{Wait, blocked, first_step};
pub use region::{four_steps, jam_region, nearest_in_region};
pub use rules::{distance_fifths, footprint};
pub use untangle::{Window, untangle};
#[cfg(test)]
mod tests;

/// How much priority a body is held back by each time it is pushed back, further from where it
/// wants to be.
///
/// The paper's priorities grow by one a step for every body on its way, so they keep their
/// order until one arrives, and in a passage one body wide the highest body in the jam decides
/// which way the whole file moves. With both sides ranked at random, the file turns back each
/// time the highest arrives, and little gets through. A body pushed back falls twenty steps
/// behind those going its way: the side that holds the passage keeps it, and the side pushed
/// out waits its turn. In the corridor tests (50 against 50) this and [`GIVE_WAY_AFTER`] take
/// the steps from about 650 to about 280.
pub const PUSHED_BACK: f64 = 20.0;

/// After how many steps without getting nearer a body gives way: it is held back by the whole
/// [`HOLD_BACK_LIMIT`] (or to its tie-break, if it has been on its way less long).
///
/// A body at the head of a jam that cannot clear (the file in a passage whose far room is
/// full) stays highest, fails at every step, and holds everyone below it for ever. Giving way
/// lets the next body try its own way out, and, one after another, one that can: here, a body
/// of the other side, which pushes the file back out of the passage.
pub const GIVE_WAY_AFTER: u32 = 20;

/// The most a body is ever held back by, in steps of priority.
///
/// Until this limit a pushed body fell back without end: in dense traffic, pushed again and
/// again, it never rose above anyone and some bodies never arrived (on the lifelong benchmark's
/// sorting centre, an agent in every few hundred finished no task in 1,000 steps). Bounded, a
/// body that has waited this many steps longer than another ranks above it whatever happened to
/// either, which is the order PIBT's liveness argument needs (Okumura et al., AIJ 2022, Thm. 1).
pub const HOLD_BACK_LIMIT: f64 = 2.0 * PUSHED_BACK;

const NONE: u32 = u32::MAX;
const UNPLANNED: usize = usize::MAX;

/// One body, as a crowd step sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover {
    /// The cell it stands on: the top-left corner of its footprint.
    pub at: Point,
    /// Its side in cells: it covers `size × size` cells from `at` right and down.
    pub size: u8,
    /// May it move this step? A body still on its way into its cell holds.
    pub free: bool,
    /// Is it where it wants to be? Its priority drops back to its tie-break when it is.
    pub arrived: bool,
    /// Where it is bound in the end, if anywhere: two bodies that must pass each other in a
    /// dead end (the module docs' emulated swap) tell by it which of them goes deeper. `None`:
    /// it never backs out for another, nor draws another after it.
    pub goal: Option<Point>,
    /// PIBT's priority: grows by one every step it is not where it wants to be, and drops back
    /// to `tie_break` when it is. Keep it between steps ([`CrowdStep::step`] updates it), and
    /// set it to `tie_break` when the body is given somewhere new to go.
    pub priority: f64,
    /// How far behind its `priority` the body is ranked: grows when it is pushed back or has
    /// waited long, never past [`HOLD_BACK_LIMIT`] nor below the tie-break, and is cleared when
    /// it arrives (see [`PUSHED_BACK`] and [`GIVE_WAY_AFTER`]). Kept by [`CrowdStep::step`].
    pub held_back: f64,
    /// Steps since it last got nearer to where it wants to be, counted by [`CrowdStep::step`].
    pub waiting: u32,
    /// Its own priority when it has arrived, in [0, 1): breaks ties between arrived bodies.
    pub tie_break: f64,
    /// A footprint a body of higher priority could not take last step because this one could
    /// not leave it in one move: this step it heads out of it first, with that body's priority.
    /// Kept by [`CrowdStep::step`], as `priority` is.
    pub making_room: Option<Room>,
}

/// Cells a mover is asked to leave: a footprint, and the priority of the body that wants it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Room {
    /// The footprint wanted.
    pub at: Point,
    pub size: u8,
    /// Where the body that wants it stands, and its priority.
    pub from: Point,
    pub priority: f64,
}

impl Mover {
    /// A body of one cell at `at`, with a tie-break drawn from `id` (any number that names it:
    /// the same id, the same tie-break).
    pub fn new(at: Point, id: u64) -> Self {
        let tie_break = (SplitMix64(id).next() >> 11) as f64 / (1u64 << 53) as f64;
        Self {
            at,
            size: 1,
            free: true,
            arrived: false,
            goal: None,
            priority: tie_break,
            held_back: 0.0,
            waiting: 0,
            tie_break,
            making_room: None,
        }
    }

    /// The same body, `size` cells across.
    pub fn with_size(self, size: u8) -> Self {
        Self { size, ..self }
    }

    /// The same body, bound for `goal` ([`Mover::goal`]).
    pub fn with_goal(self, goal: Point) -> Self {
        Self {
            goal: Some(goal),
            ..self
        }
    }
}

/// A crowd's PIBT: scratch space kept between steps (see the module docs).
#[derive(Clone, Debug)]
pub struct CrowdStep {
    rng: SplitMix64,
    /// Each mover's cell and the cell it takes next, as indices (`UNPLANNED`: not yet).
    from: Vec<usize>,
    to: Vec<usize>,
    size: Vec<u8>,
    priority: Vec<f64>,
    /// Each mover's `arrived` (a body settled in a dead end need not make way) and `goal`.
    arrived: Vec<bool>,
    goal: Vec<Option<Point>>,
    /// Per cell, which mover stands on it now and which takes it next (`NONE`: no one), side
    /// by side: a body reads both at the cells round it, and bodies spread over a large map
    /// find these out of the cache at every step, so one line read serves both.
    cells: Vec<[u32; 2]>,
    /// One bit per cell, set once either mark is written this step: a clear bit says both are
    /// `NONE` without reading `cells`. Most cells round a body are empty, and these bits, a
    /// sixty-fourth of `cells`, stay in the cache.
    marked: Vec<u64>,
    order: Vec<usize>,
    next: Vec<Point>,
    /// The largest size this step: how far round a diagonal step to look for crossings.
    largest: u8,
    /// Where each mover asked to make room heads to get out of the way (see [`Mover`]), and the
    /// room this step's failed pushes ask of each mover.
    escape: Vec<Option<Point>>,
    asked: Vec<Option<Room>>,
    /// What the plan under way changed, to undo a cell given up.
    log: Vec<Undo>,
    /// Pushes of several bodies at once left this step: each that fails is undone and its
    /// bodies planned again, so they are rationed to keep a step's work bounded.
    budget: usize,
}

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
    /// the grid a mover of size k moves on ([`Clearance::grid_for`](crate::Clearance::grid_for);
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
