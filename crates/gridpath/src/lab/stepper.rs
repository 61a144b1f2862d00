//! The lab's searches, one expansion per step, written as a course states them.
//!
//! Every algorithm keeps an open list of nodes reached and not yet expanded, and a closed list.
//! A step takes one node out of the open list, closes it, stops if it is the goal (the search
//! stops when the goal is *expanded*, not when it is first reached), and offers each neighbour
//! the way through it. What differs is which open node goes next, and whether a cheaper way to a
//! node already reached replaces the old one:
//!
//! | algorithm | next node | a cheaper way found later |
//! |---|---|---|
//! | BFS | the first one in (a queue) | ignored: first found is kept |
//! | DFS | the last one in (a stack) | ignored |
//! | Dijkstra | lowest g | replaces the old one while the node is open |
//! | greedy best-first | lowest h | ignored |
//! | A\* | lowest f = g + h | replaces the old one; a closed node is opened again (only an inconsistent h makes that happen) |
//!
//! Ties go to the node whose name comes first. Each step is reported as a trace row
//! ([`LabStep`]): the node expanded, each change it made ("C: 9 > 4 + 3 → 7"), and the open and
//! closed lists after it.

use super::graph::{LabGraph, num};

/// The searches the lab steps through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabAlgorithm {
    /// Breadth-first: first in, first out, by edges.
    Bfs,
    /// Depth-first: last in, first out.
    Dfs,
    /// Dijkstra: the lowest g first.
    Dijkstra,
    /// Greedy best-first: the lowest h first.
    Greedy,
    /// A*: the lowest f = g + h first.
    AStar,
}

impl LabAlgorithm {
    /// All five, in the order a menu lists them.
    pub const ALL: [LabAlgorithm; 5] = [
        LabAlgorithm::Bfs,
        LabAlgorithm::Dfs,
        LabAlgorithm::Dijkstra,
        LabAlgorithm::Greedy,
        LabAlgorithm::AStar,
    ];

    /// Its name, for a menu.
    pub fn name(self) -> &'static str {
        match self {
            LabAlgorithm::Bfs => "BFS",
            LabAlgorithm::Dfs => "DFS",
            LabAlgorithm::Dijkstra => "Dijkstra",
            LabAlgorithm::Greedy => "greedy best-first",
            LabAlgorithm::AStar => "A*",
        }
    }

    /// Does a cheaper way to a node reached already replace the old one?
    fn relaxes(self) -> bool {
        matches!(self, LabAlgorithm::Dijkstra | LabAlgorithm::AStar)
    }
}

/// A node in the open list, with its cost from the start, its h, and f = g + h.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpenEntry {
    /// The node.
    pub node: usize,
    /// Its cost from the start.
    pub g: f64,
    /// Its heuristic estimate to the goal.
    pub h: f64,
    /// g + h.
    pub f: f64,
}

/// What happened to one neighbour when a node was expanded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    /// Reached for the first time: g = g(via) + weight.
    Opened {
        /// The neighbour.
        node: usize,
        /// The node expanded.
        via: usize,
        /// Its g.
        g: f64,
    },
    /// A cheaper way: g was `before`, is now g(via) + weight.
    Improved {
        /// The neighbour.
        node: usize,
        /// The node expanded.
        via: usize,
        /// Its g before.
        before: f64,
        /// Its new g.
        g: f64,
    },
    /// No cheaper: g stays `g`, not more than `offered` through `via`.
    Kept {
        /// The neighbour.
        node: usize,
        /// The node expanded.
        via: usize,
        /// Its g, kept.
        g: f64,
        /// What the way through `via` offered.
        offered: f64,
    },
    /// Reached already; this algorithm keeps the first way it found.
    Seen {
        /// The neighbour.
        node: usize,
    },
}

impl Change {
    /// The neighbour it is about.
    pub fn node(&self) -> usize {
        match *self {
            Change::Opened { node, .. }
            | Change::Improved { node, .. }
            | Change::Kept { node, .. }
            | Change::Seen { node } => node,
        }
    }

    /// As a trace table writes it: "C: ∞ > 4 + 3 → 7", "C: 9 > 4 + 3 → 7",
    /// "C: 6 ≤ 4 + 3, no change".
    pub fn describe(&self, graph: &LabGraph, g_of_via: f64) -> String {
        let name = |n: usize| graph.name(n).to_string();
        match *self {
            Change::Opened { node, g, .. } => {
                format!(
                    "{}: ∞ > {} + {} → {}",
                    name(node),
                    num(g_of_via),
                    num(g - g_of_via),
                    num(g)
                )
            }
            Change::Improved {
                node, before, g, ..
            } => format!(
                "{}: {} > {} + {} → {}",
                name(node),
                num(before),
                num(g_of_via),
                num(g - g_of_via),
                num(g)
            ),
            Change::Kept {
                node, g, offered, ..
            } => format!(
                "{}: {} ≤ {} + {}, no change",
                name(node),
                num(g),
                num(g_of_via),
                num(offered - g_of_via)
            ),
            Change::Seen { node } => format!("{}: reached already, no change", name(node)),
        }
    }
}

