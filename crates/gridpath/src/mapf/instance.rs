//! A MAPF instance: a grid, how agents step on it, and for each agent a start and a goal.

use super::moves::{Moves, neighbours};
use super::random::SplitMix64;
use crate::grid::{Grid, Point};
use crate::movingai::Scenario;
use std::fmt;

/// A grid with each agent's start and goal. Every start and goal is a free cell on the grid, no
/// two agents share a start, and no two share a goal ([`Instance::new`] checks).
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// The map.
    pub grid: Grid,
    /// Each agent's start.
    pub starts: Vec<Point>,
    /// Each agent's goal.
    pub goals: Vec<Point>,
    /// 4-way (the field's benchmark, and [`Instance::new`]'s) or a hex map's six neighbours.
    pub moves: Moves,
}

/// Why an instance was refused: one line, naming the agent (counted from 0) and the cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstanceError {
    /// The instance has no agents.
    NoAgents,
    /// The numbers of starts and goals differ.
    Unpaired {
        /// How many starts.
        starts: usize,
        /// How many goals.
        goals: usize,
    },
    /// A start or goal off the map.
    OutsideMap {
        /// The agent.
        agent: usize,
        /// "start" or "goal".
        what: &'static str,
        /// The cell.
        at: Point,
    },
    /// A start or goal on a wall.
    OnWall {
        /// The agent.
        agent: usize,
        /// "start" or "goal".
        what: &'static str,
        /// The cell.
        at: Point,
    },
    /// Two agents with one start, or one goal.
    Shared {
        /// The two agents.
        agents: (usize, usize),
        /// "start" or "goal".
        what: &'static str,
        /// The cell.
        at: Point,
    },
    /// More agents asked for than the scenario file or the map's region holds.
    TooMany {
        /// How many were asked for.
        asked: usize,
        /// How many there are.
        available: usize,
    },
    /// A scenario line was written for a map of another size.
    OtherMap {
        /// The scenario's line.
        line: usize,
        /// The map width it names.
        width: u32,
        /// The map height it names.
        height: u32,
    },
}

impl fmt::Display for InstanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoAgents => write!(f, "no agents: ask for at least one"),
            Self::Unpaired { starts, goals } => {
                write!(f, "{starts} starts but {goals} goals")
            }
            Self::OutsideMap { agent, what, at } => {
                write!(f, "agent {agent}'s {what} {at} is outside the map")
            }
            Self::OnWall { agent, what, at } => {
                write!(f, "agent {agent}'s {what} {at} is on a wall")
            }
            Self::Shared {
                agents: (a, b),
                what,
                at,
            } => {
                write!(f, "agents {a} and {b} share the {what} {at}")
            }
            Self::TooMany { asked, available } => {
                write!(
                    f,
                    "{asked} agents asked for, but only {available} can be placed"
                )
            }
            Self::OtherMap {
                line,
                width,
                height,
            } => write!(
                f,
                "scenario {line} is for a {width}x{height} map, not this one"
            ),
        }
    }
}

impl std::error::Error for InstanceError {}

impl Instance {
    /// Checks and builds an instance.
    pub fn new(grid: Grid, starts: Vec<Point>, goals: Vec<Point>) -> Result<Self, InstanceError> {
        if starts.len() != goals.len() {
            return Err(InstanceError::Unpaired {
                starts: starts.len(),
                goals: goals.len(),
            });
        }
        if starts.is_empty() {
            return Err(InstanceError::NoAgents);
        }
        for (what, cells) in [("start", &starts), ("goal", &goals)] {
            let mut owner = vec![usize::MAX; grid.len()];
            for (agent, &at) in cells.iter().enumerate() {
                let Some(i) = grid.index_of(at) else {
                    return Err(InstanceError::OutsideMap { agent, what, at });
                };
                if !grid.is_passable(at) {
                    return Err(InstanceError::OnWall { agent, what, at });
                }
                if owner[i] != usize::MAX {
                    let agents = (owner[i], agent);
                    return Err(InstanceError::Shared { agents, what, at });
                }
                owner[i] = agent;
            }
        }
        Ok(Self {
            grid,
            starts,
            goals,
            moves: Moves::FourWay,
        })
    }

    /// The same agents, stepping as `moves` say.
    pub fn with_moves(self, moves: Moves) -> Self {
        Self { moves, ..self }
    }

    /// The first `agents` scenarios of a benchmark scenario file, as the benchmark defines an
    /// instance of that many agents.
    pub fn from_scenarios(
        grid: Grid,
        scenarios: &[Scenario],
        agents: usize,
    ) -> Result<Self, InstanceError> {
        if agents > scenarios.len() {
            let available = scenarios.len();
            return Err(InstanceError::TooMany {
                asked: agents,
                available,
            });
        }
        let chosen = &scenarios[..agents];
        if let Some((line, s)) = chosen
            .iter()
            .enumerate()
            .find(|(_, s)| (s.map_width, s.map_height) != (grid.width(), grid.height()))
        {
            let (width, height) = (s.map_width, s.map_height);
            return Err(InstanceError::OtherMap {
                line: line + 1,
                width,
                height,
            });
        }
        let starts = chosen.iter().map(|s| s.start).collect();
        let goals = chosen.iter().map(|s| s.goal).collect();
        Self::new(grid, starts, goals)
    }

    /// `agents` agents with distinct random starts and distinct random goals, all in the grid's
    /// largest 4-connected region, so that every goal can be reached. The same seed always gives
    /// the same instance.
    pub fn random(grid: Grid, agents: usize, seed: u64) -> Result<Self, InstanceError> {
        Self::random_with(grid, Moves::FourWay, agents, seed)
    }

    /// [`Instance::random`] for agents that step as `moves` say, in the largest region they
    /// connect.
    pub fn random_with(
        grid: Grid,
        moves: Moves,
        agents: usize,
        seed: u64,
    ) -> Result<Self, InstanceError> {
        if agents == 0 {
            return Err(InstanceError::NoAgents);
        }
        let mut region = largest_region(&grid, moves);
        if agents > region.len() {
            let available = region.len();
            return Err(InstanceError::TooMany {
                asked: agents,
                available,
            });
        }
        let mut rng = SplitMix64(seed);
        let mut pick = |cells: &mut Vec<usize>| -> Vec<Point> {
            // A partial Fisher-Yates shuffle: the first `agents` cells, distinct.
            for k in 0..agents {
                let j = k + (rng.next() % (cells.len() - k) as u64) as usize;
                cells.swap(k, j);
            }
            cells[..agents].iter().map(|&i| grid.point_of(i)).collect()
        };
        let starts = pick(&mut region);
        let goals = pick(&mut region);
        Ok(Self::new(grid, starts, goals)?.with_moves(moves))
    }

    /// How many agents.
    pub fn agents(&self) -> usize {
        self.starts.len()
    }
}

/// The cells of the grid's largest region that `moves` connect, in index order of discovery.
fn largest_region(grid: &Grid, moves: Moves) -> Vec<usize> {
    let mut seen = vec![false; grid.len()];
    let mut best: Vec<usize> = Vec::new();
    for first in 0..grid.len() {
        if seen[first] || grid.raw_cost(first) == 0 {
            continue;
        }
        seen[first] = true;
        let mut region = vec![first];
        let mut next = 0;
        while next < region.len() {
            let at = region[next];
            next += 1;
            for n in neighbours(grid, moves, at) {
                if !seen[n] {
                    seen[n] = true;
                    region.push(n);
                }
            }
        }
        if region.len() > best.len() {
            best = region;
        }
    }
    best
}
