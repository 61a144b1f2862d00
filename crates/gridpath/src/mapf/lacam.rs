//! LaCAM: Lazy Constraints Addition search for MAPF (Okumura, "LaCAM: Search-Based Algorithm for
//! Quick Multi-Agent Pathfinding", AAAI 2023).
//!
//! PIBT alone is quick but not complete: on a narrow map it can cycle forever. LaCAM searches
//! over whole *configurations* (every agent's cell at once), depth first, and uses PIBT to make
//! each next configuration. Its trick is laziness: a configuration has up to 5^n successors, so
//! instead of listing them it keeps, for each configuration it reached, a queue of *constraints*,
//! each a partial choice "agent i goes to cell v, agent j to w, ...", and asks PIBT for a next
//! configuration that obeys one. The first constraint is empty (plain PIBT); each one taken from
//! the queue adds its children, which fix the next agent in order on each of its cells. So the
//! successors are generated one at a time, and only when the quicker ones led nowhere. The paper's
//! Algorithm 1:
//!
//! ```text
//! Open ← stack [N_init];  Explored ← {Q_init: N_init}     -- N: a configuration and its queue
//! while Open is not empty:
//!     N ← Open.top
//!     if N.config = goals: return the configurations back to the start
//!     if N.tree is empty: Open.pop; continue               -- every successor was tried
//!     C ← N.tree.pop_front                                 -- a constraint, breadth first
//!     if C.depth < n:                                      -- grow the constraint tree lazily
//!         i ← N.order[C.depth]
//!         for v in {N.config[i]} ∪ neighbours(N.config[i]): N.tree.push(C + (i, v))
//!     Q ← PIBT(N.config, obeying C)           -- for the empty C: the best of ten PIBT runs
//!     if Q = ⊥: continue
//!     if Q ∈ Explored: Open.push(Explored[Q]); continue    -- a known configuration
//!     N' ← (Q, tree [empty constraint], order by priority, parent N)
//!     Open.push(N'); Explored[Q] ← N'
//! return "no solution"
//! ```
//!
//! PIBT breaks ties between equally near cells by a hint: each agent's *scattered* path, planned
//! once before the search to keep clear of the others' (see [`Scatter`]). It changes which
//! configuration comes first, never which exist, and on an open map it makes the first solution
//! nearly as cheap as the agents' lower bound.
//!
//! Every configuration reachable from the start is eventually generated (the constraint trees
//! cover every combination of moves), so LaCAM is **complete**: it finds a solution whenever one
//! exists and says "no solution" after exhausting them when none does, given the time.

use super::distances::Distances;
use super::instance::Instance;
use super::moves::{Moves, choices_shuffled};
use super::pibt::Pibt;
use super::random::SplitMix64;
use super::refine::refine;
use super::scatter::Scatter;
use super::until::Until;
use crate::grid::Point;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

pub(super) const NONE: u32 = u32::MAX;

/// How many configurations PIBT makes for a configuration's first (empty) constraint, the
/// cheapest kept (Monte-Carlo configuration generation, "Engineering LaCAM\*", AAMAS 2024). Ten
/// runs lowered the sum of costs by 2.7 % on random-32-32-10 with 200 to 400 agents, against one;
/// the other constraints, tried when the search backtracks, get one run: ten there cost twice
/// the time on a hard instance and bought nothing.
const PIBT_RUNS: usize = 10;

/// How many times each agent's scattered path is re-planned at most. Six rounds, against three,
/// lowered the sum of costs by 2 % on random-32-32-10; more rounds stopped paying there, and on
/// warehouse-20-40-10-2-2 with 5,000 agents each round costs two seconds.
const SCATTER_ROUNDS: usize = 6;

fn starts_usize(starts: &[u32]) -> Vec<usize> {
    starts.iter().map(|&v| v as usize).collect()
}

/// How a LaCAM run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum LacamOutcome {
    /// Every agent's cell at each time step, from the starts to the goals: `plan[t][agent]`.
    Solved(Vec<Vec<Point>>),
    /// Every configuration reachable from the starts was tried: no plan exists.
    NoSolution,
    /// The time limit ran out first.
    TimedOut,
}

/// A constraint: "agent `who` goes to cell `to`", added to its parent's constraints.
#[derive(Clone, Copy, Debug)]
pub(super) struct Constraint {
    parent: u32,
    who: u32,
    to: u32,
    depth: u32,
}

impl Constraint {
    /// The empty constraint, at the root of every tree: PIBT alone.
    pub(super) const ROOT: Constraint = Constraint {
        parent: NONE,
        who: NONE,
        to: NONE,
        depth: 0,
    };
}

