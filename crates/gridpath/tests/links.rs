//! Links against an independent oracle. A grid with links is a graph: the moves between
//! neighbours, as a unit class reads the cells, and the links it may take. The test keeps its own
//! list of the links it adds and builds that graph itself: the oracle (the `pathfinding` crate's
//! Dijkstra, over moves written apart from gridpath's in `common/oracle.rs`, and the test's links)
//! says what each search must find.
//!
//! On thousands of random grids of every shape, with random terrains, classes and links (one way
//! or two, of a kind the class reads or of none, some shut, ends anywhere, walls too), every
//! algorithm, run whole and stepped, in both goal modes: refuses exactly when it must (the
//! searches that cannot take a link, while one is open), heads for the goal or the oracle's
//! nearest reachable cell (reach through links, which may be one way), says `Found`, `Partial` or
//! `NoPath` as the oracle does, and returns a route of legal moves and links; the optimal ones at
//! the oracle's cost.

use gridpath::{
    Algorithm, CornerRule, FlowField, GoalMode, Grid, Link, Movement, Point, QueryError, Search,
    SearchConfig, SearchStatus, Step, Terrain, UnitClass,
};
use proptest::prelude::*;

mod common;
use common::class_case::{
    TERRAINS, Table, arb_table, begin_and_run, class_of, config_for, seen_by,
};
use common::oracle::{Exact, oracle_moves};
use common::{arb_grid, arb_shape};

/// One case: a painted grid with its links, a class, the grid the class sees, moves and ends.
#[derive(Debug)]
struct Case {
    grid: Grid,
    links: Vec<Link>,
    table: Table,
    seen: Grid,
    movement: Movement,
    goal_mode: GoalMode,
    start: Point,
    goal: Point,
}

impl Case {
    /// The steps the class may take along the test's links out of `p`, with their costs.
    fn link_moves(&self, p: Point) -> Vec<(Point, Exact)> {
        let mut out = Vec::new();
        for link in self.links.iter().filter(|l| l.open) {
            let factor = match link.kind {
                None => Some(1),
                Some(kind) => self.table[kind.0 as usize],
            };
            let Some(factor) = factor else { continue };
            let cost = Exact {
                straight: i64::from(link.cost) * i64::from(factor),
                diagonal: 0,
            };
            let ends = [(link.from, link.to), (link.to, link.from)];
            for (a, b) in ends.into_iter().take(if link.two_way { 2 } else { 1 }) {
                if a == p && self.seen.is_passable(b) {
                    out.push((b, cost));
                }
            }
        }
        out
    }

    /// The oracle's moves and links out of `p` on the class's grid.
    fn moves(&self, p: Point) -> Vec<(Point, Exact)> {
        let mut moves = oracle_moves(&self.seen, self.movement, p);
        moves.extend(self.link_moves(p));
        moves
    }

    fn oracle_cost(&self, to: Point) -> Option<Exact> {
        pathfinding::prelude::dijkstra(&self.start, |&p| self.moves(p), |&p| p == to)
            .map(|(_, cost)| cost)
    }

    /// The reachable cell nearest the goal in a straight line, ties to the lower index.
    fn nearest_reachable(&self) -> Point {
        let reached = pathfinding::prelude::bfs_reach(self.start, |&p| {
            self.moves(p).into_iter().map(|(q, _)| q)
        });
        let index = |p: Point| p.y * self.grid.width() as i32 + p.x;
        reached
            .min_by_key(|p| {
                let (dx, dy) = (i64::from(p.x - self.goal.x), i64::from(p.y - self.goal.y));
                (dx * dx + dy * dy, index(*p))
            })
            .unwrap_or(self.start)
    }

