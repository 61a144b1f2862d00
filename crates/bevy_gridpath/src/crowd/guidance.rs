//! How the crowd steers bodies off each other's way, beyond each body's own route.

use gridpath::lifelong::Traffic;
use gridpath::mapf::{Distances, Moves};
use gridpath::{Grid, Movement, Point};

/// How the crowd steers bodies off each other's way, beyond each body's own route.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CrowdGuidance {
    /// Each body follows its own route; PIBT's pushes alone sort out who goes first. The
    /// default: in the door, corridor, crossing and sizes scenes the traffic did not pay.
    #[default]
    None,
    /// Between moves that bring a body equally near, it takes the one the recent traffic took,
    /// and a move against a strong flow can be worth less than a step aside: lanes form, as
    /// pedestrians' do ([`gridpath::lifelong::Traffic`], the lifelong planner's
    /// `Guidance::TRAFFIC`, on the crowd's own moves: 4- or 8-way squares, hexagons, isometric
    /// maps).
    Traffic,
}

/// What orders a body's moves: how far each cell round it is from where it goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CrowdWays {
    /// Each body's route from the path service: its next cell. Any map, any size, terrain
    /// costs; but a body pushed off its route heads back to it as the crow flies.
    #[default]
    Routes,
    /// Its destination's breadth-first distance table, shared by every body bound there
    /// ([`gridpath::mapf::Distances`], made off the frame when first asked for, and again after
    /// an edit): the true number of moves from every cell, so a body pushed about in a packed
    /// crowd still knows its best way on. For one-cell bodies on 4-way squares and hexagons
    /// (the others keep their routes), and 4 bytes a cell for each destination in use: for a
    /// warehouse's robots, not a map of a million cells with a destination per body. On the
    /// lifelong benchmark's sorting centre (800 robots, 1,000 ticks) the plugin finishes as many
    /// tasks with it as the core's PIBT does, and a quarter more than with routes.
    GoalTables,
}

/// The most memory the goal tables may hold: past it, they are made afresh as asked for.
const MOST_TABLE_BYTES: usize = 256 << 20;

/// The goal tables a step reads ([`CrowdWays::GoalTables`]), kept between steps while the grid
/// does not change.
#[derive(Debug)]
pub(super) struct GoalTables {
    distances: Distances,
    /// The grid's revision the tables were made on.
    revision: u64,
}

impl GoalTables {
    /// The tables for a step on the grid of `revision` with `movement`'s moves, from those of
    /// the last step if they still hold; `None` if the moves have no tables.
    pub(super) fn for_step(last: Option<Self>, revision: u64, movement: Movement) -> Option<Self> {
        let moves = match movement {
            Movement::FourWay => Moves::FourWay,
            Movement::Hex(layout) => Moves::Hex(layout),
            _ => return None,
        };
        let fresh = || Self {
            distances: Distances::with_moves(moves),
            revision,
        };
        let kept = last.filter(|t| {
            t.revision == revision
                && t.distances.moves() == moves
                && t.distances.bytes() <= MOST_TABLE_BYTES
        });
        Some(kept.unwrap_or_else(fresh))
    }

    /// Moves from `from` to `goal` on `grid`, in the step's units ([`SCALE`]); `None` if
    /// `goal` cannot be reached from there.
    pub(super) fn moves_to(&mut self, grid: &Grid, goal: Point, from: Point) -> Option<u32> {
        let (goal, from) = (grid.index_of(goal)?, grid.index_of(from)?);
        let moves = self.distances.get(grid, goal, from);
        (moves != Distances::UNREACHABLE).then(|| moves.saturating_mul(5 * SCALE))
    }
}

/// A step's costs are counted in sixteenths of a fifth of a move, so that the traffic can weigh
/// less than the smallest difference of distance ([`distance_fifths`]).
///
/// [`distance_fifths`]: gridpath::mapf::crowd::distance_fifths
pub(super) const SCALE: u32 = 16;

/// What one body's recent step the other way costs a move, in moves...
const FLOW: f32 = 0.1;

/// ...at most (below half a move: it breaks ties, and outweighs a step aside only when many
/// come the other way). The lifelong planner's `Guidance::TRAFFIC`.
const FLOW_CAP: f32 = 0.45;

/// What stepping from `here` to `c` against the recent `flow` costs, in the step's units
/// ([`SCALE`]).
pub(super) fn against(flow: &Traffic, grid: &Grid, here: Point, c: Point) -> u32 {
    let cost = (FLOW * flow.against_at(grid, here, c)).min(FLOW_CAP);
    (cost * (5 * SCALE) as f32) as u32
}
