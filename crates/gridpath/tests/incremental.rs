//! D* Lite under random sequences of edits (walls and terrain) and start moves: after every
//! repair its cost equals the independent oracle's, and its path is legal.

use gridpath::incremental::DStarLite;
use gridpath::{Cell, Grid, Heuristic, Movement, Point, SearchStatus};
use proptest::prelude::*;

mod common;
use common::oracle::{check_steps, oracle_cost};
use common::{arb_grid, arb_movement, endpoints};

/// One edit: a cell (picked by a random number) becomes a wall, floor, or terrain of a cost;
/// or the start moves to another free cell.
#[derive(Clone, Debug)]
enum Edit {
    Wall(usize),
    Open(usize, u32),
    MoveStart(usize),
}

fn arb_edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        any::<usize>().prop_map(Edit::Wall),
        (any::<usize>(), 1u32..=9).prop_map(|(i, c)| Edit::Open(i, c)),
        any::<usize>().prop_map(Edit::MoveStart),
    ];
    prop::collection::vec(edit, 1..12)
}

fn check(
    grid: &Grid,
    planner: &DStarLite,
    movement: Movement,
    (start, goal): (Point, Point),
) -> Result<(), TestCaseError> {
    match oracle_cost(grid, movement, start, goal) {
        None => prop_assert_eq!(planner.status(), SearchStatus::NoPath),
        Some(best) => {
            prop_assert_eq!(planner.status(), SearchStatus::Found);
            let path = planner.found().expect("found");
            prop_assert!(
                (path.cost - best.value()).abs() < 1e-9,
                "{} vs {}",
                path.cost,
                best.value()
            );
            check_steps(grid, movement, (start, goal), &path.cells, path.cost);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn d_star_lite_repairs_to_the_oracles_cost(
        grid in arb_grid(12, true),
        movement in arb_movement(),
        a in any::<usize>(),
        b in any::<usize>(),
        edits in arb_edits(),
        tell in any::<bool>(),
    ) {
        let mut grid = grid;
        let Some((mut start, goal)) = endpoints(&grid, a, b) else { return Ok(()) };
        let heuristic = Heuristic::best_for(movement);
        let mut planner = DStarLite::new();
        planner.plan(&grid, start, goal, movement, heuristic).expect("valid");
        check(&grid, &planner, movement, (start, goal))?;
        for edit in edits {
            match edit {
                Edit::Wall(i) | Edit::Open(i, _) => {
                    let p = grid.point_of(i % grid.len());
                    if p == start || p == goal {
                        continue;
                    }
                    let cell = match edit {
                        Edit::Open(_, cost) => Cell::Passable(cost),
                        _ => Cell::Blocked,
                    };
                    grid.set(p, cell).expect("inside");
                    // Told cell by cell, or found by comparing the map: both must repair right.
                    if tell {
                        planner.cells_changed(&grid, [p]);
                    } else {
                        planner.find_changes(&grid);
                    }
                }
                Edit::MoveStart(i) => {
                    let free: Vec<Point> = (0..grid.len())
                        .map(|i| grid.point_of(i))
                        .filter(|p| grid.is_passable(*p))
                        .collect();
                    start = free[i % free.len()];
                }
            }
            planner.plan(&grid, start, goal, movement, heuristic).expect("valid");
            check(&grid, &planner, movement, (start, goal))?;
        }
    }
}

#[test]
fn a_repair_touches_few_cells() {
    let mut grid = Grid::new(64, 64).unwrap();
    let (start, goal) = (Point::new(2, 32), Point::new(61, 32));
    let mut planner = DStarLite::new();
    let h = Heuristic::Octile;
    planner
        .plan(&grid, start, goal, Movement::default(), h)
        .unwrap();
    let first = planner.expanded();
    // A short wall off the path: nothing to repair beyond its neighbourhood.
    let far: Vec<Point> = (0..4).map(|x| Point::new(10 + x, 5)).collect();
    for &p in &far {
        grid.set_blocked(p, true).unwrap();
    }
    planner.cells_changed(&grid, far);
    planner
        .plan(&grid, start, goal, Movement::default(), h)
        .unwrap();
    assert!(
        planner.expanded() * 20 < first,
        "{} vs {first}",
        planner.expanded()
    );
    // The start walks along its path: no repair at all beyond re-keying.
    let next = planner.path()[3];
    planner
        .plan(&grid, next, goal, Movement::default(), h)
        .unwrap();
    assert!(
        planner.expanded() * 20 < first,
        "{} vs {first}",
        planner.expanded()
    );
    assert_eq!(planner.path().first(), Some(&next));
}
