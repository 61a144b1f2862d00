//! The lifelong planner's guide paths for a game's bodies, which come and go between steps
//! ([`CrowdWays::GuidePaths`]).
//!
//! [`LifelongPlanner`](super::LifelongPlanner) numbers its agents once and for all. A game's
//! crowd is a set of bodies that changes at every step: some join, some leave, some are given
//! somewhere new, some are too big for a guide path. `BodyGuides` keeps a guide path for each
//! one-cell body with a goal, named by its key (in `bevy_gridpath`, its entity), and plans,
//! follows and re-plans it as the planner does:
//!
//! ```text
//! before a step:
//!     a body not seen before, or given a new goal: plan its guide path (focal search)
//!     a body no longer there, or no longer guided: give its path back
//!     the walls changed: every table made again, every path planned again
//!     cost_to_go(i, v) for v its cell and its four sides (the guide heuristic, guide.rs)
//! after it:
//!     each body advanced along its path; one off it for 3 steps plans anew, in turn, within
//!     the step's budget of expanded cells (weighted A*), and is led back to it meanwhile
//! ```

use super::guidance::Guidance;
use super::guide::GuidePaths;
use super::tables::{GoalTables, TableSlot};
use crate::grid::{Grid, Point};
use crate::mapf::Mover;
use crate::mapf::crowd::StepWays;
use crate::mapf::fx::FxMap;
use crate::movement::Movement;
use std::collections::VecDeque;

/// One guided body: its number among the guide paths, its cell and goal (indices), its goal's
/// table, the step it was last seen at, and whether it has just stepped onto its goal.
#[derive(Clone, Copy, Debug)]
struct Guided {
    agent: usize,
    cell: usize,
    goal: usize,
    slot: TableSlot,
    seen: u64,
    arrived: bool,
}

/// Guide paths for bodies named by keys (see the module docs). Give it to a crowd's step with
/// [`GuidedStep::guide_by`](crate::mapf::crowd::GuidedStep::guide_by).
#[derive(Debug)]
pub struct BodyGuides {
    guidance: Guidance,
    guide: GuidePaths,
    tables: GoalTables,
    bodies: FxMap<u64, Guided>,
    /// The key of the body each guide path number was last given to.
    owner: Vec<u64>,
    /// Guide path numbers given back, to be used again.
    spare: Vec<usize>,
    agents: usize,
    /// Guide path numbers off their paths, waiting to plan again.
    lost: VecDeque<usize>,
    /// The grid planned on: its size and revision.
    on: (u32, u32, u64),
    steps: u64,
    /// This step's movers' keys, and the costs to go of each guided one's cell and sides.
    keys: Vec<u64>,
    near: Vec<Option<(usize, [u32; 5])>>,
}

impl Default for BodyGuides {
    fn default() -> Self {
        Self::new(Guidance::FOCAL)
    }
}

impl BodyGuides {
    /// No guide paths yet; planned as `guidance` says (its paths' part: contraflow, focal
    /// search and slack, re-planning budget, keeping a path; [`Guidance::FOCAL`] by default).
    pub fn new(guidance: Guidance) -> Self {
        Self {
            guidance,
            guide: GuidePaths::default(),
            tables: GoalTables::new(),
            bodies: FxMap::default(),
            owner: Vec::new(),
            spare: Vec::new(),
            agents: 0,
            lost: VecDeque::new(),
            on: (0, 0, u64::MAX),
            steps: 0,
            keys: Vec::new(),
            near: Vec::new(),
        }
    }

    /// How many bodies have a guide path.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// None?
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The guide path of the body named `key`, as cells from where it was planned.
    pub fn path(&self, grid: &Grid, key: u64) -> Vec<Point> {
        self.bodies.get(&key).map_or_else(Vec::new, |b| {
            let path = self.guide.path(b.agent);
            path.iter().map(|&c| grid.point_of(c as usize)).collect()
        })
    }

    /// A new grid, or walls changed: every table made again, every path planned again.
    fn start_on(&mut self, grid: &Grid, revision: u64) {
        let on = (grid.width(), grid.height(), revision);
        if self.on == on {
            return;
        }
        if (self.on.0, self.on.1) != (on.0, on.1) {
            // Cell indices of another grid mean nothing here.
            for b in std::mem::take(&mut self.bodies).into_values() {
                self.tables.release(b.slot);
            }
            (self.spare, self.agents) = (Vec::new(), 0);
            self.lost.clear();
        }
        self.guide = GuidePaths::new(grid);
        self.tables.refresh(grid);
        self.on = on;
        // In a fixed order (a map's is random): each path is planned round those before it.
        let mut bodies: Vec<Guided> = self.bodies.values().copied().collect();
        bodies.sort_unstable_by_key(|b| b.agent);
        for b in bodies {
            self.plan(grid, b);
        }
    }

