//! Unit classes against an independent oracle. A class reads a grid as another grid: each
//! cell's cost times the class's factor for the cell's terrain, a closed terrain a wall. The
//! test builds that grid itself, cell by cell through the public `Grid` API (no class code),
//! and asks the oracle (the `pathfinding` crate's Dijkstra over moves written apart from
//! gridpath's, `common/oracle.rs`) what the class's search on the first grid must find.
//!
//! On thousands of random grids of every shape, with random terrains and classes, every
//! algorithm, run whole and stepped, in both goal modes: refuses exactly when it must (the start
//! or the goal on a closed terrain; JPS, JPS+ and Theta\* where the class makes costs differ or
//! closes a terrain), heads for the goal or the
//! oracle's nearest reachable cell, says `Found`, `Partial` or `NoPath` as the oracle does, and
//! returns a legal path on the class's grid; the optimal ones at the oracle's cost.

use gridpath::{
    Algorithm, Cell, Clearance, Components, CornerRule, FlowField, GoalMode, Grid, Movement, Point,
    QueryError, Search, SearchConfig, SearchStatus, Terrain, UnitClass,
};
use proptest::prelude::*;

mod common;
use common::class_case::{
    TERRAINS, Table, arb_table, begin_and_run, class_of, config_for, seen_by,
};
use common::oracle::{check_path, oracle_cost, oracle_nearest_reachable, oracle_reachable};
use common::{arb_grid, arb_shape};

/// A grid with terrains `terrain` painted on.
fn painted(grid: &Grid, terrain: &[u8]) -> Grid {
    let mut grid = grid.clone();
    for (i, &t) in terrain.iter().enumerate() {
        grid.set_terrain(grid.point_of(i), Terrain(t))
            .expect("inside");
    }
    grid
}

/// One case: a painted grid, a class, the grid the class sees, moves and ends.
#[derive(Debug)]
struct Case {
    grid: Grid,
    table: Table,
    seen: Grid,
    movement: Movement,
    goal_mode: GoalMode,
    start: Point,
    goal: Point,
}

impl Case {
    /// The factors of the terrains on the grid's passable cells.
    fn factors_present(&self) -> Vec<Option<u32>> {
        (0..self.grid.len())
            .map(|i| self.grid.point_of(i))
            .filter(|&p| self.grid.is_passable(p))
            .map(|p| self.table[self.grid.terrain(p).expect("inside").0 as usize])
            .collect()
    }

    /// Why `begin` must refuse `algorithm`, from the case alone.
    fn expected_refusal(&self, algorithm: Algorithm) -> Option<QueryError> {
        let factors = self.factors_present();
        let uniform_class = factors.iter().all(|f| f.is_some() && *f == factors[0]);
        let free = |p: Point| self.seen.is_passable(p);
        let mut costs =
            (0..self.grid.len()).filter_map(|i| match self.grid.cell(self.grid.point_of(i)) {
                Some(Cell::Passable(c)) => Some(c),
                _ => None,
            });
        let first = costs.next();
        let uniform = costs.all(|c| Some(c) == first) && uniform_class;
        let never_cuts = matches!(
            self.movement,
            Movement::FourWay | Movement::EightWay(CornerRule::NeverCut)
        );
        let unsupported = QueryError::Unsupported {
            algorithm,
            reason: "",
        };
        if !self.grid.is_passable(self.start) {
            Some(QueryError::StartBlocked(self.start))
        } else if !free(self.start) {
            Some(QueryError::StartClosed(self.start))
        } else if !free(self.goal) && self.goal_mode == GoalMode::MustBeFree {
            Some(match self.grid.is_passable(self.goal) {
                true => QueryError::GoalClosed(self.goal),
                false => QueryError::GoalBlocked(self.goal),
            })
        } else if (algorithm.is_jump_point_search()
            && (self.movement != Movement::EightWay(CornerRule::NeverCut) || !uniform))
            || (algorithm.is_any_angle() && (!never_cuts || !uniform))
        {
            Some(unsupported)
        } else {
            None
        }
    }

