//! What the search overlays draw: the explored cells in the order they were expanded, the
//! frontier, the current cell and the path. It comes from the live plan, from the stepper, or
//! from a row of the comparison table, all read off a [`gridpath::Search`]'s trace.
//!
//! [`ShownSearch`] has one owner, `show_search`, which runs after the three planners and picks
//! among them: the stepper in step mode, else a selected comparison row, else the live plan.
//! The planners never write it, so the order in which they run cannot change what is drawn.

use super::compare::Comparison;
use super::live::Planner;
use super::settings::{PlanSystems, PlannerMode};
use super::stepping::Stepper;
use crate::world::nav::NavGrid;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridpath::{Point, Search, TraceEvent};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShownSearch>()
        .add_systems(Update, show_search.in_set(PlanSystems::Show));
}

/// Where the search on screen comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

/// The searches the one on screen may come from.
#[derive(SystemParam)]
pub struct ShownSearches<'w> {
    mode: Res<'w, State<PlannerMode>>,
    planner: Res<'w, Planner>,
    stepper: Res<'w, Stepper>,
    comparison: Res<'w, Comparison>,
}

/// The search to draw now: its source, the search (`None` when its query was refused or its
/// algorithm did not apply), and two counters that change when it begins again and when it
/// advances.
type Pick<'a> = (ShownSource, Option<&'a Search>, u64, u64);

impl ShownSearches<'_> {
    fn pick(&self) -> Pick<'_> {
        if *self.mode.get() == PlannerMode::Stepping {
            let (search, began, advanced) = self.stepper.shown();
            return (ShownSource::Stepping, search, began, advanced);
        }
        match self.comparison.shown() {
            Some((algorithm, search, revision)) => {
                (ShownSource::Compare(algorithm), search, revision, 0)
            }
            None => (
                ShownSource::Live,
                self.planner.shown(),
                self.planner.revision(),
                0,
            ),
        }
    }

    /// The search on screen, to ask about a cell's g, h and f.
    pub fn get(&self, source: &ShownSource) -> Option<&Search> {
        let (picked, search, ..) = self.pick();
        search.filter(|_| picked == *source)
    }
}

/// Brings [`ShownSearch`] up to date with the search that should be on screen: read afresh when
/// the source changes or its search began again, followed on when a stepped search advanced.
pub(super) fn show_search(
    searches: ShownSearches,
    nav: Option<Res<NavGrid>>,
    mut shown: ResMut<ShownSearch>,
    mut seen: Local<Option<(ShownSource, u64, u64)>>,
) {
    let Some(nav) = nav else { return };
    let (source, search, began, advanced) = searches.pick();
    let last = *seen;
    *seen = Some((source, began, advanced));
    match (search, last) {
        (_, Some(last)) if last == (source, began, advanced) => {}
        (Some(search), Some((s, b, _))) if (s, b) == (source, began) => shown.follow(search),
        (Some(search), _) => shown.show(source, search, nav.width(), nav.height()),
        (None, _) => shown.clear(source),
    }
}
