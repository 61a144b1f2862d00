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
//!   than that limit, and never below its tie-break (as if it had just arrived). (The paper's priorities grow by one a step for everyone on the way, so
//!   they never change order until a body arrives.) Because what is held back is bounded, a body
//!   that has waited `HOLD_BACK_LIMIT` steps longer than another always ranks above it: PIBT's
//!   one guarantee, that the longest waiting eventually goes first, is kept.
//! - **LaCAM\*'s emulated swap** (Okumura, IJCAI 2023) for one-cell bodies with a
//!   [`Mover::goal`]: two that must pass each other in a dead end, which PIBT alone never
//!   lets them do, back out of it together to the nearest fork, one drawing the other after it.
//!
//! ```text
//! for each free mover i, highest priority first:
//!     if i has not planned: PIBT(i)
//!
//! PIBT(i):
//!     C ← i's cell and its legal moves, lowest cost_to_go first (ties: a footprint on no one
//!         else, then at random); reversed if i must back out of a dead end for a body
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

use super::instance::SplitMix64;
use crate::grid::{Grid, Point};
use crate::movement::Movement;

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

/// The cells of a footprint: `size × size` from `at`, right and down.
fn footprint(at: Point, size: u8) -> impl Iterator<Item = Point> {
    let k = i32::from(size);
    (0..k).flat_map(move |dy| (0..k).map(move |dx| Point::new(at.x + dx, at.y + dy)))
}

/// Do the footprints at `a` (size `ka`) and `b` (size `kb`) share a cell?
fn overlap(a: Point, ka: u8, b: Point, kb: u8) -> bool {
    let (ka, kb) = (i32::from(ka), i32::from(kb));
    a.x < b.x + kb && b.x < a.x + ka && a.y < b.y + kb && b.y < a.y + ka
}

/// Would two squares gliding in a straight line, `a0 → a1` (side `ka`) and `b0 → b1` (side
/// `kb`), overlap on the way, each drawn a quarter cell in from its edges? Along x the inset
/// squares overlap while `-(kb - ½) < bx - ax < ka - ½`, a window of time since the difference
/// changes linearly, and likewise along y; they meet if the windows meet.
///
/// The inset is what a grid of one-cell bodies already allows: a body that steps into a cell
/// as another turns out of it brushes it by a quarter cell or so on the way. The inset keeps
/// such brushes (a diagonal step that follows or turns behind another) and forbids crossings,
/// where two bodies would pass through the same place; for one-cell bodies that is exactly the
/// rule that no body steps across a diagonal another steps across the other way.
fn glides_meet(a0: Point, a1: Point, ka: u8, b0: Point, b1: Point, kb: u8) -> bool {
    let window = |d0: i32, d1: i32| -> (f32, f32) {
        let (low, high) = (0.5 - f32::from(kb), f32::from(ka) - 0.5);
        let (d0, d1) = (d0 as f32, d1 as f32);
        if d0 == d1 {
            return if low < d0 && d0 < high {
                (0.0, 1.0)
            } else {
                (1.0, 0.0)
            };
        }
        let (t_low, t_high) = ((low - d0) / (d1 - d0), (high - d0) / (d1 - d0));
        let (t0, t1) = (t_low.min(t_high), t_low.max(t_high));
        (t0.max(0.0), t1.min(1.0))
    };
    let (x0, x1) = window(b0.x - a0.x, b1.x - a1.x);
    let (y0, y1) = window(b0.y - a0.y, b1.y - a1.y);
    x0.max(y0) < x1.min(y1)
}

/// Moves from `a` to `b`, walls aside.
fn steps(movement: Movement, a: Point, b: Point) -> u32 {
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    if movement.allows_diagonals() {
        dx.max(dy)
    } else {
        dx + dy
    }
}

