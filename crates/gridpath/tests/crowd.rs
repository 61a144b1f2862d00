//! The crowd's PIBT step ([`CrowdStep`]) on thousands of random grids, crowds of bodies of one,
//! two and three cells across, and moves: at every step no two footprints overlap, none swap,
//! none cross diagonally, every body stands where it fits, every move is legal for its size, and
//! a held body stays. The rules are checked here from the positions alone, sharing no code with
//! the step. With true distances as its guide, a crowd on an open room reaches every goal.
//! And the jam solver for bodies of several sizes ([`untangle_sizes`]) finds a plan exactly when
//! a brute-force search does, and every plan it returns keeps the rules.

use gridpath::mapf::crowd::{SizedBody, Window, untangle_sizes};
use gridpath::mapf::{CrowdStep, Mover};
use gridpath::{Clearance, CornerRule, Grid, Movement, Point};
use proptest::prelude::*;
use std::collections::{HashSet, VecDeque};

mod common;
use common::{arb_grid_sized, arb_movement};

/// The cells a body of `size` covers from `at`.
fn cells(at: Point, size: u8) -> Vec<Point> {
    let k = i32::from(size);
    (0..k)
        .flat_map(|dy| (0..k).map(move |dx| Point::new(at.x + dx, at.y + dy)))
        .collect()
}

/// Does a body of `size` fit at `at`: every cell it covers on the grid and free?
fn fits(grid: &Grid, at: Point, size: u8) -> bool {
    cells(at, size).iter().all(|&p| grid.is_passable(p))
}

/// Is `from → to` one legal move for a body of `size`, by the movement's rules applied to the
/// whole footprint (a diagonal's side positions are where the body would fit, or not)?
fn legal(grid: &Grid, movement: Movement, size: u8, from: Point, to: Point) -> bool {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    if dx.abs() > 1 || dy.abs() > 1 || !fits(grid, to, size) {
        return false;
    }
    if dx == 0 || dy == 0 {
        return true;
    }
    let Movement::EightWay(rule) = movement else {
        return false;
    };
    let side_a = fits(grid, Point::new(from.x + dx, from.y), size);
    let side_b = fits(grid, Point::new(from.x, from.y + dy), size);
    match rule {
        CornerRule::NeverCut => side_a && side_b,
        CornerRule::CutOneCorner => side_a || side_b,
        CornerRule::CutAlways => true,
    }
}

/// Do two squares gliding from `a0` to `a1` and `b0` to `b1`, each a quarter cell in from its
/// edges, overlap part way? Sampled: the moves are of whole cells, so any overlap lasts at least
/// an eighth of the way, between two of these samples' neighbours.
fn meet(a0: Point, a1: Point, ka: u8, b0: Point, b1: Point, kb: u8) -> bool {
    [0.125f32, 0.375, 0.625, 0.875].iter().any(|&t| {
        let at = |p0: Point, p1: Point| {
            (
                p0.x as f32 + t * (p1.x - p0.x) as f32 + 0.25,
                p0.y as f32 + t * (p1.y - p0.y) as f32 + 0.25,
            )
        };
        let ((ax, ay), (bx, by)) = (at(a0, a1), at(b0, b1));
        let (ka, kb) = (f32::from(ka) - 0.5, f32::from(kb) - 0.5);
        ax < bx + kb && bx < ax + ka && ay < by + kb && by < ay + ka
    })
}

/// What broke a step's rules, if anything.
fn broken(grid: &Grid, movement: Movement, before: &[Mover], after: &[Point]) -> Option<String> {
    let mut seen = HashSet::new();
    for (i, (m, &to)) in before.iter().zip(after).enumerate() {
        for c in cells(to, m.size) {
            if !seen.insert(c) {
                return Some(format!("two bodies on {c}"));
            }
        }
        if !m.free && to != m.at {
            return Some(format!("held body {i} moved"));
        }
        if to != m.at && !legal(grid, movement, m.size, m.at, to) {
            return Some(format!(
                "body {i} of {}: {} to {to} is no legal move",
                m.size, m.at
            ));
        }
        for (k, (o, &o_to)) in before.iter().zip(after).enumerate() {
            if k == i || to == m.at || o_to == o.at {
                continue;
            }
            let (mine, theirs) = (cells(m.at, m.size), cells(o.at, o.size));
            let enters = |c: &Vec<Point>, who: Point, size: u8| {
                cells(who, size).iter().any(|p| c.contains(p))
            };
            if enters(&theirs, to, m.size) && enters(&mine, o_to, o.size) {
                return Some(format!("bodies {i} and {k} swap"));
            }
            let diagonal = |a: Point, b: Point| a.x != b.x && a.y != b.y;
            if diagonal(m.at, to)
                && diagonal(o.at, o_to)
                && meet(m.at, to, m.size, o.at, o_to, o.size)
            {
                return Some(format!("bodies {i} and {k} cross"));
            }
        }
    }
    None
}

