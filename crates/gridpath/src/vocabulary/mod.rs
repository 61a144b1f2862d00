//! The words every engine speaks, below all of them: which algorithm ([`Algorithm`]), a query's
//! settings ([`SearchConfig`]), why one is refused ([`QueryError`]), where a search stands
//! ([`SearchStatus`], [`Step`]) and what it hands back ([`Path`], [`NodeInfo`], [`TraceEvent`]);
//! and the two structures every engine builds on, the frontier and the node table.
//!
//! The layers of the crate, each importing only from the ones below it:
//!
//! ```text
//! Search (the facade: one query, both goal modes, the regions' shortcut)      search.rs
//! engines, side by side: the best-first loop · bidirectional · D* Lite       engines/
//! the best-first loop's rules, one page per algorithm                         algorithms/
//! this vocabulary                                                             vocabulary/
//! grids, moves, heuristics, regions, line of sight, jump tables               grid.rs …
//! ```

mod algorithm;
mod ends;
pub(crate) mod frontier;
pub(crate) mod link_bound;
pub(crate) mod nodes;
mod types;

pub use algorithm::Algorithm;
pub(crate) use ends::{check_ends, point_at};
pub use nodes::NodeState;
pub use types::{
    GoalMode, NodeInfo, Path, QueryError, SearchConfig, SearchResult, SearchStatus, Step,
    TraceEvent,
};
