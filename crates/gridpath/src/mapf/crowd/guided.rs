//! A crowd step with guidance: each body's moves ordered by its own aim or by its goal's
//! distance table, and weighed against the recent traffic.
//!
//! [`CrowdStep`] asks how far each cell is from where a body wants to be. A game's body knows
//! its route's next cell ([`CrowdWays::Routes`]): enough to order its moves while it stays near
//! its route, but a body pushed far off it heads back as the crow flies. A warehouse's robots
//! share a few destinations, and a breadth-first table per destination ([`Distances`]) gives the
//! true number of moves from every cell ([`CrowdWays::GoalTables`]): the benchmark PIBT's way.
//! The lifelong planner's guide paths ([`CrowdWays::GuidePaths`], given through [`StepWays`])
//! keep files bound opposite ways in different aisles. Its traffic ([`Traffic`],
//! [`CrowdGuidance::Traffic`]) adds a small cost to a move against the recent flow, so that
//! among equally good moves a body takes the one the others took, and lanes form.
//!
//! ```text
//! GuidedStep(movers, aims, detours):
//!     aims of the stalled ← their ways round (detours)
//!     cost_to_go(i, c) ← moves left along i's guide path from c, where it has one
//!                        else moves from c to i's goal by its goal's table, where there is one
//!                        else the distance from c to i's aim
//!                        + the traffic seen against the step to c
//!     next ← CrowdStep(movers, cost_to_go)
//!     record next's moves in the traffic
//! ```

use super::detour::Detours;
use super::mover::Mover;
use super::rules::distance_fifths;
use super::state::CrowdStep;
use crate::grid::{Grid, Point};
use crate::mapf::distances::Distances;
use crate::mapf::moves::Moves;
use crate::mapf::traffic::Traffic;
use crate::movement::Movement;

/// How the crowd steers bodies off each other's way, beyond each body's own way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CrowdGuidance {
    /// Each body follows its own way; PIBT's pushes alone sort out who goes first. The
    /// default: in `bevy_gridpath`'s door, corridor, crossing and sizes scenes the traffic did
    /// not pay.
    #[default]
    None,
    /// Between moves that bring a body equally near, it takes the one the recent traffic took,
    /// and a move against a strong flow can be worth less than a step aside: lanes form, as
    /// pedestrians' do ([`Traffic`], the lifelong planner's `Guidance::TRAFFIC`, on the crowd's
    /// own moves: 4- or 8-way squares, hexagons, isometric maps).
    Traffic,
}

/// What orders a body's moves: how far each cell round it is from where it goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CrowdWays {
    /// Each body's own aim (in a game, its route's next cell). Any map, any size, terrain
    /// costs; but a body pushed off its route heads back to it as the crow flies.
    #[default]
    Routes,
    /// Its goal's breadth-first distance table, shared by every body bound there
    /// ([`Distances`], made when first asked for, and again when the grid changes): the true
    /// number of moves from every cell, so a body pushed about in a packed crowd still knows
    /// its best way on. For one-cell bodies on 4-way squares and hexagons (the others keep
    /// their aims), and 4 bytes a cell for each goal in use: for a warehouse's robots, not a
    /// map of a million cells with a goal per body. On the lifelong benchmark's sorting centre
    /// (800 robots, 1,000 ticks) a game's crowd finishes as many tasks with it as the lifelong
    /// planner's PIBT does, and twice as many as with routes.
    GoalTables,
    /// A guide path for each one-cell body, planned to keep out of the others' paths' way
    /// (the lifelong planner's focal guide paths, Chen et al., AAAI 2024): files bound opposite
    /// ways take different aisles instead of meeting head-on. The paths are given by
    /// [`GuidedStep::guide_by`] (`gridpath::lifelong::BodyGuides`); until then, and for the
    /// bodies they leave out (bigger ones, other moves), as [`CrowdWays::GoalTables`]. On the
    /// sorting centre a game's 800 robots finish at least as many tasks with them as the
    /// lifelong planner with its focal guide paths (13,308 against 12,713 in 1,000 ticks), and
    /// on the warehouse map its 2,000 robots (7,538 against 7,538).
    GuidePaths,
}

impl CrowdWays {
    /// Does a body `size` cells across, moving by `movement`, go by its goal itself (its goal's
    /// table or guide path) rather than by its aim? Such a body needs no route to set off.
    pub fn reads_goal(self, size: u8, movement: Movement) -> bool {
        self != CrowdWays::Routes
            && size <= 1
            && matches!(movement, Movement::FourWay | Movement::Hex(_))
    }
}