    fn check(&self, config: &SearchConfig, search: &mut Search, whole: bool) {
        let ends = (self.start, self.goal);
        let refusal = self.expected_refusal(config.algorithm);
        let Some(status) = begin_and_run(search, &self.grid, ends, config, whole, refusal, self)
        else {
            return;
        };
        let what = format!("whole {whole} {config:?} {self:?}");
        let target = match self.goal_mode {
            GoalMode::MustBeFree => self.goal,
            GoalMode::ClosestReachable => {
                oracle_nearest_reachable(&self.seen, self.movement, self.start, self.goal)
            }
        };
        let Some(best) = oracle_cost(&self.seen, self.movement, self.start, target) else {
            assert_eq!(status, SearchStatus::NoPath, "{what}");
            return;
        };
        let found = if target == self.goal {
            SearchStatus::Found
        } else {
            SearchStatus::Partial
        };
        assert_eq!(status, found, "{what}");
        assert_eq!(search.target(), Some(target), "{what}");
        if config.algorithm.is_any_angle() {
            assert_eq!(search.path().first(), Some(&self.start), "{what}");
            assert_eq!(search.path().last(), Some(&target), "{what}");
            return;
        }
        // Legal on the class's grid, with its costs.
        check_path(&self.seen, self.movement, self.start, target, search);
        let (cost, best) = (search.cost().unwrap_or(f64::NAN), best.value());
        if config.algorithm.is_optimal() {
            assert!((cost - best).abs() < 1e-9, "{cost} vs {best}: {what}");
        } else {
            assert!(cost >= best - 1e-9, "{cost} vs {best}: {what}");
        }
    }
}