    /// Plans `b`'s guide path, if guide paths are on; the cells the search expanded.
    fn plan(&mut self, grid: &Grid, b: Guided) -> usize {
        if !self.guidance.paths_are_on() {
            return 0; // each body by its goal's table alone
        }
        let table = self.tables.table(b.slot);
        self.guide.plan(grid, b.agent, b.cell, table, self.guidance)
    }

    /// Notes mover `m` named `key` at this step: a guide path planned if it is new or bound
    /// somewhere new. Returns its guide path's number and its goal's table, if it has one.
    fn note(&mut self, grid: &Grid, key: u64, m: &Mover) -> Option<(usize, TableSlot)> {
        let goal = m.goal.filter(|&g| m.size == 1 && grid.is_passable(g));
        let (goal, cell) = match (goal.and_then(|g| grid.index_of(g)), grid.index_of(m.at)) {
            (Some(goal), Some(cell)) => (goal, cell),
            _ => {
                self.drop_body(key);
                return None;
            }
        };
        let steps = self.steps;
        if let Some(b) = self.bodies.get_mut(&key) {
            b.seen = steps;
            b.cell = cell;
            // Bound for the cell it has just stepped onto once more (a robot's next task at the
            // same shelf): a path of its own from there, as for any new goal.
            if b.goal == goal && !b.arrived {
                return Some((b.agent, b.slot));
            }
        }
        let slot = self.tables.acquire(grid, goal);
        let b = match self.bodies.get(&key).copied() {
            Some(old) => {
                self.tables.release(old.slot);
                let arrived = false;
                Guided {
                    goal,
                    slot,
                    arrived,
                    ..old
                }
            }
            None => {
                let agent = self.spare.pop().unwrap_or_else(|| {
                    self.agents += 1;
                    self.agents - 1
                });
                Guided {
                    agent,
                    cell,
                    goal,
                    slot,
                    seen: steps,
                    arrived: false,
                }
            }
        };
        self.bodies.insert(key, b);
        if self.owner.len() <= b.agent {
            self.owner.resize(b.agent + 1, 0);
        }
        self.owner[b.agent] = key;
        self.plan(grid, b);
        Some((b.agent, b.slot))
    }

    /// The body named `key` is gone, or no longer guided: its path given back.
    fn drop_body(&mut self, key: u64) {
        if let Some(b) = self.bodies.remove(&key) {
            self.guide.forget(b.agent);
            self.tables.release(b.slot);
            self.spare.push(b.agent);
        }
    }
}

/// Cell `u` of a grid `width` cells wide and its sides: itself, up, left, right and down (a side
/// off the map is a number past the grid's cells, or the cell at the other end of a row, which
/// no one asks for).
fn around(u: usize, width: usize) -> [usize; 5] {
    [
        u,
        u.wrapping_sub(width),
        u.wrapping_sub(1),
        u + 1,
        u + width,
    ]
}

impl StepWays for BodyGuides {
    fn before(
        &mut self,
        grid: &Grid,
        revision: u64,
        movement: Movement,
        keys: &[u64],
        movers: &[Mover],
    ) {
        self.steps += 1;
        self.near.clear();
        self.keys.clear();
        if movement != Movement::FourWay {
            return; // the guide paths' searches take 4-way steps
        }
        self.start_on(grid, revision);
        let width = grid.width() as usize;
        for (&key, m) in keys.iter().zip(movers) {
            let agent = self.note(grid, key, m);
            let near = agent.zip(grid.index_of(m.at)).map(|((agent, slot), u)| {
                let cells = around(u, width);
                let dists = cells.map(|v| self.tables.distance(slot, v));
                let way_back = self.guidance.keep_path;
                let costs = self.guide.costs_to_go(grid, agent, cells, dists, way_back);
                (u, costs)
            });
            self.keys.push(key);
            self.near.push(near);
        }
        let steps = self.steps;
        let mut gone: Vec<u64> = self
            .bodies
            .iter()
            .filter(|(_, b)| b.seen != steps)
            .map(|(&k, _)| k)
            .collect();
        gone.sort_unstable(); // their numbers are given out again in this order
        for key in gone {
            self.drop_body(key);
        }
    }

