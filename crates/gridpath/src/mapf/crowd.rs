//! PIBT for bodies in a live world: one step of a crowd whose members each know their own way.
//!
//! [`Pibt`](super::Pibt) is the benchmark's PIBT: 4-way moves, every agent moves at every step,
//! and an agent's way is a breadth-first distance table to its goal. A game's crowd breaks all
//! three: units move 8-way round corners, a slow unit (or one in mud) is still on its way into
//! its cell while the others step, and a table per goal is 4 bytes a cell for every distinct
//! goal, recomputed after every edit. So [`CrowdStep`] runs the same Algorithm 1 of Okumura et
//! al. (AIJ 2022) with three changes:
//!
//! - **The caller says how far each cell is** (`cost_to_go`): a game already has a route for
//!   each unit, searched off the frame, and the distance to the next cell of that route is all
//!   PIBT needs to order a unit's choices.
//! - **Held bodies**: a [`Mover`] that is not `free` this step stays where it is, and no one may
//!   push it. It is a wall for one step.
//! - **8-way moves** keep the movement's corner rule, and two bodies never cross diagonally: a
//!   body may not step from (x, y) to (x+1, y+1) while another steps from (x+1, y) to (x, y+1).
//!
//! ```text
//! for each free mover i, highest priority first:
//!     if i has not planned: PIBT(i, ⊥)
//!
//! PIBT(i, j):                         -- j pushed i, if anyone did
//!     C ← i's cell and its legal moves, lowest cost_to_go first (ties: a cell no one stands on,
//!         then at random)
//!     for v in C:
//!         skip v if taken, if it is j's cell (a swap), or if the step crosses a diagonal step
//!         take v; if an unplanned mover k stands on v and PIBT(k, i) fails: next v
//!         return valid
//!     stay; return invalid
//! ```
//!
//! What the step guarantees, whatever the caller's costs: no two bodies on one cell, no swaps,
//! no diagonal crossings, every move legal on the grid as it is. What it does not: PIBT's
//! promise that the highest-priority body reaches its goal needs true distances; with a route's
//! guidance it holds while the routes are right, and a body pushed far off its route should ask
//! for a new one.

use super::instance::SplitMix64;
use crate::grid::{Grid, Point};
use crate::movement::Movement;

const NONE: u32 = u32::MAX;

/// One body, as a crowd step sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover {
    /// The cell it stands on.
    pub at: Point,
    /// May it move this step? A body still on its way into its cell holds.
    pub free: bool,
    /// Is it where it wants to be? Its priority drops back to its tie-break when it is.
    pub arrived: bool,
    /// PIBT's priority: grows by one every step it is not where it wants to be. Keep it between
    /// steps ([`CrowdStep::step`] updates it).
    pub priority: f64,
    /// Its own priority when it has arrived, in [0, 1): breaks ties between arrived bodies.
    pub tie_break: f64,
}

impl Mover {
    /// A body at `at`, with a tie-break drawn from `id` (any number that names it: the same id,
    /// the same tie-break).
    pub fn new(at: Point, id: u64) -> Self {
        let tie_break = (SplitMix64(id).next() >> 11) as f64 / (1u64 << 53) as f64;
        Self {
            at,
            free: true,
            arrived: false,
            priority: tie_break,
            tie_break,
        }
    }
}

/// A crowd's PIBT: scratch space kept between steps (see the module docs).
#[derive(Clone, Debug)]
pub struct CrowdStep {
    rng: SplitMix64,
    from: Vec<usize>,
    to: Vec<usize>,
    /// Which mover stands on a cell now, and which takes it next (`NONE`: no one).
    standing: Vec<u32>,
    taking: Vec<u32>,
    order: Vec<usize>,
    next: Vec<Point>,
}

