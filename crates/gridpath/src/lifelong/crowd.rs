//! The lifelong benchmark run by a game's crowd ([`BodyCrowd`]): the crowd runtime
//! ([`CrowdRuntime`]) with the planner's focal guide paths for its bodies ([`BodyGuides`]) and
//! the recent traffic, each agent a body that moves a cell a tick, exactly as `bevy_gridpath`
//! moves a warehouse's robots but with no engine. Beside [`LifelongPlanner`](super::LifelongPlanner)
//! it answers whether a game's crowd gives up anything to the benchmark's planner.

use super::agents::LifelongAgents;
use super::bodies::BodyGuides;
use crate::components::Components;
use crate::grid::{Grid, Point};
use crate::mapf::crowd::{
    BodyAtTick, BodyState, CrowdGuidance, CrowdRuntime, CrowdWays, JamBody, Standing, TickBody,
};
use crate::movement::Movement;
use std::sync::Arc;

/// One-cell bodies on 4-way moves, each bound for a goal, moved by a game's crowd runtime.
#[derive(Debug)]
pub struct BodyCrowd {
    grid: Arc<Grid>,
    regions: Components,
    crowd: CrowdRuntime,
    /// Each body's key, cell, goal and state.
    keys: Vec<u64>,
    at: Vec<Point>,
    goals: Vec<Point>,
    states: Vec<BodyState>,
    ticks: u64,
}

impl BodyCrowd {
    /// A crowd on `grid`, its tie-breaks drawn from `seed`.
    pub fn new(grid: Grid, seed: u64) -> Self {
        let mut crowd = CrowdRuntime::new(seed);
        (crowd.ways, crowd.guidance) = (CrowdWays::GuidePaths, CrowdGuidance::Traffic);
        if let Some(guided) = crowd.guided() {
            guided.guide_by(Box::new(BodyGuides::default()));
        }
        let mut regions = Components::new();
        regions.update(&grid, Movement::FourWay);
        Self {
            grid: Arc::new(grid),
            regions,
            crowd,
            keys: Vec::new(),
            at: Vec::new(),
            goals: Vec::new(),
            states: Vec::new(),
            ticks: 0,
        }
    }

    /// A body and its record at this tick.
    fn body(&self, k: usize) -> (BodyAtTick, TickBody) {
        let (key, at, target) = (self.keys[k], self.at[k], Some(self.goals[k]));
        let body = BodyAtTick {
            key,
            at,
            size: 1,
            movement: Movement::FourWay,
            speed: 1.0,
            cost: 1.0,
            target,
            routed: true,
            asking: false,
        };
        let jam = JamBody {
            key,
            at,
            size: 1,
            moves: true,
            target,
            circling: None,
        };
        let record = TickBody {
            jam,
            aim: target,
            stalled: 0.0,
        };
        (body, record)
    }
}

impl LifelongAgents for BodyCrowd {
    fn add_agent(&mut self, at: Point, goal: Point) -> Result<usize, String> {
        for (p, what) in [(at, "the agent's cell"), (goal, "its goal")] {
            if !self.grid.is_passable(p) {
                return Err(format!("{what} {p} is not a free cell of the map"));
            }
        }
        // Keys in increasing order: the runtime reads its bodies sorted by key.
        self.keys.push(self.keys.len() as u64 * 7 + 3);
        self.at.push(at);
        self.goals.push(goal);
        self.states.push(BodyState::default());
        Ok(self.keys.len() - 1)
    }

    fn step(&mut self) -> Vec<Point> {
        let now = self.ticks as f32;
        self.ticks += 1;
        let (mut movers, mut bodies) = (Vec::new(), Vec::new());
        for k in 0..self.keys.len() {
            let (body, record) = self.body(k);
            movers.push(self.states[k].mover(&body, self.crowd.ways, (1.0, now)));
            bodies.push(record);
        }
        let grids = (vec![self.grid.clone()], 0);
        let (planned, input) = self
            .crowd
            .prepare(&bodies, movers, grids, Movement::FourWay, now);
        let standing: Vec<Standing> = bodies
            .iter()
            .map(|b| Standing {
                key: b.jam.key,
                at: b.jam.at,
                size: 1,
            })
            .collect();
        let moves = self
            .crowd
            .finish(planned, input.run(), &standing, &[&self.grid], now);
        for (k, (to, mover)) in moves.into_iter().enumerate() {
            if to != self.at[k] {
                self.states[k].spend_move(1.0);
            }
            self.states[k].mover = mover;
            self.at[k] = to;
        }
        self.at.clone()
    }

    fn goal(&self, agent: usize) -> Option<Point> {
        self.goals.get(agent).copied()
    }

    fn set_goal(&mut self, agent: usize, goal: Point) -> Result<(), String> {
        if !self.grid.is_passable(goal) {
            return Err(format!("the goal {goal} is not a free cell of the map"));
        }
        let slot = self
            .goals
            .get_mut(agent)
            .ok_or(format!("there is no agent {agent}"))?;
        *slot = goal;
        Ok(())
    }

    fn reaches_goal(&self, agent: usize) -> Option<bool> {
        let (at, goal) = (*self.at.get(agent)?, *self.goals.get(agent)?);
        Some(self.regions.connected(&self.grid, at, goal))
    }

    fn at(&self, agent: usize) -> Option<Point> {
        self.at.get(agent).copied()
    }
}