    /// Why `begin` must refuse `algorithm`, from the case alone.
    fn expected_refusal(&self, algorithm: Algorithm) -> Option<QueryError> {
        let free = |p: Point| self.seen.is_passable(p);
        let never_cuts = matches!(
            self.movement,
            Movement::FourWay | Movement::EightWay(CornerRule::NeverCut)
        );
        let square_never_cuts = self.movement == Movement::EightWay(CornerRule::NeverCut);
        // The grid's own costs all alike, and the class opens every terrain on its passable
        // cells at one factor: what the jump searches and Theta* need.
        let passable: Vec<Point> = (0..self.grid.len())
            .map(|i| self.grid.point_of(i))
            .filter(|&p| self.grid.is_passable(p))
            .collect();
        let cost = |p: Point| self.grid.cell(p);
        let factor = |p: Point| self.table[self.grid.terrain(p).expect("inside").0 as usize];
        let uniform = passable.windows(2).all(|w| cost(w[0]) == cost(w[1]))
            && passable.iter().all(|&p| factor(p).is_some())
            && passable.windows(2).all(|w| factor(w[0]) == factor(w[1]));
        let open_links = self.links.iter().any(|l| l.open);
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
        } else if (algorithm.is_jump_point_search() && (!square_never_cuts || !uniform))
            || (algorithm.is_any_angle() && (!never_cuts || !uniform))
            || (open_links
                && (algorithm.is_jump_point_search()
                    || algorithm.is_any_angle()
                    || algorithm == Algorithm::DStarLite))
        {
            Some(unsupported)
        } else {
            None
        }
    }

    /// The route's steps are moves or links of the class's graph; returns the least and the
    /// most its steps can cost (a step may be both a move and a link, or two links).
    fn step_costs(&self, path: &[Point], what: &str) -> (f64, f64) {
        let (mut least, mut most) = (0.0, 0.0);
        for pair in path.windows(2) {
            let costs: Vec<f64> = self
                .moves(pair[0])
                .into_iter()
                .filter(|(q, _)| *q == pair[1])
                .map(|(_, c)| c.value())
                .collect();
            assert!(
                !costs.is_empty(),
                "no move nor link {} → {}: {what}",
                pair[0],
                pair[1]
            );
            least += costs.iter().copied().fold(f64::INFINITY, f64::min);
            most += costs.iter().copied().fold(0.0, f64::max);
        }
        (least, most)
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
            GoalMode::ClosestReachable => self.nearest_reachable(),
        };
        let Some(best) = self.oracle_cost(target) else {
            assert_eq!(status, SearchStatus::NoPath, "{what}");
            return;
        };
        let found = match target == self.goal {
            true => SearchStatus::Found,
            false => SearchStatus::Partial,
        };
        assert_eq!(status, found, "{what}");
        assert_eq!(search.target(), Some(target), "{what}");
        let path = search.path();
        assert_eq!(path.first(), Some(&self.start), "{what}");
        assert_eq!(path.last(), Some(&target), "{what}");
        if config.algorithm.is_any_angle() {
            return; // corners joined by lines of sight (run only where no link is open)
        }
        let (least, most) = self.step_costs(path, &what);
        let (cost, best) = (search.cost().unwrap_or(f64::NAN), best.value());
        assert!(
            least - 1e-9 <= cost && cost <= most + 1e-9,
            "{least} ≤ {cost} ≤ {most}: {what}"
        );
        if config.algorithm.is_optimal() {
            assert!((cost - best).abs() < 1e-9, "{cost} vs {best}: {what}");
        } else {
            assert!(cost >= best - 1e-9, "{cost} vs {best}: {what}");
        }
    }
}

/// A link between the cells numbered `a` and `b` (mod the grid's length).
fn arb_link() -> impl Strategy<Value = (usize, usize, u32, bool, Option<u8>, bool)> {
    (
        any::<usize>(),
        any::<usize>(),
        1u32..=6,
        any::<bool>(),
        prop_oneof![Just(None), (0..TERRAINS).prop_map(Some)],
        prop::bool::weighted(0.8),
    )
}