/// A configuration LaCAM reached, with its lazily grown queue of constraints.
#[derive(Clone, Debug)]
pub(super) struct HighNode {
    pub(super) config: Box<[u32]>,
    pub(super) parent: u32,
    /// PIBT's priorities here, and the agents in that order (highest first).
    pub(super) priorities: Box<[f64]>,
    pub(super) order: Box<[u32]>,
    pub(super) tree: VecDeque<u32>,
}

/// What a search counted, for the summary line and the benchmark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LacamStats {
    /// Configurations reached (the high-level nodes).
    pub configurations: usize,
    /// Constraints tried (calls of the configuration generator).
    pub constraints: usize,
}

/// Runs LaCAM on an instance, until a plan is found, none can exist, or `time_limit` passes.
pub fn solve_with_lacam(
    instance: &Instance,
    time_limit: Duration,
    seed: u64,
) -> (LacamOutcome, LacamStats) {
    lacam(instance, time_limit, Settings::seeded(seed))
}

/// How a search runs, beside its instance and its clock.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// Where its random numbers start: the same seed, the same plan.
    pub(crate) seed: u64,
    /// Its PIBT with LaCAM\*'s emulated swap (see [`Pibt::with_swap`]).
    pub(crate) swap: bool,
    /// Out of time after this many constraints too: a bound of work that does not depend on
    /// the machine or its load.
    pub(crate) most_constraints: usize,
}

impl Settings {
    /// Plain LaCAM, bounded by the clock alone.
    pub(crate) fn seeded(seed: u64) -> Self {
        Self {
            seed,
            swap: false,
            most_constraints: usize::MAX,
        }
    }
}

/// [`solve_with_lacam`] as `settings` say.
pub(crate) fn lacam(
    instance: &Instance,
    time_limit: Duration,
    settings: Settings,
) -> (LacamOutcome, LacamStats) {
    let until = Until::new(Instant::now() + time_limit);
    let mut distances = Distances::with_moves(instance.moves);
    let (found, stats) = first_plan(instance, &mut distances, &until, settings);
    let outcome = match found {
        Found::Plan(configs, ..) => LacamOutcome::Solved(to_points(&instance.grid, &configs)),
        Found::NoSolution => LacamOutcome::NoSolution,
        Found::TimedOut => LacamOutcome::TimedOut,
    };
    (outcome, stats)
}

/// LaCAM's first plan: the search's, then refined for a count of work (not on the clock: the
/// same seed, the same plan).
pub(crate) fn first_plan(
    instance: &Instance,
    distances: &mut Distances,
    until: &Until<'_>,
    settings: Settings,
) -> (Found, LacamStats) {
    let (found, stats) = search(instance, distances, until, settings);
    let Found::Plan(configs, slots, mut rng) = found else {
        return (found, stats);
    };
    let tables: Vec<&[u32]> = slots.iter().map(|&s| distances.table(s)).collect();
    let work = first_refine_work(configs.len(), tables.len());
    let configs = refine(
        (&instance.grid, instance.moves),
        &tables,
        &configs,
        &until.work(work),
        &mut rng,
    );
    (Found::Plan(configs, slots, rng), stats)
}

/// How much refinement the first plan gets, in states the searches expand: one for each
/// agent at each step of the plan. (It used to be a quarter of the time the search took,
/// which made the plan depend on the machine's load: den520d at 800 agents cost 140,740 to
/// 140,928 from run to run.)
fn first_refine_work(steps: usize, agents: usize) -> usize {
    steps * agents
}

/// Configurations of cell indices as points.
pub(crate) fn to_points(grid: &crate::grid::Grid, configs: &[Box<[u32]>]) -> Vec<Vec<Point>> {
    configs
        .iter()
        .map(|config| config.iter().map(|&v| grid.point_of(v as usize)).collect())
        .collect()
}

/// What LaCAM's search found: the configurations from the starts to the goals (with each
/// agent's distance table slot, and the random numbers it leaves), or why none.
pub(crate) enum Found {
    Plan(Vec<Box<[u32]>>, Vec<usize>, SplitMix64),
    NoSolution,
    TimedOut,
}

