use super::rules::overlap;
use super::*;
use crate::grid::{Grid, Point};
use crate::movement::CornerRule;
use crate::movement::Movement;

fn p(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

fn manhattan(a: Point, b: Point) -> u32 {
    a.x.abs_diff(b.x) + a.y.abs_diff(b.y)
}

#[test]
fn a_body_pushed_back_falls_behind_those_going_its_way() {
    // A corridor: A (higher) heads right, B (lower) heads left into it. A pushes B back.
    let grid = Grid::from_ascii(&["....."]).expect("a grid");
    let goals = [p(4, 0), p(0, 0)];
    let mut movers = [Mover::new(p(1, 0), 1), Mover::new(p(2, 0), 2)];
    movers[0].priority = 50.0;
    movers[1].priority = 40.0;
    let mut crowd = CrowdStep::new(7);
    let next = crowd
        .step(&[&grid], Movement::FourWay, &mut movers, |i, c| {
            manhattan(c, goals[i])
        })
        .to_vec();
    assert_eq!(next, [p(2, 0), p(3, 0)]);
    assert_eq!(
        movers[0].priority, 51.0,
        "A grows as the paper's priorities do"
    );
    assert_eq!(movers[1].priority, 41.0, "B too");
    assert_eq!(movers[1].held_back, PUSHED_BACK, "but B is held back");
    assert_eq!((movers[0].waiting, movers[1].waiting), (0, 1));
}

#[test]
fn a_body_pushed_back_again_and_again_is_held_back_no_more_than_the_limit() {
    // B is pushed back down a corridor by A, step after step: its priority still grows,
    // and what holds it back stops at the limit, so in time it ranks above any body that
    // has waited less.
    let grid = Grid::from_ascii(&["............"]).expect("a grid");
    let goals = [p(11, 0), p(0, 0)];
    let mut movers = [Mover::new(p(0, 0), 1), Mover::new(p(1, 0), 2)];
    movers[0].priority = 1000.0;
    movers[1].priority = 100.0; // long on its way: the limit, not its age, bounds it
    let mut crowd = CrowdStep::new(7);
    for _ in 0..8 {
        let next = crowd
            .step(&[&grid], Movement::FourWay, &mut movers, |i, c| {
                manhattan(c, goals[i])
            })
            .to_vec();
        for (m, n) in movers.iter_mut().zip(next) {
            m.at = n;
        }
        assert!(movers[1].held_back <= HOLD_BACK_LIMIT);
    }
    assert_eq!(movers[1].at, p(9, 0), "pushed back all the way");
    assert_eq!(movers[1].held_back, HOLD_BACK_LIMIT, "stopped at the limit");
    assert_eq!(movers[1].priority, 108.0, "and still grows");
}

#[test]
fn a_young_body_is_never_ranked_below_its_tie_break() {
    // Pushed back in its first step, a body is held back only as far as its tie-break.
    let grid = Grid::from_ascii(&["....."]).expect("a grid");
    let goals = [p(4, 0), p(0, 0)];
    let mut movers = [Mover::new(p(1, 0), 1), Mover::new(p(2, 0), 2)];
    movers[0].priority = 50.0;
    let mut crowd = CrowdStep::new(7);
    crowd.step(&[&grid], Movement::FourWay, &mut movers, |i, c| {
        manhattan(c, goals[i])
    });
    let rank = movers[1].priority - movers[1].held_back;
    assert!((rank - movers[1].tie_break).abs() < 1e-9, "{rank}");
}

#[test]
fn a_body_that_gets_no_nearer_gives_way_and_starts_again() {
    // A waits behind B, which is held (on its way into its cell) for as long as the test.
    let grid = Grid::from_ascii(&["...."]).expect("a grid");
    let mut movers = [Mover::new(p(0, 0), 1), Mover::new(p(1, 0), 2)];
    movers[0].priority = 100.0;
    movers[1].free = false;
    movers[1].arrived = true;
    let mut crowd = CrowdStep::new(7);
    let mut held = Vec::new();
    for _ in 0..GIVE_WAY_AFTER + 2 {
        crowd.step(&[&grid], Movement::FourWay, &mut movers, |_, c| {
            manhattan(c, p(3, 0))
        });
        assert_eq!(movers[0].at, p(0, 0));
        held.push(movers[0].held_back);
    }
    let gave_way = GIVE_WAY_AFTER as usize - 1;
    assert_eq!(held[gave_way - 1], 0.0);
    assert_eq!(held[gave_way], HOLD_BACK_LIMIT, "gave way");
    assert_eq!(movers[0].waiting, 2, "and waits on");
    assert!(
        movers[0].priority > 100.0 + f64::from(GIVE_WAY_AFTER),
        "its priority grows"
    );
}

#[test]
fn a_higher_body_pushes_a_lower_one_out_of_a_corridor_bay() {
    // A corridor with a bay above (2, 1): B waits at its goal in the corridor, A must pass.
    let grid = Grid::from_ascii(&["##.##", ".....", "#####"]).expect("a grid");
    let goals = [p(4, 1), p(2, 1)];
    let mut movers = [Mover::new(p(0, 1), 1), Mover::new(p(2, 1), 2)];
    movers[1].arrived = true;
    let mut crowd = CrowdStep::new(7);
    for _ in 0..20 {
        let before: Vec<Point> = movers.iter().map(|m| m.at).collect();
        let next = crowd
            .step(&[&grid], Movement::FourWay, &mut movers, |i, c| {
                manhattan(c, goals[i])
            })
            .to_vec();
        assert_ne!(next[0], next[1]);
        assert!(!(next[0] == before[1] && next[1] == before[0]), "a swap");
        for (m, n) in movers.iter_mut().zip(&next) {
            m.at = *n;
        }
        movers[0].arrived = movers[0].at == goals[0];
        movers[1].arrived = movers[1].at == goals[1];
    }
    assert_eq!(movers[0].at, goals[0]);
    assert_eq!(movers[1].at, goals[1], "B went back after A passed");
}

#[test]
fn a_big_body_pushes_two_small_ones_out_of_its_way() {
    // A 2 × 2 body goes right along a room three high; two bodies of one cell stand in its
    // way, side by side, where they want to be. Both make room at once.
    let grid = Grid::new(5, 3).expect("a grid");
    let mut clearance = crate::clearance::Clearance::new();
    clearance.update(&grid);
    let big = clearance.grid_for(&grid, 2);
    let goals = [p(3, 0), p(2, 0), p(2, 1)];
    let mut movers = [
        Mover::new(p(0, 0), 1).with_size(2),
        Mover::new(p(2, 0), 2),
        Mover::new(p(2, 1), 3),
    ];
    let mut crowd = CrowdStep::new(5);
    for _ in 0..12 {
        for (m, g) in movers.iter_mut().zip(goals) {
            m.arrived = m.at == g;
        }
        let next = crowd
            .step(&[&grid, &big], Movement::FourWay, &mut movers, |i, c| {
                manhattan(c, goals[i])
            })
            .to_vec();
        for (m, n) in movers.iter_mut().zip(next) {
            m.at = n;
        }
        let [a, b, c] = movers;
        assert!(!overlap(a.at, 2, b.at, 1) && !overlap(a.at, 2, c.at, 1) && b.at != c.at);
    }
    assert_eq!(movers[0].at, goals[0]);
}

#[test]
fn a_held_body_is_never_pushed() {
    let grid = Grid::from_ascii(&["...."]).expect("a grid");
    let mut movers = [Mover::new(p(0, 0), 1), Mover::new(p(1, 0), 2)];
    movers[1].free = false;
    movers[0].priority = 100.0;
    let mut crowd = CrowdStep::new(1);
    let next = crowd.step(&[&grid], Movement::FourWay, &mut movers, |_, c| {
        manhattan(c, p(3, 0))
    });
    assert_eq!(next, &[p(0, 0), p(1, 0)]);
}

#[test]
fn two_bodies_never_cross_diagonally() {
    let grid = Grid::new(2, 2).expect("a grid");
    let eight = Movement::EightWay(CornerRule::NeverCut);
    // A goes (0,0) → (1,1), B goes (1,0) → (0,1): each one's best is the crossing diagonal.
    let goals = [p(1, 1), p(0, 1)];
    let movers = [Mover::new(p(0, 0), 1), Mover::new(p(1, 0), 2)];
    let chebyshev = |a: Point, b: Point| a.x.abs_diff(b.x).max(a.y.abs_diff(b.y));
    for seed in 0..50 {
        let mut crowd = CrowdStep::new(seed);
        let mut m = movers;
        let next = crowd.step(&[&grid], eight, &mut m, |i, c| chebyshev(c, goals[i]));
        let crossed = next[0] == p(1, 1) && next[1] == p(0, 1);
        assert!(!crossed, "seed {seed}: they crossed");
        assert_ne!(next[0], next[1]);
    }
}

#[test]
fn a_body_on_a_wall_or_on_another_takes_no_part() {
    let grid = Grid::from_ascii(&[".#.."]).expect("a grid");
    let mut movers = [
        Mover::new(p(1, 0), 1),
        Mover::new(p(2, 0), 2),
        Mover::new(p(2, 0), 3),
    ];
    let mut crowd = CrowdStep::new(3);
    let next = crowd
        .step(&[&grid], Movement::FourWay, &mut movers, |_, c| {
            manhattan(c, p(3, 0))
        })
        .to_vec();
    assert_eq!(next[0], p(1, 0), "held on its wall");
    assert_eq!(next[1], p(3, 0));
    assert_eq!(next[2], p(2, 0), "held where it overlapped");
}

#[test]
fn a_big_body_never_pushes_more_bodies_at_once_than_a_push_may_move() {
    // A 6 × 6 body whose best step is diagonal, into an L of one-cell bodies along its far
    // sides: that step would push 11 at once. It takes another step or holds; nothing breaks.
    let grid = Grid::from_ascii(&["..........."; 11]).expect("a grid");
    let mut clearance = crate::clearance::Clearance::new();
    clearance.update(&grid);
    let sized: Vec<Grid> = (2..=6).map(|k| clearance.grid_for(&grid, k)).collect();
    let grids: Vec<&Grid> = std::iter::once(&grid).chain(&sized).collect();
    let goal = p(5, 5);
    let mut movers = vec![Mover::new(p(0, 0), 1).with_size(6).with_goal(goal)];
    movers[0].priority = 100.0;
    for k in 0..=6 {
        for q in [p(6, k), p(k, 6)] {
            if !movers.iter().any(|m| m.at == q) {
                movers.push(Mover::new(q, movers.len() as u64));
            }
        }
    }
    let movement = Movement::EightWay(CornerRule::NeverCut);
    let chebyshev = |a: Point, b: Point| a.x.abs_diff(b.x).max(a.y.abs_diff(b.y));
    let mut crowd = CrowdStep::new(7);
    let next = crowd
        .step(&grids, movement, &mut movers, |i, c| match i {
            0 => chebyshev(c, goal),
            _ => 0,
        })
        .to_vec();
    assert_ne!(next[0], p(1, 1), "not the step that pushes eleven");
    for (i, &n) in next.iter().enumerate() {
        for (j, &m) in next.iter().enumerate().skip(i + 1) {
            let (a, b) = (movers[i].size, movers[j].size);
            assert!(!overlap(n, a, m, b), "{i} and {j} overlap");
        }
    }
}

#[test]
fn drawn_again_bodies_that_all_gave_way_change_order_and_keep_their_rank() {
    // Eight bodies that have all given way: the same priority, held back by the whole limit.
    // Their order is their tie-breaks'; a new round of draws changes it, and round 0 brings
    // back each body's own.
    let rank = |m: &Mover| m.priority - m.held_back;
    let order = |movers: &[Mover]| {
        let mut ids: Vec<usize> = (0..movers.len()).collect();
        ids.sort_by(|&a, &b| rank(&movers[b]).total_cmp(&rank(&movers[a])));
        ids
    };
    let mut movers: Vec<Mover> = (0..8)
        .map(|id| {
            let mut m = Mover::new(p(id, 0), id as u64);
            m.priority = 500.0 + m.tie_break;
            m.held_back = HOLD_BACK_LIMIT;
            m
        })
        .collect();
    let first = order(&movers);
    let mut orders = std::collections::HashSet::new();
    for round in 1..=4 {
        for (id, m) in movers.iter_mut().enumerate() {
            m.draw_again(id as u64, round);
            assert_eq!(m.priority.floor(), 500.0, "the rank kept, round {round}");
            assert!((m.priority - 500.0 - m.tie_break).abs() < 1e-9);
        }
        orders.insert(order(&movers));
    }
    assert!(orders.len() > 1 && !orders.iter().all(|o| *o == first));
    for (id, m) in movers.iter_mut().enumerate() {
        m.draw_again(id as u64, 0);
    }
    assert_eq!(order(&movers), first, "round 0: each body's own tie-break");
}
