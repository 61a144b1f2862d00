//! What the search overlays draw: the explored cells in the order they were expanded, the
//! frontier, the current cell and the path. It comes from the live plan, from the stepper, or
//! from a row of the comparison table, all read off a [`gridpath::Search`]'s trace.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridpath::{Point, Search, TraceEvent};

/// Where the search on screen comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ShownSource {
    #[default]
    Nothing,
    Live,
    Stepping,
    Compare(gridpath::Algorithm),
}

/// The search on screen.
#[derive(Resource, Default, Debug)]
pub struct ShownSearch {
    pub source: ShownSource,
    /// Expanded cells in expansion order, with their cost from the start.
    pub explored: Vec<(Point, f32)>,
    /// Cells in the frontier (reached, not yet expanded).
    pub frontier: Vec<Point>,
    /// The cell expanded last.
    pub current: Option<Point>,
    pub path: Vec<Point>,
    /// Bumped on every change, so drawing can tell when to refresh.
    pub revision: u64,
    /// How far into the search's trace this has read (stepping reads on from here).
    trace_read: usize,
    /// Per cell: 0 unseen, 1 open, 2 closed (reused between searches).
    state: Vec<u8>,
    /// Every cell ever opened, in order; the frontier is those still open.
    opened: Vec<Point>,
    width: usize,
}

impl ShownSearch {
    /// Shows a search from its start: clears, then reads its whole trace.
    pub fn show(&mut self, source: ShownSource, search: &Search, width: u32, height: u32) {
        self.source = source;
        self.explored.clear();
        self.opened.clear();
        self.trace_read = 0;
        self.width = width as usize;
        self.state.clear();
        self.state.resize(width as usize * height as usize, 0);
        self.follow(search);
    }

    /// Reads the trace events added since the last call (a stepping search), and updates the
    /// frontier, the current cell and the path.
    pub fn follow(&mut self, search: &Search) {
        let trace = search.trace();
        if trace.len() < self.trace_read {
            // The search restarted (a closest-reachable search re-aims): read it again.
            self.trace_read = 0;
            self.explored.clear();
            self.opened.clear();
            self.state.fill(0);
        }
        for event in &trace[self.trace_read..] {
            match *event {
                TraceEvent::Opened(p) => {
                    if let Some(s) = self.cell_state(p)
                        && *s == 0
                    {
                        *s = 1;
                        self.opened.push(p);
                    }
                }
                TraceEvent::Closed(p) => {
                    if let Some(s) = self.cell_state(p) {
                        *s = 2;
                    }
                    let g = search.node(p).map_or(0.0, |n| n.g as f32);
                    self.explored.push((p, g));
                }
            }
        }
        self.trace_read = trace.len();
        let state = &self.state;
        let width = self.width;
        self.frontier.clear();
        self.frontier.extend(
            self.opened
                .iter()
                .copied()
                .filter(|p| state[p.y as usize * width + p.x as usize] == 1),
        );
        self.current = search.current();
        self.path.clear();
        self.path.extend_from_slice(search.path());
        self.revision += 1;
    }

    /// Shows nothing (a refused query).
    pub fn clear(&mut self, source: ShownSource) {
        self.source = source;
        self.explored.clear();
        self.frontier.clear();
        self.opened.clear();
        self.current = None;
        self.path.clear();
        self.trace_read = 0;
        self.revision += 1;
    }

    fn cell_state(&mut self, p: Point) -> Option<&mut u8> {
        let i = (p.x >= 0 && p.y >= 0 && (p.x as usize) < self.width)
            .then(|| p.y as usize * self.width + p.x as usize)?;
        self.state.get_mut(i)
    }
}

/// The searches the one on screen may come from, to ask about a cell's g, h and f.
#[derive(SystemParam)]
pub struct ShownSearches<'w> {
    planner: Res<'w, super::Planner>,
    stepper: Res<'w, super::stepping::Stepper>,
    comparison: Res<'w, super::compare::Comparison>,
}

impl ShownSearches<'_> {
    pub fn get(&self, source: &ShownSource) -> Option<&Search> {
        match source {
            ShownSource::Nothing => None,
            ShownSource::Live => Some(&self.planner.search),
            ShownSource::Stepping => Some(&self.stepper.search),
            ShownSource::Compare(_) => self
                .comparison
                .selected
                .and_then(|i| self.comparison.search(i)),
        }
    }
}
