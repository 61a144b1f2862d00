//! LaCAM\*: LaCAM's search carried on after a plan is found, until it proves that none is
//! cheaper (Okumura, "Improving LaCAM for Scalable Eventually Optimal Multi-Agent Pathfinding",
//! IJCAI 2023).
//!
//! LaCAM stops at its first goal configuration. LaCAM\* goes on: each node it reached keeps the
//! cost of the cheapest way there it knows (`g`) and its parent on that way; when a node is
//! reached again by a new edge, the costs beyond it are *re-wired* (Dijkstra from there over the
//! edges known so far); a node whose cost so far plus an estimate of the rest that is never too
//! high cannot beat the best plan, and is left. When nothing is left to try, the best plan is
//! optimal: every way cheaper than it would have passed a node with an edge not yet tried.
//!
//! The paper measures plans by their *sum of loss* (a step costs one for each agent away from its
//! goal), a cost a configuration carries on its own. The sum of costs does not: an agent waiting on
//! its goal costs nothing if it stays there and one a step if it leaves later. So here a node is a
//! configuration *and* the agents that have arrived for good (done): done agents are held on their
//! goals, a step costs one for each agent not done, and agents on their goals may be declared done
//! at no cost (an edge to the same configuration with more agents done). A way to the node where
//! every agent is done then costs exactly its plan's sum of costs.
//!
//! ```text
//! N_init ← (starts, none done), g 0;  Open ← stack [N_init];  Explored ← {N_init}
//! while Open is not empty and there is time:
//!     N ← Open.top
//!     if N is the goal or g(N) + h(N) ≥ best: Open.pop; continue
//!     E ← N's next edge, lazily: first "the agents on their goals are done", then LaCAM's
//!         constraints one at a time (the done agents held), then each agent on its goal alone
//!     if none is left: Open.pop; continue
//!     N' ← where E leads (for a constraint, PIBT's configuration; ⊥: continue)
//!     if N' ∈ Explored: add the edge N → N' and re-wire from N
//!     else: g(N') ← g(N) + cost(E); parent(N') ← N; Explored ← Explored ∪ {N'}
//!     Open.push(N')
//!     if g(goal) < best: best ← g(goal)       -- a cheaper plan, back along the parents
//! ```
//!
//! `h(N)`, the estimate, is each agent's distance to its goal, summed over those not done: each of
//! those steps costs at least one. The explored nodes are many (a configuration of every agent
//! for each): the search is given a budget of memory, and on large instances it runs out within a
//! second and hands its thread back to refinement ([`super::refine`]), which is what improves
//! plans there; its worth is on small instances, where it finds the optimum and proves it.

use super::distances::Distances;
use super::lacam::{Constraint, HighNode, NONE, chain_of, grow, new_node, tie_breaks};
use super::moves::Moves;
use super::pibt::Pibt;
use super::random::SplitMix64;
use super::refine::{paths_of, soc_of};
use super::until::Until;
use crate::grid::Grid;
use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};

/// The memory the search may hold, roughly: past it, it gives up. Six agents on a map of fifteen
/// cells took up to 100,000 nodes to prove their plan optimal; the process then held 180 MB.
const MEMORY: usize = 128 << 20;

/// The most agents it is tried for. Its nodes are as many as the agents' joint configurations
/// (cells to the power of agents): with a few dozen agents it cannot try them all, and on
/// random-32-32-10 with 400 agents the thread lent to it until its memory ran out cost 2 % of
/// the sum of costs after one second, for nothing.
const MOST_AGENTS: usize = 64;

/// The distance tables the search copies (PIBT may add to its own): past this, it does not start.
const TABLES: usize = 16 << 20;

/// A constraint's size, with its index in a node's queue.
const CONSTRAINT_BYTES: usize = std::mem::size_of::<Constraint>() + 4;