/// Where a mover of `size` at `at` heads to make `room`: the nearest cell (in moves on its size's
/// grid, at most 8 away) where it covers no cell of the wanted footprint, nor of the body that
/// asked for it where it stands, and is not ahead of that body, if there is one so near; else
/// the nearest ahead. A body that steps out ahead is in the way again at the next step, and a
/// row of them all asked to step ahead moves nowhere.
fn way_out(sized: &Grid, movement: Movement, at: Point, size: u8, room: Room) -> Option<Point> {
    let (dx, dy) = (room.at.x - room.from.x, room.at.y - room.from.y);
    let ahead = |p: Point| (p.x - at.x) * dx + (p.y - at.y) * dy;
    let clear =
        |p: Point| !overlap(p, size, room.at, room.size) && !overlap(p, size, room.from, room.size);
    let mut frontier = vec![at];
    let mut seen = vec![at];
    let mut best: Option<(bool, Point)> = None;
    for _ in 0..=8 {
        for &p in &frontier {
            if clear(p) && best.is_none_or(|(was_ahead, _)| was_ahead && ahead(p) <= 0) {
                best = Some((ahead(p) > 0, p));
            }
        }
        if let Some((false, p)) = best {
            return Some(p);
        }
        let mut next = Vec::new();
        for &p in &frontier {
            for q in movement.moves(sized, p) {
                if !seen.contains(&q) {
                    seen.push(q);
                    next.push(q);
                }
            }
        }
        frontier = next;
    }
    best.map(|(_, p)| p)
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
        let mut order = std::mem::take(&mut self.order);
        let (ranks, asked) = (&self.priority, &self.escape);
        let key = |i: usize| (asked[i].is_some(), ranks[i]);
        order.sort_by(|&a, &b| {
            let ((asked_a, a), (asked_b, b)) = (key(a), key(b));
            asked_b.cmp(&asked_a).then(b.total_cmp(&a))
        });
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

    /// Writes `who` on every cell of the footprint at cell index `at` in one layer.
    fn mark(&mut self, grid: &Grid, layer: Layer, at: usize, size: u8, who: u32) {
        for p in footprint(grid.point_of(at), size) {
            if let Some(c) = grid.index_of(p) {
                self.write(c, layer, who);
            }
        }
    }

    /// `PIBT(i)` of the module docs. Returns whether `i` could go somewhere other than staying
    /// put against its will.
    fn plan(
        &mut self,
        grids: &[&Grid],
        movement: Movement,
        cost_to_go: &mut impl FnMut(usize, Point) -> u32,
        i: usize,
    ) -> bool {
        let grid = grids[0];
        let (here, size) = (self.from[i], self.size[i]);
        let at = grid.point_of(here);
        // Nearest first; between equals a footprint on no one else (no one to push); then at
        // random. One key each: a cost, a bit and seven random bits.
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
            let mut pushed = [NONE; 9];
            let mut count = 0;
            for c in cells() {
                let k = self.standing(c);
                let unplanned = k != NONE && k as usize != i && self.to[k as usize] == UNPLANNED;
                if unplanned && !pushed[..count].contains(&k) {
                    pushed[count] = k;
                    count += 1;
                }
            }
            let several = count > 1;
            if count == 0 {
                first_push = false;
            }
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
            if cells().all(|c| self.taking(c) == i as u32) {
                // A big body shoved straight on ahead of a body going its way will be in the
                // way again at the next step (and ahead of it the next, a convoy): ask it to
                // step aside instead.
                let (dx, dy) = (target.x - at.x, target.y - at.y);
                for &k in &pushed[..count] {
                    let k = k as usize;
                    let (k_from, k_to) = (grid.point_of(self.from[k]), self.to[k]);
                    let shoved = k_to != UNPLANNED && {
                        let k_to = grid.point_of(k_to);
                        (k_to.x - k_from.x) * dx + (k_to.y - k_from.y) * dy > 0
                    };
                    if shoved && (size > 1 || self.size[k] > 1) {
                        self.ask(
                            k,
                            Room {
                                at: target,
                                size,
                                from: at,
                                priority: self.priority[i],
                            },
                        );
                    }
                }
                if let Some(j) = partner.filter(|_| rank == 0) {
                    self.pull(grid, j, here);
                }
                return true;
            }
            if first_push {
                // Its best cell is held by bodies that could not leave it in one move: ask the
                // big ones, or all when it is big itself, to head out of it at the next step.
                // (One cell pushing one cell asks nothing: that push failed only if the other
                // was boxed in, and PIBT's priorities see to that.)
                let room = Room {
                    at: target,
                    size,
                    from: at,
                    priority: self.priority[i],
                };
                for c in cells() {
                    let k = self.taking(c);
                    if k != NONE && k as usize != i && (size > 1 || self.size[k as usize] > 1) {
                        self.ask(k as usize, room);
                    }
                }
                first_push = false;
            }
            if several {
                // One made room and another did not: undo every move made for this cell, as
                // one made room may have stepped onto a cell `i` was to leave.
                self.rollback(checkpoint);
            } else {
                // The one pushed stayed (taking back its cell), and so did all it pushed.
                for c in cells() {
                    if self.taking(c) == i as u32 {
                        self.take(c, NONE);
                    }
                }
                self.set_to(i, UNPLANNED);
            }
        }
        self.set_to(i, here);
        for c in footprint(at, size).filter_map(|q| grid.index_of(q)) {
            self.take(c, i as u32);
        }
        false
    }

    /// The body `i` must back out for, if any: LaCAM*'s emulated swap (Okumura, "Improving
    /// LaCAM for Scalable Eventually Optimal Multi-Agent Pathfinding", IJCAI 2023, and its
    /// code, lacam3), for one-cell bodies. PIBT never swaps two bodies, so two that must pass
    /// each other in a dead end (the deeper bound for the mouth, the other deeper in) push
    /// each other round it for ever. The emulated swap:
    ///
    /// ```text
    /// P ← the passage one body wide from i's cell through its best cell, if it ends in a
    ///     dead end (if it forks, nothing)
    /// j ← the body on i's best cell
    /// if j has not planned and must get past i down P (swap_required(i, j)), and i, backing
    ///     out, reaches a fork (swap_possible): back out for j
    /// else for each body k beside i:                                  -- "clear"
    ///     if k would have to get past i once i stepped onto its best cell (swap_required(k,
    ///     i)), and i can back out from there: back out for k
    /// ```
    ///
    /// Backing out is taking the cells in the reverse order; on the first, the partner, if it
    /// has not planned, steps onto i's cell after it ([`CrowdStep::pull`]). At the fork they
    /// pass.
    ///
    /// lacam3 swaps down any passage one body wide, to a fork as well as to a dead end, by its
    /// agents' tables of true distances. Here only a dead end, where which way each body wants
    /// to go needs no distances (see [`CrowdStep::swap_required`]). Down passages that fork,
    /// with distances guessed past a body's next cell, swaps turned pairs to and fro at a gap
    /// one cell long between two packed rooms; there pushing, with [`PUSHED_BACK`] and
    /// [`GIVE_WAY_AFTER`], gets bodies through.
    fn swap_partner(
        &self,
        grid: &Grid,
        movement: Movement,
        i: usize,
        best: usize,
    ) -> Option<usize> {
        let here = self.from[i];
        if best == here {
            return None;
        }
        let passage = self.dead_end(grid, movement, here, best)?;
        let one_cell = |k: u32| k != NONE && k as usize != i && self.size[k as usize] == 1;
        let j = self.standing(best);
        let partner = if one_cell(j)
            && self.to[j as usize] == UNPLANNED
            && self.swap_required(grid, i, j as usize, &passage)
        {
            Some(j as usize)
        } else {
            movement
                .moves(grid, grid.point_of(here))
                .filter_map(|p| grid.index_of(p))
                .filter(|&u| u != best)
                .map(|u| self.standing(u))
                .find(|&k| one_cell(k) && self.swap_required(grid, k as usize, i, &passage))
                .map(|k| k as usize)
        };
        partner.filter(|_| self.swap_possible(grid, movement, best, here))
    }

    /// The passage one body wide that a body at `from` steps into at `into`, if it ends in a
    /// dead end within [`SWAP_REACH`] cells: its cells from `from` on. `None` if it forks.
    fn dead_end(
        &self,
        grid: &Grid,
        movement: Movement,
        from: usize,
        into: usize,
    ) -> Option<Vec<usize>> {
        let mut cells = vec![from, into];
        while cells.len() <= SWAP_REACH {
            let [.., behind, ahead] = cells[..] else {
                return None;
            };
            match self.narrow_past(grid, movement, behind, ahead) {
                Narrow::On(next) => cells.push(next),
                Narrow::Fork => return None,
                Narrow::DeadEnd => return Some(cells),
            }
        }
        None
    }

    /// The next cell past `ahead` away from `behind` where the way is one body wide: `None`
    /// at a fork (two ways on or more) or a dead end. A body that has arrived in a dead end of
    /// its own (a cell with one way in) is as good as a wall: it need not make way.
    fn narrow_past(&self, grid: &Grid, movement: Movement, behind: usize, ahead: usize) -> Narrow {
        let mut on = None;
        for p in movement.moves(grid, grid.point_of(ahead)) {
            let Some(u) = grid.index_of(p) else { continue };
            let k = self.standing(u);
            let settled =
                k != NONE && self.arrived[k as usize] && movement.moves(grid, p).nth(1).is_none();
            if u == behind || settled {
                continue;
            }
            if on.is_some() {
                return Narrow::Fork;
            }
            on = Some(u);
        }
        on.map_or(Narrow::DeadEnd, Narrow::On)
    }

    /// Must `puller` get past `pusher` down the dead end `cells` (lacam3's
    /// `is_swap_required`)? The pusher stands on its first cell and would step onto its
    /// second. lacam3 follows the passage while it leads the pusher nearer its goal, by a table
    /// of true distances, and answers yes if where that stops the puller wants to be behind
    /// (nearer the pusher's side) and the pusher ahead, or on its goal. In a dead end that
    /// needs no distances: a body heads into one only if its goal lies in it, and any other
    /// goal is back out past the mouth. So: yes if the pusher's goal is down the dead end, and
    /// the puller's is no deeper than the cell before the one past the pusher's (or outside).
    /// (A step's `cost_to_go` guides a body to the next cell of its route, and says nothing of
    /// the cells past it, so it could not tell.)
    fn swap_required(&self, grid: &Grid, pusher: usize, puller: usize, cells: &[usize]) -> bool {
        let (Some(pusher_goal), Some(puller_goal)) = (self.goal[pusher], self.goal[puller]) else {
            return false;
        };
        let depth = |goal: Point| cells.iter().position(|&c| grid.point_of(c) == goal);
        let Some(deep) = depth(pusher_goal).filter(|&d| d >= 1) else {
            return false; // the pusher does not head into the dead end at all
        };
        // Where the pusher stops getting nearer: its goal, or the cell before it at the end.
        let behind = if deep + 1 < cells.len() {
            deep
        } else {
            deep - 1
        };
        depth(puller_goal).is_none_or(|d| d <= behind)
    }

    /// Can a body at `from` back out, away from one at `into`, to a fork where the two can
    /// pass (lacam3's `is_swap_possible`)?
    fn swap_possible(&self, grid: &Grid, movement: Movement, into: usize, from: usize) -> bool {
        let (mut behind, mut ahead) = (into, from);
        for _ in 0..SWAP_REACH {
            if ahead == into {
                return false;
            }
            match self.narrow_past(grid, movement, behind, ahead) {
                Narrow::Fork => return true,
                Narrow::DeadEnd => return false,
                Narrow::On(next) => (behind, ahead) = (ahead, next),
            }
        }
        false
    }

    /// The swap's other half: `j`, if it has not planned, steps onto the cell `into` that the
    /// body backing out for it leaves, when no one takes it and the step breaks no rule.
    fn pull(&mut self, grid: &Grid, j: usize, into: usize) {
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
    fn ask(&mut self, k: usize, room: Room) {
        if self.asked[k].is_none_or(|r| r.priority < room.priority) {
            self.asked[k] = Some(room);
        }
    }

    /// Takes cell `c` for `who` (or frees it: `NONE`), remembering what it was.
    fn take(&mut self, c: usize, who: u32) {
        self.log.push(Undo::Taking(c, self.taking(c)));
        self.write(c, Layer::Taking, who);
    }

    /// One mark on cell `c`: `NONE` without a look at `cells` if no mark was written there
    /// this step.
    fn read(&self, c: usize, layer: Layer) -> u32 {
        if self.marked[c / 64] & 1 << (c % 64) == 0 {
            NONE
        } else {
            self.cells[c][layer as usize]
        }
    }

    /// Writes one mark on cell `c`, and its bit in `marked`.
    fn write(&mut self, c: usize, layer: Layer, who: u32) {
        self.marked[c / 64] |= 1 << (c % 64);
        self.cells[c][layer as usize] = who;
    }

    /// Who stands on cell `c` now.
    fn standing(&self, c: usize) -> u32 {
        self.read(c, Layer::Standing)
    }

    /// Who takes cell `c` next.
    fn taking(&self, c: usize) -> u32 {
        self.read(c, Layer::Taking)
    }

    /// Plans mover `i` to cell `v` (or unplans it), remembering what it was.
    fn set_to(&mut self, i: usize, v: usize) {
        self.log.push(Undo::To(i, self.to[i]));
        self.to[i] = v;
    }

    /// Undoes every [`CrowdStep::take`] and [`CrowdStep::set_to`] since the log was `len` long.
    fn rollback(&mut self, len: usize) {
        while self.log.len() > len {
            match self.log.pop() {
                Some(Undo::Taking(c, who)) => self.write(c, Layer::Taking, who),
                Some(Undo::To(i, v)) => self.to[i] = v,
                None => break,
            }
        }
    }

    /// Would `i` stepping to `v` swap with a body: step onto a cell it leaves while it steps
    /// onto a cell `i` leaves?
    fn swaps(&self, grid: &Grid, i: usize, v: usize) -> bool {
        let (here, size) = (grid.point_of(self.from[i]), self.size[i]);
        if self.from[i] == v {
            return false;
        }
        footprint(grid.point_of(v), size).any(|q| {
            let Some(k) = grid.index_of(q).map(|c| self.standing(c)) else {
                return false;
            };
            let k = k as usize;
            if k == NONE as usize || k == i {
                return false;
            }
            let (k_from, k_to) = (self.from[k], self.to[k]);
            k_to != UNPLANNED
                && k_to != k_from
                && overlap(grid.point_of(k_to), self.size[k], here, size)
        })
    }

    /// Would a diagonal step of `i` to `v` meet a body's diagonal step on the way? Straight
    /// steps that follow or turn behind a body are let be, as on a grid of one-cell bodies.
    fn crosses(&self, grid: &Grid, i: usize, v: usize) -> bool {
        let (a0, a1, ka) = (grid.point_of(self.from[i]), grid.point_of(v), self.size[i]);
        if a0.x == a1.x || a0.y == a1.y {
            return false;
        }
        // Anyone whose diagonal step could meet this one stands within the largest size of it.
        let reach = i32::from(self.largest);
        let (x0, x1) = (a0.x.min(a1.x) - reach, a0.x.max(a1.x) + i32::from(ka));
        let (y0, y1) = (a0.y.min(a1.y) - reach, a0.y.max(a1.y) + i32::from(ka));
        (y0..=y1).any(|y| {
            (x0..=x1).any(|x| {
                let Some(k) = grid.index_of(Point::new(x, y)).map(|c| self.standing(c)) else {
                    return false;
                };
                let k = k as usize;
                if k == NONE as usize || k == i || self.to[k] == UNPLANNED {
                    return false;
                }
                let (b0, b1) = (grid.point_of(self.from[k]), grid.point_of(self.to[k]));
                b0.x != b1.x && b0.y != b1.y && glides_meet(a0, a1, ka, b0, b1, self.size[k])
            })
        })
    }
}

