//! The lifelong planner: agents that each always have a goal, moved one step at a time.
//!
//! Each step is one [`CrowdStep`] (PIBT, Okumura et al., AIJ 2022, with the crowd's priorities:
//! see [`crate::mapf::HOLD_BACK_LIMIT`]) over one-cell agents on 4-way moves, every agent's
//! choices ordered by the distance left along its guide path ([`GuidePaths`], or its goal's
//! distance table, [`GoalTables`], without guidance) plus what stepping against the recent
//! traffic costs ([`Traffic`]). Giving an agent a new goal starts its priority afresh, as the
//! paper's does when an agent reaches its goal, and plans its guide path.
//!
//! ```text
//! step():
//!     for each agent i, each cell v it may take:
//!         cost(i, v) = to_go(i, v) + min(flow · traffic(v → at_i), flow_cap)
//!             to_go: along i's guide path (the guide heuristic), or dist(goal_i, v)
//!     next ← CrowdStep(agents, cost)
//!     traffic.record(at → next); at ← next
//!     an agent off its guide path for 3 steps plans anew, in turn, within the step's budget
//!     of expanded cells (by weighted A*, even with focal guide paths); meanwhile it drops its
//!     path, or keeps it and is led back to it (Guidance::keep_path)
//! ```

use super::guidance::Guidance;
use super::guide::GuidePaths;
use super::tables::{GoalTables, TableSlot};
use crate::grid::{Grid, Point};
use crate::mapf::Traffic;
use crate::mapf::{CrowdStep, Mover};
use crate::movement::Movement;
use std::collections::VecDeque;

/// Distances in a step's costs are counted in sixteenths of a cell, so that guidance can weigh
/// less than a whole cell.
const SCALE: f32 = 16.0;

/// Agents moving on a grid, each bound for a goal that the caller changes as it likes (see the
/// module docs).
#[derive(Clone, Debug)]
pub struct LifelongPlanner {
    grid: Grid,
    crowd: CrowdStep,
    movers: Vec<Mover>,
    /// Each agent's cell and goal, as indices, and its goal's table.
    cells: Vec<usize>,
    goals: Vec<usize>,
    slots: Vec<TableSlot>,
    tables: GoalTables,
    traffic: Traffic,
    guide: GuidePaths,
    guidance: Guidance,
    /// Agents that strayed off their guide path, waiting for a new one.
    lost: VecDeque<usize>,
    seed: u64,
    next: Vec<Point>,
    /// This step's costs of each agent's cell and its sides, in [`around`]'s order.
    near: Vec<[u32; 5]>,
}

impl LifelongPlanner {
    /// A planner on `grid`, its random tie-breaks drawn from `seed`.
    pub fn new(grid: Grid, guidance: Guidance, seed: u64) -> Self {
        Self {
            crowd: CrowdStep::new(seed),
            traffic: Traffic::new(&grid),
            guide: GuidePaths::new(&grid),
            lost: VecDeque::new(),
            grid,
            movers: Vec::new(),
            cells: Vec::new(),
            goals: Vec::new(),
            slots: Vec::new(),
            tables: GoalTables::new(),
            guidance,
            seed,
            next: Vec::new(),
            near: Vec::new(),
        }
    }

    /// The map planned on.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// How many agents.
    pub fn len(&self) -> usize {
        self.movers.len()
    }

    /// No agents?
    pub fn is_empty(&self) -> bool {
        self.movers.is_empty()
    }

    /// Adds an agent at `at` bound for `goal`; returns its number. Both must be free cells of
    /// the map. An agent added on another's cell holds still, taking no part, until it is
    /// alone on its cell (move it first).
    pub fn add_agent(&mut self, at: Point, goal: Point) -> Result<usize, String> {
        let here = self.free_cell(at, "the agent's cell")?;
        let goal = self.free_cell(goal, "its goal")?;
        let id = self.movers.len();
        let tag = (id as u64) ^ self.seed.rotate_left(32);
        self.movers
            .push(Mover::new(at, tag).with_goal(self.grid.point_of(goal)));
        self.cells.push(here);
        self.goals.push(goal);
        self.slots.push(self.tables.acquire(&self.grid, goal));
        self.plan_guide(id, self.guidance);
        Ok(id)
    }

    /// Sends `agent` to a new goal (a free cell), its priority starting afresh.
    pub fn set_goal(&mut self, agent: usize, goal: Point) -> Result<(), String> {
        let goal = self.free_cell(goal, "the goal")?;
        let Some(mover) = self.movers.get_mut(agent) else {
            return Err(format!("there is no agent {agent}"));
        };
        mover.goal = Some(self.grid.point_of(goal));
        mover.priority = mover.tie_break;
        mover.held_back = 0.0;
        mover.waiting = 0;
        let old = std::mem::replace(
            &mut self.slots[agent],
            self.tables.acquire(&self.grid, goal),
        );
        self.tables.release(old);
        self.goals[agent] = goal;
        self.plan_guide(agent, self.guidance);
        Ok(())
    }

