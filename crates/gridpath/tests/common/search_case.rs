//! The differential search check, and the input it runs on: a small grid, a movement, a goal
//! mode, a weight and two end points, decoded from any bytes.
//!
//! Shared, by path, by the `search` fuzz target (`fuzz/fuzz_targets/search.rs`), by the property
//! tests (`tests/oracle.rs`, which build cases directly) and by `tests/fuzz_findings.rs`, which
//! replays every input the fuzzer ever found on the stable compiler. The decoder is written here
//! rather than taken from the `arbitrary` crate so that a finding is a file of bytes that all
//! three read the same way.
//!
//! What every algorithm must do on a case (Theta*'s corners are not neighbours, so for it only
//! the first three points are checked; `tests/any_angle.rs` checks its paths):
//! - refuse the query exactly when the case says it should (an end off the grid, the start on a
//!   wall, the goal on a wall with [`GoalMode::MustBeFree`], jump point search or Theta* where
//!   their rules do not hold), and never otherwise;
//! - head for the goal, or with [`GoalMode::ClosestReachable`] for the oracle's nearest reachable
//!   cell (the start itself when nothing else is reachable), and say `Found`, `Partial` or
//!   `NoPath` as the oracle does, whether run whole ([`Search::run`]) or stepped
//!   ([`Search::step`]): the two take different roads to a cut-off goal;
//! - return a legal path whose costs add up; the optimal algorithms (with an admissible
//!   heuristic) cost what the oracle's Dijkstra costs, weighted A* stays within its bound, and
//!   the others are never cheaper.

use super::oracle::{check_path, oracle_cost, oracle_nearest_reachable};
use gridpath::{
    Algorithm, Cell, CornerRule, GoalMode, Grid, Heuristic, Movement, Point, QueryError, Search,
    SearchConfig, SearchStatus, Step,
};
use std::mem::discriminant;

/// One input: the grid and everything but the algorithm and the heuristic, which the check
/// runs through in full.
#[derive(Debug)]
pub struct Case {
    pub grid: Grid,
    pub movement: Movement,
    pub goal_mode: GoalMode,
    pub weight: f64,
    pub start: Point,
    pub goal: Point,
}

/// The largest side the decoder makes: small enough for thousands of cases a second.
pub const MAX_SIDE: u32 = 12;

/// Reads one byte at a time; past the end every byte reads as 0, so any input is a case.
struct Bytes<'a> {
    bytes: std::slice::Iter<'a, u8>,
}

impl Bytes<'_> {
    /// A number below `n`.
    fn below(&mut self, n: u32) -> u32 {
        u32::from(self.bytes.next().copied().unwrap_or(0)) % n
    }

    /// A coordinate from one cell before the edge to one past it: refusing those is part of
    /// the contract.
    fn coordinate(&mut self, side: u32) -> i32 {
        self.below(side + 2) as i32 - 1
    }
}

impl Case {
    /// Decodes a case. The settings come first and the cells last, one byte each (two for a
    /// terrain cell), so that a mutation of the cells never shifts the settings.
    ///
    /// | byte | meaning |
    /// |---|---|
    /// | 0, 1 | width, height: 1 + the byte mod 12 |
    /// | 2 | terrain costs 1–9 when the byte mod 3 is 0, else uniform |
    /// | 3 | moves: 4-way, 8-way never / one corner / always cut (mod 4) |
    /// | 4 | goal mode: must be free, closest reachable (mod 2) |
    /// | 5 | weighted A*'s weight: 1, 1.5 or 3 (mod 3) |
    /// | 6–9 | start x, y, goal x, y: −1 to the side, mod (side + 2), minus 1 |
    /// | 10… | each cell row by row: a wall when the byte mod 8 is 0 or 1; with terrain, the next byte mod 9 + 1 is its cost |
    pub fn decode(input: &[u8]) -> Case {
        let mut bytes = Bytes {
            bytes: input.iter(),
        };
        let (width, height) = (1 + bytes.below(MAX_SIDE), 1 + bytes.below(MAX_SIDE));
        let weighted = bytes.below(3) == 0;
        let movement = [
            Movement::FourWay,
            Movement::EightWay(CornerRule::NeverCut),
            Movement::EightWay(CornerRule::CutOneCorner),
            Movement::EightWay(CornerRule::CutAlways),
        ][bytes.below(4) as usize];
        let goal_mode = [GoalMode::MustBeFree, GoalMode::ClosestReachable][bytes.below(2) as usize];
        let weight = [1.0, 1.5, 3.0][bytes.below(3) as usize];
        let start = Point::new(bytes.coordinate(width), bytes.coordinate(height));
        let goal = Point::new(bytes.coordinate(width), bytes.coordinate(height));
        let mut grid = Grid::new(width, height).expect("a side from 1 to 12");
        for i in 0..grid.len() {
            let cell = match bytes.below(8) {
                0 | 1 => Cell::Blocked,
                _ if weighted => Cell::Passable(1 + bytes.below(9)),
                _ => Cell::FLOOR,
            };
            grid.set(grid.point_of(i), cell).expect("inside");
        }
        Case {
            grid,
            movement,
            goal_mode,
            weight,
            start,
            goal,
        }
    }