/// How far the emulated swap follows a passage one body wide, in cells: it bounds a step's
/// work, and two bodies that must pass that far down a passage are better served by a new
/// route.
const SWAP_REACH: usize = 64;

/// What lies past a cell, coming from one beside it ([`CrowdStep::narrow_past`]).
#[derive(Clone, Copy)]
enum Narrow {
    Fork,
    DeadEnd,
    On(usize),
}

/// One change a plan made, to undo: a cell's taker, or a mover's plan, as they were.
#[derive(Clone, Copy, Debug)]
enum Undo {
    Taking(usize, u32),
    To(usize, usize),
}

/// The two marks on a cell, by their place in [`CrowdStep`]'s `cells`.
#[derive(Clone, Copy)]
enum Layer {
    Standing = 0,
    Taking = 1,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::CornerRule;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    fn manhattan(a: Point, b: Point) -> u32 {
        a.x.abs_diff(b.x) + a.y.abs_diff(b.y)
    }

    #[test]
    fn a_body_pushed_back_falls_behind_those_going_its_way() {
        // A corridor: A (higher) heads right, B (lower) heads left into it. A pushes B back.
        let grid = Grid::from_ascii(&["....."]).expect("a grid");
        let goals = [p(4, 0), p(0, 0)];
        let mut movers = [Mover::new(p(1, 0), 1), Mover::new(p(2, 0), 2)];
        movers[0].priority = 50.0;
        movers[1].priority = 40.0;
        let mut crowd = CrowdStep::new(7);
        let next = crowd
            .step(&[&grid], Movement::FourWay, &mut movers, |i, c| {
                manhattan(c, goals[i])
            })
            .to_vec();
        assert_eq!(next, [p(2, 0), p(3, 0)]);
        assert_eq!(
            movers[0].priority, 51.0,
            "A grows as the paper's priorities do"
        );
        assert_eq!(movers[1].priority, 41.0, "B too");
        assert_eq!(movers[1].held_back, PUSHED_BACK, "but B is held back");
        assert_eq!((movers[0].waiting, movers[1].waiting), (0, 1));
    }