    /// Where each agent stands.
    pub fn positions(&self) -> impl ExactSizeIterator<Item = Point> + '_ {
        self.movers.iter().map(|m| m.at)
    }

    /// `agent`'s goal.
    pub fn goal(&self, agent: usize) -> Option<Point> {
        self.goals.get(agent).map(|&g| self.grid.point_of(g))
    }

    /// Moves from `agent`'s cell to its goal, `None` if it cannot get there.
    pub fn distance_to_goal(&self, agent: usize) -> Option<u32> {
        let d = self
            .tables
            .distance(*self.slots.get(agent)?, self.cells[agent]);
        (d != GoalTables::UNREACHABLE).then_some(d)
    }

    /// Walls or floors at `cells` change: every distance table in use is made again. An agent
    /// left on a wall holds there, taking no part, until it is moved.
    pub fn set_blocked(&mut self, cells: &[(Point, bool)]) -> Result<(), String> {
        for &(p, blocked) in cells {
            self.grid
                .set_blocked(p, blocked)
                .map_err(|e| format!("{p}: {e}"))?;
        }
        self.tables.refresh(&self.grid);
        for agent in 0..self.movers.len() {
            self.plan_guide(agent, self.guidance);
        }
        Ok(())
    }

    /// One step of every agent: returns where each now stands.
    pub fn step(&mut self) -> &[Point] {
        self.cost_nearby();
        let (near, cells, grid) = (&self.near, &self.cells, &self.grid);
        let width = grid.width() as usize;
        let cost = |i: usize, p: Point| -> u32 {
            let (Some(v), Some(&u)) = (grid.index_of(p), cells.get(i)) else {
                return u32::MAX;
            };
            let k = around(u, width).iter().position(|&w| w == v);
            k.and_then(|k| near.get(i).map(|n| n[k]))
                .unwrap_or(u32::MAX)
        };
        let next = self
            .crowd
            .step(&[&self.grid], Movement::FourWay, &mut self.movers, cost);
        self.next.clear();
        self.next.extend_from_slice(next);
        let grid = &self.grid;
        if self.guidance.flow_is_on() {
            let moves = self
                .cells
                .iter()
                .zip(&self.next)
                .filter_map(|(&from, &to)| Some((from, grid.index_of(to)?)));
            self.traffic.record(moves);
        }
        for ((mover, cell), &to) in self.movers.iter_mut().zip(&mut self.cells).zip(&self.next) {
            mover.at = to;
            *cell = grid.index_of(to).unwrap_or(*cell);
        }
        if self.guidance.paths_are_on() {
            // Lost agents drop their path at once (its edges no longer count against others)
            // and follow their shortest way, or keep it and are led back to it, until their
            // turn to plan a new one comes. They plan it by weighted A* even with focal guide
            // paths: it expands half the cells of a focal search, so the budget reaches more
            // strays (see `focal.rs`).
            for agent in 0..self.movers.len() {
                if self.guide.advance(agent, self.cells[agent]) {
                    if !self.guidance.keep_path {
                        self.guide.forget(agent);
                    }
                    self.lost.push_back(agent);
                }
            }
            let mut budget = self.guidance.replan as usize;
            while budget > 0 {
                let Some(agent) = self.lost.pop_front() else {
                    break;
                };
                let waits = if self.guidance.keep_path {
                    self.guide.is_lost(agent)
                } else {
                    self.guide.path(agent).is_empty()
                };
                if !waits {
                    // Given a new goal (and a path to it) since it strayed, or back on its
                    // path: planning again would throw away a focal path, and the budget, for
                    // nothing.
                    continue;
                }
                let by_weighted_astar = Guidance {
                    focal: 0.0,
                    ..self.guidance
                };
                budget = budget.saturating_sub(self.plan_guide(agent, by_weighted_astar).max(1));
            }
        }
        &self.next
    }

    /// Every agent's cost (see the module docs) of staying and of each of its four sides, in
    /// [`around`]'s order, worked out in one pass before the crowd step asks for them. The step
    /// asks agent by agent in order of priority, and each ask reads at random in a table of its
    /// own, from memory, not the cache: on the warehouse at 10,000 agents those reads were a
    /// third of the step. In a loop over the agents, with nothing else between them, the
    /// processor waits for many of them at once.
    fn cost_nearby(&mut self) {
        let (width, n) = (self.grid.width() as usize, self.grid.len());
        let mut near = std::mem::take(&mut self.near);
        near.clear();
        for (agent, &u) in self.cells.iter().enumerate() {
            let cells = around(u, width);
            let slot = self.slots[agent];
            let dists = cells.map(|v| {
                if v < n {
                    self.tables.distance(slot, v)
                } else {
                    GoalTables::UNREACHABLE
                }
            });
            let to_go = if self.guidance.paths_are_on() {
                let way_back = self.guidance.keep_path;
                self.guide
                    .costs_to_go(&self.grid, agent, cells, dists, way_back)
            } else {
                dists.map(|d| d.saturating_mul(SCALE as u32))
            };
            near.push(std::array::from_fn(|k| {
                self.cost(agent, cells[k], dists[k], to_go[k])
            }));
        }
        self.near = near;
    }

    /// What it costs `agent` to stand on cell `v` (see the module docs), in sixteenths of a
    /// step, given the goal's distance of `v` and the guide heuristic's cost to go from it;
    /// `u32::MAX` off the map.
    fn cost(&self, agent: usize, v: usize, dist: u32, to_go: u32) -> u32 {
        if v >= self.grid.len() {
            return u32::MAX;
        }
        if dist == GoalTables::UNREACHABLE {
            return u32::MAX / 2;
        }
        let against = if self.guidance.flow_is_on() {
            (self.guidance.flow * self.traffic.against(self.cells[agent], v))
                .min(self.guidance.flow_cap)
        } else {
            0.0
        };
        to_go.saturating_add((against * SCALE) as u32)
    }

    /// Plans `agent`'s guide path from where it stands, if guide paths are on, by the search
    /// `guidance` names. Returns the cells the search expanded.
    fn plan_guide(&mut self, agent: usize, guidance: Guidance) -> usize {
        if !guidance.paths_are_on() {
            return 0;
        }
        let table = self.tables.table(self.slots[agent]);
        let from = self.cells[agent];
        self.guide.plan(&self.grid, agent, from, table, guidance)
    }

    /// The memory the distance tables hold, in bytes.
    pub fn table_bytes(&self) -> usize {
        self.tables.bytes()
    }

    fn free_cell(&self, p: Point, what: &str) -> Result<usize, String> {
        self.grid
            .index_of(p)
            .filter(|_| self.grid.is_passable(p))
            .ok_or_else(|| format!("{what} {p} is a wall or off the map"))
    }
}