fn arb_case() -> impl Strategy<Value = Case> {
    // Half the grids of cost 1 everywhere: there links beat the plain distance most often.
    (
        any::<bool>().prop_flat_map(|weighted| arb_grid(10, weighted)),
        arb_shape(),
        arb_table(),
        any::<bool>(),
        prop::collection::vec(arb_link(), 0..=5),
    )
        .prop_flat_map(|(grid, movement, table, closest, links)| {
            let len = grid.len();
            (
                Just((grid, movement, table, closest, links)),
                prop::collection::vec(0..TERRAINS, len),
                0..len,
                0..len,
            )
        })
        .prop_map(|((grid, movement, table, closest, raw), terrain, a, b)| {
            let mut grid = grid;
            for (i, &t) in terrain.iter().enumerate() {
                grid.set_terrain(grid.point_of(i), Terrain(t))
                    .expect("inside");
            }
            let len = grid.len();
            let links: Vec<Link> = raw
                .into_iter()
                .map(|(from, to, cost, two_way, kind, open)| {
                    let link = Link::new(grid.point_of(from % len), grid.point_of(to % len), cost);
                    let link = if two_way { link } else { link.one_way() };
                    let link = match kind {
                        Some(k) => link.of_kind(Terrain(k)),
                        None => link,
                    };
                    link.opened(open)
                })
                .collect();
            for &link in &links {
                grid.add_link(link).expect("both ends on the grid");
            }
            let (start, goal) = (grid.point_of(a), grid.point_of(b));
            Case {
                seen: seen_by(&grid, &table),
                grid,
                links,
                table,
                movement,
                goal_mode: [GoalMode::MustBeFree, GoalMode::ClosestReachable][usize::from(closest)],
                start,
                goal,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    /// Every algorithm, through a class, on a grid with links, finds what the oracle finds on
    /// the class's graph.
    #[test]
    fn every_algorithm_with_links(case in arb_case()) {
        let mut search = Search::with_class(class_of(&case.table));
        let mut plain = Search::new();
        let every_terrain_at_one = case.table.iter().all(|f| *f == Some(1));
        for algorithm in Algorithm::ALL {
            let config = config_for(algorithm, case.movement, case.goal_mode);
            case.check(&config, &mut search, true);
            case.check(&config, &mut search, false);
            if every_terrain_at_one {
                // The same graph with no class at all.
                case.check(&config, &mut plain, true);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// A class's flow field on a grid with links costs what the oracle's Dijkstra to the goal
    /// costs from every cell, and each of its steps is a move or a link of the class's graph.
    #[test]
    fn flow_fields_take_links(case in arb_case()) {
        let mut field = FlowField::new();
        field.compute_as(&case.grid, &class_of(&case.table), &[case.goal], case.movement);
        for i in 0..case.grid.len() {
            let p = case.grid.point_of(i);
            let both_open = case.seen.is_passable(case.goal) && case.seen.is_passable(p);
            let truth = both_open
                .then(|| {
                    pathfinding::prelude::dijkstra(&p, |&q| case.moves(q), |&q| q == case.goal)
                        .map(|(_, cost)| cost.value())
                })
                .flatten();
            match (field.cost(p), truth) {
                (Some(cost), Some(truth)) => prop_assert!((cost - truth).abs() < 1e-9, "{:?} {:?}", p, case),
                (None, None) => {}
                (cost, truth) => prop_assert!(false, "{:?}: {:?} vs {:?} on {:?}", p, cost, truth, case),
            }
            if let Some(next) = field.next_step(&case.grid, p) {
                let step = case.moves(p).into_iter().filter(|(q, _)| *q == next).map(|(_, c)| c.value()).fold(f64::INFINITY, f64::min);
                let (here, there) = (field.cost(p).unwrap_or(f64::NAN), field.cost(next).unwrap_or(f64::NAN));
                prop_assert!((here - (step + there)).abs() < 1e-9, "{:?} → {:?} on {:?}", p, next, case);
            }
        }
    }
}

/// Two rooms joined by a door, the door shut and opened at run time; a ladder of a kind open to
/// soldiers and closed to tanks; and a class's sized grid keeps the links as the class reads them.
#[test]
fn doors_ladders_and_classes() {
    const LADDER: Terrain = Terrain(9);
    let mut grid = Grid::from_ascii(&["...#...", "...#...", "...#..."]).unwrap();
    let door = grid
        .add_link(Link::new(Point::new(2, 1), Point::new(4, 1), 2))
        .unwrap();
    let (from, to) = (Point::new(0, 1), Point::new(6, 1));
    let config = SearchConfig::default();
    let cost = |grid: &Grid, search: &mut Search| {
        search
            .find_path(grid, from, to, &config)
            .unwrap()
            .path
            .map(|p| p.cost)
    };
    let mut search = Search::new();
    assert_eq!(cost(&grid, &mut search), Some(6.0));
    assert!(grid.set_link_open(door, false));
    let revision = grid.link_revision();
    assert_eq!(cost(&grid, &mut search), None, "the door shut");
    assert!(!grid.set_link_open(door, false), "shut already");
    assert_eq!(grid.link_revision(), revision);
    grid.set_link_open(door, true);
    assert_eq!(cost(&grid, &mut search), Some(6.0), "open again");

    grid.remove_link(door);
    grid.add_link(Link::new(Point::new(2, 1), Point::new(4, 1), 3).of_kind(LADDER))
        .unwrap();
    let soldier = UnitClass::new();
    let tank = UnitClass::new().without(LADDER);
    let climber = UnitClass::new().with_cost(LADDER, 2);
    assert_eq!(cost(&grid, &mut Search::with_class(soldier)), Some(7.0));
    assert_eq!(cost(&grid, &mut Search::with_class(tank.clone())), None);
    assert_eq!(
        cost(&grid, &mut Search::with_class(climber.clone())),
        Some(10.0)
    );

    let mut clearance = gridpath::Clearance::new();
    clearance.update_as(&grid, &climber);
    let sized = clearance.grid_for_as(&grid, &climber, 1);
    let read: Vec<Link> = sized.links().map(|(_, l)| *l).collect();
    assert_eq!(read, [Link::new(Point::new(2, 1), Point::new(4, 1), 6)]);
    assert_eq!(cost(&sized, &mut Search::new()), Some(10.0));
    clearance.update_as(&grid, &tank);
    let sized = clearance.grid_for_as(&grid, &tank, 1);
    assert_eq!(
        cost(&sized, &mut Search::new()),
        None,
        "the ladder shut to tanks"
    );
}

/// A one-way teleporter across a wall, stepped: A\* never overestimates through it (the same
/// cost as Dijkstra's, with no more cells expanded).
#[test]
fn a_teleporter_keeps_a_star_optimal() {
    let mut grid = Grid::new(40, 10).unwrap();
    for y in 0..9 {
        grid.set_blocked(Point::new(20, y), true).unwrap();
    }
    grid.add_link(Link::new(Point::new(1, 1), Point::new(38, 1), 1).one_way())
        .unwrap();
    let (from, to) = (Point::new(0, 0), Point::new(39, 0));
    let mut costs = Vec::new();
    for algorithm in [Algorithm::AStar, Algorithm::Dijkstra] {
        let config = SearchConfig::default().with_algorithm(algorithm);
        let mut search = Search::new();
        search.begin(&grid, from, to, &config).unwrap();
        while !matches!(search.step(&grid), Step::Finished(_)) {}
        costs.push((search.cost(), search.expanded()));
    }
    let ((a_cost, a_expanded), (d_cost, d_expanded)) = (costs[0], costs[1]);
    assert_eq!(a_cost, d_cost);
    let by_the_teleporter = gridpath::DIAGONAL + 1.0 + gridpath::DIAGONAL;
    assert!((a_cost.unwrap_or(f64::NAN) - by_the_teleporter).abs() < 1e-9);
    assert!(a_expanded <= d_expanded, "{a_expanded} vs {d_expanded}");
}
