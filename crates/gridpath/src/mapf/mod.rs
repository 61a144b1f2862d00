//! Many agents, one cell each: multi-agent pathfinding (MAPF) on a grid.
//!
//! The classic rules of the field's benchmark (Stern et al., "Multi-Agent Pathfinding:
//! Definitions, Variants, and Benchmarks", SoCS 2019): time is discrete; at each step every agent
//! waits or moves to one of its four neighbours; no two agents are ever on the same cell
//! (a *vertex conflict*) nor swap cells in one step (an *edge conflict*). An agent's cost is the
//! time it last arrives at its goal and stays there; a plan is measured by the sum of the costs
//! (soc) and the largest cost (makespan), against the lower bounds their single-agent distances
//! give.
//!
//! - [`Instance`]: a grid with each agent's start and goal, from a benchmark scenario or at random.
//! - [`Distances`]: each goal's breadth-first distance table, made when first asked for. This is
//!   where a large instance spends its memory: 4 bytes a cell for every distinct goal.
//! - [`Pibt`]: Priority Inheritance with Backtracking (Okumura et al., AIJ 2022), one step of every
//!   agent at a time; goals may change between steps (*lifelong*).
//! - [`CrowdStep`]: the same PIBT for a game's crowd: 8-way moves, bodies still on their way
//!   held in place, and each body's way given by its route instead of a distance table.
//! - [`solve_with_lacam`]: LaCAM (Okumura, AAAI 2023), a complete search over configurations of
//!   all agents that asks PIBT for each next one, lazily; PIBT's ties are broken by paths planned
//!   beforehand to keep out of each other's way (`scatter`).
//! - [`solve_anytime`]: LaCAM's first plan (the same for the same seed on any machine), then made
//!   cheaper until a deadline or a stop flag, on every core, by large neighbourhood search
//!   (`refine`, its agents re-planned by SIPP, `sipp`) and, on small instances, by LaCAM\*'s
//!   search carried on until it proves the plan optimal (`star`).
//! - [`check_plan`]: an independent validator, sharing no code with the solvers.
//! - [`write_result`], [`parse_result`]: the result format the field's solvers and visualisers
//!   share.

mod anytime;
mod check;
pub mod crowd;
mod distances;
mod instance;
mod lacam;
mod pibt;
mod refine;
mod result;
mod scatter;
mod sipp;
mod star;
mod until;

pub use anytime::{AnytimeLimits, AnytimeRun, Milestone, solve_anytime};
pub use check::{PlanCheck, PlanError, check_plan, check_plan_with_moves};
pub use crowd::{CrowdStep, GIVE_WAY_AFTER, HOLD_BACK_LIMIT, Mover, PUSHED_BACK, Room};
pub use distances::Distances;
pub use instance::{Instance, InstanceError};
pub use lacam::{LacamOutcome, LacamStats, solve_with_lacam};
pub use pibt::{Pibt, PibtPlan, solve_with_pibt};
pub use result::{MAX_RESULT_AGENTS, MAX_RESULT_BYTES, MapfResult, parse_result, write_result};

use crate::grid::{Grid, Point};
use crate::hex::HexLayout;
use crate::movingai::MapShape;
pub(crate) use instance::SplitMix64;

/// How agents step: to a cell that shares a side with theirs. The field's benchmark moves on
/// squares, 4-way; on a hex map an agent steps to any of its six neighbours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Moves {
    /// Up, left, right or down.
    #[default]
    FourWay,
    /// The six neighbours of a hexagon, the map laid out as the [`HexLayout`] says.
    Hex(HexLayout),
}

impl Moves {
    /// The moves of a map of `shape`: a hex map's six, 4-way on squares (turned or not).
    pub fn of_shape(shape: MapShape) -> Moves {
        shape.hex().map_or(Moves::FourWay, Moves::Hex)
    }
}

