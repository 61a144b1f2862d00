//! Compare: every algorithm on the same query, side by side. For each: the cost, the path length,
//! the cells expanded, the time, and whether the path is optimal (against Dijkstra's cost).
//! Selecting a row puts that algorithm's explored cells and path on the map.
//!
//! Any change to the query (a marker, the map, a setting) makes the table stale, so it is cleared.

use super::shown::{ShownSearch, ShownSource};
use super::{PlannerSettings, ReplanNow};
use crate::AppSystems;
use crate::markers::{Goal, MarkerCell, Start};
use crate::nav::NavGrid;
use bevy::prelude::*;
use gridpath::{Algorithm, Point, Search, SearchConfig, SearchStatus};
use std::time::Instant;

/// One algorithm's result.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    pub algorithm: Algorithm,
    /// The result, or why the algorithm does not apply.
    pub result: Result<RowResult, String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RowResult {
    /// `None` when there is no path.
    pub cost: Option<f64>,
    pub length: usize,
    pub expanded: usize,
    pub micros: f64,
    /// The path costs what Dijkstra's does (no path counts as optimal when Dijkstra finds none).
    pub optimal: bool,
    pub partial: bool,
}

/// The comparison table.
#[derive(Resource, Default, Debug)]
pub struct Comparison {
    pub rows: Vec<CompareRow>,
    /// The row on screen; `None` shows the live plan.
    pub selected: Option<usize>,
    /// The query the rows answer.
    query: Option<(Point, Point, SearchConfig)>,
    /// Each row's search, kept to put it on screen when selected.
    searches: Vec<Search>,
}

impl Comparison {
    /// A row's search, as run with a trace.
    pub fn search(&self, row: usize) -> Option<&Search> {
        self.searches.get(row)
    }
}

#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareCommand {
    /// Run every algorithm on the current query.
    Run,
    /// Show a row's search, or (`None`) the live plan.
    Select(Option<usize>),
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Comparison>()
        .add_message::<CompareCommand>()
        .add_systems(
            Update,
            (clear_when_stale, compare_commands)
                .chain()
                .in_set(AppSystems::Plan),
        );
}

fn compare_commands(
    mut commands: MessageReader<CompareCommand>,
    settings: Res<PlannerSettings>,
    nav: Option<Res<NavGrid>>,
    start: Single<&MarkerCell, With<Start>>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut comparison: ResMut<Comparison>,
    mut shown: ResMut<ShownSearch>,
    mut replan: MessageWriter<ReplanNow>,
) {
    let Some(nav) = nav else { return };
    for command in commands.read() {
        match *command {
            CompareCommand::Run => {
                run(
                    &mut comparison,
                    nav.grid(),
                    start.0,
                    goal.0,
                    &settings.search,
                );
            }
            CompareCommand::Select(Some(row)) if row < comparison.rows.len() => {
                comparison.selected = Some(row);
                let algorithm = comparison.rows[row].algorithm;
                if comparison.rows[row].result.is_ok() {
                    let search = &comparison.searches[row];
                    shown.show(
                        ShownSource::Compare(algorithm),
                        search,
                        nav.width(),
                        nav.height(),
                    );
                } else {
                    // It did not apply ("n/a"): there is no search of this query to show.
                    shown.clear(ShownSource::Compare(algorithm));
                }
            }
            CompareCommand::Select(_) => {
                comparison.selected = None;
                replan.write(ReplanNow); // back to the live plan on screen
            }
        }
    }
}

/// Runs every algorithm twice: once timed without a trace, once with a trace to draw.
fn run(
    comparison: &mut Comparison,
    grid: &gridpath::Grid,
    start: Point,
    goal: Point,
    settings: &SearchConfig,
) {
    let base = SearchConfig {
        record_trace: false,
        ..*settings
    };
    comparison
        .searches
        .resize_with(Algorithm::ALL.len(), Search::new);
    comparison.rows.clear();
    comparison.selected = None;
    comparison.query = Some((start, goal, *settings));
    let mut timed = Search::new();
    let mut rows: Vec<CompareRow> = Vec::new();
    for (i, algorithm) in Algorithm::ALL.into_iter().enumerate() {
        let config = base.with_algorithm(algorithm);
        let began = Instant::now();
        let outcome = timed
            .begin(grid, start, goal, &config)
            .map(|()| timed.run(grid));
        let micros = began.elapsed().as_secs_f64() * 1e6;
        let traced = SearchConfig {
            record_trace: true,
            ..config
        };
        let shown = &mut comparison.searches[i];
        let _ = shown
            .begin(grid, start, goal, &traced)
            .map(|()| shown.run(grid));
        let result = outcome.map_err(|e| e.to_string()).map(|status| RowResult {
            cost: timed.cost(),
            length: timed.path().len(),
            expanded: timed.expanded(),
            micros,
            optimal: false, // judged below, against Dijkstra's row
            partial: status == SearchStatus::Partial,
        });
        rows.push(CompareRow { algorithm, result });
    }
    let best = rows
        .iter()
        .find(|r| r.algorithm == Algorithm::Dijkstra)
        .and_then(|r| r.result.as_ref().ok())
        .map(|r| r.cost);
    for row in &mut rows {
        if let (Ok(r), Some(best)) = (&mut row.result, best) {
            r.optimal = match (r.cost, best) {
                (Some(c), Some(b)) => (c - b).abs() <= 1e-9 * b.max(1.0),
                (None, None) => true,
                _ => false,
            };
        }
    }
    comparison.rows = rows;
}

/// Clears the table when the query it answers has changed.
fn clear_when_stale(
    settings: Res<PlannerSettings>,
    nav: Option<Res<NavGrid>>,
    start: Single<&MarkerCell, With<Start>>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut comparison: ResMut<Comparison>,
    mut replan: MessageWriter<ReplanNow>,
) {
    let Some(query) = comparison.query else {
        return;
    };
    let map_changed = nav.is_some_and(|n| n.is_changed());
    if query != (start.0, goal.0, settings.search) || map_changed {
        let was_showing = comparison.selected.is_some();
        comparison.rows.clear();
        comparison.selected = None;
        comparison.query = None;
        if was_showing {
            replan.write(ReplanNow);
        }
    }
}