/// A node: a configuration, the agents done, and LaCAM's queue of constraints.
struct StarNode {
    /// The configuration, PIBT's priorities and order there (of the agents not done), the parent
    /// on the cheapest way known, and the constraints still to try.
    high: HighNode,
    /// The constraints of its tree (its queue holds their indices), freed once all are tried.
    constraints: Vec<Constraint>,
    done: Box<[bool]>,
    g: u64,
    h: u64,
    /// The edges tried from here: where to and at what cost.
    edges: Vec<(u32, u64)>,
    /// "The agents on their goals are done" (those agents), if still to try.
    declare_all: Option<Vec<u32>>,
    /// Agents on their goals still to declare done one by one.
    declare_each: Vec<u32>,
}

impl StarNode {
    fn exhausted(&self) -> bool {
        self.declare_all.is_none() && self.high.tree.is_empty() && self.declare_each.is_empty()
    }
}

/// An edge out of a node, as it is tried.
enum Edge {
    /// Agents on their goals declared done.
    Declare(Vec<u32>),
    /// A step of every agent not done, by PIBT under a constraint.
    Step(u32),
}

/// Where an edge leads: a configuration, the agents done there, and what the edge costs.
type Reached = (Box<[u32]>, Box<[bool]>, u64);

/// LaCAM\*'s search for a sum of costs below a bound, kept between calls of [`Star::run`].
pub(super) struct Star<'a> {
    grid: &'a Grid,
    moves: Moves,
    distances: Distances,
    slots: Vec<usize>,
    goals: Box<[u32]>,
    goal_cells: Vec<usize>,
    tie_breaks: Vec<f64>,
    pibt: Pibt,
    rng: SplitMix64,
    nodes: Vec<StarNode>,
    explored: HashMap<Box<[u32]>, u32>,
    open: Vec<u32>,
    /// The node where every agent is done, once reached.
    goal: u32,
    /// No plan costing this or more is looked for.
    best: u64,
    /// The memory held, roughly.
    bytes: usize,
    /// Scratch.
    chain: Vec<(usize, usize)>,
    from: Vec<usize>,
    order: Vec<usize>,
}

impl<'a> Star<'a> {
    /// A search from `starts` to `goals` (cell indices), with its own copy of `distances` (which
    /// holds every goal's table). `None` if the copy alone would be too large.
    pub(super) fn new(
        grid: &'a Grid,
        distances: &Distances,
        starts: &[u32],
        goals: &[u32],
        seed: u64,
    ) -> Option<Self> {
        if distances.bytes() > TABLES || starts.len() > MOST_AGENTS {
            return None;
        }
        let mut distances = distances.clone();
        let goal_cells: Vec<usize> = goals.iter().map(|&g| g as usize).collect();
        let slots = goal_cells
            .iter()
            .map(|&g| distances.slot(grid, g))
            .collect();
        let mut rng = SplitMix64(seed ^ 0x57A2);
        let tie_breaks = tie_breaks(grid, &mut distances, starts, &goal_cells, &mut rng);
        let mut star = Self {
            grid,
            moves: distances.moves(),
            distances,
            slots,
            goals: goals.into(),
            goal_cells,
            tie_breaks,
            pibt: Pibt::new(rng.next()),
            rng,
            nodes: Vec::new(),
            explored: HashMap::new(),
            open: vec![0],
            goal: NONE,
            best: u64::MAX,
            bytes: 0,
            chain: Vec::new(),
            from: Vec::new(),
            order: Vec::new(),
        };
        let done = vec![false; starts.len()].into_boxed_slice();
        star.explored.insert(key_of(starts, &done), 0);
        star.add_node(starts, done, NONE, 0);
        Some(star)
    }