/// Moves from every cell to `goal` by `movement` for a body of `size` (breadth first: each move
/// counts one).
fn moves_to(grid: &Grid, movement: Movement, size: u8, goal: Point) -> Vec<u32> {
    let mut table = vec![u32::MAX; grid.len()];
    let Some(g) = grid.index_of(goal) else {
        return table;
    };
    table[g] = 0;
    let mut queue = VecDeque::from([goal]);
    while let Some(at) = queue.pop_front() {
        let next = table[grid.index_of(at).unwrap_or(0)] + 1;
        for (dx, dy) in gridpath::STEPS {
            let n = Point::new(at.x + dx, at.y + dy);
            if !fits(grid, n, size) || !legal(grid, movement, size, n, at) {
                continue;
            }
            let k = grid.index_of(n).unwrap_or(0);
            if table[k] == u32::MAX {
                table[k] = next;
                queue.push_back(n);
            }
        }
    }
    table
}

/// Places up to `n` bodies of the sizes `sizes` where they fit without overlapping, picked by
/// `rolls`.
fn place(grid: &Grid, sizes: &[u8], rolls: &[usize]) -> Vec<(Point, u8)> {
    let mut taken = HashSet::new();
    let mut placed = Vec::new();
    for (&roll, &size) in rolls.iter().zip(sizes) {
        let spots: Vec<Point> = (0..grid.len())
            .map(|i| grid.point_of(i))
            .filter(|&p| fits(grid, p, size) && cells(p, size).iter().all(|c| !taken.contains(c)))
            .collect();
        if let Some(&at) = spots.get(roll % spots.len().max(1)) {
            taken.extend(cells(at, size));
            placed.push((at, size));
        }
    }
    placed
}

