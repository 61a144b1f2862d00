//! Running Moving AI scenarios and comparing with their published optimal lengths.
//!
//! This is what the `gridpath scen` command prints. It lives in the library so that tests can
//! check the same numbers the command reports.

use crate::grid::Grid;
use crate::movingai::Scenario;
use crate::search::Search;
use crate::terrain::Terrain;
use crate::unit_class::UnitClass;
use crate::vocabulary::{QueryError, SearchConfig};
// `std::time::Instant` panics in a browser ("time not implemented on this platform"): there the
// clock comes from the page (`performance.now()`) through `web-time`, with the same API.
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// How far a cost may be from the published optimum and still count as optimal. The files round
/// lengths to 8 decimals.
pub const TOLERANCE: f64 = 1e-4;

/// The result of one scenario.
#[derive(Clone, Debug)]
pub struct ScenarioOutcome<'a> {
    /// Position in the file, from 0.
    pub index: usize,
    /// The scenario itself, borrowed: a copy per query would copy its map's name too.
    pub scenario: &'a Scenario,
    /// The cost found, or `None` for no path.
    pub cost: Option<f64>,
    /// The query was refused (start or goal off the map or on a wall, ...).
    pub error: Option<QueryError>,
    /// Cells expanded.
    pub expanded: usize,
    /// Search time, microseconds.
    pub micros: f64,
}

impl ScenarioOutcome<'_> {
    /// Is its cost the published optimum (within 1e-4)?
    pub fn is_optimal(&self) -> bool {
        self.cost
            .is_some_and(|c| (c - self.scenario.optimal).abs() <= TOLERANCE)
    }

    /// One line describing a mismatch.
    pub fn describe(&self) -> String {
        let s = self.scenario;
        let got = match (&self.error, self.cost) {
            (Some(e), _) => format!("refused: {e}"),
            (None, Some(c)) => format!("got {c:.8}"),
            (None, None) => "got no path".to_string(),
        };
        format!(
            "mismatch: scenario {} (bucket {}) {} -> {}: expected {:.8}, {got}",
            self.index + 1,
            s.bucket,
            s.start,
            s.goal,
            s.optimal
        )
    }
}

/// Every scenario's outcome, with the summary the command prints.
#[derive(Clone, Debug, Default)]
pub struct ScenarioReport<'a> {
    /// One per scenario, in the file's order.
    pub outcomes: Vec<ScenarioOutcome<'a>>,
}

impl<'a> ScenarioReport<'a> {
    /// How many found the published optimum.
    pub fn optimal(&self) -> usize {
        self.outcomes.iter().filter(|o| o.is_optimal()).count()
    }

    /// Those that did not.
    pub fn mismatches(&self) -> impl Iterator<Item = &ScenarioOutcome<'a>> {
        self.outcomes.iter().filter(|o| !o.is_optimal())
    }

    /// Search time in all, milliseconds.
    pub fn total_ms(&self) -> f64 {
        // A fold from +0.0: an empty `sum` of floats is -0.0, which prints as "-0.000".
        self.outcomes.iter().fold(0.0, |total, o| total + o.micros) / 1000.0
    }

    /// The median search time, microseconds.
    pub fn median_us(&self) -> f64 {
        let mut times: Vec<f64> = self.outcomes.iter().map(|o| o.micros).collect();
        times.sort_by(f64::total_cmp);
        match times.len() {
            0 => 0.0,
            n if n % 2 == 1 => times[n / 2],
            n => (times[n / 2 - 1] + times[n / 2]) / 2.0,
        }
    }

    /// The mean number of cells expanded per query (0 for none).
    pub fn expanded_per_query(&self) -> f64 {
        let total: usize = self.outcomes.iter().map(|o| o.expanded).sum();
        total as f64 / self.outcomes.len().max(1) as f64
    }

    /// The command's last line.
    pub fn summary(&self) -> String {
        format!(
            "scenarios: {}, optimal: {}, mismatched: {}, total_ms: {:.3}, median_us: {:.1}, \
             expanded_per_query: {:.1}",
            self.outcomes.len(),
            self.optimal(),
            self.outcomes.len() - self.optimal(),
            self.total_ms(),
            self.median_us(),
            self.expanded_per_query()
        )
    }
}

/// Solves every scenario on `grid` with one reused [`Search`], prepared first (see
/// [`Search::prepare`]) so that the times are the searches' alone. Each query is the
/// benchmark's unit ([`UnitClass::moving_ai_for`]: on a map with water, a unit starting on land
/// never enters it, and one on water never leaves it).
pub fn run_scenarios<'a>(
    grid: &Grid,
    scenarios: &'a [Scenario],
    config: &SearchConfig,
) -> ScenarioReport<'a> {
    run_scenarios_as(grid, scenarios, config, None)
}

/// [`run_scenarios`], every query for `class`; `None` for the benchmark's unit.
pub fn run_scenarios_as<'a>(
    grid: &Grid,
    scenarios: &'a [Scenario],
    config: &SearchConfig,
    class: Option<&UnitClass>,
) -> ScenarioReport<'a> {
    let mut search = Search::new();
    search.prepare(grid, config);
    let (land, water) = (UnitClass::moving_ai_land(), UnitClass::moving_ai_water());
    let outcomes = scenarios
        .iter()
        .enumerate()
        .map(|(index, scenario)| {
            let on_water = grid.terrain(scenario.start) == Some(Terrain::WATER);
            let class = class.unwrap_or(if on_water { &water } else { &land });
            search.set_class(Some(class.clone()));
            let began = Instant::now();
            let result = search
                .begin(grid, scenario.start, scenario.goal, config)
                .map(|()| search.run(grid));
            let micros = began.elapsed().as_secs_f64() * 1e6;
            ScenarioOutcome {
                index,
                scenario,
                cost: search.cost().filter(|_| result.is_ok()),
                error: result.err(),
                expanded: search.expanded(),
                micros,
            }
        })
        .collect();
    ScenarioReport { outcomes }
}
