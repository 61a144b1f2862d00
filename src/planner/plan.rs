//! The live plan's outcome, as the panel and the drawing read it: its status, path, cost and
//! timings ([`Plan`]), and what JPS+'s table cost before the search ([`TableWork`]).

use super::optimality::Optimality;
use bevy::prelude::*;
use gridpath::{Algorithm, Point, QueryError, Search, SearchConfig, SearchStatus};

/// How the last plan ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PlanStatus {
    /// Nothing planned yet.
    #[default]
    Pending,
    Found,
    /// The goal was unreachable; the path ends at the nearest reachable cell.
    Partial,
    /// The goal cannot be reached.
    NoPath,
    /// The query was refused (a marker on a wall, an algorithm that does not apply...).
    Refused(String),
}

/// The outcome of the last live plan.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub status: PlanStatus,
    pub algorithm: Algorithm,
    /// Cells from start to goal; empty without a path.
    pub path: Vec<Point>,
    pub cost: f64,
    pub expanded: usize,
    /// Wall-clock time of the search, in microseconds.
    pub micros: f64,
    pub optimality: Optimality,
    /// JPS+ only: the last work its table of jump distances needed (made, or repaired after
    /// edits); a re-plan on unchanged walls keeps showing it rather than "nothing to do".
    pub table: Option<TableWork>,
    /// How many plans have been made: tests and the screenshot mode wait on it.
    pub count: u64,
    /// Whether this plan was searched on a task pool thread rather than in the frame.
    pub off_frame: bool,
    /// A search is running off the frame; what is shown is the previous plan.
    pub in_flight: bool,
    /// Results thrown away because an edit touched their path while they were being searched.
    pub discarded: u64,
    /// D* Lite only: what a fresh A* expands for the same query, to set beside its repair.
    pub fresh_astar: Option<usize>,
    /// The grid revision the path was searched on; `None` without a path.
    pub revision: Option<u64>,
}

/// What JPS+'s precomputed table cost before a search: made, repaired after edits, or already up
/// to date. Shown beside the search's own time, since it is the price of JPS+'s speed.
pub use bevy_gridpath::TableWork;

impl Plan {
    pub fn has_path(&self) -> bool {
        !self.path.is_empty()
    }
}

/// Writes a finished search into the plan.
pub(super) fn store(
    plan: &mut Plan,
    search: &Search,
    config: &SearchConfig,
    status: Result<SearchStatus, QueryError>,
    micros: f64,
) {
    plan.count += 1;
    plan.algorithm = config.algorithm;
    plan.micros = micros;
    plan.path.clear();
    plan.cost = 0.0;
    plan.expanded = search.expanded();
    plan.optimality = Optimality::Unknown;
    plan.status = match status {
        Err(refused) => {
            plan.expanded = 0;
            PlanStatus::Refused(refused.to_string())
        }
        Ok(SearchStatus::Found | SearchStatus::Partial) => {
            plan.path.extend_from_slice(search.path());
            plan.cost = search.cost().unwrap_or(0.0);
            if search.status() == SearchStatus::Partial {
                PlanStatus::Partial
            } else {
                PlanStatus::Found
            }
        }
        Ok(_) => PlanStatus::NoPath,
    };
}