/// One row of the trace: the node expanded, its g, what it changed, and the lists after it.
#[derive(Clone, Debug, PartialEq)]
pub struct LabStep {
    /// Counted from 1.
    pub number: usize,
    /// The node expanded.
    pub expanded: usize,
    /// The expanded node's cost from the start.
    pub g: f64,
    /// What happened to each of its neighbours.
    pub changes: Vec<Change>,
    /// The open list after the step, in the order the algorithm takes from it (first: next).
    pub open: Vec<OpenEntry>,
    /// The closed list after the step, in the order the nodes were closed.
    pub closed: Vec<usize>,
    /// The expanded node is the goal: the search stops here.
    pub goal: bool,
}

/// A search of a [`LabGraph`] from `start` to `goal`, one expansion per [`LabSearch::step`].
#[derive(Clone, Debug)]
pub struct LabSearch {
    graph: LabGraph,
    algorithm: LabAlgorithm,
    start: usize,
    goal: usize,
    g: Vec<Option<f64>>,
    parent: Vec<Option<usize>>,
    /// Open nodes with the number of the moment they went in (BFS and DFS order by it).
    open: Vec<(usize, u64)>,
    closed: Vec<usize>,
    inserted: u64,
    steps: Vec<LabStep>,
    done: bool,
}

impl LabSearch {
    /// A search ready to take its first step: the start is open with g = 0.
    pub fn new(graph: LabGraph, algorithm: LabAlgorithm, start: usize, goal: usize) -> Self {
        let n = graph.len();
        let mut g = vec![None; n];
        let valid = start < n && goal < n;
        if valid {
            g[start] = Some(0.0);
        }
        Self {
            graph,
            algorithm,
            start,
            goal,
            g,
            parent: vec![None; n],
            open: if valid { vec![(start, 0)] } else { Vec::new() },
            closed: Vec::new(),
            inserted: 1,
            steps: Vec::new(),
            done: !valid,
        }
    }

    /// The graph searched.
    pub fn graph(&self) -> &LabGraph {
        &self.graph
    }

    /// The algorithm that searches it.
    pub fn algorithm(&self) -> LabAlgorithm {
        self.algorithm
    }

    /// The rows so far.
    pub fn steps(&self) -> &[LabStep] {
        &self.steps
    }

    /// Has it stopped (the goal expanded, or nothing left open)?
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// A node's cost from the start as the search knows it now.
    pub fn g(&self, node: usize) -> Option<f64> {
        self.g.get(node).copied().flatten()
    }

    /// The open list now, in the order the algorithm takes from it.
    pub fn open_list(&self) -> Vec<OpenEntry> {
        let mut open: Vec<(usize, u64)> = self.open.clone();
        open.sort_by(|a, b| self.order(a, b));
        open.into_iter().map(|(n, _)| self.entry(n)).collect()
    }

    /// The node the next step expands, if any.
    pub fn next_choice(&self) -> Option<usize> {
        if self.done {
            return None;
        }
        self.open
            .iter()
            .min_by(|a, b| self.order(a, b))
            .map(|&(n, _)| n)
    }

    /// The path found, start to goal, and its cost; `None` until the goal is expanded.
    pub fn path(&self) -> Option<(Vec<usize>, f64)> {
        if !self.steps.last().is_some_and(|s| s.goal) {
            return None;
        }
        let mut nodes = vec![self.goal];
        while let Some(p) = nodes.last().and_then(|&n| self.parent[n]) {
            if nodes.len() > self.graph.len() {
                break; // a cycle of parents cannot happen; never loop on one anyway
            }
            nodes.push(p);
        }
        nodes.reverse();
        Some((nodes, self.g(self.goal).unwrap_or(0.0)))
    }

    /// Runs to the end.
    pub fn run(&mut self) {
        while self.step().is_some() {}
    }

    /// Expands the next node; `None` when the search has already stopped.
    pub fn step(&mut self) -> Option<&LabStep> {
        let node = self.next_choice()?;
        self.expand(node)
    }

