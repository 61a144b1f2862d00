//! Working a search by hand, as in class: the learner answers, step by step, which node is
//! expanded next and what happens to each of its neighbours, and each answer is checked against
//! the real stepper on the learner's own run. A wrong answer is not just wrong: when it is what
//! another rule would have done, the grader names that rule, because that is the habit to unlearn.
//!
//! ```text
//! loop:
//!     ask "which node is expanded next?" (or "the search stops")
//!         right  ← the node is one the algorithm may take now (under the tie policy)
//!         wrong  ← say which rule it follows:     lowest h → greedy,   lowest g → Dijkstra,
//!                  first in → BFS,   last in → DFS,   lowest f → A*,   a closed node → a stale
//!                  queue entry,   "stop" while the goal is only open → stopping at generation
//!     expand it (the learner's node if right, the algorithm's if not: the right step is shown)
//!     for each neighbour: ask "new g and parent, or no change?"
//!         wrong g ← the edge alone (g of the parent forgotten), or g + h (h is not part of g)
//! ```

use super::graph::{LabGraph, num};
use super::h_check::costs_to;
use super::stepper::{Change, LabAlgorithm, LabSearch, LabStep};
use crate::mapf::SplitMix64;

/// How ties between equally good open nodes are judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TiePolicy {
    /// The node whose name comes first, as the stepper takes it (and most courses do).
    #[default]
    Alphabetical,
    /// Any node the algorithm may take.
    AnyValid,
}

/// What a wrong answer shows: the rule it would be right under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Habit {
    /// Took the open node with the lowest h: greedy best-first.
    LowestH,
    /// Took the open node with the lowest g: Dijkstra.
    LowestG,
    /// Took the lowest f = g + h: A\*.
    LowestF,
    /// Took the node that went in first: BFS's queue.
    FirstIn,
    /// Took the node that went in last: DFS's stack.
    LastIn,
    /// Took a node expanded already: an old entry of it left in the queue.
    StaleEntry,
    /// Stopped when the goal was reached, not when it was expanded.
    StoppedAtGeneration,
    /// Right rule, but ties go to the first name.
    TieOrder,
    /// Gave a neighbour the edge's weight alone, not the parent's g plus the edge.
    EdgeOnly,
    /// Put h into g.
    AddedH,
}

impl Habit {
    /// The habit in words, for the learner.
    pub fn explain(self) -> &'static str {
        match self {
            Self::LowestH => "that is the lowest h: greedy best-first's rule, which ignores g",
            Self::LowestG => "that is the lowest g: Dijkstra's rule, which ignores h",
            Self::LowestF => "that is the lowest f = g + h: A*'s rule",
            Self::FirstIn => "that is the node that went in first: BFS's queue",
            Self::LastIn => "that is the node that went in last: DFS's stack",
            Self::StaleEntry => {
                "that node was expanded already: its old entry in the queue is stale and is skipped"
            }
            Self::StoppedAtGeneration => {
                "the goal is only open: the search stops when the goal is expanded, not when it \
                 is first reached (a cheaper way may still turn up)"
            }
            Self::TieOrder => "a tie: this lab breaks ties by name, first in the alphabet",
            Self::EdgeOnly => "that is the edge alone: g is the parent's g plus the edge",
            Self::AddedH => "that adds h: g counts only the cost so far; f = g + h",
        }
    }
}

/// An answer to "which node is expanded next?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextAnswer {
    /// This node is expanded next.
    Node(usize),
    /// "The search stops here."
    Stop,
}

/// An answer about one neighbour of the node just expanded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NeighbourAnswer {
    /// It gets this g, with the expanded node as its parent.
    NewG(f64),
    /// Its g does not change (it keeps its parent).
    NoChange,
}

/// The question being asked.
#[derive(Clone, Debug, PartialEq)]
pub enum Question {
    /// Which node is expanded next, or does the search stop?
    Next,
    /// What happens to `neighbour`, reached from `via` (g(via) = `via_g`) by an edge of `weight`?
    Neighbour {
        /// The neighbour asked about.
        neighbour: usize,
        /// The node just expanded.
        via: usize,
        /// The expanded node's cost from the start.
        via_g: f64,
        /// The weight of the edge between them.
        weight: f64,
    },
    /// The run is over.
    Done,
}

