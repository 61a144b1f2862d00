//! Unit classes as the property tests write them, apart from the library's reading: a table of
//! closed terrains and factors, the grid a class sees built cell by cell, and a query begun and
//! run (whole or stepped) with the refusal the case expects checked.

use gridpath::{
    Algorithm, Cell, GoalMode, Grid, Heuristic, Movement, Point, QueryError, Search, SearchConfig,
    SearchStatus, Step, Terrain, UnitClass,
};
use proptest::prelude::*;
use std::mem::discriminant;

/// How many terrains the random grids use.
pub const TERRAINS: u8 = 4;

/// A class as the test writes it: per terrain, closed (`None`) or a factor.
pub type Table = [Option<u32>; TERRAINS as usize];

pub fn class_of(table: &Table) -> UnitClass {
    let mut class = UnitClass::new();
    for (t, factor) in table.iter().enumerate() {
        let terrain = Terrain(t as u8);
        class = match factor {
            Some(f) => class.with_cost(terrain, *f),
            None => class.without(terrain),
        };
    }
    class
}

/// The grid `table` sees, built cell by cell from the test's own reading of what a class means.
pub fn seen_by(grid: &Grid, table: &Table) -> Grid {
    let mut seen = Grid::new(grid.width(), grid.height()).expect("same size");
    for i in 0..grid.len() {
        let p = grid.point_of(i);
        let terrain = grid.terrain(p).expect("inside").0 as usize;
        let cell = match (grid.cell(p), table[terrain]) {
            (Some(Cell::Passable(cost)), Some(factor)) => Cell::Passable(cost * factor),
            _ => Cell::Blocked,
        };
        seen.set(p, cell).expect("inside");
    }
    seen
}

pub fn arb_table() -> impl Strategy<Value = Table> {
    // A quarter of the terrains closed; the rest at factors 1-5 (often 1, so that some classes
    // are uniform on their grid and the jump searches run).
    let factor = prop_oneof![
        1 => Just(None),
        2 => Just(Some(1)),
        1 => (2u32..=5).prop_map(Some),
    ];
    prop::array::uniform4(factor)
}

/// `algorithm` with the tightest admissible heuristic for the moves, in `goal_mode`.
pub fn config_for(algorithm: Algorithm, movement: Movement, goal_mode: GoalMode) -> SearchConfig {
    let heuristic = match movement {
        Movement::Hex(_) => Heuristic::Hex,
        Movement::FourWay | Movement::StaggeredFourWay => Heuristic::Manhattan,
        _ => Heuristic::Octile,
    };
    SearchConfig {
        algorithm,
        heuristic,
        goal_mode,
        ..SearchConfig::astar(movement)
    }
}

/// Begins the query and checks `begin` refuses exactly as `refusal` says (by kind); then runs
/// it whole or stepped. `None` when it was refused as it should be.
pub fn begin_and_run(
    search: &mut Search,
    grid: &Grid,
    (start, goal): (Point, Point),
    config: &SearchConfig,
    whole: bool,
    refusal: Option<QueryError>,
    what: impl std::fmt::Debug,
) -> Option<SearchStatus> {
    let begun = search.begin(grid, start, goal, config);
    match (begun, refusal) {
        (Ok(()), None) => {}
        (Err(e), Some(x)) if discriminant(&e) == discriminant(&x) => return None,
        (got, want) => panic!("begin gave {got:?}, expected {want:?}: {config:?} {what:?}"),
    }
    Some(if whole {
        search.run(grid)
    } else {
        loop {
            if let Step::Finished(status) = search.step(grid) {
                break status;
            }
        }
    })
}
