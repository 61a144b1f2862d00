//! Property tests: on thousands of random grids, square and hex, every optimal algorithm must
//! agree with an independent oracle (the `pathfinding` crate's Dijkstra), and every returned
//! path must be legal.
//!
//! The oracle counts costs exactly, as `a + b·√2` with integers `a` and `b`, so a disagreement can
//! never be floating-point noise on the oracle's side.

use gridpath::{
    Algorithm, Components, CornerRule, FlowField, GoalMode, Heuristic, Movement, Point, Search,
    SearchConfig, SearchStatus, Step,
};
use proptest::prelude::*;
use std::cmp::Ordering;

mod common;
use common::oracle::{Exact, check_path, oracle_cost, oracle_nearest_reachable, oracle_reachable};
use common::search_case::Case;
use common::{arb_grid, arb_grid_sized, arb_shape, endpoints};

fn config(algorithm: Algorithm, movement: Movement, heuristic: Heuristic) -> SearchConfig {
    SearchConfig {
        algorithm,
        movement,
        heuristic,
        ..SearchConfig::astar(movement)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Dijkstra and A* with every admissible heuristic match the oracle on weighted grids;
    /// the non-optimal algorithms find a path exactly when one exists, a legal one.
    #[test]
    fn every_algorithm_against_the_oracle(
        grid in arb_grid(14, true),
        movement in arb_shape(),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let Some((start, goal)) = endpoints(&grid, a, b) else { return Ok(()) };
        let truth = oracle_cost(&grid, movement, start, goal);
        let mut search = Search::new();
        for algorithm in Algorithm::ALL {
            if algorithm.is_jump_point_search() || algorithm.is_any_angle() {
                continue; // weighted grid: JPS below, Theta* in tests/any_angle.rs
            }
            for heuristic in Heuristic::ALL.into_iter().chain([Heuristic::Hex]) {
                // Algorithms without a heuristic need one run, not five.
                if !algorithm.uses_heuristic() && heuristic != Heuristic::Octile {
                    continue;
                }
                if !heuristic.is_admissible_for(movement) {
                    continue;
                }
                let cfg = SearchConfig { weight: 1.7, ..config(algorithm, movement, heuristic) };
                search.begin(&grid, start, goal, &cfg).expect("valid query");
                let status = search.run(&grid);
                match truth {
                    None => prop_assert_eq!(status, SearchStatus::NoPath),
                    Some(best) => {
                        prop_assert_eq!(status, SearchStatus::Found);
                        check_path(&grid, movement, start, goal, &search);
                        let cost = search.cost().unwrap_or(f64::NAN);
                        let best = best.value();
                        if algorithm.is_optimal() {
                            prop_assert!((cost - best).abs() < 1e-9,
                                "{:?}/{:?}: {} vs oracle {} on {:?}", algorithm, heuristic, cost, best, grid);
                        } else if algorithm == Algorithm::WeightedAStar {
                            prop_assert!(cost <= 1.7 * best + 1e-9,
                                "weighted A* {} above 1.7 × {}", cost, best);
                        } else {
                            prop_assert!(cost >= best - 1e-9);
                        }
                    }
                }
            }
        }
    }

    /// Jump point search, and JPS+, match the oracle on uniform grids under the Moving AI rules,
    /// and JPS+ expands exactly the cells JPS does.
    #[test]
    fn jump_point_search_against_the_oracle(
        grid in arb_grid(24, false),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let Some((start, goal)) = endpoints(&grid, a, b) else { return Ok(()) };
        let movement = Movement::EightWay(CornerRule::NeverCut);
        let truth = oracle_cost(&grid, movement, start, goal);
        let mut expanded = Vec::new();
        for algorithm in [Algorithm::JumpPoint, Algorithm::JumpPointPlus] {
            let mut search = Search::new();
            let cfg = config(algorithm, movement, Heuristic::Octile);
            search.begin(&grid, start, goal, &cfg).expect("JPS applies on a uniform grid");
            let mut cells = Vec::new();
            while let Step::Expanded(cell) = search.step(&grid) {
                cells.push(cell);
            }
            match truth {
                None => prop_assert_eq!(search.status(), SearchStatus::NoPath),
                Some(best) => {
                    prop_assert_eq!(search.status(), SearchStatus::Found, "{:?} {} → {}", grid, start, goal);
                    check_path(&grid, movement, start, goal, &search);
                    let cost = search.cost().unwrap_or(f64::NAN);
                    prop_assert!((cost - best.value()).abs() < 1e-9,
                        "{:?} {} vs oracle {} from {} to {} on {:?}", algorithm, cost, best.value(), start, goal, grid);
                }
            }
            expanded.push(cells);
        }
        prop_assert_eq!(&expanded[0], &expanded[1], "JPS and JPS+ from {} to {} on {:?}", start, goal, grid);
    }

    /// JPS+ keeps one table between queries and repairs it after wall edits: after every edit
    /// its answer is still the oracle's.
    #[test]
    fn jps_plus_after_wall_edits(
        grid in arb_grid(20, false),
        edits in prop::collection::vec((any::<usize>(), any::<bool>()), 1..10),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let mut grid = grid;
        let movement = Movement::EightWay(CornerRule::NeverCut);
        let cfg = config(Algorithm::JumpPointPlus, movement, Heuristic::Octile);
        let mut search = Search::new();
        search.prepare(&grid, &cfg);
        for (cell, blocked) in edits {
            let p = grid.point_of(cell % grid.len());
            grid.set_blocked(p, blocked).expect("inside");
            let Some((start, goal)) = endpoints(&grid, a, b) else { continue };
            let truth = oracle_cost(&grid, movement, start, goal).map(Exact::value);
            search.begin(&grid, start, goal, &cfg).expect("uniform grid");
            search.run(&grid);
            if truth.is_some() {
                check_path(&grid, movement, start, goal, &search);
            }
            prop_assert_eq!(search.cost().map(|c| (c * 1e6).round()), truth.map(|c| (c * 1e6).round()),
                "from {} to {} on {:?}", start, goal, grid);
        }
    }

    /// Long runs across 64-bit word boundaries: wide or tall grids with few walls exercise the
    /// block-based jumps of JPS on whole words and the edges between them, and JPS+'s capped
    /// diagonals.
    #[test]
    fn jump_point_search_on_long_runs(
        grid in prop_oneof![
            arb_grid_sized(60..=200, 1..=12, 0..=12, false),
            arb_grid_sized(1..=12, 60..=200, 0..=12, false),
            arb_grid_sized(40..=90, 40..=90, 0..=3, false),
        ],
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let Some((start, goal)) = endpoints(&grid, a, b) else { return Ok(()) };
        let movement = Movement::EightWay(CornerRule::NeverCut);
        let truth = oracle_cost(&grid, movement, start, goal).map(Exact::value);
        for algorithm in [Algorithm::JumpPoint, Algorithm::JumpPointPlus] {
            let mut search = Search::new();
            search.begin(&grid, start, goal, &config(algorithm, movement, Heuristic::Octile))
                .expect("JPS applies on a uniform grid");
            search.run(&grid);
            if truth.is_some() {
                check_path(&grid, movement, start, goal, &search);
            }
            prop_assert_eq!(search.cost().map(|c| (c * 1e6).round()), truth.map(|c| (c * 1e6).round()),
                "{:?}", algorithm);
        }
    }

    /// The regions agree with the oracle's flood fill: connected exactly when reachable, under
    /// every movement (4-way regions serve every rule but `CutAlways`).
    #[test]
    fn components_against_the_oracle(
        grid in arb_grid(12, true),
        movement in arb_shape(),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let Some((start, goal)) = endpoints(&grid, a, b) else { return Ok(()) };
        let reachable = oracle_reachable(&grid, movement, start).contains(&goal);
        let mut regions = Components::new();
        regions.update(&grid, movement);
        prop_assert_eq!(regions.connected(&grid, start, goal), reachable);
        same_partition(&grid, movement, &regions)?;
    }

    /// Labels kept up to date through walls painted and taken away, a few at a time (followed
    /// cell by cell where that is local, [`Components::update`]), agree with the oracle's flood
    /// fill after every batch, as labels made whole would.
    #[test]
    fn components_follow_edits_as_the_oracle_says(
        grid in arb_grid(12, true),
        movement in arb_shape(),
        edits in prop::collection::vec((any::<usize>(), any::<bool>(), 0usize..4), 1..40),
    ) {
        let mut grid = grid;
        let mut regions = Components::new();
        regions.update(&grid, movement);
        for (cell, wall, batch_end) in edits {
            let p = grid.point_of(cell % grid.len());
            grid.set_blocked(p, wall).expect("on the grid");
            if batch_end == 0 {
                regions.update(&grid, movement);
                same_partition(&grid, movement, &regions)?;
            }
        }
        regions.update(&grid, movement);
        same_partition(&grid, movement, &regions)?;
    }
    /// Closest-reachable mode heads for the reachable cell nearest the goal, as the oracle's flood
    /// fill finds it, and reaches it at optimal cost.
    #[test]
    fn closest_reachable_against_the_oracle(
        grid in arb_grid(12, true),
        movement in arb_shape(),
        a in any::<usize>(),
        gx in 0i32..12,
        gy in 0i32..12,
    ) {
        let Some((start, _)) = endpoints(&grid, a, 0) else { return Ok(()) };
        let goal = Point::new(gx % grid.width() as i32, gy % grid.height() as i32);
        let nearest = oracle_nearest_reachable(&grid, movement, start, goal);
        let cfg = SearchConfig {
            goal_mode: GoalMode::ClosestReachable,
            ..config(Algorithm::AStar, movement, Heuristic::Zero)
        };
        let mut search = Search::new();
        search.begin(&grid, start, goal, &cfg).expect("valid query");
        let status = search.run(&grid);
        let expected = if nearest == goal { SearchStatus::Found } else { SearchStatus::Partial };
        prop_assert_eq!(status, expected);
        prop_assert_eq!(search.target(), Some(nearest));
        check_path(&grid, movement, start, nearest, &search);
        let best = oracle_cost(&grid, movement, start, nearest).map(Exact::value);
        prop_assert!((search.cost().unwrap_or(f64::NAN) - best.unwrap_or(f64::NAN)).abs() < 1e-9);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Both goal modes in every engine: the one loop, both bidirectional searches and D* Lite,
    /// run whole and stepped, agree with the oracle on where they head (the goal, or the nearest
    /// reachable cell, the start included) and on Found, Partial or NoPath. A quarter to a half
    /// of the cells are walls, so the goal is often cut off, and it may stand on a wall.
    #[test]
    fn goal_modes_in_every_engine(
        grid in prop_oneof![
            arb_grid_sized(1..=10, 1..=10, 25..=55, false),
            arb_grid_sized(1..=10, 1..=10, 25..=55, true),
        ],
        movement in arb_shape(),
        closest in any::<bool>(),
        a in any::<usize>(),
        gx in 0i32..10,
        gy in 0i32..10,
    ) {
        let Some((start, _)) = endpoints(&grid, a, 0) else { return Ok(()) };
        let goal = Point::new(gx % grid.width() as i32, gy % grid.height() as i32);
        let goal_mode = if closest { GoalMode::ClosestReachable } else { GoalMode::MustBeFree };
        Case { grid, movement, goal_mode, weight: 1.5, start, goal }.check_every_algorithm();
    }
}

#[test]
fn exact_cost_ordering() {
    let e = |straight, diagonal| Exact { straight, diagonal };
    assert!(e(1, 1) < e(3, 0)); // 2.414 < 3
    assert!(e(2, 0) > e(0, 1)); // 2 > 1.414
    assert!(e(0, 2) > e(2, 0)); // 2.828 > 2
    assert!(e(-3, 3) > e(0, 0)); // 1.24 > 0
    assert!(e(3, -2) > e(0, 0)); // 0.17 > 0
    assert_eq!(e(5, 7).cmp(&e(5, 7)), Ordering::Equal);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    /// The flow field's cost at every cell is the oracle's cost from that cell to the cheapest of
    /// the goals, on weighted grids under every movement; following it from any cell walks a legal
    /// path that costs exactly that.
    #[test]
    fn the_flow_field_against_the_oracle(
        grid in arb_grid(10, true),
        movement in arb_shape(),
        goal_picks in prop::collection::vec(any::<usize>(), 1..4),
    ) {
        let goals: Vec<Point> = goal_picks
            .iter()
            .filter_map(|&g| endpoints(&grid, g, g).map(|(p, _)| p))
            .collect();
        let mut field = FlowField::new();
        field.compute(&grid, &goals, movement);
        for i in 0..grid.len() {
            let cell = grid.point_of(i);
            let truth = if grid.is_passable(cell) {
                goals.iter().filter_map(|&g| oracle_cost(&grid, movement, cell, g)).min()
            } else {
                None
            };
            let cost = field.cost(cell);
            prop_assert_eq!(cost.map(|c| (c * 1e6).round()), truth.map(|t| (t.value() * 1e6).round()),
                "at {} on {:?} with goals {:?}", cell, grid, goals);
            let path = field.path_from(&grid, cell);
            prop_assert_eq!(path.is_empty(), truth.is_none());
            if let (Some(cost), Some(&end)) = (cost, path.last()) {
                prop_assert!(goals.contains(&end));
                let walked: f64 = path
                    .windows(2)
                    .map(|w| movement.step_cost(&grid, w[0], w[1]).expect("a legal step"))
                    .sum();
                prop_assert!((walked - cost).abs() < 1e-9, "walked {} for {}", walked, cost);
            }
        }
    }
}

/// Each of the oracle's regions is one label, its own, and the count is theirs.
fn same_partition(
    grid: &gridpath::Grid,
    movement: Movement,
    regions: &Components,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let mut seen = std::collections::HashSet::new();
    let mut labels = std::collections::HashSet::new();
    for p in (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y))) {
        if !grid.is_passable(p) {
            prop_assert_eq!(regions.region(grid, p), None);
            continue;
        }
        if seen.contains(&p) {
            continue;
        }
        let label = regions.region(grid, p);
        prop_assert!(
            label.is_some() && labels.insert(label),
            "a new region, a new label"
        );
        for q in oracle_reachable(grid, movement, p) {
            prop_assert_eq!(regions.region(grid, q), label);
            seen.insert(q);
        }
    }
    prop_assert_eq!(regions.count(), labels.len());
    Ok(())
}
