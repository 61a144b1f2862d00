//! Bidirectional searches on thousands of random grids, against the independent oracle:
//! bidirectional A* and Dijkstra find the least cost, bidirectional BFS the fewest moves, and
//! every path is legal.

use gridpath::bidirectional::{Bidirectional, Direction, Ordering};
use gridpath::{Heuristic, Movement, NodeState, Point, SearchStatus};
use proptest::prelude::*;

mod common;
use common::oracle::{check_steps, oracle_cost, oracle_moves};
use common::{arb_grid, arb_movement, endpoints};

/// Fewest moves from `start` to `goal`, by the `pathfinding` crate's BFS over the oracle's moves.
fn oracle_fewest_moves(
    grid: &gridpath::Grid,
    movement: Movement,
    start: Point,
    goal: Point,
) -> Option<usize> {
    pathfinding::prelude::bfs(
        &start,
        |&p| oracle_moves(grid, movement, p).into_iter().map(|(q, _)| q),
        |&p| p == goal,
    )
    .map(|path| path.len() - 1)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn bidirectional_searches_against_the_oracle(
        grid in arb_grid(14, true),
        movement in arb_movement(),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let Some((start, goal)) = endpoints(&grid, a, b) else { return Ok(()) };
        let truth = oracle_cost(&grid, movement, start, goal).map(|c| c.value());
        let mut search = Bidirectional::new();
        let orderings = Heuristic::ALL
            .into_iter()
            .filter(|h| h.is_admissible_for(movement))
            .map(Ordering::AStar)
            .chain([Ordering::BreadthFirst]);
        for ordering in orderings {
            search.begin(&grid, start, goal, movement, ordering).expect("valid query");
            let status = search.run(&grid);
            let Some(best) = truth else {
                prop_assert_eq!(status, SearchStatus::NoPath, "{:?}", ordering);
                continue;
            };
            prop_assert_eq!(status, SearchStatus::Found, "{:?}", ordering);
            let cost = search.cost().expect("found");
            check_steps(&grid, movement, (start, goal), search.path(), cost);
            if ordering == Ordering::BreadthFirst {
                let fewest = oracle_fewest_moves(&grid, movement, start, goal);
                prop_assert_eq!(Some(search.path().len() - 1), fewest);
            } else {
                prop_assert!((cost - best).abs() < 1e-9, "{:?}: {} vs {}", ordering, cost, best);
            }
            let meeting = search.meeting().expect("found");
            prop_assert!(search.path().contains(&meeting));
        }
    }
}

#[test]
fn both_sides_search_and_meet_between_the_ends() {
    let grid = gridpath::Grid::new(41, 21).unwrap();
    let (start, goal) = (Point::new(2, 10), Point::new(38, 10));
    let mut search = Bidirectional::new();
    let ordering = Ordering::AStar(Heuristic::Zero); // bidirectional Dijkstra
    let found = search
        .find_path(&grid, start, goal, Movement::default(), ordering)
        .unwrap();
    assert_eq!(found.path.unwrap().cost, 36.0);
    let (f, b) = (
        search.expanded_by(Direction::Forward),
        search.expanded_by(Direction::Backward),
    );
    assert!(f > 0 && b > 0, "{f} {b}");
    let meeting = search.meeting().unwrap();
    assert!((10..=30).contains(&meeting.x), "{meeting}");
    assert_eq!(search.state(Direction::Forward, start), NodeState::Closed);
    assert_eq!(search.state(Direction::Backward, goal), NodeState::Closed);
    assert_eq!(search.state(Direction::Backward, start), NodeState::Unseen);

    // Half-way searches from both ends cover less than one search from the start.
    let mut one_way = gridpath::Search::new();
    let dijkstra = gridpath::SearchConfig::default().with_algorithm(gridpath::Algorithm::Dijkstra);
    let single = one_way.find_path(&grid, start, goal, &dijkstra).unwrap();
    assert!(
        found.expanded < single.expanded,
        "{} vs {}",
        found.expanded,
        single.expanded
    );
}

#[test]
fn blocked_or_same_ends() {
    let grid = gridpath::Grid::from_ascii(&["..#", "..."]).unwrap();
    let mut search = Bidirectional::new();
    let o = Ordering::BreadthFirst;
    let m = Movement::default();
    assert!(
        search
            .begin(&grid, Point::new(0, 0), Point::new(2, 0), m, o)
            .is_err()
    );
    assert!(
        search
            .begin(&grid, Point::new(9, 0), Point::new(0, 0), m, o)
            .is_err()
    );
    let same = search
        .find_path(&grid, Point::new(1, 1), Point::new(1, 1), m, o)
        .unwrap();
    assert_eq!(same.path.unwrap().cells, vec![Point::new(1, 1)]);
}