    #[test]
    fn a_body_pushed_back_again_and_again_is_held_back_no_more_than_the_limit() {
        // B is pushed back down a corridor by A, step after step: its priority still grows,
        // and what holds it back stops at the limit, so in time it ranks above any body that
        // has waited less.
        let grid = Grid::from_ascii(&["............"]).expect("a grid");
        let goals = [p(11, 0), p(0, 0)];
        let mut movers = [Mover::new(p(0, 0), 1), Mover::new(p(1, 0), 2)];
        movers[0].priority = 1000.0;
        movers[1].priority = 100.0; // long on its way: the limit, not its age, bounds it
        let mut crowd = CrowdStep::new(7);
        for _ in 0..8 {
            let next = crowd
                .step(&[&grid], Movement::FourWay, &mut movers, |i, c| {
                    manhattan(c, goals[i])
                })
                .to_vec();
            for (m, n) in movers.iter_mut().zip(next) {
                m.at = n;
            }
            assert!(movers[1].held_back <= HOLD_BACK_LIMIT);
        }
        assert_eq!(movers[1].at, p(9, 0), "pushed back all the way");
        assert_eq!(movers[1].held_back, HOLD_BACK_LIMIT, "stopped at the limit");
        assert_eq!(movers[1].priority, 108.0, "and still grows");
    }