    /// Searches `until` it says for a plan cheaper than `bound` and than any found before.
    /// Returns the cheapest found in this call: its sum of costs and its configurations.
    pub(super) fn run(&mut self, until: &Until<'_>, bound: u64) -> Option<(u64, Vec<Box<[u32]>>)> {
        self.best = self.best.min(bound);
        let mut found = None;
        while let Some(&top) = self.open.last() {
            if until.now() || self.full() {
                break;
            }
            let node = &self.nodes[top as usize];
            if top == self.goal || node.g + node.h >= self.best {
                self.open.pop();
                continue;
            }
            let Some(edge) = self.next_edge(top) else {
                self.open.pop();
                continue;
            };
            let Some((config, done, cost)) = self.follow(top, edge) else {
                continue;
            };
            let g = self.nodes[top as usize].g + cost;
            let key = key_of(&config, &done);
            let next = match self.explored.entry(key) {
                Entry::Occupied(known) => {
                    let next = *known.get();
                    let edges = &mut self.nodes[top as usize].edges;
                    if !edges.iter().any(|&(to, _)| to == next) {
                        edges.push((next, cost));
                        self.bytes += 16;
                    }
                    // Only the new edge can make a way cheaper: from where it leads.
                    let known = &mut self.nodes[next as usize];
                    if g < known.g {
                        known.g = g;
                        known.high.parent = top;
                        self.rewire(next);
                    }
                    next
                }
                Entry::Vacant(slot) => {
                    let next = self.nodes.len() as u32;
                    slot.insert(next);
                    self.add_node(&config, done, top, g);
                    self.nodes[top as usize].edges.push((next, cost));
                    next
                }
            };
            self.open.push(next);
            if self.goal != NONE && self.nodes[self.goal as usize].g < self.best {
                // The plan costs its way's `g` or less (an agent may be declared done after it
                // arrived for good).
                let plan = self.plan();
                self.best = soc_of(&paths_of(&plan));
                found = Some((self.best, plan));
            }
        }
        found
    }

    /// Nothing is left to try: no plan is cheaper than the last bound or the last plan found.
    pub(super) fn finished(&self) -> bool {
        self.open.is_empty()
    }

    /// Out of memory: the search gives up.
    pub(super) fn full(&self) -> bool {
        self.bytes > MEMORY
    }

    fn add_node(&mut self, config: &[u32], done: Box<[bool]>, parent: u32, g: u64) {
        let id = self.nodes.len() as u32;
        let from = (parent != NONE).then(|| &self.nodes[parent as usize].high);
        let mut high = new_node(config, parent, &self.goals, &self.tie_breaks, from);
        high.order = high
            .order
            .iter()
            .copied()
            .filter(|&i| !done[i as usize])
            .collect();
        let on_goal: Vec<u32> = (0..config.len() as u32)
            .filter(|&i| !done[i as usize] && config[i as usize] == self.goals[i as usize])
            .collect();
        let h = (0..config.len())
            .filter(|&i| !done[i])
            .map(|i| u64::from(self.distances.table(self.slots[i])[config[i] as usize]))
            .sum();
        if done.iter().all(|&d| d) {
            self.goal = id;
        }
        // The node and its eight allocations, its configuration in it and in its key (with the
        // map's entry), its priorities, order and agents done.
        self.bytes += 400 + config.len() * (4 + 4 + 8 + 4 + 1) + on_goal.len() * 4;
        self.nodes.push(StarNode {
            high,
            constraints: vec![Constraint::ROOT],
            done,
            g,
            h,
            edges: Vec::new(),
            declare_each: if on_goal.len() > 1 {
                on_goal.clone()
            } else {
                Vec::new()
            },
            declare_all: (!on_goal.is_empty()).then_some(on_goal),
        });
    }

