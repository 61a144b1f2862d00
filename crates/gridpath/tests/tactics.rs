//! Property tests of the tactics toolkit on every shape of map (squares 4- and 8-way, staggered
//! isometric, the six hex layouts), each against an oracle written apart from it:
//!
//! - movement range against the `pathfinding` crate's full Dijkstra over the oracle's own moves,
//!   cut at the budget, with the blockers and zones of control applied to its moves;
//! - nearest of many targets against the cheapest of one search a target;
//! - flight against its definition (the cell in range farthest from the threats, then cheapest);
//! - approach against the cheapest cell that qualifies, by its own distance and sight tests;
//! - field of view against a brute-force line test (every wall's diamond, by separating axes, or
//!   the hex line drawn again), and symmetric: a sees b exactly when b sees a.

use gridpath::hex::HexLayout;
use gridpath::tactics::{
    Blockers, FieldOfView, MovementRange, Within, can_see, split_into_turns, steps_between,
};
use gridpath::{CornerRule, Grid, Movement, Point, staggered};
use pathfinding::prelude::dijkstra_all;
use proptest::prelude::*;
use std::collections::HashMap;

mod common;
use common::oracle::{Exact, oracle_moves};
use common::{arb_grid, arb_shape};

/// Picks cells of `grid` by the random numbers: passable ones, or any.
fn pick(grid: &Grid, rolls: &[usize], passable: bool) -> Vec<Point> {
    let cells: Vec<Point> = (0..grid.len())
        .map(|i| grid.point_of(i))
        .filter(|&p| !passable || grid.is_passable(p))
        .collect();
    if cells.is_empty() {
        return Vec::new();
    }
    rolls.iter().map(|r| cells[r % cells.len()]).collect()
}

/// The oracle's moves out of `p` under one request's blockers: none into a closed cell, and none
/// out of an enemy's zone of control unless `p` is the start.
fn moves_with(
    grid: &Grid,
    movement: Movement,
    start: Point,
    closed: &[Point],
    zones: &[Point],
    p: Point,
) -> Vec<(Point, Exact)> {
    if p != start && zones.contains(&p) {
        return Vec::new();
    }
    oracle_moves(grid, movement, p)
        .into_iter()
        .filter(|(q, _)| !closed.contains(q))
        .collect()
}

/// The cells one step from an enemy at `p`, walls and corners aside: the oracle's own moves on an
/// empty map of the same size, with corners always cut.
fn zone_of(grid: &Grid, movement: Movement, p: Point) -> Vec<Point> {
    let open = Grid::new(grid.width(), grid.height()).expect("same size");
    let any_corner = match movement {
        Movement::EightWay(_) => Movement::EightWay(CornerRule::CutAlways),
        Movement::StaggeredEightWay(_) => Movement::StaggeredEightWay(CornerRule::CutAlways),
        other => other,
    };
    oracle_moves(&open, any_corner, p)
        .into_iter()
        .map(|(q, _)| q)
        .collect()
}

/// Every cell's exact cost from `start` (the start itself at zero).
fn oracle_costs(
    grid: &Grid,
    movement: Movement,
    start: Point,
    closed: &[Point],
    zones: &[Point],
) -> HashMap<Point, Exact> {
    let mut costs: HashMap<Point, Exact> = dijkstra_all(&start, |&p| {
        moves_with(grid, movement, start, closed, zones, p)
    })
    .into_iter()
    .map(|(p, (_, cost))| (p, cost))
    .collect();
    if grid.is_passable(start) {
        costs.insert(start, Exact::default());
    }
    costs
}

/// A route is legal: each step one of the oracle's moves under the blockers, its cost adding up.
fn check_route(
    grid: &Grid,
    movement: Movement,
    cells: &[Point],
    cost: f64,
    closed: &[Point],
    zones: &[Point],
) -> Result<(), TestCaseError> {
    let mut sum = Exact::default();
    for pair in cells.windows(2) {
        let moves = moves_with(grid, movement, cells[0], closed, zones, pair[0]);
        let step = moves.iter().find(|(q, _)| *q == pair[1]);
        prop_assert!(
            step.is_some(),
            "{:?} → {:?} is not a move",
            pair[0],
            pair[1]
        );
        sum = sum + step.map_or(Exact::default(), |s| s.1);
    }
    prop_assert!(
        (sum.value() - cost).abs() < 1e-9,
        "{} ≠ {cost}",
        sum.value()
    );
    Ok(())
}

