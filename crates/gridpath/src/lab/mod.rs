//! The graph lab's core: small named graphs a learner can read, edit as text and search by hand.
//!
//! A course on pathfinding starts on a small graph (vertices named by letters, weighted edges,
//! the adjacency kept in a dictionary), runs BFS, DFS, Dijkstra and A\* on it, and asks students
//! to run A\* by hand, one expansion at a time. This module is what such a lab needs beneath a
//! view:
//!
//! - [`LabGraph`]: named nodes with a heuristic value each and undirected weighted edges, read
//!   from and written as text (`A B 4`, `h A 7`), and shown as the lab writes its dictionary
//!   (`{'A': {'B': 4, 'C': 2}, ...}`).
//! - [`LabSearch`]: BFS, DFS, Dijkstra, greedy best-first and A\* as one stepper, each step
//!   reporting the node expanded, every change it made ("C: 9 > 4 + 3 → 7") and the open and
//!   closed lists after it: the rows of the trace table a student writes down.
//! - [`check_heuristic`]: is h admissible and consistent on this graph, and if not, which node
//!   or edge breaks it.
//! - [`ByHand`]: the learner runs a search by hand and each answer is checked against the
//!   stepper; a wrong one is named by the rule it follows (lowest h is greedy, first in is BFS,
//!   ...). [`redraw`] gives the same graph new weights for another try.
//! - [`grid_region`]: a small region of a grid as a lab graph (its cells, moves and h), so A\*
//!   can be stepped on the grid and on its graph side by side.
//! - [`presets`]: a warm-up, the textbook's Romania, and graphs that show greedy and an
//!   inadmissible h going wrong.

mod by_hand;
mod from_grid;
mod graph;
mod h_check;
pub mod presets;
mod stepper;

pub use by_hand::{
    ByHand, Habit, NeighbourAnswer, NextAnswer, Question, TiePolicy, Verdict, redraw,
};
pub use from_grid::{GridRegion, grid_region};
pub use graph::{LabError, LabGraph, MAX_NODES, num};
pub use h_check::{HeuristicCheck, check_heuristic};
pub use stepper::{Change, LabAlgorithm, LabSearch, LabStep, OpenEntry};
