//! The crowd's PIBT step ([`CrowdStep`]) on thousands of random grids, crowds and moves: at every
//! step no two bodies share a cell, none swap, none cross diagonally, every move is legal, and a
//! held body stays. The rules are checked here from the positions alone, sharing no code with
//! the step. With true distances as its guide, a crowd on an open room reaches every goal.

use gridpath::mapf::{CrowdStep, Mover};
use gridpath::{Grid, Movement, Point};
use proptest::prelude::*;
use std::collections::{HashSet, VecDeque};

mod common;
use common::{arb_grid_sized, arb_movement};

/// What broke a step's rules, if anything.
fn broken(grid: &Grid, movement: Movement, before: &[Mover], after: &[Point]) -> Option<String> {
    let mut seen = HashSet::new();
    for (i, (m, &to)) in before.iter().zip(after).enumerate() {
        if !seen.insert(to) {
            return Some(format!("two bodies on {to}"));
        }
        if !m.free && to != m.at {
            return Some(format!("held body {i} moved"));
        }
        if to != m.at && movement.step_cost(grid, m.at, to).is_none() {
            return Some(format!("body {i}: {} to {to} is no legal move", m.at));
        }
        for (k, (o, &o_to)) in before.iter().zip(after).enumerate() {
            if k == i || to == m.at || o_to == o.at {
                continue;
            }
            if to == o.at && o_to == m.at {
                return Some(format!("bodies {i} and {k} swap"));
            }
            let diagonal = m.at.x != to.x && m.at.y != to.y;
            let corners = [Point::new(to.x, m.at.y), Point::new(m.at.x, to.y)];
            let across = (o.at == corners[0] && o_to == corners[1])
                || (o.at == corners[1] && o_to == corners[0]);
            if diagonal && across {
                return Some(format!("bodies {i} and {k} cross"));
            }
        }
    }
    None
}

/// Moves from every cell to `goal` by `movement` (breadth first: each move counts one).
fn moves_to(grid: &Grid, movement: Movement, goal: Point) -> Vec<u32> {
    let mut table = vec![u32::MAX; grid.len()];
    let Some(g) = grid.index_of(goal) else {
        return table;
    };
    table[g] = 0;
    let mut queue = VecDeque::from([goal]);
    while let Some(at) = queue.pop_front() {
        let next = table[grid.index_of(at).unwrap_or(0)] + 1;
        for (n, _) in movement.neighbors(grid, at) {
            let k = grid.index_of(n).unwrap_or(0);
            if table[k] == u32::MAX {
                table[k] = next;
                queue.push_back(n);
            }
        }
    }
    table
}

/// Distinct free cells for `n` bodies, picked by `rolls`.
fn free_cells(grid: &Grid, n: usize, rolls: &[usize]) -> Vec<Point> {
    let mut free: Vec<Point> = (0..grid.len())
        .map(|i| grid.point_of(i))
        .filter(|&p| grid.is_passable(p))
        .collect();
    let mut cells = Vec::new();
    for &roll in rolls.iter().take(n) {
        if free.is_empty() {
            break;
        }
        cells.push(free.swap_remove(roll % free.len()));
    }
    cells
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn a_crowd_step_never_breaks_the_rules(
        grid in arb_grid_sized(2..=8, 2..=8, 0..=30, false),
        movement in arb_movement(),
        rolls in prop::collection::vec(any::<usize>(), 1..20),
        holds in prop::collection::vec(0u32..100, 40 * 20),
        seed in any::<u64>(),
    ) {
        let starts = free_cells(&grid, rolls.len() / 2 + 1, &rolls);
        let goals = free_cells(&grid, starts.len(), &rolls[rolls.len() / 2..]);
        let tables: Vec<Vec<u32>> = goals.iter().map(|&g| moves_to(&grid, movement, g)).collect();
        let mut movers: Vec<Mover> =
            starts.iter().enumerate().map(|(i, &at)| Mover::new(at, i as u64)).collect();
        let mut crowd = CrowdStep::new(seed);
        for step in 0..40 {
            for (i, m) in movers.iter_mut().enumerate() {
                m.free = holds[(step * 20 + i) % holds.len()] >= 25; // a quarter held
                m.arrived = goals.get(i) == Some(&m.at);
            }
            let before = movers.clone();
            let next = crowd
                .step(&grid, movement, &mut movers, |i, c| {
                    let table = tables.get(i);
                    table.and_then(|t| t.get(grid.index_of(c)?).copied()).unwrap_or(0)
                })
                .to_vec();
            prop_assert_eq!(next.len(), movers.len());
            if let Some(why) = broken(&grid, movement, &before, &next) {
                prop_assert!(false, "step {}: {} on {:?}", step, why, grid);
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
    let tables: Vec<Vec<u32>> = goals
        .iter()
        .map(|&g| moves_to(&grid, movement, g))
        .collect();
    let mut movers: Vec<Mover> = starts
        .iter()
        .enumerate()
        .map(|(i, &at)| Mover::new(at, i as u64))
        .collect();
    let mut crowd = CrowdStep::new(11);
    let mut steps = 0;
    let mut moved = vec![false; movers.len()];
    while movers.iter().zip(&goals).any(|(m, g)| m.at != *g) && steps < 500 {
        for (i, m) in movers.iter_mut().enumerate() {
            m.free = i % 2 == 0 || !moved[i];
            m.arrived = m.at == goals[i];
        }
        let before = movers.clone();
        let next = crowd
            .step(&grid, movement, &mut movers, |i, c| {
                tables[i][grid.index_of(c).unwrap_or(0)]
            })
            .to_vec();
        assert_eq!(broken(&grid, movement, &before, &next), None);
        for ((m, at), moved) in movers.iter_mut().zip(next).zip(&mut moved) {
            *moved = m.at != at;
            m.at = at;
        }
        steps += 1;
    }
    let left: Vec<_> = movers
        .iter()
        .zip(&goals)
        .filter(|(m, g)| m.at != **g)
        .map(|(m, g)| (m.at, *g))
        .collect();
    assert!(steps < 500, "not all arrived in 500 steps: {left:?}");
}
