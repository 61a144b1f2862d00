//! # gridpath: grid pathfinding that explains itself
//!
//! A small library of grid search algorithms for games, written to be read. Twelve algorithms run
//! through one [`Search`], on one [`Grid`] of blocked and weighted cells, with one choice of
//! [`Movement`] and [`Heuristic`]: breadth-first and depth-first search, Dijkstra, greedy
//! best-first, A*, weighted A*, jump point search, JPS+ and the any-angle Theta* share one
//! best-first loop; bidirectional BFS and A* ([`bidirectional`]) and D* Lite ([`incremental`])
//! are engines of their own beside it. Searches reuse their memory, so re-planning every frame
//! does not allocate, and they can be stepped one expansion at a time to watch them work.
//!
//! The crate is layered, each layer importing only from those below it: grids, moves and
//! heuristics; the shared vocabulary of a search (its settings, statuses, paths, frontier and
//! node table); the engines side by side; and the [`Search`] facade on top.
//!
//! To read A* before the fast loop, start with [`textbook::astar`]: the same algorithm as one
//! function. The `examples/` folder has small programs to run (`cargo run --example first_path`).
//!
//! ```
//! use gridpath::{Algorithm, Grid, Point, SearchConfig, find_path};
//!
//! let grid = Grid::from_ascii(&[
//!     ".....",
//!     ".###.",
//!     "...#.",
//! ]).unwrap();
//! let config = SearchConfig::default(); // A*, 8-way, never cutting corners, octile heuristic
//! let result = find_path(&grid, Point::new(0, 2), Point::new(4, 2), &config).unwrap();
//! let path = result.path.expect("the goal is reachable");
//! assert_eq!(path.cells.first(), Some(&Point::new(0, 2)));
//! assert_eq!(path.cells.last(), Some(&Point::new(4, 2)));
//!
//! // Dijkstra finds the same cost, after expanding more cells.
//! let dijkstra = config.with_algorithm(Algorithm::Dijkstra);
//! let slow = find_path(&grid, Point::new(0, 2), Point::new(4, 2), &dijkstra).unwrap();
//! assert!((slow.path.unwrap().cost - path.cost).abs() < 1e-9);
//! assert!(slow.expanded >= result.expanded);
//! ```

// No unsafe code anywhere: the CI fuzzers run without a sanitizer (`.ci/fuzz`).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod algorithms;
mod buckets;
mod clearance;
mod components;
mod engines;
mod flow_field;
pub mod graph;
mod grid;
mod heuristic;
pub mod hex;
pub mod jump_distances;
pub mod lab;
pub mod lifelong;
pub mod line_of_sight;
mod links;
pub mod mapf;
mod movement;
pub mod movingai;
mod point;
mod run_bits;
pub mod scenarios;
mod search;
pub mod staggered;
pub mod tactics;
mod terrain;
pub mod textbook;
mod unit_class;
mod vocabulary;

pub use clearance::Clearance;
pub use components::Components;
pub use engines::{bidirectional, incremental};
pub use flow_field::FlowField;
pub use grid::{Cell, Grid, GridError, Point};
pub use heuristic::Heuristic;
pub use jump_distances::JumpDistances;
pub use line_of_sight::{line_of_sight, smoothen_path};
pub use links::{Link, LinkId};
pub use movement::{CornerRule, DIAGONAL, Movement, STEPS};
pub use search::{Search, find_path, find_path_as};
pub use terrain::Terrain;
pub use unit_class::UnitClass;
pub use vocabulary::{
    Algorithm, GoalMode, NodeInfo, NodeState, Path, QueryError, SearchConfig, SearchResult,
    SearchStatus, Step, TraceEvent,
};

/// The README's examples, compiled and run as doctests so that they stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