    /// Every algorithm with every heuristic it uses, run whole and stepped: see the module docs.
    pub fn check_every_algorithm(&self) {
        let mut search = Search::new();
        for algorithm in Algorithm::ALL {
            for heuristic in Heuristic::ALL.into_iter().chain([Heuristic::Hex]) {
                if !algorithm.uses_heuristic() && heuristic != Heuristic::Octile {
                    continue;
                }
                let config = SearchConfig {
                    algorithm,
                    movement: self.movement,
                    heuristic,
                    weight: self.weight,
                    goal_mode: self.goal_mode,
                    record_trace: false,
                };
                self.check(&config, &mut search, Run::Whole);
                self.check(&config, &mut search, Run::Stepped);
            }
        }
    }

    /// Why `begin` must refuse this case with `algorithm`, worked out from the case alone.
    fn expected_refusal(&self, algorithm: Algorithm) -> Option<QueryError> {
        let grid = &self.grid;
        let free = |p: Point| matches!(grid.cell(p), Some(Cell::Passable(_)));
        let unsupported = QueryError::Unsupported {
            algorithm,
            reason: "",
        };
        // Every free cell costs the same (not necessarily 1).
        let mut costs = (0..grid.len()).filter_map(|i| match grid.cell(grid.point_of(i)) {
            Some(Cell::Passable(c)) => Some(c),
            _ => None,
        });
        let first = costs.next();
        let uniform = costs.all(|c| Some(c) == first);
        let never_cuts = matches!(
            self.movement,
            Movement::FourWay | Movement::EightWay(CornerRule::NeverCut)
        );
        if grid.cell(self.start).is_none() {
            Some(QueryError::StartOutside(self.start))
        } else if grid.cell(self.goal).is_none() {
            Some(QueryError::GoalOutside(self.goal))
        } else if !free(self.start) {
            Some(QueryError::StartBlocked(self.start))
        } else if !free(self.goal) && self.goal_mode == GoalMode::MustBeFree {
            Some(QueryError::GoalBlocked(self.goal))
        } else if (algorithm.is_jump_point_search()
            && (self.movement != Movement::EightWay(CornerRule::NeverCut) || !uniform))
            || (algorithm.is_any_angle() && (!never_cuts || !uniform))
        {
            Some(unsupported)
        } else {
            None
        }
    }

    fn check(&self, config: &SearchConfig, search: &mut Search, run: Run) {
        let grid = &self.grid;
        let begun = search.begin(grid, self.start, self.goal, config);
        let expected = self.expected_refusal(config.algorithm);
        match (begun, expected) {
            (Ok(()), None) => {}
            (Err(e), Some(x)) if discriminant(&e) == discriminant(&x) => return,
            (got, want) => panic!("begin gave {got:?}, expected {want:?}: {config:?} {self:?}"),
        }
        let status = match run {
            Run::Whole => search.run(grid),
            Run::Stepped => loop {
                if let Step::Finished(status) = search.step(grid) {
                    break status;
                }
            },
        };
        assert_eq!(status, search.status(), "{run:?} {config:?} {self:?}");
        let target = match self.goal_mode {
            GoalMode::MustBeFree => self.goal,
            GoalMode::ClosestReachable => {
                oracle_nearest_reachable(grid, self.movement, self.start, self.goal)
            }
        };
        let Some(best) = oracle_cost(grid, self.movement, self.start, target) else {
            assert_eq!(status, SearchStatus::NoPath, "{run:?} {config:?} {self:?}");
            return;
        };
        let expected = if target == self.goal {
            SearchStatus::Found
        } else {
            SearchStatus::Partial
        };
        assert_eq!(status, expected, "{run:?} {config:?} {self:?}");
        assert_eq!(search.target(), Some(target), "{run:?} {config:?} {self:?}");
        if config.algorithm.is_any_angle() {
            let path = search.path();
            assert_eq!(path.first(), Some(&self.start), "{config:?} {self:?}");
            assert_eq!(path.last(), Some(&target), "{config:?} {self:?}");
            return;
        }
        check_path(grid, self.movement, self.start, target, search);
        let (cost, best) = (search.cost().unwrap_or(f64::NAN), best.value());
        let admissible = config.heuristic.is_admissible_for(self.movement);
        let what = format!("{cost} vs {best}: {run:?} {config:?} {self:?}");
        if config.algorithm.is_optimal() && (admissible || !config.algorithm.uses_heuristic()) {
            assert!((cost - best).abs() < 1e-9, "{what}");
        } else if config.algorithm == Algorithm::WeightedAStar && admissible {
            assert!(cost <= self.weight * best + 1e-9, "{what}");
        } else {
            assert!(cost >= best - 1e-9, "{what}");
        }
    }
}

/// How a query is driven to its end.
#[derive(Clone, Copy, Debug)]
enum Run {
    Whole,
    Stepped,
}
