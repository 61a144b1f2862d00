//! Hand-made grids whose answers can be worked out on paper.

use gridpath::{
    Algorithm, CornerRule, GoalMode, Grid, Heuristic, Movement, Point, QueryError, Search,
    SearchConfig, SearchStatus, Step, find_path,
};
use std::f64::consts::SQRT_2;

const EIGHT: Movement = Movement::EightWay(CornerRule::NeverCut);

fn cost(grid: &Grid, from: (i32, i32), to: (i32, i32), config: &SearchConfig) -> Option<f64> {
    find_path(grid, from.into(), to.into(), config)
        .expect("valid query")
        .path
        .map(|p| p.cost)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn open_grid_four_way_is_manhattan() {
    let grid = Grid::new(6, 4).unwrap();
    let c = cost(
        &grid,
        (0, 0),
        (5, 3),
        &SearchConfig::astar(Movement::FourWay),
    );
    assert_eq!(c, Some(8.0));
}

#[test]
fn open_grid_eight_way_is_octile() {
    let grid = Grid::new(6, 4).unwrap();
    let c = cost(&grid, (0, 0), (5, 3), &SearchConfig::astar(EIGHT)).unwrap();
    assert!(close(c, 2.0 + 3.0 * SQRT_2), "{c}");
}

#[test]
fn start_equals_goal_costs_nothing() {
    let grid = Grid::new(3, 3).unwrap();
    let result = find_path(
        &grid,
        Point::new(1, 1),
        Point::new(1, 1),
        &SearchConfig::default(),
    )
    .unwrap();
    let path = result.path.unwrap();
    assert_eq!(path.cells, vec![Point::new(1, 1)]);
    assert_eq!(path.cost, 0.0);
}

#[test]
fn wall_with_a_gap_forces_a_detour() {
    let grid = Grid::from_ascii(&[".....", "####.", "....."]).unwrap();
    // 4-way: along the top (4), down the gap (2), back along the bottom (4).
    assert_eq!(
        cost(
            &grid,
            (0, 0),
            (0, 2),
            &SearchConfig::astar(Movement::FourWay)
        ),
        Some(10.0)
    );
    // 8-way, never cutting: the wall's end at (3,1) stops the diagonals next to the gap.
    let c = cost(&grid, (0, 0), (0, 2), &SearchConfig::astar(EIGHT)).unwrap();
    assert!(close(c, 10.0), "{c}");
    // Cutting one corner: (3,0)→(4,1) clips the wall at (3,1), and so does (4,1)→(3,2).
    let cut = SearchConfig::astar(Movement::EightWay(CornerRule::CutOneCorner));
    let c = cost(&grid, (0, 0), (0, 2), &cut).unwrap();
    assert!(close(c, 6.0 + 2.0 * SQRT_2), "{c}");
}

#[test]
fn diagonal_gap_between_two_walls() {
    let grid = Grid::from_ascii(&[".#.", "#..", "..."]).unwrap();
    let from = (0, 0);
    // Walled in unless a diagonal may squeeze between two walls.
    for rule in [CornerRule::NeverCut, CornerRule::CutOneCorner] {
        assert_eq!(
            cost(
                &grid,
                from,
                (2, 2),
                &SearchConfig::astar(Movement::EightWay(rule))
            ),
            None
        );
    }
    let c = cost(
        &grid,
        from,
        (2, 2),
        &SearchConfig::astar(Movement::EightWay(CornerRule::CutAlways)),
    );
    assert!(close(c.unwrap(), 2.0 * SQRT_2));
}

#[test]
fn terrain_costs_are_paid_on_entry() {
    // Straight through the mud costs 1 + 9 + 1 = 11 (4-way); around it, 6 steps of road.
    let grid = Grid::from_ascii(&["...", ".9.", ".9.", "..."]).unwrap();
    let four = SearchConfig::astar(Movement::FourWay);
    assert_eq!(cost(&grid, (1, 0), (1, 3), &four), Some(5.0)); // via a side column: 1+1+1+1+1
    let grid = Grid::from_ascii(&["#.#", "#5#", "#.#"]).unwrap();
    assert_eq!(cost(&grid, (1, 0), (1, 2), &four), Some(6.0)); // 5 to enter the mud, 1 to leave it
    // A diagonal into mud costs √2 × its entry cost (the way round, 9 + 3, costs more).
    let grid = Grid::from_ascii(&[".9", "93"]).unwrap();
    let c = cost(&grid, (0, 0), (1, 1), &SearchConfig::astar(EIGHT)).unwrap();
    assert!(close(c, 3.0 * SQRT_2));
}

/// A goal in another region is answered before any cell is expanded; stepping still explores
/// the start's region, so that a visualiser can show the search finding out.
#[test]
fn unreachable_goal_gives_no_path_at_once() {
    let grid = Grid::from_ascii(&["..#..", "..#..", "..#.."]).unwrap();
    let (start, goal) = (Point::new(0, 0), Point::new(4, 2));
    let mut search = Search::new();
    for algorithm in Algorithm::ALL {
        let config = SearchConfig::default().with_algorithm(algorithm);
        let result = search.find_path(&grid, start, goal, &config).unwrap();
        assert_eq!(result.path, None, "{algorithm:?}");
        assert_eq!(result.expanded, 0, "{algorithm:?}");
        search.begin(&grid, start, goal, &config).unwrap();
        while let gridpath::Step::Expanded(_) = search.step(&grid) {}
        assert_eq!(search.status(), SearchStatus::NoPath);
        assert!(search.expanded() > 0, "{algorithm:?}");
    }
}

#[test]
fn bad_queries_are_typed_errors() {
    let grid = Grid::from_ascii(&[".#", ".."]).unwrap();
    let c = SearchConfig::default();
    let q = |s: (i32, i32), g: (i32, i32)| find_path(&grid, s.into(), g.into(), &c).err();
    assert_eq!(
        q((-1, 0), (0, 1)),
        Some(QueryError::StartOutside(Point::new(-1, 0)))
    );
    assert_eq!(
        q((0, 0), (2, 0)),
        Some(QueryError::GoalOutside(Point::new(2, 0)))
    );
    assert_eq!(
        q((0, 0), (0, i32::MAX)),
        Some(QueryError::GoalOutside(Point::new(0, i32::MAX)))
    );
    assert_eq!(
        q((1, 0), (0, 1)),
        Some(QueryError::StartBlocked(Point::new(1, 0)))
    );
    assert_eq!(
        q((0, 0), (1, 0)),
        Some(QueryError::GoalBlocked(Point::new(1, 0)))
    );
}

#[test]
fn closest_reachable_returns_a_partial_path() {
    let grid = Grid::from_ascii(&["...#.", "...#.", "...#."]).unwrap();
    let config = SearchConfig {
        goal_mode: GoalMode::ClosestReachable,
        ..SearchConfig::default()
    };
    // Goal beyond the wall: stop at the nearest cell this side, (2,1).
    let result = find_path(&grid, Point::new(0, 1), Point::new(4, 1), &config).unwrap();
    let path = result.path.unwrap();
    assert!(path.partial);
    assert_eq!(path.cells.last(), Some(&Point::new(2, 1)));
    assert_eq!(path.cost, 2.0);
    // Goal on the wall itself: same answer.
    let result = find_path(&grid, Point::new(0, 1), Point::new(3, 1), &config).unwrap();
    assert_eq!(result.path.unwrap().cells.last(), Some(&Point::new(2, 1)));
    // A reachable goal is not partial.
    let result = find_path(&grid, Point::new(0, 1), Point::new(2, 2), &config).unwrap();
    assert!(!result.path.unwrap().partial);
}

/// A re-aimed query counts its own expansions, not the previous query's: the same `Search`, a
/// long query first, then a goal on a wall, then a goal cut off, run whole and stepped.
#[test]
fn a_re_aimed_query_counts_only_its_own_expansions() {
    let grid = Grid::from_ascii(&["..........#.", "..........#.", "..........#."]).unwrap();
    let config = SearchConfig {
        goal_mode: GoalMode::ClosestReachable,
        ..SearchConfig::default().with_algorithm(Algorithm::Dijkstra)
    };
    let mut search = gridpath::Search::new();
    for algorithm in Algorithm::ALL {
        let config = config.with_algorithm(algorithm);
        let long = search
            .find_path(&grid, Point::new(0, 0), Point::new(9, 2), &config)
            .unwrap();
        assert!(long.expanded >= 1, "{algorithm:?}");
        // Start next to the wall: the nearest cell to a goal on it is the start itself.
        let walled = search
            .find_path(&grid, Point::new(9, 1), Point::new(10, 1), &config)
            .unwrap();
        assert!(walled.path.unwrap().partial, "{algorithm:?}");
        assert!(
            walled.expanded <= 2,
            "{algorithm:?}: {} expanded",
            walled.expanded
        );
        // A cut-off goal, stepped: the first phase explores the 30 cells this side, then the
        // second reaches (9, 1) again; never more than both phases together.
        search
            .begin(&grid, Point::new(9, 1), Point::new(11, 1), &config)
            .unwrap();
        while let Step::Expanded(_) = search.step(&grid) {}
        assert!(
            search.expanded() <= 60,
            "{algorithm:?}: {}",
            search.expanded()
        );
    }
}

#[test]
fn jump_point_search_refuses_what_it_cannot_do() {
    let config = SearchConfig::default().with_algorithm(Algorithm::JumpPoint);
    let weighted = Grid::from_ascii(&[".5", ".."]).unwrap();
    assert!(matches!(
        find_path(&weighted, Point::new(0, 0), Point::new(1, 1), &config),
        Err(QueryError::Unsupported { .. })
    ));
    let four = SearchConfig {
        movement: Movement::FourWay,
        ..config
    };
    assert!(matches!(
        find_path(
            &Grid::new(2, 2).unwrap(),
            Point::new(0, 0),
            Point::new(1, 1),
            &four
        ),
        Err(QueryError::Unsupported { .. })
    ));
    // A grid where every cell costs 3 is uniform: JPS runs and scales its costs.
    let mut uniform = Grid::new(4, 4).unwrap();
    for i in 0..uniform.len() {
        uniform
            .set(uniform.point_of(i), gridpath::Cell::Passable(3))
            .unwrap();
    }
    let c = cost(&uniform, (0, 0), (3, 1), &config).unwrap();
    assert!(close(c, 3.0 * (2.0 + SQRT_2)), "{c}");
}

#[test]
fn weighted_astar_checks_its_weight() {
    let grid = Grid::new(2, 2).unwrap();
    for w in [0.5, f64::NAN, f64::INFINITY] {
        let config = SearchConfig {
            weight: w,
            ..SearchConfig::default().with_algorithm(Algorithm::WeightedAStar)
        };
        assert!(matches!(
            find_path(&grid, Point::new(0, 0), Point::new(1, 1), &config),
            Err(QueryError::BadWeight(_))
        ));
    }
}

#[test]
fn astar_expands_fewer_cells_than_dijkstra_on_open_ground() {
    let grid = Grid::new(30, 30).unwrap();
    let astar = SearchConfig::default();
    let dijkstra = astar.with_algorithm(Algorithm::Dijkstra);
    let a = find_path(&grid, Point::new(0, 0), Point::new(29, 29), &astar).unwrap();
    let d = find_path(&grid, Point::new(0, 0), Point::new(29, 29), &dijkstra).unwrap();
    assert!(close(a.path.unwrap().cost, d.path.unwrap().cost));
    assert!(
        a.expanded * 10 < d.expanded,
        "A* {} vs Dijkstra {}",
        a.expanded,
        d.expanded
    );
}

#[test]
fn same_query_same_path() {
    // Many equal-cost paths on an open grid: tie-breaking must pick the same one every time.
    let grid = Grid::new(12, 9).unwrap();
    let mut search = Search::new();
    for algorithm in Algorithm::ALL {
        let config = SearchConfig::default().with_algorithm(algorithm);
        let first = search
            .find_path(&grid, Point::new(1, 7), Point::new(10, 2), &config)
            .unwrap();
        for _ in 0..3 {
            let again = search
                .find_path(&grid, Point::new(1, 7), Point::new(10, 2), &config)
                .unwrap();
            if algorithm == Algorithm::DStarLite {
                // It remembers: the same query again does nothing, and keeps its report.
                assert_eq!(again, first);
                continue;
            }
            assert_eq!(again, first, "{algorithm:?}");
            let fresh = find_path(&grid, Point::new(1, 7), Point::new(10, 2), &config).unwrap();
            assert_eq!(fresh, first, "{algorithm:?}");
        }
    }
}

#[test]
fn stepping_reports_every_expansion_and_ends() {
    let grid = Grid::from_ascii(&[".....", ".###.", "....."]).unwrap();
    let mut search = Search::new();
    let config = SearchConfig {
        record_trace: true,
        ..SearchConfig::default()
    };
    search
        .begin(&grid, Point::new(0, 1), Point::new(4, 1), &config)
        .unwrap();
    let mut steps = 0;
    while let gridpath::Step::Expanded(_) = search.step(&grid) {
        steps += 1;
    }
    assert_eq!(search.status(), SearchStatus::Found);
    assert_eq!(steps, search.expanded());
    let closes = search
        .trace()
        .iter()
        .filter(|e| matches!(e, gridpath::TraceEvent::Closed(_)))
        .count();
    assert_eq!(closes, steps);
    // The node view agrees with the path: the goal's g is the path cost.
    let goal = search.node(Point::new(4, 1)).unwrap();
    assert_eq!(Some(goal.g), search.cost());
    assert_eq!(goal.state, gridpath::NodeState::Closed);
}

#[test]
fn manhattan_in_eight_way_is_allowed_but_not_admissible() {
    assert!(!Heuristic::Manhattan.is_admissible_for(EIGHT));
    let grid = Grid::new(5, 5).unwrap();
    let config = SearchConfig {
        heuristic: Heuristic::Manhattan,
        ..SearchConfig::default()
    };
    assert!(cost(&grid, (0, 0), (4, 4), &config).is_some());
}

/// Ties that tie: on open ground every order of the same straight and diagonal steps costs
/// exactly the same, so A*'s "larger g first" tie-break walks straight to the goal and expands
/// only the cells of its path. (With the float nearest √2, equal sums differ in their last bits
/// and A* widens into cells off the path.)
#[test]
fn on_open_ground_astar_expands_only_its_path() {
    let grid = Grid::new(40, 25).unwrap();
    for goal in [Point::new(39, 13), Point::new(17, 24), Point::new(39, 24)] {
        let found = find_path(&grid, Point::new(0, 0), goal, &SearchConfig::default()).unwrap();
        let path = found.path.expect("open ground");
        assert_eq!(found.expanded, path.cells.len(), "to {goal}");
    }
}