/// Cell `u` of a grid `width` cells wide and its sides: itself, up, left, right and down (a side
/// off the map is a number past the grid's cells, or the cell at the other end of a row, which
/// no one asks for).
pub(super) fn around(u: usize, width: usize) -> [usize; 5] {
    [
        u,
        u.wrapping_sub(width),
        u.wrapping_sub(1),
        u + 1,
        u + width,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_given_a_new_goal_while_waiting_to_plan_again_keeps_its_new_path() {
        let grid = Grid::new(12, 3).expect("a grid");
        let mut planner = LifelongPlanner::new(grid, Guidance::FOCAL, 1);
        let (start, goal) = (Point::new(0, 1), Point::new(11, 1));
        let agent = planner
            .add_agent(start, Point::new(5, 0))
            .expect("free cells");
        planner.lost.push_back(agent); // it strayed, and waits its turn to plan again...
        planner.set_goal(agent, goal).expect("a free cell"); // ...and is sent somewhere else
        let planned = planner.guide.path(agent).to_vec();
        assert_eq!(
            planned.first(),
            planner.grid.index_of(start).map(|c| c as u32).as_ref()
        );
        planner.step();
        assert_ne!(planner.positions().next(), Some(start), "it moved on");
        assert_eq!(
            planner.guide.path(agent),
            planned,
            "on the path it was given"
        );
    }

    #[test]
    fn a_stray_keeps_its_path_and_is_led_back_onto_it() {
        // Two ways round the block, of the same length. Pushed off its path at the fork onto
        // the other way, which is now the shorter, the agent goes back to the way it was given.
        let rows = [
            "####....####",
            "####.##.####",
            ".....##.....",
            "####.##.####",
            "####....####",
        ];
        let grid = Grid::from_ascii(&rows).expect("a grid");
        let guidance = Guidance {
            keep_path: true,
            ..Guidance::FOCAL
        };
        let mut planner = LifelongPlanner::new(grid, guidance, 1);
        let agent = planner
            .add_agent(Point::new(0, 2), Point::new(11, 2))
            .expect("free cells");
        let path = planner.guide.path(agent).to_vec();
        let cell = |x, y| planner.grid.index_of(Point::new(x, y)).expect("on the map") as u32;
        let (way, other) = if path.contains(&cell(4, 1)) {
            (cell(4, 1), Point::new(4, 3))
        } else {
            (cell(4, 3), Point::new(4, 1))
        };
        planner.movers[agent].at = other;
        planner.cells[agent] = planner.grid.index_of(other).expect("on the map");
        planner.guide.advance(agent, planner.cells[agent]); // as the step that pushed it
        planner.step();
        planner.step();
        let at = planner
            .grid
            .index_of(planner.positions().next().expect("one agent"));
        assert_eq!(at, Some(way as usize), "back on its way in two steps");
        assert_eq!(planner.guide.path(agent), path, "the path it had, kept");
        assert!(!planner.guide.is_lost(agent));
        for _ in 0..13 {
            planner.step();
        }
        assert_eq!(planner.positions().next(), Some(Point::new(11, 2)));
    }
}