impl CrowdStep {
    /// A crowd whose random tie-breaks come from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SplitMix64(seed),
            from: Vec::new(),
            to: Vec::new(),
            standing: Vec::new(),
            taking: Vec::new(),
            order: Vec::new(),
            next: Vec::new(),
        }
    }

    /// One step of every free mover: returns each mover's next cell (its own, or a legal move
    /// of `movement`), and updates their priorities. `cost_to_go(i, cell)` is how far mover `i`
    /// would be from where it wants to be, standing on `cell`; lower is better.
    ///
    /// A mover off the grid, on a wall, or on a cell an earlier mover already stands on holds
    /// where it is and takes no part: move it somewhere free first.
    pub fn step(
        &mut self,
        grid: &Grid,
        movement: Movement,
        movers: &mut [Mover],
        mut cost_to_go: impl FnMut(usize, Point) -> u32,
    ) -> &[Point] {
        if self.standing.len() != grid.len() {
            self.standing = vec![NONE; grid.len()];
            self.taking = vec![NONE; grid.len()];
        }
        self.from.clear();
        self.to.clear();
        self.order.clear();
        for (i, mover) in movers.iter_mut().enumerate() {
            mover.priority = if mover.arrived {
                mover.tie_break
            } else {
                mover.priority + 1.0
            };
            let cell = grid
                .index_of(mover.at)
                .filter(|&c| grid.is_passable(mover.at) && self.standing[c] == NONE);
            match cell {
                Some(c) => {
                    self.standing[c] = i as u32;
                    self.from.push(c);
                    if mover.free {
                        self.to.push(usize::MAX);
                        self.order.push(i);
                    } else {
                        self.to.push(c);
                        self.taking[c] = i as u32;
                    }
                }
                None => {
                    // Takes no part: it marks no cell, so it holds without blocking anyone.
                    self.from.push(usize::MAX);
                    self.to.push(usize::MAX);
                }
            }
        }
        let mut order = std::mem::take(&mut self.order);
        order.sort_by(|&a, &b| movers[b].priority.total_cmp(&movers[a].priority));
        for &i in &order {
            if self.to[i] == usize::MAX {
                self.plan(grid, movement, &mut cost_to_go, i, None);
            }
        }
        self.order = order;
        self.next.clear();
        for (mover, (&from, &to)) in movers.iter().zip(self.from.iter().zip(&self.to)) {
            if from != usize::MAX {
                self.standing[from] = NONE;
            }
            if to != usize::MAX {
                self.taking[to] = NONE;
            }
            let next = match to {
                usize::MAX => mover.at,
                c => grid.point_of(c),
            };
            self.next.push(next);
        }
        &self.next
    }

    /// `PIBT(i, j)` of the module docs: plans mover `i`, pushed by `pusher` if any. Returns
    /// whether `i` could go somewhere other than staying put against its will.
    fn plan(
        &mut self,
        grid: &Grid,
        movement: Movement,
        cost_to_go: &mut impl FnMut(usize, Point) -> u32,
        i: usize,
        pusher: Option<usize>,
    ) -> bool {
        let here = self.from[i];
        let at = grid.point_of(here);
        // Nearest first; between equals a cell no one stands on (no one to push); then at
        // random. One key each: a cost, a bit and twelve random bits.
        let dice = self.rng.next();
        let mut keyed = [(0u64, here); 9];
        let mut n = 0;
        let moves = movement.neighbors(grid, at).map(|(p, _)| p);
        for p in std::iter::once(at).chain(moves) {
            let Some(c) = grid.index_of(p) else { continue };
            let taken = self.standing[c] != NONE && self.standing[c] as usize != i;
            let key = (u64::from(cost_to_go(i, p)) << 13)
                | (u64::from(taken) << 12)
                | ((dice >> (7 * n)) & 0x7f);
            keyed[n] = (key, c);
            n += 1;
        }
        keyed[..n].sort_unstable_by_key(|&(key, _)| key);
        for &(_, v) in &keyed[..n] {
            if self.taking[v] != NONE
                || pusher.is_some_and(|j| self.from[j] == v)
                || self.swaps(i, here, v)
                || self.crosses(grid, here, v)
            {
                continue;
            }
            self.to[i] = v;
            self.taking[v] = i as u32;
            let k = self.standing[v];
            let unplanned = k != NONE && k as usize != i && self.to[k as usize] == usize::MAX;
            if unplanned && !self.plan(grid, movement, cost_to_go, k as usize, Some(i)) {
                continue; // k stays on v (it took it back): try the next cell
            }
            return true;
        }
        self.to[i] = here;
        self.taking[here] = i as u32;
        false
    }

    /// Would `i` stepping from `here` to `v` swap with the body on `v`?
    fn swaps(&self, i: usize, here: usize, v: usize) -> bool {
        let k = self.standing[v];
        k != NONE && k as usize != i && self.to[k as usize] == here
    }

    /// Would a diagonal step from `here` to `v` cross a body already stepping across it, from
    /// one of its two corner cells to the other?
    fn crosses(&self, grid: &Grid, here: usize, v: usize) -> bool {
        let (a, b) = (grid.point_of(here), grid.point_of(v));
        if a.x == b.x || a.y == b.y {
            return false;
        }
        let corners = [Point::new(b.x, a.y), Point::new(a.x, b.y)];
        let index = |p: Point| grid.index_of(p);
        let (Some(c1), Some(c2)) = (index(corners[0]), index(corners[1])) else {
            return false;
        };
        let goes = |from: usize, to: usize| {
            let k = self.standing[from];
            k != NONE && self.to[k as usize] == to
        };
        goes(c1, c2) || goes(c2, c1)
    }
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
                .step(&grid, Movement::FourWay, &mut movers, |i, c| {
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
    fn a_held_body_is_never_pushed() {
        let grid = Grid::from_ascii(&["...."]).expect("a grid");
        let mut movers = [Mover::new(p(0, 0), 1), Mover::new(p(1, 0), 2)];
        movers[1].free = false;
        movers[0].priority = 100.0;
        let mut crowd = CrowdStep::new(1);
        let next = crowd.step(&grid, Movement::FourWay, &mut movers, |_, c| {
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
            let next = crowd.step(&grid, eight, &mut m, |i, c| chebyshev(c, goals[i]));
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
            .step(&grid, Movement::FourWay, &mut movers, |_, c| {
                manhattan(c, p(3, 0))
            })
            .to_vec();
        assert_eq!(next[0], p(1, 0), "held on its wall");
        assert_eq!(next[1], p(3, 0));
        assert_eq!(next[2], p(2, 0), "held where it overlapped");
    }
}