/// The grids the step moves bodies on: for sizes 1, 2 and 3.
fn grids_for(grid: &Grid) -> Vec<Grid> {
    let mut clearance = Clearance::new();
    clearance.update(grid);
    (1..=3).map(|k| clearance.grid_for(grid, k)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn a_crowd_step_never_breaks_the_rules(
        grid in arb_grid_sized(2..=9, 2..=9, 0..=30, false),
        movement in arb_movement(),
        rolls in prop::collection::vec(any::<usize>(), 2..24),
        sizes in prop::collection::vec(prop_oneof![6 => Just(1u8), 2 => Just(2u8), 1 => Just(3u8)], 12),
        holds in prop::collection::vec(0u32..100, 40 * 20),
        seed in any::<u64>(),
    ) {
        let half = rolls.len() / 2;
        let bodies = place(&grid, &sizes, &rolls[..half]);
        let sizes: Vec<u8> = bodies.iter().map(|b| b.1).collect();
        let goals = place(&grid, &sizes, &rolls[half..]);
        let tables: Vec<Vec<u32>> =
            goals.iter().map(|&(g, size)| moves_to(&grid, movement, size, g)).collect();
        let mut movers: Vec<Mover> = bodies
            .iter()
            .enumerate()
            .map(|(i, &(at, size))| Mover::new(at, i as u64).with_size(size))
            .collect();
        let sized = grids_for(&grid);
        let grids: Vec<&Grid> = sized.iter().collect();
        let mut crowd = CrowdStep::new(seed);
        for step in 0..40 {
            for (i, m) in movers.iter_mut().enumerate() {
                m.free = holds[(step * 20 + i) % holds.len()] >= 25; // a quarter held
                m.goal = goals.get(i).map(|g| g.0);
                m.arrived = m.goal == Some(m.at);
            }
            let before = movers.clone();
            let next = crowd
                .step(&grids, movement, &mut movers, |i, c| {
                    let table = tables.get(i);
                    table.and_then(|t| t.get(grid.index_of(c)?).copied()).unwrap_or(0)
                })
                .to_vec();
            prop_assert_eq!(next.len(), movers.len());
            if let Some(why) = broken(&grid, movement, &before, &next) {
                prop_assert!(false, "step {}: {} on {:?}\n{:?}\n{:?}", step, why, grid, before, next);
            }
            for (m, at) in movers.iter_mut().zip(next) {
                m.at = at;
            }
        }
    }
}

#[test]
fn a_crowd_guided_by_true_distances_fills_an_open_room() {
    // 40 bodies in a 10 × 10 room, each to a distinct cell of the other half. Half of them are
    // slow: a step after each move, they are still on their way into their cell and hold (as a
    // game's slow units do; one that stood still is free). All arrive.
    let grid = Grid::new(10, 10).expect("a grid");
    let movement = Movement::EightWay(gridpath::CornerRule::NeverCut);
    let starts: Vec<Point> = (0..40).map(|i| Point::new(i % 10, i / 10)).collect();
    let goals: Vec<Point> = (0..40)
        .map(|i| Point::new(9 - i % 10, 9 - i / 10))
        .collect();
    let movers: Vec<Mover> = starts
        .iter()
        .enumerate()
        .map(|(i, &at)| Mover::new(at, i as u64))
        .collect();
    // A slow body, a step after it moved, is still on its way into its cell.
    let slow = |i: usize, moved: bool| i.is_multiple_of(2) || !moved;
    let (left, _) = walk_to_goals(&grid, movement, movers, &goals, 500, 11, slow);
    assert!(left.is_empty(), "not all arrived in 500 steps: {left:?}");
}

/// Steps `movers` to `goals` by true distances, checking the rules at every step, for at most
/// `steps` steps; `free(i, moved)` says whether body `i` may move, given whether it moved at the
/// last step. Returns the bodies that did not arrive (where they are, their size, their goal),
/// and the steps it took.
fn walk_to_goals(
    grid: &Grid,
    movement: Movement,
    mut movers: Vec<Mover>,
    goals: &[Point],
    steps: usize,
    seed: u64,
    free: impl Fn(usize, bool) -> bool,
) -> (Vec<(Point, u8, Point)>, usize) {
    let sized = grids_for(grid);
    let grids: Vec<&Grid> = sized.iter().collect();
    let tables: Vec<Vec<u32>> = movers
        .iter()
        .zip(goals)
        .map(|(m, &g)| moves_to(grid, movement, m.size, g))
        .collect();
    let mut crowd = CrowdStep::new(seed);
    let mut moved = vec![false; movers.len()];
    let mut taken = 0;
    while taken < steps {
        if movers.iter().zip(goals).all(|(m, g)| m.at == *g) {
            break;
        }
        taken += 1;
        for (i, m) in movers.iter_mut().enumerate() {
            m.free = free(i, moved[i]);
            m.goal = Some(goals[i]);
            m.arrived = m.at == goals[i];
        }
        let before = movers.clone();
        let next = crowd
            .step(&grids, movement, &mut movers, |i, c| {
                tables[i][grid.index_of(c).unwrap_or(0)]
            })
            .to_vec();
        assert_eq!(broken(grid, movement, &before, &next), None);
        for ((m, at), moved) in movers.iter_mut().zip(next).zip(&mut moved) {
            *moved = m.at != at;
            m.at = at;
        }
    }
    let left = movers
        .iter()
        .zip(goals)
        .filter(|(m, g)| m.at != **g)
        .map(|(m, g)| (m.at, m.size, *g))
        .collect();
    (left, taken)
}

#[test]
fn two_columns_pass_in_a_corridor_with_one_bay() {
    // The app's corridor scene: two rooms of 10 × 9 joined by a corridor one cell wide and 20
    // long, with a bay above its middle; 50 bodies a side, each bound for the mirror of its
    // place in the other room. Every body passes the corridor's one-wide cells one at a time,
    // so 100 bodies take at least 100 steps there, and the first must reach it and the last
    // leave it and cross the room: about 140 steps. That forgets room: the far room has 90
    // cells and 50 bodies still in it, so at most 40 go in before some come out, through the
    // same corridor. It must change direction at least twice (40 one way, 50 the other, the
    // last 10), and a run costs about the corridor's 20 cells on top of a step a body: about
    // 160, or about 150 with a body of the last run waiting in the bay as the middle run goes
    // by. 32 seeds, as one run's figure is a throw of the dice; all arrive in each.
    let rows: Vec<String> = (0..9)
        .map(|y| {
            let corridor = match y {
                4 => "....................",
                3 => "#########.##########",
                _ => "####################",
            };
            format!("{}{corridor}{}", ".".repeat(10), ".".repeat(10))
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Grid::from_ascii(&rows).expect("a grid");
    let movement = Movement::EightWay(gridpath::CornerRule::NeverCut);
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    for i in 0..50 {
        let (x, y) = (i % 10, i / 10 + 2);
        starts.extend([Point::new(x, y), Point::new(39 - x, y)]);
        goals.extend([Point::new(39 - x, y), Point::new(x, y)]);
    }
    let mut steps = Vec::new();
    for seed in 0..32u64 {
        let movers: Vec<Mover> = starts
            .iter()
            .enumerate()
            .map(|(i, &at)| Mover::new(at, 1000 * seed + i as u64))
            .collect();
        let (left, taken) = walk_to_goals(&grid, movement, movers, &goals, 3000, seed, |_, _| true);
        assert!(left.is_empty(), "seed {seed}: not all arrived: {left:?}");
        steps.push(taken);
    }
    steps.sort_unstable();
    println!(
        "corridor, 32 seeds: median {} steps, {} to {}",
        steps[16], steps[0], steps[31]
    );
}

#[test]
fn a_crowd_of_three_sizes_crosses_a_room() {
    // Bodies of one, two and three cells across, in a 14 × 14 room, each bound for the mirror of
    // its place across the room's centre: every path crosses the others in the middle. All
    // arrive, with no rule broken on the way.
    let grid = Grid::new(14, 14).expect("a grid");
    let movement = Movement::EightWay(CornerRule::NeverCut);
    let layout = [
        (Point::new(0, 0), 3),
        (Point::new(4, 0), 2),
        (Point::new(7, 0), 1),
        (Point::new(9, 0), 1),
        (Point::new(11, 0), 3),
        (Point::new(0, 4), 2),
        (Point::new(0, 7), 1),
        (Point::new(12, 5), 2),
        (Point::new(13, 8), 1),
    ];
    let goals: Vec<Point> = layout
        .iter()
        .map(|&(p, k)| Point::new(14 - k - p.x, 14 - k - p.y))
        .collect();
    let movers: Vec<Mover> = layout
        .iter()
        .enumerate()
        .map(|(i, &(p, k))| Mover::new(p, i as u64).with_size(k as u8))
        .collect();
    let (left, _) = walk_to_goals(&grid, movement, movers, &goals, 300, 3, |_, _| true);
    assert!(left.is_empty(), "not all arrived in 300 steps: {left:?}");
}

/// One-cell bodies from `starts`, with 16 seeds for their tie-breaks: each time, all reach
/// `goals` within 200 steps.
fn every_seed_arrives(grid: &Grid, movement: Movement, starts: &[Point], goals: &[Point]) {
    for seed in 0..16u64 {
        let movers: Vec<Mover> = starts
            .iter()
            .enumerate()
            .map(|(i, &at)| Mover::new(at, 100 * seed + i as u64))
            .collect();
        let (left, taken) = walk_to_goals(grid, movement, movers, goals, 200, seed, |_, _| true);
        assert!(
            left.is_empty(),
            "seed {seed}: not all arrived in 200 steps: {left:?}"
        );
        println!("seed {seed}: {taken} steps");
    }
}

#[test]
fn two_bodies_each_on_the_others_place_in_a_dead_end_get_out_of_each_others_way() {
    // A dead end two cells long above a room full of bodies that have arrived: the deeper body
    // is bound for the cell at the mouth, the one at the mouth for the deeper cell. Neither can
    // step onto the other's cell (a swap); the one at the mouth must back out of the dead end,
    // draw the other after it, and let it by.
    let grid =
        Grid::from_ascii(&["###.###", "###.###", ".......", ".......", "......."]).expect("a grid");
    let movement = Movement::EightWay(CornerRule::NeverCut);
    let (deep, mouth) = (Point::new(3, 0), Point::new(3, 1));
    let mut starts = vec![deep, mouth];
    let mut goals = vec![mouth, deep];
    for y in 2..5 {
        for x in 0..7 {
            if (x + y) % 4 != 0 {
                starts.push(Point::new(x, y));
                goals.push(Point::new(x, y));
            }
        }
    }
    every_seed_arrives(&grid, movement, &starts, &goals);
}

#[test]
fn two_bodies_each_on_the_others_place_in_a_passage_open_at_both_ends_get_by() {
    // A passage one cell wide and four long between two rooms full of bodies that have arrived,
    // its end cells the places of two more: the middle two are each bound for the other's cell
    // (the `door_strokes` livelock). Neither can step onto the other's cell, and every push
    // turns them round; one must back out to a room, draw the other after it, step aside and
    // go in first.
    let grid = Grid::from_ascii(&[
        ".......", ".......", "###.###", "###.###", "###.###", "###.###", ".......", ".......",
    ])
    .expect("a grid");
    let movement = Movement::EightWay(CornerRule::NeverCut);
    let (upper, lower) = (Point::new(3, 3), Point::new(3, 4));
    let mut starts = vec![upper, lower, Point::new(3, 2), Point::new(3, 5)];
    let mut goals = vec![lower, upper, Point::new(3, 2), Point::new(3, 5)];
    for y in [0, 1, 6, 7] {
        for x in 0..7 {
            if (x + y) % 3 != 0 {
                starts.push(Point::new(x, y));
                goals.push(Point::new(x, y));
            }
        }
    }
    every_seed_arrives(&grid, movement, &starts, &goals);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// On tiny grids with walls, one to three bodies of one and two cells: the joint search
    /// finds a plan exactly when a breadth-first search over configurations (one body moving a
    /// cell at a time) does, and its plan starts where they stand, ends on their goals, moves
    /// each at most one 4-way step a step, keeps every footprint on floor, and never covers a
    /// cell another body covers before or after the step.
    #[test]
    fn the_joint_search_solves_exactly_what_brute_force_solves(
        grid in arb_grid_sized(2..=5, 2..=4, 0..=25, false),
        sizes in prop::collection::vec(1u8..=2, 1..=3),
        starts in prop::collection::vec(any::<usize>(), 3),
        goals in prop::collection::vec(any::<usize>(), 3),
    ) {
        let (at, to) = (place(&grid, &sizes, &starts), place(&grid, &sizes, &goals));
        if at.len() != sizes.len() || to.len() != sizes.len() {
            return Ok(());
        }
        let bodies: Vec<SizedBody> = at
            .iter()
            .zip(&to)
            .map(|(&(at, size), &(goal, _))| SizedBody { at, goal, size })
            .collect();
        let window = Window::around(&grid, Point::new(0, 0), 8);
        let plan = untangle_sizes(&grid, window, |_| true, &bodies, usize::MAX);
        let solvable = reachable(&grid, &bodies);
        prop_assert_eq!(plan.is_some(), solvable, "{:?} on {:?}", bodies, grid);
        let fault = plan.as_ref().and_then(|plan| joint_fault(&grid, &bodies, plan));
        prop_assert!(fault.is_none(), "{:?} in {:?} for {:?} on {:?}", fault, plan, bodies, grid);
    }
}

/// Breadth-first search over configurations, one body moving one 4-way step at a time onto
/// cells on floor that no other body covers: can the bodies all reach their goals?
fn reachable(grid: &Grid, bodies: &[SizedBody]) -> bool {
    let start: Vec<Point> = bodies.iter().map(|b| b.at).collect();
    let goal: Vec<Point> = bodies.iter().map(|b| b.goal).collect();
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    while let Some(config) = queue.pop_front() {
        if config == goal {
            return true;
        }
        for (i, b) in bodies.iter().enumerate() {
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let to = Point::new(config[i].x + dx, config[i].y + dy);
                let others: HashSet<Point> = (0..bodies.len())
                    .filter(|&k| k != i)
                    .flat_map(|k| cells(config[k], bodies[k].size))
                    .collect();
                if fits(grid, to, b.size) && cells(to, b.size).iter().all(|c| !others.contains(c)) {
                    let mut next = config.clone();
                    next[i] = to;
                    if seen.insert(next.clone()) {
                        queue.push_back(next);
                    }
                }
            }
        }
    }
    false
}

/// The first rule a joint plan breaks, if any.
fn joint_fault(grid: &Grid, bodies: &[SizedBody], plan: &[Vec<Point>]) -> Option<String> {
    let start: Vec<Point> = bodies.iter().map(|b| b.at).collect();
    let goal: Vec<Point> = bodies.iter().map(|b| b.goal).collect();
    if plan.first() != Some(&start) || plan.last() != Some(&goal) {
        return Some("it does not run from the starts to the goals".into());
    }
    for (t, pair) in plan.windows(2).enumerate() {
        for (i, b) in bodies.iter().enumerate() {
            let (from, to) = (pair[0][i], pair[1][i]);
            if (from.x - to.x).abs() + (from.y - to.y).abs() > 1 {
                return Some(format!("body {i} jumps at step {t}"));
            }
            if !fits(grid, to, b.size) {
                return Some(format!("body {i} covers a wall at step {t}"));
            }
            let mine = cells(to, b.size);
            for (k, other) in bodies.iter().enumerate().filter(|&(k, _)| k != i) {
                let theirs = [cells(pair[0][k], other.size), cells(pair[1][k], other.size)];
                if theirs.iter().flatten().any(|c| mine.contains(c)) {
                    return Some(format!("bodies {i} and {k} meet at step {t}"));
                }
            }
        }
    }
    None
}
