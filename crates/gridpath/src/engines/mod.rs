//! The engines that run a query, side by side. Each searches from a start cell to a target cell
//! that the facade, [`crate::search::Search`], chose (the goal, or the reachable cell nearest it), and
//! each answers the facade through one crate-private trait, [`Engine`], so the facade picks an
//! engine once per call instead of matching on the algorithm in every accessor.
//!
//! - `best_first`: one loop for nine algorithms, from breadth-first search to JPS+ and Theta*:
//!   the frontier's order and the successor rule make the algorithm ([`crate::algorithms`]).
//! - [`bidirectional`]: two searches, from the start and back from the goal, that meet.
//! - [`incremental`]: D* Lite, which searches back from the goal and repairs what it learnt.
//!
//! None imports another, nor the facade: they share only the vocabulary below them.

pub(crate) mod best_first;
pub mod bidirectional;
mod engine;
pub mod incremental;

pub(crate) use engine::Engine;
