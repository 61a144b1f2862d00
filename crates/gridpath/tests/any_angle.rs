//! Any-angle paths on thousands of random grids: line of sight against a geometric oracle, then
//! Theta* and smoothing against the grid-optimal cost from the independent Dijkstra oracle.

use gridpath::line_of_sight::{euclidean, polyline_length};
use gridpath::{
    Algorithm, CornerRule, Grid, Movement, Point, QueryError, Search, SearchConfig, SearchStatus,
    line_of_sight, smoothen_path,
};
use proptest::prelude::*;

mod common;
use common::oracle::oracle_cost;
use common::{arb_grid, endpoints};

/// Does the segment between the centres of `a` and `b` touch the closed square of `cell`? Decided
/// geometrically, cell by cell, in doubled integer coordinates (centres are odd, cell edges even):
/// the segment's bounding box must overlap the square, and the square's four corners must not lie
/// strictly on one side of the segment's line.
fn touches(a: Point, b: Point, cell: Point) -> bool {
    let (ax, ay, bx, by) = (
        2 * i64::from(a.x) + 1,
        2 * i64::from(a.y) + 1,
        2 * i64::from(b.x) + 1,
        2 * i64::from(b.y) + 1,
    );
    let (x0, y0) = (2 * i64::from(cell.x), 2 * i64::from(cell.y));
    let (x1, y1) = (x0 + 2, y0 + 2);
    if ax.max(bx) < x0 || ax.min(bx) > x1 || ay.max(by) < y0 || ay.min(by) > y1 {
        return false;
    }
    let side = |x: i64, y: i64| ((bx - ax) * (y - ay) - (by - ay) * (x - ax)).signum();
    let sides = [side(x0, y0), side(x1, y0), side(x0, y1), side(x1, y1)];
    !(sides.iter().all(|&s| s > 0) || sides.iter().all(|&s| s < 0))
}

fn oracle_line_of_sight(grid: &Grid, a: Point, b: Point) -> bool {
    (0..grid.len())
        .map(|i| grid.point_of(i))
        .filter(|&cell| touches(a, b, cell))
        .all(|cell| grid.is_passable(cell))
}

fn assert_segments_see(grid: &Grid, corners: &[Point]) -> Result<(), TestCaseError> {
    for w in corners.windows(2) {
        prop_assert!(
            line_of_sight(grid, w[0], w[1]),
            "{} cannot see {}",
            w[0],
            w[1]
        );
    }
    Ok(())
}

fn any_angle_movement() -> impl Strategy<Value = Movement> {
    prop_oneof![
        Just(Movement::FourWay),
        Just(Movement::EightWay(CornerRule::NeverCut)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// The cell walk agrees with the geometric oracle for every pair of cells of a random grid.
    #[test]
    fn line_of_sight_matches_geometry(grid in arb_grid(9, false)) {
        for i in 0..grid.len() {
            for j in 0..grid.len() {
                let (a, b) = (grid.point_of(i), grid.point_of(j));
                prop_assert_eq!(
                    line_of_sight(&grid, a, b),
                    oracle_line_of_sight(&grid, a, b),
                    "from {} to {}", a, b
                );
            }
        }
    }

    /// Theta* finds a path exactly when one exists; its segments see each other; its cost is
    /// its polyline's length, at least the straight line and at most the grid optimum.
    /// Smoothing A*'s path obeys the same bounds.
    #[test]
    fn theta_star_and_smoothing_against_the_oracle(
        grid in arb_grid(16, false),
        movement in any_angle_movement(),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let Some((start, goal)) = endpoints(&grid, a, b) else { return Ok(()) };
        let grid_optimum = oracle_cost(&grid, movement, start, goal).map(|c| c.value());
        let mut search = Search::new();
        let theta = SearchConfig::astar(movement).with_algorithm(Algorithm::ThetaStar);
        search.begin(&grid, start, goal, &theta).expect("valid query");
        let status = search.run(&grid);
        let Some(best) = grid_optimum else {
            prop_assert_eq!(status, SearchStatus::NoPath);
            return Ok(());
        };
        prop_assert_eq!(status, SearchStatus::Found);
        let corners = search.path().to_vec();
        let cost = search.cost().expect("found");
        prop_assert_eq!(corners.first(), Some(&start));
        prop_assert_eq!(corners.last(), Some(&goal));
        assert_segments_see(&grid, &corners)?;
        prop_assert!((cost - polyline_length(&corners)).abs() < 1e-9);
        prop_assert!(cost <= best + 1e-9, "Theta* {} > grid optimum {}", cost, best);
        prop_assert!(cost >= euclidean(start, goal) - 1e-9);

        let astar = SearchConfig::astar(movement);
        search.begin(&grid, start, goal, &astar).expect("valid query");
        search.run(&grid);
        let smooth = smoothen_path(&grid, search.path());
        prop_assert_eq!(smooth.first(), Some(&start));
        prop_assert_eq!(smooth.last(), Some(&goal));
        assert_segments_see(&grid, &smooth)?;
        let length = polyline_length(&smooth);
        prop_assert!(length <= best + 1e-9, "smoothed {} > grid optimum {}", length, best);
        prop_assert!(length >= euclidean(start, goal) - 1e-9);
    }
}

#[test]
fn theta_star_refuses_terrain_and_cut_corners() {
    let mut grid = Grid::from_ascii(&["....", "...."]).unwrap();
    let (a, b) = (Point::new(0, 0), Point::new(3, 1));
    let theta = SearchConfig::default().with_algorithm(Algorithm::ThetaStar);
    let cut = SearchConfig {
        movement: Movement::EightWay(CornerRule::CutAlways),
        ..theta
    };
    let refused = |r: Result<_, QueryError>| matches!(r, Err(QueryError::Unsupported { .. }));
    assert!(refused(Search::new().find_path(&grid, a, b, &cut)));
    assert!(Search::new().find_path(&grid, a, b, &theta).is_ok());
    grid.set(Point::new(1, 1), gridpath::Cell::Passable(5))
        .unwrap();
    assert!(refused(Search::new().find_path(&grid, a, b, &theta)));
}

#[test]
fn theta_star_walks_straight_across_an_open_room() {
    let grid = Grid::from_ascii(&["........", "........", "........", "........"]).unwrap();
    let (a, b) = (Point::new(0, 0), Point::new(7, 3));
    let theta = SearchConfig::default().with_algorithm(Algorithm::ThetaStar);
    let found = Search::new().find_path(&grid, a, b, &theta).unwrap();
    let path = found.path.unwrap();
    assert_eq!(path.cells, vec![a, b]);
    assert!((path.cost - 58f64.sqrt()).abs() < 1e-12);
    let octile = 4.0 + 3.0 * 2f64.sqrt();
    assert!(path.cost < octile);
}