/// How an answer was judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Was the answer right?
    pub right: bool,
    /// The right answer in words (and what was done instead of the learner's, if wrong).
    pub expected: String,
    /// The mistake's likely cause, when the wrong answer is what a known habit gives.
    pub habit: Option<Habit>,
}

/// A hand-run of one search: its questions, the answers' score.
#[derive(Clone, Debug)]
pub struct ByHand {
    search: LabSearch,
    policy: TiePolicy,
    /// The neighbour changes of the last expansion still to be asked about.
    pending: Vec<Change>,
    via: Option<(usize, f64)>,
    right: u32,
    asked: u32,
    stopped: bool,
}

impl ByHand {
    /// A hand-run of `search` from its current state.
    pub fn new(search: LabSearch, policy: TiePolicy) -> Self {
        Self {
            search,
            policy,
            pending: Vec::new(),
            via: None,
            right: 0,
            asked: 0,
            stopped: false,
        }
    }

    /// The search as the learner has run it (its trace is the learner's).
    pub fn search(&self) -> &LabSearch {
        &self.search
    }

    /// Right answers, and answers given.
    pub fn score(&self) -> (u32, u32) {
        (self.right, self.asked)
    }

    /// What is being asked now.
    pub fn question(&self) -> Question {
        if let Some(change) = self.pending.first() {
            let (via, via_g) = self.via.unwrap_or((0, 0.0));
            let neighbour = change.node();
            let weight = self
                .search
                .graph()
                .neighbours(via)
                .iter()
                .find(|&&(n, _)| n == neighbour)
                .map_or(0.0, |&(_, w)| w);
            return Question::Neighbour {
                neighbour,
                via,
                via_g,
                weight,
            };
        }
        if self.stopped {
            Question::Done
        } else {
            Question::Next
        }
    }

    /// Judges an answer to [`Question::Next`], then takes the step (the learner's if right, the
    /// algorithm's if not).
    pub fn answer_next(&mut self, answer: NextAnswer) -> Verdict {
        let graph = self.search.graph().clone();
        let name = |n: usize| graph.name(n).to_string();
        let finished = self.search.is_done();
        let valid = self.search.equally_good();
        let expected_node = self.search.next_choice();
        let expected = match expected_node {
            _ if finished => "the search stops: the goal was expanded (or nothing is open)".into(),
            Some(_) if self.policy == TiePolicy::AnyValid && valid.len() > 1 => {
                let names: Vec<String> = valid.iter().map(|&v| name(v)).collect();
                format!("expand any of {}", names.join(", "))
            }
            Some(n) => format!("expand {}", name(n)),
            None => "the search stops".into(),
        };
        let right = match answer {
            NextAnswer::Stop => finished,
            NextAnswer::Node(n) if !finished => match self.policy {
                TiePolicy::Alphabetical => expected_node == Some(n),
                TiePolicy::AnyValid => valid.contains(&n),
            },
            NextAnswer::Node(_) => false,
        };
        let habit = if right {
            None
        } else {
            self.habit_of(answer, &valid)
        };
        self.asked += 1;
        self.right += u32::from(right);
        if finished {
            self.stopped = true;
        } else {
            let node = match answer {
                NextAnswer::Node(n) if right => n,
                _ => expected_node.unwrap_or(0),
            };
            let via_g = self.search.g(node).unwrap_or(0.0);
            let step: Option<LabStep> = self.search.expand(node).cloned();
            self.pending = step.map(|s| s.changes).unwrap_or_default();
            self.via = Some((node, via_g));
        }
        Verdict {
            right,
            expected,
            habit,
        }
    }

