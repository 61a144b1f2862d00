//! Compare: every algorithm on the same query, side by side. For each: the cost, the path length,
//! the cells expanded, the time, and whether the path is optimal (against Dijkstra's cost).
//! Selecting a row puts that algorithm's explored cells and path on the map.
//!
//! Any change to the query (a marker, the map, a setting) makes the table stale, so it is cleared.

use super::live::ReplanNow;
use super::optimality::same_cost;
use super::plan::TableWork;
use super::query::{PlanQuery, QueryKey, traced};
use super::settings::PlanSystems;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use gridpath::{Algorithm, Grid, Search, SearchConfig, SearchStatus};

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
    /// JPS+ only: what its table needed first (not counted in `micros`).
    pub table: Option<TableWork>,
}

/// The comparison table.
#[derive(Resource, Default, Debug)]
pub struct Comparison {
    pub rows: Vec<CompareRow>,
    /// The row on screen; `None` shows the live plan.
    pub selected: Option<usize>,
    /// The query the rows answer.
    query: Option<QueryKey>,
    /// Each row's search, kept to put it on screen when selected.
    searches: Vec<Search>,
    /// Each row's timed search, kept between runs: JPS+'s table is repaired, not remade.
    timed: Vec<Search>,
    /// Bumped on every run and selection: what is drawn follows it.
    revision: u64,
}

impl Comparison {
    /// A row's search, as run with a trace; `None` when the algorithm did not apply.
    pub fn search(&self, row: usize) -> Option<&Search> {
        let ran = self.rows.get(row).is_some_and(|r| r.result.is_ok());
        self.searches.get(row).filter(|_| ran)
    }

    /// The selected row's algorithm and search (`None` for a row that did not apply), with the
    /// revision they belong to; `None` when no row is selected.
    pub fn shown(&self) -> Option<(Algorithm, Option<&Search>, u64)> {
        let row = self.selected?;
        let algorithm = self.rows.get(row)?.algorithm;
        Some((algorithm, self.search(row), self.revision))
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
                .in_set(PlanSystems::Search),
        );
}

fn compare_commands(
    mut commands: MessageReader<CompareCommand>,
    query: PlanQuery,
    mut comparison: ResMut<Comparison>,
    mut replan: MessageWriter<ReplanNow>,
) {
    let Some(grid) = query.grid() else { return };
    for command in commands.read() {
        comparison.revision += 1;
        match *command {
            CompareCommand::Run => {
                run(&mut comparison, grid, query.key());
            }
            CompareCommand::Select(Some(row)) if row < comparison.rows.len() => {
                comparison.selected = Some(row);
            }
            CompareCommand::Select(_) => {
                comparison.selected = None;
                replan.write(ReplanNow); // back to the live plan on screen
            }
        }
    }
}

/// Runs every algorithm twice: once timed without a trace, once with a trace to draw.
fn run(comparison: &mut Comparison, grid: &Grid, key: QueryKey) {
    let (start, goal, settings) = key;
    let count = Algorithm::ALL.len();
    comparison.searches.resize_with(count, Search::new);
    comparison.timed.resize_with(count, Search::new);
    comparison.selected = None;
    comparison.query = Some(key);
    let mut rows: Vec<CompareRow> = Vec::new();
    for (i, algorithm) in Algorithm::ALL.into_iter().enumerate() {
        let config = SearchConfig {
            record_trace: false,
            ..settings.with_algorithm(algorithm)
        };
        let timed = &mut comparison.timed[i];
        let table = TableWork::prepare(timed, grid, &config);
        let began = Instant::now();
        let outcome = timed
            .begin(grid, start, goal, &config)
            .map(|()| timed.run(grid));
        let micros = began.elapsed().as_secs_f64() * 1e6;
        let shown = &mut comparison.searches[i];
        let _ = shown
            .begin(grid, start, goal, &traced(config))
            .map(|()| shown.run(grid));
        let result = outcome.map_err(|e| e.to_string()).map(|status| RowResult {
            cost: timed.cost(),
            length: timed.path().len(),
            expanded: timed.expanded(),
            micros,
            optimal: false, // judged below, against Dijkstra's row
            partial: status == SearchStatus::Partial,
            table,
        });
        rows.push(CompareRow { algorithm, result });
    }
    judge_rows(&mut rows);
    comparison.rows = rows;
}

/// Marks each row optimal when its cost is Dijkstra's (no path counts as optimal when Dijkstra
/// finds none either).
fn judge_rows(rows: &mut [CompareRow]) {
    let best = rows
        .iter()
        .find(|r| r.algorithm == Algorithm::Dijkstra)
        .and_then(|r| r.result.as_ref().ok())
        .map(|r| r.cost);
    for row in rows {
        if let (Ok(r), Some(best)) = (&mut row.result, best) {
            r.optimal = match (r.cost, best) {
                // Any-angle paths are shorter than the grid's optimum: judged "not longer".
                (Some(c), Some(b)) if row.algorithm.is_any_angle() => c <= b || same_cost(c, b),
                (Some(c), Some(b)) => same_cost(c, b),
                (None, None) => true,
                _ => false,
            };
        }
    }
}

/// Clears the table when the query it answers has changed.
fn clear_when_stale(
    query: PlanQuery,
    mut comparison: ResMut<Comparison>,
    mut replan: MessageWriter<ReplanNow>,
) {
    let Some(key) = comparison.query else {
        return;
    };
    if key != query.key() || query.map_changed() {
        let was_showing = comparison.selected.is_some();
        comparison.rows.clear();
        comparison.selected = None;
        comparison.query = None;
        comparison.revision += 1;
        if was_showing {
            replan.write(ReplanNow);
        }
    }
}
