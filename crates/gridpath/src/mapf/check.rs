//! The plan validator. It shares no code with the solvers (its moves, its lower bounds and its
//! conflict checks are its own), so that a solver's mistake cannot hide in a helper both use.
//! It reads any plan, ours or another solver's, and says what is wrong with it in one line.

use super::moves::Moves;
use crate::grid::{Grid, Point};
use std::collections::{HashMap, VecDeque};
use std::fmt;

/// What a valid plan costs, recomputed from the plan, and the lower bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanCheck {
    /// Sum of costs: each agent's cost is the time it last arrives at its goal and stays.
    pub soc: u64,
    /// The largest agent cost.
    pub makespan: u64,
    /// The sum, and the largest, of the agents' single-agent distances (4-way BFS).
    pub soc_lb: u64,
    /// The largest of the agents' single-agent distances.
    pub makespan_lb: u64,
}

/// The first thing found wrong with a plan. Steps count from 0 (the starts); agents from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// The plan has no steps.
    Empty,
    /// A step lists another number of agents than there are starts.
    AgentCount {
        /// The step.
        step: usize,
        /// How many agents it lists.
        found: usize,
        /// How many starts there are.
        expected: usize,
    },
    /// An agent does not begin at its start.
    NotAtStart {
        /// The agent.
        agent: usize,
        /// Where it begins.
        at: Point,
        /// Its start.
        start: Point,
    },
    /// An agent does not end at its goal.
    NotAtGoal {
        /// The agent.
        agent: usize,
        /// Where it ends.
        at: Point,
        /// Its goal.
        goal: Point,
    },
    /// An agent off the map.
    OffMap {
        /// The step.
        step: usize,
        /// The agent.
        agent: usize,
        /// The cell.
        at: Point,
    },
    /// An agent on a wall.
    OnWall {
        /// The step.
        step: usize,
        /// The agent.
        agent: usize,
        /// The cell.
        at: Point,
    },
    /// Not a wait nor a move to a neighbour (one of four, or a hexagon's six).
    Jump {
        /// The step it arrives.
        step: usize,
        /// The agent.
        agent: usize,
        /// Where it was.
        from: Point,
        /// Where it is.
        to: Point,
    },
    /// Two agents on one cell.
    Vertex {
        /// The step.
        step: usize,
        /// The two agents.
        agents: (usize, usize),
        /// The cell.
        at: Point,
    },
    /// Two agents trading cells in one step.
    Swap {
        /// The step they arrive.
        step: usize,
        /// The two agents.
        agents: (usize, usize),
        /// The cells they trade.
        cells: (Point, Point),
    },
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "the plan has no steps"),
            Self::AgentCount {
                step,
                found,
                expected,
            } => {
                write!(f, "step {step} lists {found} agents, not {expected}")
            }
            Self::NotAtStart { agent, at, start } => {
                write!(f, "agent {agent} begins at {at}, not at its start {start}")
            }
            Self::NotAtGoal { agent, at, goal } => {
                write!(f, "agent {agent} ends at {at}, not at its goal {goal}")
            }
            Self::OffMap { step, agent, at } => {
                write!(f, "step {step}: agent {agent} is off the map at {at}")
            }
            Self::OnWall { step, agent, at } => {
                write!(f, "step {step}: agent {agent} is on a wall at {at}")
            }
            Self::Jump {
                step,
                agent,
                from,
                to,
            } => write!(
                f,
                "step {step}: agent {agent} jumps from {from} to {to}, not a move to a neighbour"
            ),
            Self::Vertex {
                step,
                agents: (a, b),
                at,
            } => {
                write!(f, "step {step}: agents {a} and {b} are both at {at}")
            }
            Self::Swap {
                step,
                agents: (a, b),
                cells: (p, q),
            } => {
                write!(f, "step {step}: agents {a} and {b} swap {p} and {q}")
            }
        }
    }
}

impl std::error::Error for PlanError {}

/// Checks a plan (`plan[t][agent]`, the starts at t = 0) against the classic MAPF rules and
/// recomputes its costs.
pub fn check_plan(
    grid: &Grid,
    starts: &[Point],
    goals: &[Point],
    plan: &[Vec<Point>],
) -> Result<PlanCheck, PlanError> {
    check_plan_with_moves(grid, Moves::FourWay, starts, goals, plan)
}

/// [`check_plan`] for agents that step as `moves` say: on a hex map, to any of the six
/// neighbours.
pub fn check_plan_with_moves(
    grid: &Grid,
    moves: Moves,
    starts: &[Point],
    goals: &[Point],
    plan: &[Vec<Point>],
) -> Result<PlanCheck, PlanError> {
    let (first, last) = match (plan.first(), plan.last()) {
        (Some(first), Some(last)) => (first, last),
        _ => return Err(PlanError::Empty),
    };
    let agents = starts.len();
    for (step, cells) in plan.iter().enumerate() {
        if cells.len() != agents {
            return Err(PlanError::AgentCount {
                step,
                found: cells.len(),
                expected: agents,
            });
        }
        check_cells(grid, step, cells)?;
        if step > 0 {
            check_moves(moves, step, &plan[step - 1], cells)?;
        }
    }
    for (agent, (&at, &start)) in first.iter().zip(starts).enumerate() {
        if at != start {
            return Err(PlanError::NotAtStart { agent, at, start });
        }
    }
    for (agent, (&at, &goal)) in last.iter().zip(goals).enumerate() {
        if at != goal {
            return Err(PlanError::NotAtGoal { agent, at, goal });
        }
    }
    Ok(costs(grid, moves, starts, goals, plan))
}

