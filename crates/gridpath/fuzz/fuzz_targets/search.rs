//! Differential search: on small random grids, every algorithm with every heuristic, movement,
//! corner rule and goal mode. No panic; every path is legal and its cost adds up; the optimal
//! algorithms (with admissible heuristics) cost exactly what an independent Dijkstra costs; the
//! others find a path exactly when one exists, never cheaper than the best; closest-reachable
//! mode heads for the reachable cell nearest the goal.
#![no_main]

#[path = "../../tests/common/oracle.rs"]
mod oracle;

use arbitrary::{Result, Unstructured};
use gridpath::{
    Algorithm, Cell, CornerRule, GoalMode, Grid, Heuristic, Movement, Point, Search, SearchConfig,
    SearchStatus,
};
use libfuzzer_sys::fuzz_target;
use oracle::{check_path, oracle_cost, oracle_nearest_reachable};

#[derive(Debug)]
struct Case {
    grid: Grid,
    movement: Movement,
    goal_mode: GoalMode,
    weight: f64,
    start: Point,
    goal: Point,
}

fn case(u: &mut Unstructured) -> Result<Case> {
    let bad = |_| arbitrary::Error::IncorrectFormat;
    let (width, height) = (u.int_in_range(1..=12)?, u.int_in_range(1..=12)?);
    let weighted = u.ratio(1, 3)?;
    let mut grid = Grid::new(width, height).map_err(bad)?;
    for i in 0..grid.len() {
        let cell = match u.int_in_range(0..=7)? {
            0 | 1 => Cell::Blocked,
            _ if weighted => Cell::Passable(u.int_in_range(1..=9)?),
            _ => Cell::FLOOR,
        };
        grid.set(grid.point_of(i), cell).map_err(bad)?;
    }
    let movement = *u.choose(&[
        Movement::FourWay,
        Movement::EightWay(CornerRule::NeverCut),
        Movement::EightWay(CornerRule::CutOneCorner),
        Movement::EightWay(CornerRule::CutAlways),
    ])?;
    let goal_mode = *u.choose(&[GoalMode::MustBeFree, GoalMode::ClosestReachable])?;
    // Points one cell past each edge too: refusing them is part of the contract.
    let mut point = || -> Result<Point> {
        Ok(Point::new(
            u.int_in_range(-1..=width as i32)?,
            u.int_in_range(-1..=height as i32)?,
        ))
    };
    let (start, goal) = (point()?, point()?);
    let weight = *u.choose(&[1.0, 1.5, 3.0])?;
    Ok(Case {
        grid,
        movement,
        goal_mode,
        weight,
        start,
        goal,
    })
}

fn check(c: &Case, config: &SearchConfig, search: &mut Search) {
    let grid = &c.grid;
    if search.begin(grid, c.start, c.goal, config).is_err() {
        return; // a refused query (a point off the grid or on a wall, JPS on terrain...)
    }
    let status = search.run(grid);
    let target = match c.goal_mode {
        GoalMode::MustBeFree => c.goal,
        GoalMode::ClosestReachable => oracle_nearest_reachable(grid, c.movement, c.start, c.goal),
    };
    let Some(best) = oracle_cost(grid, c.movement, c.start, target) else {
        assert_eq!(status, SearchStatus::NoPath, "{config:?} {c:?}");
        return;
    };
    let expected = if target == c.goal {
        SearchStatus::Found
    } else {
        SearchStatus::Partial
    };
    assert_eq!(status, expected, "{config:?} {c:?}");
    assert_eq!(search.target(), Some(target), "{config:?} {c:?}");
    check_path(grid, c.movement, c.start, target, search);
    let (cost, best) = (search.cost().unwrap_or(f64::NAN), best.value());
    let admissible = config.heuristic.is_admissible_for(c.movement);
    if config.algorithm.is_optimal() && (admissible || !config.algorithm.uses_heuristic()) {
        assert!(
            (cost - best).abs() < 1e-9,
            "{cost} vs {best}: {config:?} {c:?}"
        );
    } else if config.algorithm == Algorithm::WeightedAStar && admissible {
        assert!(
            cost <= c.weight * best + 1e-9,
            "{cost} vs {best}: {config:?} {c:?}"
        );
    } else {
        assert!(cost >= best - 1e-9, "{cost} below {best}: {config:?} {c:?}");
    }
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(c) = case(&mut Unstructured::new(bytes)) else {
        return;
    };
    let mut search = Search::new();
    // Theta*'s corners are not neighbours: its own property tests check them (tests/any_angle.rs).
    for algorithm in Algorithm::ALL.into_iter().filter(|a| !a.is_any_angle()) {
        for heuristic in Heuristic::ALL {
            if !algorithm.uses_heuristic() && heuristic != Heuristic::Octile {
                continue;
            }
            let config = SearchConfig {
                algorithm,
                movement: c.movement,
                heuristic,
                weight: c.weight,
                goal_mode: c.goal_mode,
                record_trace: false,
            };
            check(&c, &config, &mut search);
        }
    }
});