    #[test]
    fn a_young_body_is_never_ranked_below_its_tie_break() {
        // Pushed back in its first step, a body is held back only as far as its tie-break.
        let grid = Grid::from_ascii(&["....."]).expect("a grid");
        let goals = [p(4, 0), p(0, 0)];
        let mut movers = [Mover::new(p(1, 0), 1), Mover::new(p(2, 0), 2)];
        movers[0].priority = 50.0;
        let mut crowd = CrowdStep::new(7);
        crowd.step(&[&grid], Movement::FourWay, &mut movers, |i, c| {
            manhattan(c, goals[i])
        });
        let rank = movers[1].priority - movers[1].held_back;
        assert!((rank - movers[1].tie_break).abs() < 1e-9, "{rank}");
    }

    #[test]
    fn a_body_that_gets_no_nearer_gives_way_and_starts_again() {
        // A waits behind B, which is held (on its way into its cell) for as long as the test.
        let grid = Grid::from_ascii(&["...."]).expect("a grid");
        let mut movers = [Mover::new(p(0, 0), 1), Mover::new(p(1, 0), 2)];
        movers[0].priority = 100.0;
        movers[1].free = false;
        movers[1].arrived = true;
        let mut crowd = CrowdStep::new(7);
        let mut held = Vec::new();
        for _ in 0..GIVE_WAY_AFTER + 2 {
            crowd.step(&[&grid], Movement::FourWay, &mut movers, |_, c| {
                manhattan(c, p(3, 0))
            });
            assert_eq!(movers[0].at, p(0, 0));
            held.push(movers[0].held_back);
        }
        let gave_way = GIVE_WAY_AFTER as usize - 1;
        assert_eq!(held[gave_way - 1], 0.0);
        assert_eq!(held[gave_way], HOLD_BACK_LIMIT, "gave way");
        assert_eq!(movers[0].waiting, 2, "and waits on");
        assert!(
            movers[0].priority > 100.0 + f64::from(GIVE_WAY_AFTER),
            "its priority grows"
        );
    }

