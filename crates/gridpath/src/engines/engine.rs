//! What the facade asks of an engine.

use crate::grid::{Grid, Point};
use crate::vocabulary::{NodeInfo, SearchStatus, Step, TraceEvent};

/// A search in progress, from a start to the target the facade aimed it at. It knows nothing of
/// goal modes: "the goal is cut off, aim elsewhere" is the facade's decision, taken the same way
/// for every engine.
pub(crate) trait Engine {
    /// Expands one cell, or finishes.
    fn step(&mut self, grid: &Grid) -> Step;

    /// Expands up to `max_expansions` cells; returns the status afterwards.
    fn step_many(&mut self, grid: &Grid, max_expansions: usize) -> SearchStatus {
        for _ in 0..max_expansions {
            if let Step::Finished(status) = self.step(grid) {
                return status;
            }
        }
        self.status()
    }

    /// Runs to the end. (The best-first loop has a tighter loop of its own.)
    fn run(&mut self, grid: &Grid) -> SearchStatus {
        loop {
            if let Step::Finished(status) = self.step(grid) {
                return status;
            }
        }
    }

    /// Ends a search that cannot succeed: the regions say the target lies in another one.
    fn give_up(&mut self);

    /// `Found` once it reached its target: the facade says `Partial` if that is not the goal.
    fn status(&self) -> SearchStatus;

    /// Cells expanded so far by this run.
    fn expanded(&self) -> usize;

    /// The path to the target, once found.
    fn path(&self) -> &[Point];

    /// The path's cost, once found.
    fn cost(&self) -> Option<f64>;

    /// The cell expanded last.
    fn current(&self) -> Option<Point>;

    /// Every open and close, in order, when recording.
    fn trace(&self) -> &[TraceEvent];

    /// Cells waiting in the frontier (or frontiers).
    fn frontier_len(&self) -> usize;

    /// What it knows of a cell on the grid the query began on.
    fn node(&self, p: Point) -> NodeInfo;
}