/// The blockers of a case: `closed` cells and enemies (closed, with their zones).
fn blockers_of(
    grid: &Grid,
    movement: Movement,
    closed: &[Point],
    enemies: &[Point],
) -> (Blockers, Vec<Point>, Vec<Point>) {
    let mut blockers = Blockers::new();
    let mut all_closed = closed.to_vec();
    let mut zones = Vec::new();
    for &p in closed {
        blockers.close(grid, p);
    }
    for &e in enemies {
        blockers.enemy(grid, movement, e);
        all_closed.push(e);
        zones.extend(zone_of(grid, movement, e));
    }
    (blockers, all_closed, zones)
}

/// The separating-axis test of the segment from `a`'s centre to `b`'s against the open diamond
/// inscribed in cell `w`, in doubled integer coordinates: no axis of the diamond's edges or of
/// the segment's normal separates them.
fn sat_crosses(a: Point, b: Point, w: Point) -> bool {
    let (ax, ay) = (2 * i64::from(a.x - w.x), 2 * i64::from(a.y - w.y));
    let (bx, by) = (2 * i64::from(b.x - w.x), 2 * i64::from(b.y - w.y));
    // The diamond |x| + |y| < 1 projects onto (1, 1) and (1, −1) as the open interval (−1, 1).
    for (ux, uy) in [(1, 1), (1, -1)] {
        let (pa, pb) = (ax * ux + ay * uy, bx * ux + by * uy);
        if pa.min(pb) >= 1 || pa.max(pb) <= -1 {
            return false;
        }
    }
    let (nx, ny) = (-(by - ay), bx - ax);
    let c = nx * ax + ny * ay; // the whole segment projects onto its normal as one value
    c.abs() < nx.abs().max(ny.abs())
}

/// Does the segment between the centres of `a` and `b` pass through the point where the diamonds
/// of `w` and the cell after it (`right`, else below) touch, the middle of their shared side?
fn through_joint(a: Point, b: Point, w: Point, right: bool) -> bool {
    let (jx, jy) = if right {
        (2 * w.x + 1, 2 * w.y)
    } else {
        (2 * w.x, 2 * w.y + 1)
    };
    let (ax, ay, bx, by) = (2 * a.x, 2 * a.y, 2 * b.x, 2 * b.y);
    let (dx, dy, ex, ey) = (bx - ax, by - ay, jx - ax, jy - ay);
    dx * ey == dy * ex && (0..=dx * dx + dy * dy).contains(&(dx * ex + dy * ey))
}

/// Brute force: does a floor cell `a` see `b` on a square grid whose walls `is_wall` says (in
/// the square grid's own cells)? No wall of the box round the two has its diamond crossed, and
/// the line passes through no joint of two walls side by side.
fn brute_sees(a: Point, b: Point, is_wall: impl Fn(Point) -> bool) -> bool {
    if a == b {
        return true;
    }
    for y in a.y.min(b.y) - 1..=a.y.max(b.y) + 1 {
        for x in a.x.min(b.x) - 1..=a.x.max(b.x) + 1 {
            let w = Point::new(x, y);
            if !is_wall(w) {
                continue;
            }
            let joined = |right: bool| {
                let next = if right {
                    Point::new(x + 1, y)
                } else {
                    Point::new(x, y + 1)
                };
                is_wall(next) && through_joint(a, b, w, right)
            };
            if (w != a && w != b && sat_crosses(a, b, w)) || joined(true) || joined(false) {
                return false;
            }
        }
    }
    true
}

/// Red Blob Games' hex line, written again from the guide: lerp in cube coordinates from the
/// cell of lower index, nudged, and cube rounding.
fn hex_line(layout: HexLayout, a: Point, b: Point) -> Vec<Point> {
    let (a, b) = if (a.y, a.x) <= (b.y, b.x) {
        (a, b)
    } else {
        (b, a)
    };
    let ((qa, ra), (qb, rb)) = (layout.to_axial(a), layout.to_axial(b));
    let n = ((qa - qb).abs() + (ra - rb).abs() + (qa + ra - qb - rb).abs()) / 2;
    let (qa, ra) = (f64::from(qa) + 1e-6, f64::from(ra) + 2e-6);
    let (qb, rb) = (f64::from(qb) + 1e-6, f64::from(rb) + 2e-6);
    (0..=n)
        .map(|i| {
            let t = if n == 0 {
                0.0
            } else {
                f64::from(i) / f64::from(n)
            };
            let (q, r) = (qa + (qb - qa) * t, ra + (rb - ra) * t);
            let s = -q - r;
            let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
            let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
            if dq > dr && dq > ds {
                rq = -rr - rs;
            } else if dr > ds {
                rr = -rq - rs;
            }
            layout.from_axial((rq as i32, rr as i32))
        })
        .collect()
}