/// A cell's free neighbours, by index: the moves of MAPF (waiting is not listed). The order is
/// fixed (4-way: up, left, right, down; hex: [`HexLayout::steps`]'s) so that runs repeat exactly.
#[inline]
pub(crate) fn neighbours(grid: &Grid, moves: Moves, i: usize) -> impl Iterator<Item = usize> + '_ {
    let cells = match moves {
        Moves::FourWay => four_way_cells(grid, i),
        Moves::Hex(layout) => hex_cells(grid, layout, i),
    };
    cells
        .into_iter()
        .flatten()
        .filter(move |&j| grid.raw_cost(j) != 0)
}

/// [`neighbours`] for the hot loops (the distance tables' breadth-first searches, PIBT's
/// choices): `visit` is called on each, the 4-way ones in straight-line code. Through
/// [`neighbours`], LaCAM's first plan on random-32-32-10 with 400 agents took 10 % more
/// instructions than when 4-way moves were all there was; this way, 3 %.
#[inline]
pub(crate) fn for_each_neighbour(
    grid: &Grid,
    moves: Moves,
    i: usize,
    mut visit: impl FnMut(usize),
) {
    let mut free = |j: usize| {
        if grid.raw_cost(j) != 0 {
            visit(j);
        }
    };
    match moves {
        Moves::FourWay => {
            let width = grid.width() as usize;
            let (x, y) = (i % width, i / width);
            if y > 0 {
                free(i - width);
            }
            if x > 0 {
                free(i - 1);
            }
            if x + 1 < width {
                free(i + 1);
            }
            if i + width < grid.len() {
                free(i + width);
            }
        }
        Moves::Hex(layout) => hex_cells(grid, layout, i)
            .into_iter()
            .flatten()
            .for_each(free),
    }
}

/// A square's four sides, by index: up, left, right, down; `None` off the map.
#[inline]
fn four_way_cells(grid: &Grid, i: usize) -> [Option<usize>; 6] {
    let width = grid.width() as usize;
    let (x, y) = (i % width, i / width);
    let up = (y > 0).then(|| i - width);
    let left = (x > 0).then(|| i - 1);
    let right = (x + 1 < width).then(|| i + 1);
    let down = (i + width < grid.len()).then(|| i + width);
    [up, left, right, down, None, None]
}

/// A hexagon's six neighbours, by index, in [`HexLayout::steps`]'s order: `None` off the map.
fn hex_cells(grid: &Grid, layout: HexLayout, i: usize) -> [Option<usize>; 6] {
    let width = grid.width() as usize;
    let height = grid.len() / width.max(1);
    let (x, y) = (i % width, i / width);
    layout
        .steps(Point::new(x as i32, y as i32))
        .map(|(dx, dy)| {
            let (tx, ty) = (
                x.wrapping_add_signed(dx as isize),
                y.wrapping_add_signed(dy as isize),
            );
            (tx < width && ty < height).then(|| ty * width + tx)
        })
}

/// What lies past a cell of a passage, coming from the cell `behind` it: a fork (two ways on or
/// more), a dead end, or the one way on. LaCAM\*'s emulated swap follows passages by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Way {
    Fork,
    DeadEnd,
    On(usize),
}

impl Way {
    /// The way on through `ways` (the cells out of a cell), leaving out `behind` and the cells
    /// `wall` says are as good as walls.
    pub(crate) fn past(
        behind: usize,
        ways: impl Iterator<Item = usize>,
        wall: impl Fn(usize) -> bool,
    ) -> Way {
        let mut on = None;
        for u in ways.filter(|&u| u != behind && !wall(u)) {
            if on.is_some() {
                return Way::Fork;
            }
            on = Some(u);
        }
        on.map_or(Way::DeadEnd, Way::On)
    }
}

/// An agent's choices for its next step, in random order: staying on `here`, or moving to one of
/// its free neighbours. Returns them in an array and how many there are.
pub(crate) fn choices_shuffled(
    grid: &Grid,
    moves: Moves,
    here: usize,
    rng: &mut SplitMix64,
) -> ([usize; 7], usize) {
    let mut cells = [here; 7];
    let mut n = 1;
    for next in neighbours(grid, moves, here) {
        cells[n] = next;
        n += 1;
    }
    for k in (1..n).rev() {
        cells.swap(k, (rng.next() % (k as u64 + 1)) as usize);
    }
    (cells, n)
}
