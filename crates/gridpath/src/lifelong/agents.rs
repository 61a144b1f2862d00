//! What the benchmark's loop drives ([`LifelongAgents`]): the planner, or a game's crowd.

use super::planner::LifelongPlanner;
use crate::grid::Point;

/// What the benchmark's loop drives: agents that each always have a goal, moved a step at a
/// time ([`LifelongPlanner`], or a planner of your own).
pub trait LifelongAgents {
    /// Adds an agent at `at` bound for `goal`; its number.
    fn add_agent(&mut self, at: Point, goal: Point) -> Result<usize, String>;
    /// One step of every agent: where each now stands.
    fn step(&mut self) -> Vec<Point>;
    /// `agent`'s goal.
    fn goal(&self, agent: usize) -> Option<Point>;
    /// Sends `agent` to a new goal.
    fn set_goal(&mut self, agent: usize, goal: Point) -> Result<(), String>;
    /// Can `agent` get to its goal (`None`: no such agent)?
    fn reaches_goal(&self, agent: usize) -> Option<bool>;
    /// Where `agent` stands.
    fn at(&self, agent: usize) -> Option<Point>;
}

impl LifelongAgents for LifelongPlanner {
    fn add_agent(&mut self, at: Point, goal: Point) -> Result<usize, String> {
        LifelongPlanner::add_agent(self, at, goal)
    }

    fn step(&mut self) -> Vec<Point> {
        LifelongPlanner::step(self).to_vec()
    }

    fn goal(&self, agent: usize) -> Option<Point> {
        LifelongPlanner::goal(self, agent)
    }

    fn set_goal(&mut self, agent: usize, goal: Point) -> Result<(), String> {
        LifelongPlanner::set_goal(self, agent, goal)
    }

    fn reaches_goal(&self, agent: usize) -> Option<bool> {
        LifelongPlanner::reaches_goal(self, agent)
    }

    fn at(&self, agent: usize) -> Option<Point> {
        self.positions().nth(agent)
    }
}