    #[test]
    fn a_higher_body_pushes_a_lower_one_out_of_a_corridor_bay() {
        // A corridor with a bay above (2, 1): B waits at its goal in the corridor, A must pass.
        let grid = Grid::from_ascii(&["##.##", ".....", "#####"]).expect("a grid");
        let goals = [p(4, 1), p(2, 1)];
        let mut movers = [Mover::new(p(0, 1), 1), Mover::new(p(2, 1), 2)];
        movers[1].arrived = true;
        let mut crowd = CrowdStep::new(7);
        for _ in 0..20 {
            let before: Vec<Point> = movers.iter().map(|m| m.at).collect();
            let next = crowd
                .step(&[&grid], Movement::FourWay, &mut movers, |i, c| {
                    manhattan(c, goals[i])
                })
                .to_vec();
            assert_ne!(next[0], next[1]);
            assert!(!(next[0] == before[1] && next[1] == before[0]), "a swap");
            for (m, n) in movers.iter_mut().zip(&next) {
                m.at = *n;
            }
            movers[0].arrived = movers[0].at == goals[0];
            movers[1].arrived = movers[1].at == goals[1];
        }
        assert_eq!(movers[0].at, goals[0]);
        assert_eq!(movers[1].at, goals[1], "B went back after A passed");
    }

