//! A body as a crowd step sees it, and the rules of its priority.

use crate::grid::Point;
use crate::mapf::random::SplitMix64;

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
    /// to `tie_break` when it is. Keep it between steps ([`CrowdStep::step`](super::CrowdStep::step) updates it), and
    /// set it to `tie_break` when the body is given somewhere new to go.
    pub priority: f64,
    /// How far behind its `priority` the body is ranked: grows when it is pushed back or has
    /// waited long, never past [`HOLD_BACK_LIMIT`] nor below the tie-break, and is cleared when
    /// it arrives (see [`PUSHED_BACK`] and [`GIVE_WAY_AFTER`]). Kept by [`CrowdStep::step`](super::CrowdStep::step).
    pub held_back: f64,
    /// Steps since it last got nearer to where it wants to be, counted by [`CrowdStep::step`](super::CrowdStep::step).
    pub waiting: u32,
    /// Its own priority when it has arrived, in [0, 1): breaks ties between arrived bodies.
    pub tie_break: f64,
    /// A footprint a body of higher priority could not take last step because this one could
    /// not leave it in one move: this step it heads out of it first, with that body's priority.
    /// Kept by [`CrowdStep::step`](super::CrowdStep::step), as `priority` is.
    pub making_room: Option<Room>,
}

/// Cells a mover is asked to leave: a footprint, and the priority of the body that wants it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Room {
    /// The footprint wanted.
    pub at: Point,
    /// Its size, in cells across.
    pub size: u8,
    /// Where the body that wants it stands, and its priority.
    pub from: Point,
    /// The priority of the body that wants it.
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

    /// Its tie-break for `round` (0: the one [`Mover::new`] drew from `id`; each round another,
    /// as at random), its rank otherwise kept. Bodies that have all given way, held back by the
    /// whole [`HOLD_BACK_LIMIT`] and waiting as long, rank by their tie-breaks alone: if their
    /// pushes go round in a cycle in that order (big units pushing each other about in front of
    /// a door, for minutes), they do for ever. A caller that sees a body no nearer for long
    /// moves it to the next round, and the order among them changes, as PIBT's random
    /// tie-breaks would change it.
    pub fn draw_again(&mut self, id: u64, round: u64) {
        let tie_break =
            Self::new(self.at, id ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15)).tie_break;
        self.priority += tie_break - self.tie_break;
        self.tie_break = tie_break;
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