    fn to_go(&self, grid: &Grid, i: usize, v: usize) -> Option<u32> {
        let &(u, costs) = self.near.get(i)?.as_ref()?;
        let k = around(u, grid.width() as usize)
            .iter()
            .position(|&w| w == v)?;
        costs.get(k).copied()
    }

    fn after(&mut self, grid: &Grid, next: &[Point]) {
        let mut lost_now = Vec::new();
        for (key, to) in self.keys.iter().zip(next) {
            let (Some(b), Some(at)) = (self.bodies.get_mut(key), grid.index_of(*to)) else {
                continue;
            };
            b.arrived = at == b.goal && b.cell != at;
            b.cell = at;
            if self.guidance.paths_are_on() && self.guide.advance(b.agent, at) {
                lost_now.push(b.agent);
            }
        }
        for agent in lost_now {
            if !self.guidance.keep_path {
                self.guide.forget(agent);
            }
            self.lost.push_back(agent);
        }
        // Strays plan again in turn, within the budget, by weighted A* (see the planner).
        let mut budget = self.guidance.replan as usize;
        let by_weighted_astar = Guidance {
            focal: 0.0,
            ..self.guidance
        };
        while budget > 0 {
            let Some(agent) = self.lost.pop_front() else {
                break;
            };
            let owner = self.owner.get(agent).and_then(|key| self.bodies.get(key));
            let Some(&b) = owner.filter(|b| b.agent == agent) else {
                continue; // gone since
            };
            let waits = if self.guidance.keep_path {
                self.guide.is_lost(agent)
            } else {
                self.guide.path(agent).is_empty()
            };
            if waits {
                let table = self.tables.table(b.slot);
                let spent = self
                    .guide
                    .plan(grid, agent, b.cell, table, by_weighted_astar);
                budget = budget.saturating_sub(spent.max(1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapf::crowd::{CrowdWays, Detours, GuidedStep};

    /// Steps `bodies` (key, from, goal) on `grid` with guide paths for at most `steps` steps,
    /// checking at each that no two share a cell or swap; returns the steps each took to stand
    /// on its goal, and the guides.
    fn run(
        rows: &[&str],
        bodies: &[(u64, Point, Point)],
        steps: usize,
    ) -> (Vec<Option<usize>>, GuidedStep) {
        let grid = Grid::from_ascii(rows).expect("a grid");
        let mut guided = GuidedStep::new(7);
        guided.ways = CrowdWays::GuidePaths;
        guided.guide_by(Box::new(BodyGuides::default()));
        let keys: Vec<u64> = bodies.iter().map(|b| b.0).collect();
        let mut movers: Vec<Mover> = bodies
            .iter()
            .map(|&(key, at, goal)| Mover::new(at, key).with_goal(goal))
            .collect();
        let mut done = vec![None; bodies.len()];
        let mut detours = Detours::default();
        for step in 1..=steps {
            let mut aims: Vec<_> = movers.iter().map(|m| (m.at, m.goal)).collect();
            let (grids, four) = (&[&grid][..], Movement::FourWay);
            let next = guided.step(grids, four, 0, &keys, &mut movers, &mut aims, &mut detours);
            let next = next.to_vec();
            for (i, m) in movers.iter().enumerate() {
                for (j, n) in movers.iter().enumerate().skip(i + 1) {
                    assert_ne!(next[i], next[j], "{i} and {j} on one cell");
                    let swap = next[i] == n.at && next[j] == m.at;
                    assert!(!swap || m.at == n.at, "{i} and {j} swap");
                }
            }
            for (i, m) in movers.iter_mut().enumerate() {
                m.at = next[i];
                m.arrived = Some(m.at) == m.goal;
                if m.arrived && done[i].is_none() {
                    done[i] = Some(step);
                }
            }
        }
        (done, guided)
    }

    const TWO_WAYS: [&str; 3] = [".....", ".###.", "....."];

    #[test]
    fn two_bodies_bound_opposite_ways_round_a_block_are_guided_round_opposite_sides() {
        // Two ways round the block, each six moves: the second body's guide path keeps off the
        // first's, which comes the other way, and both get there without meeting head-on.
        let (west, east) = (Point::new(0, 1), Point::new(4, 1));
        let bodies = [(1, west, east), (2, east, west)];
        let (done, _) = run(&TWO_WAYS, &bodies, 8);
        assert_eq!(done, [Some(6), Some(6)], "both round in six moves");
    }

    #[test]
    fn a_body_given_a_new_goal_while_waiting_to_plan_again_keeps_its_new_path() {
        let grid = Grid::new(12, 3).expect("a grid");
        let mut guides = BodyGuides::default();
        let (start, goal, four) = (Point::new(0, 1), Point::new(11, 1), Movement::FourWay);
        let body = Mover::new(start, 1).with_goal(Point::new(5, 0));
        guides.before(&grid, 0, four, &[1], &[body]);
        guides.lost.push_back(guides.bodies[&1].agent); // it strayed, and waits to plan again...
        guides.before(&grid, 0, four, &[1], &[body.with_goal(goal)]); // ...and is sent elsewhere
        let planned = guides.path(&grid, 1);
        assert_eq!(planned.first(), Some(&start));
        guides.after(&grid, &[planned[1]]);
        assert_eq!(guides.path(&grid, 1), planned, "on the path it was given");
    }

    #[test]
    fn a_stray_keeps_its_path_and_is_led_back_onto_it() {
        // Two ways round the block, of the same length. Pushed off its path at the fork onto
        // the other way, which is now the shorter, the body goes back to the way it was given.
        let rows = [
            "####....####",
            "####.##.####",
            ".....##.....",
            "####.##.####",
            "####....####",
        ];
        let grid = Grid::from_ascii(&rows).expect("a grid");
        let mut guides = BodyGuides::new(Guidance {
            keep_path: true,
            ..Guidance::FOCAL
        });
        let four = Movement::FourWay;
        let mut body = Mover::new(Point::new(0, 2), 1).with_goal(Point::new(11, 2));
        guides.before(&grid, 0, four, &[1], &[body]);
        let path = guides.path(&grid, 1);
        let (way, other) = match path.contains(&Point::new(4, 1)) {
            true => (Point::new(4, 1), Point::new(4, 3)),
            false => (Point::new(4, 3), Point::new(4, 1)),
        };
        guides.after(&grid, &[other]); // pushed there
        body.at = other;
        // Each step the body takes the cheapest of its cell and its sides by its cost to go
        // (PIBT's choice for a body alone).
        let step = |guides: &mut BodyGuides, body: &mut Mover| {
            guides.before(&grid, 0, four, &[1], &[*body]);
            let (x, y) = (body.at.x, body.at.y);
            let cells = [(x, y), (x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)];
            let cost = |&(x, y): &(i32, i32)| {
                let c = Point::new(x, y);
                let free = grid.is_passable(c);
                let v = grid.index_of(c).filter(|_| free)?;
                guides.to_go(&grid, 0, v)
            };
            let best = cells.iter().filter_map(|c| Some((cost(c)?, *c))).min();
            body.at = best.map_or(body.at, |(_, (x, y))| Point::new(x, y));
            guides.after(&grid, &[body.at]);
        };
        step(&mut guides, &mut body);
        step(&mut guides, &mut body);
        assert_eq!(body.at, way, "back on its way in two steps");
        assert_eq!(guides.path(&grid, 1), path, "the path it had, kept");
        assert!(!guides.guide.is_lost(guides.bodies[&1].agent));
        for _ in 0..13 {
            step(&mut guides, &mut body);
        }
        assert_eq!(body.at, Point::new(11, 2));
    }

    #[test]
    fn a_body_that_leaves_gives_its_path_back_and_one_sent_elsewhere_plans_anew() {
        let grid = Grid::from_ascii(&TWO_WAYS).expect("a grid");
        let mut guides = BodyGuides::default();
        let (west, east, corner) = (Point::new(0, 1), Point::new(4, 1), Point::new(4, 2));
        let four = Movement::FourWay;
        let one = Mover::new(west, 1).with_goal(east);
        let two = Mover::new(east, 2).with_goal(west);
        guides.before(&grid, 0, four, &[1, 2], &[one, two]);
        let (first, second) = (guides.path(&grid, 1), guides.path(&grid, 2));
        assert_eq!((first.len(), second.len()), (7, 7), "{first:?} {second:?}");
        assert_ne!(
            first[1].y, second[5].y,
            "round opposite sides: {first:?} {second:?}"
        );
        // The first leaves: the second, planned again (the walls changed), takes either side.
        guides.before(&grid, 1, four, &[2], &[two]);
        assert_eq!(guides.len(), 1);
        assert!(guides.path(&grid, 1).is_empty());
        let two = two.with_goal(corner);
        guides.before(&grid, 1, four, &[2], &[two]);
        assert_eq!(guides.path(&grid, 2).last(), Some(&corner));
        // Another way of moving: no guide paths, every body goes by its table or its aim.
        guides.before(&grid, 1, Movement::default(), &[2], &[two]);
        let corner = grid.index_of(corner).expect("on the map");
        assert_eq!(guides.to_go(&grid, 0, corner), None);
    }
}