fn arb_case() -> impl Strategy<Value = Case> {
    (arb_grid(10, true), arb_shape(), arb_table(), any::<bool>())
        .prop_flat_map(|(grid, movement, table, closest)| {
            let len = grid.len();
            (
                Just(grid),
                Just(movement),
                Just(table),
                Just(closest),
                prop::collection::vec(0..TERRAINS, len),
                0..len,
                0..len,
            )
        })
        .prop_map(|(grid, movement, table, closest, terrain, a, b)| {
            let grid = painted(&grid, &terrain);
            Case {
                seen: seen_by(&grid, &table),
                table,
                movement,
                goal_mode: [GoalMode::MustBeFree, GoalMode::ClosestReachable][usize::from(closest)],
                start: grid.point_of(a),
                goal: grid.point_of(b),
                grid,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Every algorithm, through a class, finds what the oracle finds on the grid the class sees.
    #[test]
    fn every_algorithm_through_a_class(case in arb_case()) {
        let mut search = Search::with_class(class_of(&case.table));
        for algorithm in Algorithm::ALL {
            let config = config_for(algorithm, case.movement, case.goal_mode);
            case.check(&config, &mut search, true);
            case.check(&config, &mut search, false);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// A class's regions join exactly the cells the oracle reaches on the grid the class sees,
    /// and its flow field costs what the oracle's Dijkstra to the goal costs, from every cell.
    #[test]
    fn regions_and_flow_fields_through_a_class(case in arb_case()) {
        let class = class_of(&case.table);
        let mut regions = Components::new();
        regions.update(&case.grid, case.movement); // the walls' labels first: they must go
        regions.update_as(&case.grid, &class, case.movement);
        let reachable = oracle_reachable(&case.seen, case.movement, case.start);
        let mut field = FlowField::new();
        field.compute_as(&case.grid, &class, &[case.goal], case.movement);
        for i in 0..case.grid.len() {
            let p = case.grid.point_of(i);
            let joined = case.seen.is_passable(case.start) && reachable.contains(&p);
            prop_assert_eq!(regions.connected(&case.grid, case.start, p), joined, "{:?} {:?}", p, case);
            let both_open = case.seen.is_passable(case.goal) && case.seen.is_passable(p);
            let truth = both_open.then(|| oracle_cost(&case.seen, case.movement, p, case.goal)).flatten();
            match (field.cost(p), truth) {
                (Some(cost), Some(truth)) => prop_assert!((cost - truth.value()).abs() < 1e-9, "{:?} {:?}", p, case),
                (None, None) => {}
                (cost, truth) => prop_assert!(false, "{:?}: {:?} vs {:?} on {:?}", p, cost, truth, case),
            }
            if let Some(next) = field.next_step(&case.grid, p) {
                prop_assert!(case.seen.is_passable(next), "{:?} steps onto {:?}", p, next);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// A unit of a class and a size moves on the grid the size makes of the grid the class
    /// sees: the class's clearance, and its sized grid, are the plain ones of the class's grid.
    #[test]
    fn sizes_through_a_class(case in arb_case(), size in 1u8..=3) {
        let class = class_of(&case.table);
        let mut clearance = Clearance::new();
        clearance.update(&case.grid); // the walls' values first: they must go
        clearance.update_as(&case.grid, &class);
        let mut plain = Clearance::new();
        plain.update(&case.seen);
        for i in 0..case.grid.len() {
            let p = case.grid.point_of(i);
            prop_assert_eq!(clearance.at(&case.grid, p), plain.at(&case.seen, p), "{:?}", p);
        }
        let sized = clearance.grid_for_as(&case.grid, &class, size);
        prop_assert_eq!(sized, plain.grid_for(&case.seen, size));
    }
}

/// A boat on a lake and a soldier round it share one map; a class that opens everything at 1
/// reads the map as no class does.
#[test]
fn a_boat_and_a_soldier_on_one_map() {
    let mut grid = Grid::from_ascii(&["......", "......", "......", "......"]).unwrap();
    for (x, y) in [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2)] {
        grid.set_terrain(Point::new(x, y), Terrain::WATER).unwrap();
    }
    let config = SearchConfig::default();
    let boat = UnitClass::closed().with_cost(Terrain::WATER, 1);
    let soldier = UnitClass::new().without(Terrain::WATER);
    let route = |class: &UnitClass, from: (i32, i32), to: (i32, i32)| {
        let mut search = Search::with_class(class.clone());
        search
            .find_path(&grid, from.into(), to.into(), &config)
            .map(|r| r.path.map(|p| p.cells))
    };
    let sailed = route(&boat, (1, 1), (3, 2)).unwrap().unwrap();
    assert!(
        sailed
            .iter()
            .all(|&p| grid.terrain(p) == Some(Terrain::WATER))
    );
    let walked = route(&soldier, (0, 0), (5, 3)).unwrap().unwrap();
    assert!(
        walked
            .iter()
            .all(|&p| grid.terrain(p) == Some(Terrain::GROUND))
    );
    assert_eq!(
        route(&boat, (0, 0), (1, 1)),
        Err(QueryError::StartClosed(Point::new(0, 0)))
    );
    let plain = Search::new().find_path(&grid, Point::new(0, 0), Point::new(5, 3), &config);
    let identity = Search::with_class(UnitClass::new()).find_path(
        &grid,
        Point::new(0, 0),
        Point::new(5, 3),
        &config,
    );
    assert_eq!(plain.unwrap().path, identity.unwrap().path);
}

/// A cost too dear for a `u32` through a class saturates, in the loop as in `entry_cost`.
#[test]
fn costs_too_dear_for_a_u32_saturate_in_the_search() {
    let mut grid = Grid::new(2, 1).unwrap();
    grid.set(Point::new(1, 0), Cell::Passable(2_000_000_000))
        .unwrap();
    let class = UnitClass::new().with_cost(Terrain::GROUND, 3);
    let config = SearchConfig::default();
    let found = gridpath::find_path_as(&grid, &class, Point::new(0, 0), Point::new(1, 0), &config);
    assert_eq!(
        found.unwrap().path.map(|p| p.cost),
        Some(f64::from(u32::MAX))
    );
}
