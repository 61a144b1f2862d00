//! Clearance: equal to a brute-force count after every random edit, and every path a search for a
//! big unit finds fits it, cell by cell and across every diagonal.

use gridpath::{Cell, Clearance, CornerRule, Grid, Movement, Point, SearchConfig, find_path};
use proptest::prelude::*;

mod common;
use common::{arb_grid_sized, arb_movement};

/// The side of the largest all-free square whose top-left corner is `p`, capped, by looking.
fn brute_force(grid: &Grid, p: Point) -> u8 {
    let square_free =
        |k: i32| (0..k).all(|dy| (0..k).all(|dx| grid.is_passable(Point::new(p.x + dx, p.y + dy))));
    (1..=i32::from(Clearance::MAX))
        .take_while(|&k| square_free(k))
        .count() as u8
}

/// Whether a unit of `size` fits at `p`, by looking at every cell under it.
fn fits_by_looking(grid: &Grid, p: Point, size: u8) -> bool {
    brute_force(grid, p) >= size
}

fn assert_matches(grid: &Grid, clearance: &Clearance) -> Result<(), TestCaseError> {
    for i in 0..grid.len() {
        let p = grid.point_of(i);
        prop_assert_eq!(clearance.at(grid, p), brute_force(grid, p), "at {}", p);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Repaired after each of a run of random edits (walls built and knocked down, some of them
    /// in batches), the values always equal the brute-force count: the repair never misses a
    /// cell the change reaches. Grids up to 40 cells wide, so that squares reach the cap.
    #[test]
    fn clearance_equals_brute_force_after_every_edit(
        grid in arb_grid_sized(1..=40, 1..=40, 0..=15, false),
        edits in prop::collection::vec((0usize..1600, any::<bool>(), 1usize..4), 1..25),
    ) {
        let mut grid = grid;
        let mut clearance = Clearance::new();
        clearance.update(&grid);
        assert_matches(&grid, &clearance)?;
        for (at, blocked, batch) in edits {
            for k in 0..batch {
                let p = grid.point_of((at + 7 * k) % grid.len());
                grid.set_blocked(p, blocked).expect("on the grid");
            }
            clearance.update(&grid);
            assert_matches(&grid, &clearance)?;
        }
    }

    /// The grids for units of 2 and 3, repaired after each edit of walls or costs
    /// ([`Clearance::repair`]), equal the same grids made afresh, and say a unit fits exactly
    /// where looking at every cell under it says so.
    #[test]
    fn sized_grids_repaired_after_every_edit_equal_fresh_ones(
        grid in arb_grid_sized(1..=24, 1..=24, 0..=20, true),
        edits in prop::collection::vec((0usize..600, 0u32..10, 1usize..4), 1..20),
    ) {
        let mut grid = grid;
        let mut clearance = Clearance::new();
        clearance.update(&grid);
        let mut sized: Vec<Grid> = (2..=3).map(|k| clearance.grid_for(&grid, k)).collect();
        for (at, what, batch) in edits {
            let changed: Vec<Point> =
                (0..batch).map(|k| grid.point_of((at + 5 * k) % grid.len())).collect();
            let cell = if what == 0 { Cell::Blocked } else { Cell::Passable(what) };
            for &p in &changed {
                grid.set(p, cell).expect("on the grid");
            }
            clearance.update(&grid);
            for (k, sized) in (2..=3).zip(&mut sized) {
                clearance.repair(&grid, sized, k, changed.iter().copied());
                prop_assert_eq!(&*sized, &clearance.grid_for(&grid, k), "size {}", k);
                for i in 0..grid.len() {
                    let p = grid.point_of(i);
                    prop_assert_eq!(sized.is_passable(p), fits_by_looking(&grid, p, k), "at {}", p);
                }
            }
        }
    }

    /// A search on [`Clearance::grid_for`] finds paths that fit the unit at every cell, and, when
    /// diagonals never cut corners, at the two cells beside every diagonal step (which together
    /// cover what the unit sweeps). It costs at least what a unit of size 1 pays.
    #[test]
    fn every_path_for_a_big_unit_fits_it(
        grid in arb_grid_sized(4..=24, 4..=24, 0..=25, true),
        movement in arb_movement(),
        size in 1u8..=3,
        ends in (any::<usize>(), any::<usize>()),
    ) {
        let mut clearance = Clearance::new();
        clearance.update(&grid);
        let sized = clearance.grid_for(&grid, size);
        let fitting: Vec<Point> = (0..grid.len())
            .map(|i| grid.point_of(i))
            .filter(|&p| fits_by_looking(&grid, p, size))
            .collect();
        for i in 0..grid.len() {
            let p = grid.point_of(i);
            prop_assert_eq!(sized.is_passable(p), fitting.contains(&p), "at {}", p);
        }
        if fitting.len() < 2 {
            return Ok(());
        }
        let start = fitting[ends.0 % fitting.len()];
        let goal = fitting[ends.1 % fitting.len()];
        let config = SearchConfig::astar(movement);
        let Ok(result) = find_path(&sized, start, goal, &config) else {
            return Err(TestCaseError::fail("a fitting start and goal were refused"));
        };
        let Some(path) = result.path else { return Ok(()) };
        for step in path.cells.windows(2) {
            let (a, b) = (step[0], step[1]);
            prop_assert!(fits_by_looking(&grid, b, size), "{} does not fit at {}", size, b);
            let diagonal = a.x != b.x && a.y != b.y;
            if diagonal && movement == Movement::EightWay(CornerRule::NeverCut) {
                let beside = [Point::new(a.x, b.y), Point::new(b.x, a.y)];
                prop_assert!(beside.iter().all(|&c| fits_by_looking(&grid, c, size)));
            }
        }
        if let Ok(small) = find_path(&grid, start, goal, &config)
            && let Some(small) = small.path
        {
            prop_assert!(path.cost + 1e-9 >= small.cost, "{} < {}", path.cost, small.cost);
        }
    }
}

/// The picture: a unit two cells wide does not walk through a gap one cell wide; it goes
/// through once the gap is widened to two, and a unit of three does not fit at the start.
#[test]
fn a_big_unit_goes_round_a_narrow_gap() {
    let grid = Grid::from_ascii(&[
        "..........",
        "..........",
        "####.#####",
        "..........",
        "..........",
        "#######..#",
        "..........",
        "..........",
    ])
    .expect("map");
    let mut clearance = Clearance::new();
    clearance.update(&grid);
    let config = SearchConfig::astar(Movement::EightWay(CornerRule::NeverCut));
    let (start, goal) = (Point::new(0, 0), Point::new(0, 6));
    let small = find_path(&grid, start, goal, &config).expect("query");
    let small = small.path.expect("a way for a small unit");
    assert!(small.cells.contains(&Point::new(4, 2)), "the narrow gap");
    // The 2 × 2 unit has no way through the gap of one: a wall, and a floor above and below.
    let sized = clearance.grid_for(&grid, 2);
    let big = find_path(&sized, start, goal, &config).expect("query");
    assert!(
        big.path.is_none(),
        "the gap of one in row 2 blocks a 2-wide unit"
    );
    // Open the wall beside the gap: now it is two wide, and the unit passes there.
    let mut wider = grid.clone();
    wider
        .set(Point::new(5, 2), Cell::FLOOR)
        .expect("on the map");
    clearance.update(&wider);
    let big = find_path(&clearance.grid_for(&wider, 2), start, goal, &config).expect("query");
    let big = big.path.expect("a way through the widened gap");
    assert!(big.cells.contains(&Point::new(4, 1)) || big.cells.contains(&Point::new(4, 2)));
    assert!(big.cells.iter().all(|&p| clearance.fits(&wider, p, 2)));
    // A unit of three does not even fit where it would start: rows 0 and 1 are two high.
    let huge = find_path(&clearance.grid_for(&wider, 3), start, goal, &config);
    assert!(!clearance.fits(&wider, start, 3) && huge.is_err());
}