/// One step's cells: each on the map, on no wall, and no two agents on one.
fn check_cells(grid: &Grid, step: usize, cells: &[Point]) -> Result<(), PlanError> {
    let mut on_cell: HashMap<Point, usize> = HashMap::with_capacity(cells.len());
    for (agent, &at) in cells.iter().enumerate() {
        if at.x < 0 || at.y < 0 || at.x as u32 >= grid.width() || at.y as u32 >= grid.height() {
            return Err(PlanError::OffMap { step, agent, at });
        }
        if !grid.is_passable(at) {
            return Err(PlanError::OnWall { step, agent, at });
        }
        if let Some(other) = on_cell.insert(at, agent) {
            return Err(PlanError::Vertex {
                step,
                agents: (other, agent),
                at,
            });
        }
    }
    Ok(())
}

/// The moves from the step `before` to `cells`: each a wait or a step to a neighbour, and no two
/// agents trading cells.
fn check_moves(
    moves: Moves,
    step: usize,
    before: &[Point],
    cells: &[Point],
) -> Result<(), PlanError> {
    let mut left: HashMap<Point, usize> = HashMap::with_capacity(cells.len());
    for (agent, (&from, &to)) in before.iter().zip(cells).enumerate() {
        if from != to && !steps_from(moves, from).any(|q| q == to) {
            return Err(PlanError::Jump {
                step,
                agent,
                from,
                to,
            });
        }
        if from != to {
            left.insert(from, agent);
        }
    }
    // A swap: agent a goes from p to q while the agent that was on q goes to p.
    for (agent, (&from, &to)) in before.iter().zip(cells).enumerate() {
        if from == to {
            continue;
        }
        if let Some(&other) = left.get(&to)
            && other != agent
            && cells[other] == from
        {
            let agents = (agent.min(other), agent.max(other));
            return Err(PlanError::Swap {
                step,
                agents,
                cells: (from, to),
            });
        }
    }
    Ok(())
}

/// A valid plan's costs, and the lower bounds from each agent's own shortest way.
fn costs(
    grid: &Grid,
    moves: Moves,
    starts: &[Point],
    goals: &[Point],
    plan: &[Vec<Point>],
) -> PlanCheck {
    let (mut soc, mut makespan, mut soc_lb, mut makespan_lb) = (0, 0, 0, 0);
    let mut seen = Vec::new();
    for agent in 0..starts.len() {
        // The step after the last one away from the goal.
        let cost = plan
            .iter()
            .rposition(|cells| cells[agent] != goals[agent])
            .map_or(0, |t| t as u64 + 1);
        soc += cost;
        makespan = makespan.max(cost);
        let lb = moves_between(grid, moves, starts[agent], goals[agent], &mut seen);
        soc_lb += lb;
        makespan_lb = makespan_lb.max(lb);
    }
    PlanCheck {
        soc,
        makespan,
        soc_lb,
        makespan_lb,
    }
}

/// The cells one step from `p` (on the map or not): its four sides, or a hexagon's six.
fn steps_from(moves: Moves, p: Point) -> impl Iterator<Item = Point> {
    let (cells, n) = match moves {
        Moves::FourWay => {
            let [up, left, right, down] = four_sides(p);
            ([up, left, right, down, p, p], 4)
        }
        Moves::Hex(layout) => (layout.neighbours(p), 6),
    };
    cells.into_iter().take(n)
}

/// A square's four sides: up, left, right, down.
fn four_sides(p: Point) -> [Point; 4] {
    [(0, -1), (-1, 0), (1, 0), (0, 1)].map(|(dx, dy)| Point::new(p.x + dx, p.y + dy))
}

/// The fewest moves from `a` to `b` (a plain breadth-first search; the plan already proved
/// that `b` can be reached). `seen` is scratch memory, one entry a cell, kept between calls: a
/// hash map here made checking 5,000 agents' lower bounds take 13 s.
fn moves_between(grid: &Grid, moves: Moves, a: Point, b: Point, seen: &mut Vec<u32>) -> u64 {
    // One search for each kind of move, its steps a fixed array: checking 2,000 agents' lower
    // bounds took 17 % longer with the kind looked up at every cell.
    match moves {
        Moves::FourWay => breadth_first(grid, a, b, seen, four_sides),
        Moves::Hex(layout) => breadth_first(grid, a, b, seen, |p| layout.neighbours(p)),
    }
}

/// The breadth-first search of [`moves_between`], `steps(p)` the cells one move from `p`.
fn breadth_first<const N: usize>(
    grid: &Grid,
    a: Point,
    b: Point,
    seen: &mut Vec<u32>,
    steps: impl Fn(Point) -> [Point; N],
) -> u64 {
    const UNSEEN: u32 = u32::MAX;
    seen.clear();
    seen.resize(grid.len(), UNSEEN);
    let Some(start) = grid.index_of(a) else {
        return 0;
    };
    seen[start] = 0;
    let mut queue = VecDeque::from([a]);
    while let Some(p) = queue.pop_front() {
        let d = grid.index_of(p).map_or(0, |i| seen[i]);
        if p == b {
            return u64::from(d);
        }
        for q in steps(p) {
            if let Some(i) = grid.index_of(q).filter(|_| grid.is_passable(q))
                && seen[i] == UNSEEN
            {
                seen[i] = d + 1;
                queue.push_back(q);
            }
        }
    }
    0
}