/// Ways for bodies given from outside the step, kept from step to step: each body's cost to go
/// from the cells round it ([`CrowdWays::GuidePaths`], `gridpath::lifelong::BodyGuides`).
pub trait StepWays: std::fmt::Debug + Send + Sync {
    /// Before a step on `grid` (the one-cell bodies', its `revision` a number that changes
    /// when it does): `keys[i]` names mover `i` from step to step.
    fn before(
        &mut self,
        grid: &Grid,
        revision: u64,
        movement: Movement,
        keys: &[u64],
        movers: &[Mover],
    );
    /// Moves mover `i` has to go from cell `c` (an index of `grid`), in sixteenths of a move;
    /// `None`: it has no way here, and goes by its goal's table or its aim.
    fn to_go(&self, grid: &Grid, i: usize, c: usize) -> Option<u32>;
    /// After the step: each mover's next cell.
    fn after(&mut self, grid: &Grid, next: &[Point]);
}

/// The most memory the goal tables may hold: past it, they are made afresh as asked for.
const MOST_TABLE_BYTES: usize = 256 << 20;

/// A step's costs are counted in sixteenths of a fifth of a move, so that the traffic can weigh
/// less than the smallest difference of distance ([`distance_fifths`]).
const SCALE: u32 = 16;

/// What the recent traffic weighs ([`CrowdGuidance::Traffic`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flow {
    /// What one body's recent step the other way costs a move, in moves...
    pub weight: f32,
    /// ...at most (below half a move: it breaks ties, and outweighs a step aside only when
    /// many come the other way).
    pub cap: f32,
}

impl Default for Flow {
    /// The lifelong planner's `Guidance::TRAFFIC`: 0.1 a step, at most 0.45.
    fn default() -> Self {
        Self {
            weight: 0.1,
            cap: 0.45,
        }
    }
}

/// A crowd's step and what guides it, kept from one step to the next: PIBT's state, the
/// recent traffic and the goal tables.
#[derive(Debug)]
pub struct GuidedStep {
    step: CrowdStep,
    traffic: Option<Traffic>,
    tables: Option<GoalTables>,
    /// How bodies are steered: by their own ways alone, or the traffic too.
    pub guidance: CrowdGuidance,
    /// What orders each body's moves: its aim, its goal's table, or its guide path.
    pub ways: CrowdWays,
    /// What the traffic weighs, with [`CrowdGuidance::Traffic`].
    pub flow: Flow,
    /// The guide paths, with [`CrowdWays::GuidePaths`].
    guides: Option<Box<dyn StepWays>>,
}

impl GuidedStep {
    /// No traffic yet, no tables, and PIBT's random tie-breaks from `seed`; each body by its
    /// own aim, no traffic.
    pub fn new(seed: u64) -> Self {
        Self {
            step: CrowdStep::new(seed),
            traffic: None,
            tables: None,
            guidance: CrowdGuidance::default(),
            ways: CrowdWays::default(),
            flow: Flow::default(),
            guides: None,
        }
    }

    /// Gives the ways [`CrowdWays::GuidePaths`] reads (`gridpath::lifelong::BodyGuides`).
    pub fn guide_by(&mut self, guides: Box<dyn StepWays>) {
        self.guides = Some(guides);
    }

    /// Has it been given guide paths ([`GuidedStep::guide_by`])?
    pub fn has_guides(&self) -> bool {
        self.guides.is_some()
    }

    /// One step of every free mover ([`CrowdStep::step`], whose rules it keeps): each mover's
    /// next cell. `aims[i]`: mover `i`'s cell and the cell it heads for (`None`: it moves only
    /// when pushed); the stalled ones `detours` found ways round for head for those instead.
    /// With goal tables a one-cell mover with a [`Mover::goal`] reads its goal's table, made
    /// on `grids[0]`, whose `revision` (any number that changes when the grid does) says when
    /// the tables must be made again. With guide paths, `keys[i]` names mover `i` from step to
    /// step ([`StepWays::before`]). Movers past `aims` (a jam's plan keeps their cells) are
    /// drawn nowhere.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        grids: &[&Grid],
        movement: Movement,
        revision: u64,
        keys: &[u64],
        movers: &mut [Mover],
        aims: &mut [(Point, Option<Point>)],
        detours: &mut Detours,
    ) -> Vec<Point> {
        let Some(&grid) = grids.first() else {
            return movers.iter().map(|m| m.at).collect();
        };
        detours.apply(grids, movement, aims);
        let traffic = match self.guidance {
            CrowdGuidance::None => None,
            CrowdGuidance::Traffic => Some(
                self.traffic
                    .take()
                    .filter(|t| t.is_for(grid, movement))
                    .unwrap_or_else(|| Traffic::for_moves(grid, movement)),
            ),
        };
        let mut tables = match self.ways {
            CrowdWays::Routes => None,
            CrowdWays::GoalTables | CrowdWays::GuidePaths => {
                GoalTables::for_step(self.tables.take(), revision, movement)
            }
        };
        let mut guides = self
            .guides
            .take()
            .filter(|_| self.ways == CrowdWays::GuidePaths);
        if let Some(guides) = guides.as_mut() {
            guides.before(grid, revision, movement, keys, movers);
        }
        // The goal whose table a one-cell body reads (where there is none, or the table cannot
        // reach the cell, it heads for its aim).
        let goals: Vec<Option<Point>> = movers
            .iter()
            .map(|m| m.goal.filter(|_| m.size == 1 && tables.is_some()))
            .collect();
        let (aims, weights) = (&*aims, self.flow);
        // Each mover's cell as an index, for the traffic, worked out once and not at each ask.
        let here: Vec<Option<usize>> = aims.iter().map(|&(h, _)| grid.index_of(h)).collect();
        let next = self
            .step
            .step(grids, movement, movers, |i, c| {
                let v = grid.index_of(c);
                let by_guide = guides
                    .as_ref()
                    .zip(v)
                    .and_then(|(g, v)| g.to_go(grid, i, v));
                let by_table = || {
                    let goal = goals.get(i).copied().flatten()?;
                    tables.as_mut()?.moves_to(grid, goal, c)
                };
                let by_way = by_guide
                    .map(|sixteenths| sixteenths.saturating_mul(5))
                    .or_else(by_table);
                let to_go = by_way.unwrap_or_else(|| match aims.get(i) {
                    Some(&(_, Some(aim))) => distance_fifths(movement, c, aim) * SCALE,
                    Some(&(here, None)) => u32::from(c != here) * SCALE,
                    None => 0,
                });
                let against = match (traffic.as_ref(), here.get(i).copied().flatten(), v) {
                    (Some(flow), Some(u), Some(v)) => against(flow, weights, u, v),
                    _ => 0,
                };
                to_go.saturating_add(against)
            })
            .to_vec();
        self.traffic = traffic.map(|flow| recorded(flow, grid, movers, &next));
        if let Some(mut g) = guides {
            g.after(grid, &next);
            self.guides = Some(g);
        }
        self.tables = tables;
        next
    }
}