/// LaCAM's search (Algorithm 1 of the module docs), its first plan unrefined. The scattered
/// paths and the search are bounded by counts; `until` only cuts them short (then it timed
/// out), so a plan found is the same for the same seed on any machine.
///
/// Why one long function: it is Algorithm 1 of the module docs, step for step (the open stack, the
/// explored table, each node's tree of constraints, PIBT as the generator of the next
/// configuration). Split, its loop could no longer be read beside the paper's pseudo-code.
fn search(
    instance: &Instance,
    distances: &mut Distances,
    until: &Until<'_>,
    settings: Settings,
) -> (Found, LacamStats) {
    let Settings {
        seed,
        swap,
        most_constraints,
    } = settings;
    let grid = &instance.grid;
    let cell = |p: &Point| grid.index_of(*p).map_or(0, |i| i as u32);
    let starts: Box<[u32]> = instance.starts.iter().map(cell).collect();
    let goals: Box<[u32]> = instance.goals.iter().map(cell).collect();
    let goal_cells: Vec<usize> = goals.iter().map(|&g| g as usize).collect();
    let agents = starts.len();
    let mut rng = SplitMix64(seed);
    let mut pibt = Pibt::new(seed).with_swap(swap);
    let mut stats = LacamStats::default();

    let mut constraints = vec![Constraint::ROOT];
    let tie_breaks = tie_breaks(grid, distances, &starts, &goal_cells, &mut rng);
    // Shortest paths that keep out of each other's way, to break PIBT's ties.
    let hints = Scatter::new(
        grid,
        distances,
        &starts_usize(&starts),
        &goal_cells,
        SCATTER_ROUNDS,
        until,
        &mut rng,
    );
    if until.now() {
        return (Found::TimedOut, stats);
    }
    pibt.set_hints(hints);
    let slots: Vec<usize> = goal_cells
        .iter()
        .map(|&g| distances.slot(grid, g))
        .collect();
    let mut nodes: Vec<HighNode> = Vec::new();
    let mut explored: HashMap<Box<[u32]>, u32> = HashMap::new();
    let first = new_node(&starts, NONE, &goals, &tie_breaks, None);
    explored.insert(starts.clone(), 0);
    nodes.push(first);
    let mut open: Vec<u32> = vec![0];
    // Scratch, reused: the current constraint chain, and positions as cell indices.
    let mut chain: Vec<(usize, usize)> = Vec::new();
    let mut from: Vec<usize> = Vec::with_capacity(agents);
    let mut order: Vec<usize> = Vec::with_capacity(agents);

    while let Some(&top) = open.last() {
        // The clock is read at every constraint: at 10,000 agents one takes milliseconds.
        if stats.constraints >= most_constraints || until.now() {
            return (Found::TimedOut, stats);
        }
        let node = &mut nodes[top as usize];
        if node.config == goals {
            return (Found::Plan(configs_to(&nodes, top), slots, rng), stats);
        }
        let Some(c) = node.tree.pop_front() else {
            open.pop();
            continue;
        };
        grow(
            (grid, instance.moves),
            &mut constraints,
            c,
            &node.order,
            &node.config,
            &mut node.tree,
            &mut rng,
        );
        // The configuration PIBT makes under constraint `c`.
        chain.clear();
        chain_of(&constraints, c, &mut chain);
        from.clear();
        from.extend(node.config.iter().map(|&v| v as usize));
        order.clear();
        order.extend(node.order.iter().map(|&i| i as usize));
        stats.constraints += 1;
        // Monte-Carlo configuration generation: PIBT a few times (its ties fall differently
        // each time), keeping the configuration with the least cost so far plus distance to go.
        let mut best: Option<(u64, Box<[u32]>)> = None;
        let runs = if chain.is_empty() { PIBT_RUNS } else { 1 };
        for _ in 0..runs {
            let Some(next) = pibt.generate(grid, distances, &from, &goal_cells, &order, &chain)
            else {
                continue;
            };
            let f: u64 = (0..agents)
                .map(|i| {
                    let at_goal = from[i] == goal_cells[i] && next[i] == goal_cells[i];
                    let to_go = distances.table(slots[i])[next[i]];
                    u64::from(!at_goal) + u64::from(to_go)
                })
                .sum();
            if best.as_ref().is_none_or(|(b, _)| f < *b) {
                best = Some((f, next.iter().map(|&v| v as u32).collect()));
            }
        }
        let Some((_, next)) = best else {
            continue;
        };
        match explored.entry(next) {
            Entry::Occupied(known) => open.push(*known.get()),
            Entry::Vacant(slot) => {
                let id = nodes.len() as u32;
                let parent = &nodes[top as usize];
                let child = new_node(slot.key(), top, &goals, &tie_breaks, Some(parent));
                slot.insert(id);
                nodes.push(child);
                open.push(id);
                stats.configurations += 1;
            }
        }
    }
    (Found::NoSolution, stats)
}