/// The oracle's sight on any shape, between two cells of the grid.
fn oracle_sees(grid: &Grid, movement: Movement, a: Point, b: Point) -> bool {
    match movement {
        Movement::Hex(layout) => {
            let line = hex_line(layout, a, b);
            line.iter()
                .filter(|&&p| p != a && p != b)
                .all(|&p| grid.is_passable(p))
        }
        Movement::StaggeredFourWay | Movement::StaggeredEightWay(_) => {
            brute_sees(staggered::to_square(a), staggered::to_square(b), |w| {
                !grid.is_passable(staggered::from_square(w))
            })
        }
        _ => brute_sees(a, b, |w| !grid.is_passable(w)),
    }
}

/// Is `b` within `radius` of `a`, as the field of view measures it?
fn in_radius(movement: Movement, a: Point, b: Point, radius: u32) -> bool {
    let r = i64::from(radius);
    match movement {
        Movement::Hex(layout) => layout.distance(a, b) <= radius,
        Movement::StaggeredFourWay | Movement::StaggeredEightWay(_) => {
            let (sa, sb) = (staggered::to_square(a), staggered::to_square(b));
            let (dx, dy) = (i64::from(sa.x - sb.x), i64::from(sa.y - sb.y));
            dx * dx + dy * dy <= r * r
        }
        _ => {
            let (dx, dy) = (i64::from(a.x - b.x), i64::from(a.y - b.y));
            dx * dx + dy * dy <= r * r
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn range_is_a_full_dijkstra_cut_at_the_budget(
        grid in arb_grid(12, true),
        movement in arb_shape(),
        start in any::<usize>(),
        closed in prop::collection::vec(any::<usize>(), 0..4),
        enemies in prop::collection::vec(any::<usize>(), 0..3),
        budget in 0u32..20,
    ) {
        let Some(&from) = pick(&grid, &[start], true).first() else { return Ok(()) };
        let closed: Vec<Point> = pick(&grid, &closed, false).into_iter().filter(|&p| p != from).collect();
        let enemies: Vec<Point> = pick(&grid, &enemies, true).into_iter().filter(|&p| p != from).collect();
        let (blockers, closed, zones) = blockers_of(&grid, movement, &closed, &enemies);
        let budget = f64::from(budget);
        let mut range = MovementRange::new();
        // Twice, with a query in between: what one query leaves must not leak into the next.
        for _ in 0..2 {
            range.compute(&grid, movement, from, budget, &blockers);
            let oracle = oracle_costs(&grid, movement, from, &closed, &zones);
            let expected: HashMap<Point, Exact> = oracle
                .into_iter()
                .filter(|(_, c)| c.value() <= budget + 1e-9)
                .collect();
            prop_assert_eq!(range.len(), expected.len());
            let mut last = 0.0;
            for (p, cost) in range.cells() {
                let exact = expected.get(&p);
                prop_assert!(exact.is_some(), "{:?} is out of range", p);
                prop_assert!((exact.map_or(0.0, |e| e.value()) - cost).abs() < 1e-9);
                prop_assert!(cost >= last - 1e-9, "cells not cheapest first");
                last = cost;
                let route = range.path_to(p).expect("a route to a cell in range");
                prop_assert_eq!(route.cells.first(), Some(&from));
                prop_assert_eq!(route.cells.last(), Some(&p));
                check_route(&grid, movement, &route.cells, route.cost, &closed, &zones)?;
            }
            range.compute(&grid, movement, from, budget / 2.0, &Blockers::new());
        }
    }

    #[test]
    fn nearest_is_the_cheapest_of_one_search_a_target(
        grid in arb_grid(12, true),
        movement in arb_shape(),
        start in any::<usize>(),
        goals in prop::collection::vec(any::<usize>(), 1..5),
        enemies in prop::collection::vec(any::<usize>(), 0..3),
    ) {
        let Some(&from) = pick(&grid, &[start], true).first() else { return Ok(()) };
        let goals = pick(&grid, &goals, false);
        let enemies: Vec<Point> = pick(&grid, &enemies, true)
            .into_iter()
            .filter(|p| *p != from && !goals.contains(p))
            .collect();
        let (blockers, closed, zones) = blockers_of(&grid, movement, &[], &enemies);
        let oracle = oracle_costs(&grid, movement, from, &closed, &zones);
        let best = goals.iter().filter_map(|g| oracle.get(g)).min().copied();
        let found = MovementRange::new().nearest(&grid, movement, from, &goals, &blockers);
        prop_assert_eq!(found.is_some(), best.is_some());
        if let (Some(route), Some(best)) = (found, best) {
            prop_assert!((route.cost - best.value()).abs() < 1e-9, "{} ≠ {}", route.cost, best.value());
            prop_assert!(route.cells.last().is_some_and(|end| goals.contains(end)));
            check_route(&grid, movement, &route.cells, route.cost, &closed, &zones)?;
        }
    }

    #[test]
    fn flee_ends_farthest_from_the_threats_then_cheapest(
        grid in arb_grid(12, true),
        movement in arb_shape(),
        start in any::<usize>(),
        threats in prop::collection::vec(any::<usize>(), 1..4),
        budget in 0u32..12,
    ) {
        let Some(&from) = pick(&grid, &[start], true).first() else { return Ok(()) };
        let threats = pick(&grid, &threats, true);
        let budget = f64::from(budget);
        let mut danger = MovementRange::new();
        danger.compute_from(&grid, movement, &threats, f64::INFINITY, &Blockers::new());
        let route = MovementRange::new()
            .flee(&grid, movement, from, &danger, budget, &Blockers::new())
            .expect("the start is open");
        // The definition: the threats' walk to each cell (the nearest threat's), and the cell in
        // range with the most of it, then the cheapest to reach.
        let walk = |p: Point| {
            threats
                .iter()
                .filter_map(|&t| oracle_costs(&grid, movement, t, &[], &[]).get(&p).map(|c| c.value()))
                .fold(f64::INFINITY, f64::min)
        };
        let reach = oracle_costs(&grid, movement, from, &[], &[]);
        let in_range: Vec<(f64, f64)> = reach
            .iter()
            .filter(|(_, c)| c.value() <= budget + 1e-9)
            .map(|(&p, c)| (walk(p), c.value()))
            .collect();
        let most = in_range.iter().map(|d| d.0).fold(f64::NEG_INFINITY, f64::max);
        let cheapest = in_range
            .iter()
            .filter(|d| d.0 == most || (d.0 - most).abs() < 1e-9)
            .map(|d| d.1)
            .fold(f64::INFINITY, f64::min);
        let end = *route.cells.last().expect("a route");
        let got = walk(end);
        prop_assert!(got == most || (got - most).abs() < 1e-9, "{got} ≠ {most}");
        prop_assert!((route.cost - cheapest).abs() < 1e-9, "{} ≠ {cheapest}", route.cost);
        check_route(&grid, movement, &route.cells, route.cost, &[], &[])?;
    }

    #[test]
    fn approach_ends_at_the_cheapest_cell_within_range_and_sight(
        grid in arb_grid(12, true),
        movement in arb_shape(),
        ends in (any::<usize>(), any::<usize>()),
        steps in 0u32..4,
        sight in any::<bool>(),
    ) {
        let picked = pick(&grid, &[ends.0, ends.1], true);
        let [from, goal] = picked[..] else { return Ok(()) };
        let within = Within { steps, sight };
        let route = MovementRange::new().approach(&grid, movement, from, goal, within, &Blockers::new());
        let oracle = oracle_costs(&grid, movement, from, &[], &[]);
        let near = |p: Point| {
            let (a, b) = match movement {
                Movement::StaggeredFourWay | Movement::StaggeredEightWay(_) => {
                    (staggered::to_square(p), staggered::to_square(goal))
                }
                _ => (p, goal),
            };
            let (dx, dy) = ((a.x - b.x).unsigned_abs(), (a.y - b.y).unsigned_abs());
            let d = match movement {
                Movement::Hex(layout) => layout.distance(p, goal),
                Movement::FourWay | Movement::StaggeredFourWay => dx + dy,
                _ => dx.max(dy),
            };
            d <= steps && (!sight || oracle_sees(&grid, movement, p, goal))
        };
        let best = oracle.iter().filter(|(p, _)| near(**p)).map(|(_, c)| *c).min();
        prop_assert_eq!(route.is_some(), best.is_some());
        if let (Some(route), Some(best)) = (route, best) {
            prop_assert!((route.cost - best.value()).abs() < 1e-9);
            let end = *route.cells.last().expect("a route");
            prop_assert!(near(end), "{:?} is not within range", end);
            prop_assert!(steps_between(movement, end, goal) <= steps);
        }
    }

    #[test]
    fn field_of_view_is_the_line_test_and_symmetric(
        grid in arb_grid(14, false),
        movement in arb_shape(),
        start in any::<usize>(),
        radius in 0u32..10,
    ) {
        let Some(&from) = pick(&grid, &[start], true).first() else { return Ok(()) };
        let mut fov = FieldOfView::new();
        fov.compute(&grid, movement, from, radius);
        let mut back = FieldOfView::new();
        for i in 0..grid.len() {
            let p = grid.point_of(i);
            let seen = fov.is_visible(p);
            prop_assert!(!seen || in_radius(movement, from, p, radius), "{:?} past the radius", p);
            if !grid.is_passable(p) {
                continue;
            }
            let expected = in_radius(movement, from, p, radius) && oracle_sees(&grid, movement, from, p);
            prop_assert_eq!(seen, expected, "{:?} from {:?}", p, from);
            prop_assert_eq!(can_see(&grid, movement, from, p), oracle_sees(&grid, movement, from, p));
            back.compute(&grid, movement, p, radius);
            prop_assert_eq!(back.is_visible(from), seen, "{:?} and {:?} disagree", p, from);
        }
        prop_assert_eq!(fov.cells().count(), (0..grid.len()).filter(|&i| fov.is_visible(grid.point_of(i))).count());
    }

    #[test]
    fn turns_spend_no_more_than_their_points_and_end_only_when_they_must(
        grid in arb_grid(12, true),
        movement in arb_shape(),
        ends in (any::<usize>(), any::<usize>()),
        enemies in prop::collection::vec(any::<usize>(), 0..3),
        points in 1u32..14,
    ) {
        let picked = pick(&grid, &[ends.0, ends.1], true);
        let [from, to] = picked[..] else { return Ok(()) };
        let enemies: Vec<Point> = pick(&grid, &enemies, true).into_iter().filter(|p| *p != from && *p != to).collect();
        let (blockers, _, zones) = blockers_of(&grid, movement, &[], &enemies);
        // A route that ignores the enemies, so that it may cross their zones.
        let mut range = MovementRange::new();
        range.compute(&grid, movement, from, f64::INFINITY, &Blockers::new());
        let Some(route) = range.path_to(to) else { return Ok(()) };
        let points = f64::from(points);
        let cost = |k: usize| movement.step_cost(&grid, route.cells[k - 1], route.cells[k]).expect("a step");
        match split_into_turns(&grid, movement, &route.cells, points, &blockers) {
            Err(e) => {
                prop_assert!((1..route.cells.len()).any(|k| cost(k) > points), "{e}");
            }
            Ok(turns) => {
                prop_assert_eq!(turns.is_empty(), route.cells.len() == 1);
                let total: f64 = turns.iter().map(|t| t.spent).sum();
                prop_assert!((total - route.cost).abs() < 1e-9);
                for (n, turn) in turns.iter().enumerate() {
                    prop_assert!(turn.spent <= points + 1e-9);
                    if n + 1 < turns.len() {
                        // It ends in a zone of control, or the next step would not have fitted.
                        let next = cost(turn.at + 1);
                        prop_assert!(zones.contains(&route.cells[turn.at]) || turn.spent + next > points + 1e-9);
                    }
                }
                prop_assert_eq!(turns.last().map(|t| t.at), Some(route.cells.len() - 1).filter(|_| route.cells.len() > 1));
                // A step into a zone of control ends the turn there.
                for k in 1..route.cells.len() {
                    if zones.contains(&route.cells[k]) {
                        prop_assert!(turns.iter().any(|t| t.at == k), "cell {} is in a zone", k);
                    }
                }
            }
        }
    }
}