/// The traffic with a step's moves (each mover's next cell) recorded.
fn recorded(mut flow: Traffic, grid: &Grid, movers: &[Mover], next: &[Point]) -> Traffic {
    let index = |p: Point| grid.index_of(p);
    let moves = movers.iter().zip(next).filter(|(m, to)| m.at != **to);
    flow.record(moves.filter_map(|(m, &to)| Some((index(m.at)?, index(to)?))));
    flow
}

/// What stepping from cell `u` to cell `v` against the recent `flow` costs, in the step's units
/// ([`SCALE`]): whole sixteenths of a move, as the guide paths count, so that a crowd with guide
/// paths weighs its moves exactly as `gridpath::lifelong::LifelongPlanner` does.
fn against(flow: &Traffic, weights: Flow, u: usize, v: usize) -> u32 {
    let cost = (weights.weight * flow.against(u, v)).min(weights.cap);
    ((cost * SCALE as f32) as u32).saturating_mul(5)
}

/// The goal tables a step reads ([`CrowdWays::GoalTables`]), kept between steps while the grid
/// does not change.
#[derive(Debug)]
struct GoalTables {
    distances: Distances,
    /// The grid's revision the tables were made on.
    revision: u64,
}

impl GoalTables {
    /// The tables for a step on the grid of `revision` with `movement`'s moves, from those of
    /// the last step if they still hold; `None` if the moves have no tables.
    fn for_step(last: Option<Self>, revision: u64, movement: Movement) -> Option<Self> {
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
    fn moves_to(&mut self, grid: &Grid, goal: Point, from: Point) -> Option<u32> {
        let (goal, from) = (grid.index_of(goal)?, grid.index_of(from)?);
        let moves = self.distances.get(grid, goal, from);
        (moves != Distances::UNREACHABLE).then(|| moves.saturating_mul(5 * SCALE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps one body from `from` to `goal` across a wall, for at most 20 steps, its aim its
    /// goal itself (a route that ends there, or a way as the crow flies): where it ends.
    fn walk(ways: CrowdWays, guidance: CrowdGuidance, from: Point, goal: Point) -> Point {
        let grid = Grid::from_ascii(&[".......", ".#####.", "......."]).expect("a grid");
        let mut guided = GuidedStep::new(1);
        (guided.ways, guided.guidance) = (ways, guidance);
        let mut movers = [Mover::new(from, 7).with_goal(goal)];
        let mut detours = Detours::default();
        for _ in 0..20 {
            let mut aims = [(movers[0].at, Some(goal))];
            let next = guided.step(
                &[&grid],
                Movement::FourWay,
                0,
                &[0],
                &mut movers,
                &mut aims,
                &mut detours,
            );
            movers[0].at = next[0];
            movers[0].arrived = next[0] == goal;
        }
        movers[0].at
    }

    #[test]
    fn a_body_by_its_goal_table_goes_round_a_wall_its_aim_only_faces() {
        let (from, goal) = (Point::new(3, 0), Point::new(3, 2));
        for guidance in [CrowdGuidance::None, CrowdGuidance::Traffic] {
            assert_eq!(
                walk(CrowdWays::Routes, guidance, from, goal),
                from,
                "by its aim alone, every move takes it further: it stays"
            );
            assert_eq!(
                walk(CrowdWays::GoalTables, guidance, from, goal),
                goal,
                "by the table it goes round"
            );
        }
    }
}