    #[test]
    fn a_big_body_pushes_two_small_ones_out_of_its_way() {
        // A 2 × 2 body goes right along a room three high; two bodies of one cell stand in its
        // way, side by side, where they want to be. Both make room at once.
        let grid = Grid::new(5, 3).expect("a grid");
        let mut clearance = crate::Clearance::new();
        clearance.update(&grid);
        let big = clearance.grid_for(&grid, 2);
        let goals = [p(3, 0), p(2, 0), p(2, 1)];
        let mut movers = [
            Mover::new(p(0, 0), 1).with_size(2),
            Mover::new(p(2, 0), 2),
            Mover::new(p(2, 1), 3),
        ];
        let mut crowd = CrowdStep::new(5);
        for _ in 0..12 {
            for (m, g) in movers.iter_mut().zip(goals) {
                m.arrived = m.at == g;
            }
            let next = crowd
                .step(&[&grid, &big], Movement::FourWay, &mut movers, |i, c| {
                    manhattan(c, goals[i])
                })
                .to_vec();
            for (m, n) in movers.iter_mut().zip(next) {
                m.at = n;
            }
            let [a, b, c] = movers;
            assert!(!overlap(a.at, 2, b.at, 1) && !overlap(a.at, 2, c.at, 1) && b.at != c.at);
        }
        assert_eq!(movers[0].at, goals[0]);
    }

    #[test]
    fn a_held_body_is_never_pushed() {
        let grid = Grid::from_ascii(&["...."]).expect("a grid");
        let mut movers = [Mover::new(p(0, 0), 1), Mover::new(p(1, 0), 2)];
        movers[1].free = false;
        movers[0].priority = 100.0;
        let mut crowd = CrowdStep::new(1);
        let next = crowd.step(&[&grid], Movement::FourWay, &mut movers, |_, c| {
            manhattan(c, p(3, 0))
        });
        assert_eq!(next, &[p(0, 0), p(1, 0)]);
    }

    #[test]
    fn two_bodies_never_cross_diagonally() {
        let grid = Grid::new(2, 2).expect("a grid");
        let eight = Movement::EightWay(CornerRule::NeverCut);
        // A goes (0,0) → (1,1), B goes (1,0) → (0,1): each one's best is the crossing diagonal.
        let goals = [p(1, 1), p(0, 1)];
        let movers = [Mover::new(p(0, 0), 1), Mover::new(p(1, 0), 2)];
        let chebyshev = |a: Point, b: Point| a.x.abs_diff(b.x).max(a.y.abs_diff(b.y));
        for seed in 0..50 {
            let mut crowd = CrowdStep::new(seed);
            let mut m = movers;
            let next = crowd.step(&[&grid], eight, &mut m, |i, c| chebyshev(c, goals[i]));
            let crossed = next[0] == p(1, 1) && next[1] == p(0, 1);
            assert!(!crossed, "seed {seed}: they crossed");
            assert_ne!(next[0], next[1]);
        }
    }

    #[test]
    fn a_body_on_a_wall_or_on_another_takes_no_part() {
        let grid = Grid::from_ascii(&[".#.."]).expect("a grid");
        let mut movers = [
            Mover::new(p(1, 0), 1),
            Mover::new(p(2, 0), 2),
            Mover::new(p(2, 0), 3),
        ];
        let mut crowd = CrowdStep::new(3);
        let next = crowd
            .step(&[&grid], Movement::FourWay, &mut movers, |_, c| {
                manhattan(c, p(3, 0))
            })
            .to_vec();
        assert_eq!(next[0], p(1, 0), "held on its wall");
        assert_eq!(next[1], p(3, 0));
        assert_eq!(next[2], p(2, 0), "held where it overlapped");
    }
}