    /// The next edge out of node `n` to try, in the order of the module docs.
    fn next_edge(&mut self, n: u32) -> Option<Edge> {
        let node = &mut self.nodes[n as usize];
        if let Some(on_goal) = node.declare_all.take() {
            return Some(Edge::Declare(on_goal));
        }
        if let Some(c) = node.high.tree.pop_front() {
            let before = node.constraints.len();
            let high = &mut node.high;
            let (order, config) = (&high.order, &high.config);
            grow(
                (self.grid, self.moves),
                &mut node.constraints,
                c,
                order,
                config,
                &mut high.tree,
                &mut self.rng,
            );
            self.bytes += (node.constraints.len() - before) * CONSTRAINT_BYTES;
            return Some(Edge::Step(c));
        }
        if !node.constraints.is_empty() {
            self.bytes -= node.constraints.len() * CONSTRAINT_BYTES;
            node.constraints = Vec::new();
        }
        node.declare_each.pop().map(|i| Edge::Declare(vec![i]))
    }

    /// Where `edge` out of node `n` leads, and what it costs; `None` if PIBT finds no step.
    fn follow(&mut self, n: u32, edge: Edge) -> Option<Reached> {
        let node = &self.nodes[n as usize];
        let mut done = node.done.clone();
        match edge {
            Edge::Declare(agents) => {
                for i in agents {
                    done[i as usize] = true;
                }
                Some((node.high.config.clone(), done, 0))
            }
            Edge::Step(c) => {
                // The done agents held on their goals, then the constraint's choices.
                self.chain.clear();
                let held = (0..done.len()).filter(|&i| done[i]);
                self.chain.extend(held.map(|i| (i, self.goal_cells[i])));
                chain_of(&node.constraints, c, &mut self.chain);
                self.from.clear();
                self.from
                    .extend(node.high.config.iter().map(|&v| v as usize));
                self.order.clear();
                self.order
                    .extend(node.high.order.iter().map(|&i| i as usize));
                let next = self.pibt.generate(
                    self.grid,
                    &mut self.distances,
                    &self.from,
                    &self.goal_cells,
                    &self.order,
                    &self.chain,
                )?;
                let cost = done.iter().filter(|&&d| !d).count() as u64;
                Some((next.iter().map(|&v| v as u32).collect(), done, cost))
            }
        }
    }

    /// Dijkstra from node `n`, whose cost just fell, over the edges known: every node a cheaper
    /// way now reaches takes it (and its parent on it), and goes back on Open if it still has
    /// edges to try.
    fn rewire(&mut self, n: u32) {
        let mut queue = BinaryHeap::from([Reverse((self.nodes[n as usize].g, n))]);
        while let Some(Reverse((g, u))) = queue.pop() {
            if g > self.nodes[u as usize].g {
                continue;
            }
            for k in 0..self.nodes[u as usize].edges.len() {
                let (v, cost) = self.nodes[u as usize].edges[k];
                let next = &mut self.nodes[v as usize];
                if g + cost < next.g {
                    next.g = g + cost;
                    next.high.parent = u;
                    queue.push(Reverse((next.g, v)));
                    if !next.exhausted() && next.g + next.h < self.best {
                        self.open.push(v);
                    }
                }
            }
        }
    }

    /// The configurations from the start to the goal node, back along the parents (a
    /// declaration repeats a configuration: it is kept once).
    fn plan(&self) -> Vec<Box<[u32]>> {
        let mut plan: Vec<Box<[u32]>> = Vec::new();
        let mut at = self.goal;
        while at != NONE {
            let node = &self.nodes[at as usize].high;
            if plan.last() != Some(&node.config) {
                plan.push(node.config.clone());
            }
            at = node.parent;
        }
        plan.reverse();
        plan
    }
}

/// A node's key: its configuration, then the agents done, a bit each.
fn key_of(config: &[u32], done: &[bool]) -> Box<[u32]> {
    let mut key: Vec<u32> = Vec::with_capacity(config.len() + done.len().div_ceil(32));
    key.extend_from_slice(config);
    key.extend(done.chunks(32).map(|bits| {
        bits.iter()
            .enumerate()
            .fold(0u32, |word, (k, &d)| word | (u32::from(d) << k))
    }));
    key.into()
}