    /// The open nodes the algorithm may take next: the next choice and every node tied with it
    /// (the same f for A\*, g for Dijkstra, h for greedy; BFS and DFS never tie).
    pub fn equally_good(&self) -> Vec<usize> {
        let Some(next) = self.next_choice() else {
            return Vec::new();
        };
        let best = self.open.iter().find(|&&(n, _)| n == next).copied();
        let Some(best) = best else {
            return Vec::new();
        };
        let tied = |a: &(usize, u64)| {
            let (ea, eb) = (self.entry(a.0), self.entry(best.0));
            match self.algorithm {
                LabAlgorithm::Bfs | LabAlgorithm::Dfs => a.0 == best.0,
                LabAlgorithm::Dijkstra => ea.g == eb.g,
                LabAlgorithm::Greedy => ea.h == eb.h,
                LabAlgorithm::AStar => ea.f == eb.f,
            }
        };
        let mut nodes: Vec<usize> = self.open.iter().filter(|a| tied(a)).map(|a| a.0).collect();
        nodes.sort_by(|&a, &b| self.graph.name(a).cmp(self.graph.name(b)));
        nodes
    }

    /// The open nodes in the order they went in (first in first).
    pub fn open_by_arrival(&self) -> Vec<usize> {
        let mut open = self.open.clone();
        open.sort_by_key(|&(_, k)| k);
        open.into_iter().map(|(n, _)| n).collect()
    }

    /// The nodes expanded so far.
    pub fn closed(&self) -> &[usize] {
        &self.closed
    }

    /// The goal.
    pub fn goal(&self) -> usize {
        self.goal
    }

    /// Expands `node`, which must be open (a hand-run may take any of [`LabSearch::equally_good`]);
    /// `None` when it is not open or the search has stopped.
    pub fn expand(&mut self, node: usize) -> Option<&LabStep> {
        if self.done || !self.open.iter().any(|&(n, _)| n == node) {
            return None;
        }
        self.open.retain(|&(n, _)| n != node);
        self.closed.retain(|&n| n != node);
        self.closed.push(node);
        let g = self.g(node).unwrap_or(0.0);
        let goal = node == self.goal;
        let mut changes = Vec::new();
        if !goal {
            let neighbours = self.graph.neighbours(node).to_vec();
            for (next, weight) in neighbours {
                changes.push(self.offer(node, next, g + weight));
            }
        }
        self.done = goal || self.open.is_empty();
        let step = LabStep {
            number: self.steps.len() + 1,
            expanded: node,
            g,
            changes,
            open: self.open_list(),
            closed: self.closed.clone(),
            goal,
        };
        self.steps.push(step);
        self.steps.last()
    }

    /// Offers `next` the way through `via`, of cost `offered`.
    fn offer(&mut self, via: usize, next: usize, offered: f64) -> Change {
        let Some(before) = self.g[next] else {
            self.set(next, via, offered);
            return Change::Opened {
                node: next,
                via,
                g: offered,
            };
        };
        if !self.algorithm.relaxes() {
            return Change::Seen { node: next };
        }
        // A closed node is final for Dijkstra (weights are never negative); A* opens it again
        // if an inconsistent h let it be closed too early.
        let closed = self.closed.contains(&next);
        let may_improve = (!closed || self.algorithm == LabAlgorithm::AStar) && next != self.start;
        if may_improve && offered < before - 1e-9 {
            self.closed.retain(|&n| n != next);
            self.set(next, via, offered);
            Change::Improved {
                node: next,
                via,
                before,
                g: offered,
            }
        } else {
            Change::Kept {
                node: next,
                via,
                g: before,
                offered,
            }
        }
    }

    fn set(&mut self, node: usize, via: usize, g: f64) {
        self.g[node] = Some(g);
        self.parent[node] = Some(via);
        if !self.open.iter().any(|&(n, _)| n == node) {
            self.open.push((node, self.inserted));
            self.inserted += 1;
        }
    }

    fn entry(&self, node: usize) -> OpenEntry {
        let (g, h) = (self.g(node).unwrap_or(0.0), self.graph.h(node));
        OpenEntry {
            node,
            g,
            h,
            f: g + h,
        }
    }

    /// Which of two open nodes the algorithm takes first.
    fn order(&self, a: &(usize, u64), b: &(usize, u64)) -> std::cmp::Ordering {
        let (ea, eb) = (self.entry(a.0), self.entry(b.0));
        let by_name = || self.graph.name(a.0).cmp(self.graph.name(b.0));
        match self.algorithm {
            LabAlgorithm::Bfs => a.1.cmp(&b.1),
            LabAlgorithm::Dfs => b.1.cmp(&a.1),
            LabAlgorithm::Dijkstra => ea.g.total_cmp(&eb.g).then_with(by_name),
            LabAlgorithm::Greedy => ea.h.total_cmp(&eb.h).then_with(by_name),
            LabAlgorithm::AStar => ea.f.total_cmp(&eb.f).then_with(by_name),
        }
    }
}