/// Each agent's priority at its goal, below 1: its distance to go at the start, as a share of
/// the map (the far ones first), plus a sliver of randomness to break ties.
pub(super) fn tie_breaks(
    grid: &crate::grid::Grid,
    distances: &mut Distances,
    starts: &[u32],
    goal_cells: &[usize],
    rng: &mut SplitMix64,
) -> Vec<f64> {
    let cells = grid.len() as f64 + 1.0;
    (0..starts.len())
        .map(|i| {
            let to_go = distances.get(grid, goal_cells[i], starts[i] as usize);
            let to_go = f64::from(to_go.min(grid.len() as u32));
            let sliver = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            (to_go + sliver) / cells
        })
        .collect()
}

/// Grows the constraint tree below `c`, lazily: the next agent in `order` after those `c`
/// fixes, on each of its cells from `config`, in random order, queued on `tree`.
pub(super) fn grow(
    (grid, moves): (&crate::grid::Grid, Moves),
    constraints: &mut Vec<Constraint>,
    c: u32,
    order: &[u32],
    config: &[u32],
    tree: &mut VecDeque<u32>,
    rng: &mut SplitMix64,
) {
    let depth = constraints[c as usize].depth as usize;
    let Some(&who) = order.get(depth) else {
        return;
    };
    let (cells, n) = choices_shuffled(grid, moves, config[who as usize] as usize, rng);
    for &to in &cells[..n] {
        tree.push_back(constraints.len() as u32);
        constraints.push(Constraint {
            parent: c,
            who,
            to: to as u32,
            depth: depth as u32 + 1,
        });
    }
}

/// Appends the choices constraint `c` makes, from the root down, to `chain`.
pub(super) fn chain_of(constraints: &[Constraint], c: u32, chain: &mut Vec<(usize, usize)>) {
    let begin = chain.len();
    let mut at = c;
    while at != NONE && constraints[at as usize].who != NONE {
        let k = constraints[at as usize];
        chain.push((k.who as usize, k.to as usize));
        at = k.parent;
    }
    chain[begin..].reverse();
}

/// A high-level node for `config`: PIBT's priorities carried on from the parent's (one more for
/// each agent away from its goal, its tie-break for each at its goal), and the agents in order.
pub(super) fn new_node(
    config: &[u32],
    parent_id: u32,
    goals: &[u32],
    tie_breaks: &[f64],
    parent: Option<&HighNode>,
) -> HighNode {
    let priorities: Box<[f64]> = (0..config.len())
        .map(|i| match parent {
            Some(p) if config[i] != goals[i] => p.priorities[i] + 1.0,
            _ if config[i] != goals[i] => tie_breaks[i] + 1.0,
            _ => tie_breaks[i],
        })
        .collect();
    let mut order: Vec<u32> = (0..config.len() as u32).collect();
    order.sort_by(|&a, &b| priorities[b as usize].total_cmp(&priorities[a as usize]));
    HighNode {
        config: config.into(),
        parent: parent_id,
        priorities,
        order: order.into(),
        tree: VecDeque::from([0]),
    }
}

/// The configurations from the start to node `last`.
fn configs_to(nodes: &[HighNode], last: u32) -> Vec<Box<[u32]>> {
    let mut plan = Vec::new();
    let mut at = last;
    while at != NONE {
        let node = &nodes[at as usize];
        plan.push(node.config.clone());
        at = node.parent;
    }
    plan.reverse();
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn the_emulated_swap_plans_a_passage_reversed_in_a_few_configurations() {
        // Five agents fill a passage one cell wide between two small rooms, each bound for the
        // mirror of its cell: all must come out and go back in the other order. Counted in
        // configurations, not time: the same seed, the same count.
        let grid = Grid::from_ascii(&[
            ".....", "##.##", "##.##", "##.##", "##.##", "##.##", ".....",
        ])
        .expect("a grid");
        let passage: Vec<Point> = (1..6).map(|y| Point::new(2, y)).collect();
        let instance = Instance {
            grid,
            starts: passage.clone(),
            goals: passage.iter().rev().copied().collect(),
            moves: super::super::Moves::FourWay,
        };
        let limit = Duration::from_secs(30);
        let swap = Settings {
            swap: true,
            ..Settings::seeded(0)
        };
        let (with, with_stats) = lacam(&instance, limit, swap);
        let (without, without_stats) = lacam(&instance, limit, Settings::seeded(0));
        println!("with the swap {with_stats:?}, without {without_stats:?}");
        assert!(matches!(with, LacamOutcome::Solved(_)));
        assert!(matches!(without, LacamOutcome::Solved(_)));
        assert!(with_stats.configurations * 10 < without_stats.configurations);
    }
}