    /// Judges an answer to [`Question::Neighbour`].
    pub fn answer_neighbour(&mut self, answer: NeighbourAnswer) -> Verdict {
        let Question::Neighbour {
            neighbour,
            via,
            via_g,
            weight,
        } = self.question()
        else {
            return Verdict {
                right: false,
                expected: "no neighbour is being asked about".into(),
                habit: None,
            };
        };
        let change = self.pending.remove(0);
        let graph = self.search.graph();
        let (n, v) = (graph.name(neighbour), graph.name(via));
        let (expected_g, expected) = match change {
            Change::Opened { g, .. } | Change::Improved { g, .. } => (
                Some(g),
                format!(
                    "{n} gets g = {} + {} = {}, parent {v}",
                    num(via_g),
                    num(weight),
                    num(g)
                ),
            ),
            Change::Kept { g, offered, .. } => (
                None,
                format!(
                    "no change: {n} keeps g = {}, not more than {}",
                    num(g),
                    num(offered)
                ),
            ),
            Change::Seen { .. } => (
                None,
                format!(
                    "no change: {n} was reached already, and {} keeps the first way",
                    self.search.algorithm().name()
                ),
            ),
        };
        // To two decimals, as the lab shows numbers: 1.41 is a diagonal step.
        let close = |a: f64, b: f64| (a - b).abs() < 0.006;
        let right = match (answer, expected_g) {
            (NeighbourAnswer::NewG(g), Some(e)) => close(g, e),
            (NeighbourAnswer::NoChange, None) => true,
            _ => false,
        };
        let habit = match answer {
            NeighbourAnswer::NewG(g) if !right && close(g, weight) && !close(via_g, 0.0) => {
                Some(Habit::EdgeOnly)
            }
            NeighbourAnswer::NewG(g) if !right && close(g, via_g + weight + graph.h(neighbour)) => {
                Some(Habit::AddedH)
            }
            _ => None,
        };
        self.asked += 1;
        self.right += u32::from(right);
        Verdict {
            right,
            expected,
            habit,
        }
    }

    /// Which other rule a wrong next-node answer follows, if any.
    fn habit_of(&self, answer: NextAnswer, valid: &[usize]) -> Option<Habit> {
        let s = &self.search;
        let node = match answer {
            NextAnswer::Stop => {
                let goal_open = s.open_list().iter().any(|e| e.node == s.goal());
                return goal_open.then_some(Habit::StoppedAtGeneration);
            }
            NextAnswer::Node(n) => n,
        };
        if s.closed().contains(&node) {
            return Some(Habit::StaleEntry);
        }
        let open = s.open_list();
        let entry = open.iter().find(|e| e.node == node)?;
        if valid.contains(&node) {
            return Some(Habit::TieOrder);
        }
        let lowest = |key: fn(&super::stepper::OpenEntry) -> f64| {
            let best = open.iter().map(key).fold(f64::INFINITY, f64::min);
            (key(entry) - best).abs() < 1e-9
        };
        let arrival = s.open_by_arrival();
        let algorithm = s.algorithm();
        let rules = [
            (LabAlgorithm::Greedy, lowest(|e| e.h), Habit::LowestH),
            (LabAlgorithm::Dijkstra, lowest(|e| e.g), Habit::LowestG),
            (LabAlgorithm::AStar, lowest(|e| e.f), Habit::LowestF),
            (
                LabAlgorithm::Bfs,
                arrival.first() == Some(&node),
                Habit::FirstIn,
            ),
            (
                LabAlgorithm::Dfs,
                arrival.last() == Some(&node),
                Habit::LastIn,
            ),
        ];
        rules
            .into_iter()
            .find(|&(rule, matches, _)| rule != algorithm && matches)
            .map(|(_, _, habit)| habit)
    }
}

/// The same graph with new weights (1 to 9) and an h that is admissible and consistent for them:
/// four fifths of each node's true cost to `goal`, rounded down. The same seed, the same graph.
pub fn redraw(graph: &LabGraph, goal: usize, seed: u64) -> LabGraph {
    let mut rng = SplitMix64(seed);
    let mut out = graph.clone();
    for a in 0..graph.len() {
        for &(b, _) in graph.neighbours(a) {
            if a < b {
                let weight = 1.0 + (rng.next() % 9) as f64;
                let _ = out.set_edge(a, b, weight);
            }
        }
    }
    let costs = costs_to(&out, goal);
    for (node, cost) in costs.iter().enumerate() {
        out.set_h(node, cost.map_or(0.0, |c| (0.8 * c).floor()));
    }
    out
}
