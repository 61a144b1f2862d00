//! The lifelong planner: agents that each always have a goal, moved one step at a time.
//!
//! It is a game's crowd in one configuration: [`CrowdRuntime`], the crowd `bevy_gridpath` moves
//! a game's bodies with, here with one-cell bodies on 4-way moves, each free to move at every
//! step, each given its guide path by [`BodyGuides`] (or its goal's distance table alone, without
//! guidance), and the recent traffic weighed as the [`Guidance`] says. So the benchmark's figures
//! are a game's.
//!
//! Each step is one [`CrowdStep`](crate::mapf::CrowdStep) (PIBT, Okumura et al., AIJ 2022, with
//! the crowd's priorities: see [`crate::mapf::HOLD_BACK_LIMIT`]), every agent's choices ordered by
//! the distance left along its guide path ([`GuidePaths`](super::GuidePaths), or its goal's
//! distance table, [`GoalTables`](super::GoalTables), without guidance) plus what stepping against
//! the recent traffic costs ([`Traffic`](crate::mapf::Traffic)). Giving an agent a new goal starts
//! its priority afresh, as the paper's does when an agent reaches its goal, and plans its guide
//! path.
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

use super::bodies::BodyGuides;
use super::guidance::Guidance;
use crate::components::Components;
use crate::grid::{Grid, Point};
use crate::mapf::Mover;
use crate::mapf::crowd::{
    CrowdGuidance, CrowdRuntime, CrowdWays, Flow, JamBody, Standing, TickBody,
};
use crate::movement::Movement;
use std::sync::Arc;

/// Agents moving on a grid, each bound for a goal that the caller changes as it likes (see the
/// module docs).
#[derive(Debug)]
pub struct LifelongPlanner {
    grid: Arc<Grid>,
    /// Counts the grid's changes: the guide paths and tables are made again when it does.
    revision: u64,
    regions: Components,
    crowd: CrowdRuntime,
    seed: u64,
    /// Each agent's key (it seeds the agent's tie-break), cell, goal, and PIBT's state of it.
    keys: Vec<u64>,
    at: Vec<Point>,
    goals: Vec<Point>,
    movers: Vec<Mover>,
    steps: u64,
}

impl LifelongPlanner {
    /// A planner on `grid`, its random tie-breaks drawn from `seed`.
    pub fn new(grid: Grid, guidance: Guidance, seed: u64) -> Self {
        let mut crowd = CrowdRuntime::new(seed);
        crowd.ways = CrowdWays::GuidePaths;
        crowd.guidance = match guidance.flow_is_on() {
            true => CrowdGuidance::Traffic,
            false => CrowdGuidance::None,
        };
        crowd.flow = Flow {
            weight: guidance.flow,
            cap: guidance.flow_cap,
        };
        if let Some(guided) = crowd.guided() {
            guided.guide_by(Box::new(BodyGuides::new(guidance)));
        }
        let mut regions = Components::new();
        regions.update(&grid, Movement::FourWay);
        Self {
            grid: Arc::new(grid),
            revision: 0,
            regions,
            crowd,
            seed,
            keys: Vec::new(),
            at: Vec::new(),
            goals: Vec::new(),
            movers: Vec::new(),
            steps: 0,
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
    /// alone on its cell.
    pub fn add_agent(&mut self, at: Point, goal: Point) -> Result<usize, String> {
        self.free_cell(at, "the agent's cell")?;
        self.free_cell(goal, "its goal")?;
        let id = self.movers.len();
        let key = (id as u64) ^ self.seed.rotate_left(32);
        self.keys.push(key);
        self.at.push(at);
        self.goals.push(goal);
        self.movers.push(Mover::new(at, key).with_goal(goal));
        Ok(id)
    }

    /// Sends `agent` to a new goal (a free cell), its priority starting afresh.
    pub fn set_goal(&mut self, agent: usize, goal: Point) -> Result<(), String> {
        self.free_cell(goal, "the goal")?;
        let (Some(mover), Some(slot)) = (self.movers.get_mut(agent), self.goals.get_mut(agent))
        else {
            return Err(format!("there is no agent {agent}"));
        };
        *slot = goal;
        mover.goal = Some(goal);
        mover.priority = mover.tie_break;
        mover.held_back = 0.0;
        mover.waiting = 0;
        Ok(())
    }

    /// Where each agent stands.
    pub fn positions(&self) -> impl ExactSizeIterator<Item = Point> + '_ {
        self.at.iter().copied()
    }

    /// `agent`'s goal.
    pub fn goal(&self, agent: usize) -> Option<Point> {
        self.goals.get(agent).copied()
    }

    /// Can `agent` get to its goal from where it stands (`None`: there is no such agent)?
    pub fn reaches_goal(&self, agent: usize) -> Option<bool> {
        let (at, goal) = (*self.at.get(agent)?, *self.goals.get(agent)?);
        Some(self.regions.connected(&self.grid, at, goal))
    }

    /// Walls or floors at `cells` change: every guide path and distance table is made again at
    /// the next step. An agent left on a wall holds there, taking no part, until it is moved.
    pub fn set_blocked(&mut self, cells: &[(Point, bool)]) -> Result<(), String> {
        let grid = Arc::make_mut(&mut self.grid);
        for &(p, blocked) in cells {
            grid.set_blocked(p, blocked)
                .map_err(|e| format!("{p}: {e}"))?;
        }
        self.revision += 1;
        self.regions.update(&self.grid, Movement::FourWay);
        Ok(())
    }

    /// One step of every agent (see the module docs): returns where each now stands.
    pub fn step(&mut self) -> &[Point] {
        let now = self.steps as f32;
        self.steps += 1;
        let mut bodies = Vec::with_capacity(self.len());
        for ((&key, &at), &goal) in self.keys.iter().zip(&self.at).zip(&self.goals) {
            let jam = JamBody {
                key,
                at,
                size: 1,
                moves: true,
                target: Some(goal),
                circling: None,
            };
            let (aim, stalled) = (Some(goal), 0.0);
            bodies.push(TickBody { jam, aim, stalled });
        }
        let movers = self.movers.clone();
        let grids = (vec![self.grid.clone()], self.revision);
        let four = Movement::FourWay;
        let (planned, input) = self.crowd.prepare(&bodies, movers, grids, four, now);
        let standing: Vec<Standing> = bodies
            .iter()
            .map(|b| Standing {
                key: b.jam.key,
                at: b.jam.at,
                size: 1,
            })
            .collect();
        let grid = &[&*self.grid][..];
        let moves = self
            .crowd
            .finish(planned, input.run(), &standing, grid, now);
        for ((at, mover), (to, moved)) in self.at.iter_mut().zip(&mut self.movers).zip(moves) {
            *at = to;
            if let Some(moved) = moved {
                *mover = moved;
            }
            mover.at = to;
        }
        &self.at
    }

    fn free_cell(&self, p: Point, what: &str) -> Result<(), String> {
        match self.grid.is_passable(p) {
            true => Ok(()),
            false => Err(format!("{what} {p} is a wall or off the map")),
        }
    }
}
