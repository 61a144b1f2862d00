//! The grid is a graph: A* on a region sent to the graph lab costs what A* on the grid costs,
//! with the grid walled off outside the region, on thousands of random small grids.

use gridpath::lab::{LabAlgorithm, LabSearch, MAX_NODES, grid_region};
use gridpath::{CornerRule, Grid, Heuristic, Movement, Point, SearchConfig, find_path};
use proptest::prelude::*;

/// The grid with every cell outside `min..=max` made a wall.
fn walled_outside(grid: &Grid, min: Point, max: Point) -> Grid {
    let mut inner = grid.clone();
    for y in 0..grid.height() as i32 {
        for x in 0..grid.width() as i32 {
            let p = Point::new(x, y);
            if (p.x < min.x || p.x > max.x || p.y < min.y || p.y > max.y)
                && inner.set_blocked(p, true).is_err()
            {
                unreachable!("on the grid");
            }
        }
    }
    inner
}

fn movements() -> [(Movement, Heuristic); 3] {
    [
        (Movement::FourWay, Heuristic::Manhattan),
        (Movement::EightWay(CornerRule::NeverCut), Heuristic::Octile),
        (
            Movement::EightWay(CornerRule::CutOneCorner),
            Heuristic::Octile,
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_star_on_the_region_costs_what_a_star_on_the_walled_grid_costs(
        walls in proptest::collection::vec(any::<bool>(), 36),
        s in (0i32..6, 0i32..6),
        g in (0i32..6, 0i32..6),
        m in 0usize..3,
    ) {
        let rows: Vec<String> = walls
            .chunks(6)
            .map(|r| r.iter().map(|&w| if w { '#' } else { '.' }).collect())
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut grid = Grid::from_ascii(&rows).expect("grid");
        let (start, goal) = (Point::from(s), Point::from(g));
        prop_assume!(start != goal);
        for p in [start, goal] {
            grid.set_blocked(p, false).expect("on the grid");
        }
        let (movement, heuristic) = movements()[m];
        let region = match grid_region(&grid, movement, heuristic, start, goal) {
            Ok(region) => region,
            Err(why) => {
                prop_assert!(why.contains("more than"), "{why}");
                return Ok(());
            }
        };
        prop_assert!(region.graph.len() <= MAX_NODES);
        let mut lab = LabSearch::new(region.graph.clone(), LabAlgorithm::AStar, region.start, region.goal);
        lab.run();
        let inner = walled_outside(&grid, region.min, region.max);
        let config = SearchConfig { movement, heuristic, ..SearchConfig::default() };
        let on_grid = find_path(&inner, start, goal, &config).expect("a query");
        let grid_cost = on_grid.path.map(|p| p.cost);
        let lab_cost = lab.path().map(|(_, cost)| cost);
        match (grid_cost, lab_cost) {
            (Some(a), Some(b)) => prop_assert!((a - b).abs() < 1e-9, "{a} vs {b}"),
            (a, b) => prop_assert_eq!(a.is_some(), b.is_some()),
        }
    }
}

#[test]
fn a_region_of_mixed_ground_or_too_many_cells_is_refused_in_one_line() {
    let mut grid = Grid::from_ascii(&["....", "....", "...."]).expect("grid");
    let movement = Movement::FourWay;
    grid.set(Point::new(1, 1), gridpath::Cell::Passable(5))
        .expect("on the grid");
    let why = grid_region(
        &grid,
        movement,
        Heuristic::Manhattan,
        Point::new(0, 1),
        Point::new(2, 1),
    );
    let why = why.expect_err("mixed ground");
    assert!(
        why.contains("one way than the other") && !why.contains('\n'),
        "{why}"
    );
    let open = Grid::from_ascii(&[".........."; 10]).expect("grid");
    let why = grid_region(
        &open,
        movement,
        Heuristic::Manhattan,
        Point::new(0, 0),
        Point::new(9, 9),
    );
    assert!(
        why.expect_err("too big")
            .contains("bring the markers closer")
    );
}
