//! The Moving AI `arena` benchmark (130 scenarios, published optimal lengths), from the copy in
//! the repository's `assets/` (see `assets/ATTRIBUTION.md`).

use gridpath::movingai::{read_map_file, read_scen_file};
use gridpath::scenarios::run_scenarios;
use gridpath::{Algorithm, SearchConfig};

/// The repository's `assets/`, found at run time: a test binary built in another checkout that
/// shares the target directory would otherwise look in that checkout, which may be gone.
fn assets() -> String {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR")
        .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
    format!("{crate_dir}/../../assets")
}

#[test]
fn every_arena_scenario_is_solved_at_its_published_optimal_length() {
    let (grid, scenarios) = arena();
    assert_eq!(scenarios.len(), 130);
    assert_eq!((grid.width(), grid.height()), (49, 49));
    for algorithm in [
        Algorithm::AStar,
        Algorithm::JumpPoint,
        Algorithm::JumpPointPlus,
        Algorithm::Dijkstra,
    ] {
        let report = run_scenarios(
            &grid,
            &scenarios,
            &SearchConfig::default().with_algorithm(algorithm),
        );
        let wrong: Vec<String> = report.mismatches().map(|o| o.describe()).collect();
        assert!(wrong.is_empty(), "{algorithm:?}:\n{}", wrong.join("\n"));
        assert_eq!(report.optimal(), 130);
        assert!(
            report
                .summary()
                .starts_with("scenarios: 130, optimal: 130, mismatched: 0, total_ms: ")
        );
    }
}

#[test]
fn weighted_astar_stays_within_its_bound_on_arena() {
    let (grid, scenarios) = arena();
    let config = SearchConfig {
        weight: 2.0,
        ..SearchConfig::default().with_algorithm(Algorithm::WeightedAStar)
    };
    for outcome in run_scenarios(&grid, &scenarios, &config).outcomes {
        let cost = outcome.cost.expect("every arena scenario is solvable");
        assert!(
            cost <= 2.0 * outcome.scenario.optimal + 1e-6,
            "{}",
            outcome.describe()
        );
        assert!(cost >= outcome.scenario.optimal - 1e-4);
    }
}

fn arena() -> (gridpath::Grid, Vec<gridpath::movingai::Scenario>) {
    let assets = assets();
    let grid = read_map_file(format!("{assets}/maps/arena.map")).expect("arena.map");
    let scenarios =
        read_scen_file(format!("{assets}/scenarios/arena.map.scen")).expect("arena.map.scen");
    (grid, scenarios)
}

/// Bidirectional A* and Dijkstra at the published optimum; Theta* and straightened A* paths at
/// most that long and at least the straight line (Moving AI lengths are octile, on cells of cost 1).
#[test]
fn bidirectional_and_any_angle_searches_on_arena() {
    use gridpath::bidirectional::{Bidirectional, Ordering};
    use gridpath::line_of_sight::{euclidean, polyline_length};
    use gridpath::{Heuristic, Movement, Search, smoothen_path};
    let (grid, scenarios) = arena();
    let (mut both_ways, mut search) = (Bidirectional::new(), Search::new());
    let theta = SearchConfig::default().with_algorithm(Algorithm::ThetaStar);
    for s in &scenarios {
        for ordering in [
            Ordering::AStar(Heuristic::Octile),
            Ordering::AStar(Heuristic::Zero),
        ] {
            let found = both_ways
                .find_path(&grid, s.start, s.goal, Movement::default(), ordering)
                .expect("valid scenario");
            let cost = found.path.expect("solvable").cost;
            assert!(
                (cost - s.optimal).abs() < 1e-4,
                "{ordering:?} {s:?}: {cost}"
            );
        }
        let any_angle = search.find_path(&grid, s.start, s.goal, &theta).unwrap();
        let cost = any_angle.path.expect("solvable").cost;
        let straight = euclidean(s.start, s.goal);
        assert!(
            cost <= s.optimal + 1e-4 && cost >= straight - 1e-9,
            "{s:?}: {cost}"
        );
        let grid_path = search
            .find_path(&grid, s.start, s.goal, &SearchConfig::default())
            .unwrap()
            .path
            .expect("solvable");
        let smooth = polyline_length(&smoothen_path(&grid, &grid_path.cells));
        assert!(
            smooth <= s.optimal + 1e-4 && smooth >= straight - 1e-9,
            "{s:?}: {smooth}"
        );
    }
}
