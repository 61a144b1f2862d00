//! Multi-agent pathfinding: PIBT's steps never break the rules (checked by the independent
//! validator at every step, on thousands of random grids), every agent reaches its goal where the
//! paper says it must, and the validator catches every kind of planted fault.

use gridpath::hex::HexLayout;
use gridpath::mapf::crowd::{Window, untangle};
use gridpath::mapf::{
    AnytimeLimits, Distances, Instance, LacamOutcome, Moves, Pibt, PlanError, check_plan,
    check_plan_with_moves, solve_anytime, solve_with_lacam, solve_with_pibt,
};
use gridpath::{Grid, Point};
use proptest::prelude::*;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::time::Duration;

mod common;
use common::arb_grid_sized;

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// On random grids with walls, PIBT's plan is legal at every step (the validator sees the
    /// plan so far as a whole plan ending where the agents stand), and a solved plan reaches
    /// every goal at a cost no lower than the lower bounds.
    #[test]
    fn pibt_never_breaks_the_rules(
        grid in arb_grid_sized(2..=9, 2..=9, 0..=30, false),
        agents in 1usize..10,
        seed in any::<u64>(),
    ) {
        let Ok(instance) = Instance::random(grid, agents, seed) else { return Ok(()) };
        let run = solve_with_pibt(&instance, 150, seed);
        let reached = run.plan.last().cloned().unwrap_or_default();
        let legal = check_plan(&instance.grid, &instance.starts, &reached, &run.plan);
        prop_assert!(legal.is_ok(), "{:?} on {:?}", legal, instance);
        if run.solved {
            let costs = check_plan(&instance.grid, &instance.starts, &instance.goals, &run.plan);
            let costs = costs.map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(costs.soc >= costs.soc_lb && costs.makespan >= costs.makespan_lb);
        }
    }

    /// The paper's theorem: where every two neighbouring cells lie on a cycle (an open grid of at
    /// least 2 × 2), every agent reaches its goal, within diameter × agents steps.
    #[test]
    fn pibt_brings_every_agent_to_its_goal_on_an_open_grid(
        width in 2u32..8,
        height in 2u32..8,
        agents in 1usize..12,
        seed in any::<u64>(),
    ) {
        let grid = Grid::new(width, height).expect("a small grid");
        let agents = agents.min(grid.len() - 1);
        let instance = Instance::random(grid, agents, seed).expect("room for them");
        let grid = &instance.grid;
        let index = |p: &Point| grid.index_of(*p).expect("on the grid");
        let mut positions: Vec<usize> = instance.starts.iter().map(index).collect();
        let goals: Vec<usize> = instance.goals.iter().map(index).collect();
        let mut arrived: Vec<bool> = positions.iter().zip(&goals).map(|(p, g)| p == g).collect();
        let (mut pibt, mut distances) = (Pibt::new(seed), Distances::new());
        let bound = (width + height) as usize * agents + 1;
        for _ in 0..bound {
            let next = pibt.step(grid, &mut distances, &positions, &goals).to_vec();
            positions = next;
            for (a, (p, g)) in positions.iter().zip(&goals).enumerate() {
                arrived[a] |= p == g;
            }
        }
        prop_assert!(arrived.iter().all(|&a| a), "{:?} after {} steps: {:?}", arrived, bound, instance);
    }

    /// With LaCAM*'s emulated swap, PIBT's steps stay legal on random grids with walls: no two
    /// agents on a cell, no swaps, only moves to a free neighbour.
    #[test]
    fn pibt_with_the_swap_never_breaks_the_rules(
        grid in arb_grid_sized(2..=9, 2..=9, 0..=30, false),
        agents in 1usize..10,
        seed in any::<u64>(),
    ) {
        let Ok(instance) = Instance::random(grid, agents, seed) else { return Ok(()) };
        let grid = &instance.grid;
        let index = |p: &Point| grid.index_of(*p).expect("on the grid");
        let mut positions: Vec<usize> = instance.starts.iter().map(index).collect();
        let goals: Vec<usize> = instance.goals.iter().map(index).collect();
        let (mut pibt, mut distances) = (Pibt::new(seed).with_swap(true), Distances::new());
        let mut plan = vec![instance.starts.clone()];
        for _ in 0..100 {
            positions = pibt.step(grid, &mut distances, &positions, &goals).to_vec();
            plan.push(positions.iter().map(|&i| grid.point_of(i)).collect());
        }
        let reached = plan.last().cloned().unwrap_or_default();
        let legal = check_plan(grid, &instance.starts, &reached, &plan);
        prop_assert!(legal.is_ok(), "{:?} on {:?}", legal, instance);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// LaCAM is complete: on tiny instances it finds a plan exactly when a brute-force search
    /// over joint configurations does, says "no solution" otherwise, and every plan it returns
    /// passes the validator. The anytime solve (LaCAM\* beside refinement) ends with the
    /// brute force's optimum, proven. With 4-way moves, and with a hex map's six in each of its
    /// layouts.
    #[test]
    fn lacam_solves_exactly_what_brute_force_solves(
        grid in arb_grid_sized(1..=4, 1..=3, 0..=40, false),
        shape in 0usize..7,
        agents in 1usize..=4,
        picks in prop::collection::vec(any::<usize>(), 8),
        seed in any::<u64>(),
    ) {
        let free: Vec<Point> = (0..grid.len()).map(|i| grid.point_of(i)).filter(|&q| grid.is_passable(q)).collect();
        if free.len() < agents { return Ok(()) }
        let distinct = |picks: &[usize]| -> Vec<Point> {
            let mut cells = free.clone();
            picks.iter().take(agents).enumerate().map(|(k, &r)| {
                let j = k + r % (cells.len() - k);
                cells.swap(k, j);
                cells[k]
            }).collect()
        };
        let (starts, goals) = (distinct(&picks[..4]), distinct(&picks[4..]));
        let moves = match shape {
            0 => Moves::FourWay,
            k => Moves::Hex(HexLayout::ALL[k - 1]),
        };
        let instance = Instance::new(grid, starts, goals).expect("distinct free cells").with_moves(moves);
        let check = |plan: &[Vec<Point>]| {
            check_plan_with_moves(&instance.grid, moves, &instance.starts, &instance.goals, plan)
        };
        let optimum = brute_force_optimum(&instance);
        let solvable = optimum.is_some();
        let (outcome, _) = solve_with_lacam(&instance, Duration::from_secs(10), seed);
        match outcome {
            LacamOutcome::Solved(plan) => {
                prop_assert!(solvable, "LaCAM solved what brute force cannot: {:?}", instance);
                let checked = check(&plan);
                prop_assert!(checked.is_ok(), "{:?} {:?}", checked, instance);
            }
            LacamOutcome::NoSolution => prop_assert!(!solvable, "missed a solution: {:?}", instance),
            LacamOutcome::TimedOut => prop_assert!(false, "timed out on {:?}", instance),
        }
        // Given the time, the anytime solve finds the optimum and proves it.
        let limits = AnytimeLimits { time_limit: Duration::from_secs(60), threads: 1 + seed as usize % 2, stop: None };
        let run = solve_anytime(&instance, seed, limits, |_, _| {});
        if let Some(optimum) = optimum {
            prop_assert_eq!(run.best().map(|m| m.soc), Some(optimum), "{:?}", instance);
            prop_assert!(run.optimal, "not proven optimal: {:?}", instance);
        }
        if let LacamOutcome::Solved(plan) = &run.outcome {
            prop_assert_eq!(check(plan).map(|c| c.soc).ok(), optimum, "{:?}", instance);
        }
        if moves != Moves::FourWay {
            return Ok(());
        }
        // The same with LaCAM*'s emulated swap in its PIBT, as the crowd's jam solver runs it.
        let window = Window::around(&instance.grid, Point::new(0, 0), 8);
        let bodies: Vec<(Point, Point)> =
            instance.starts.iter().copied().zip(instance.goals.iter().copied()).collect();
        let with_swap = untangle(&instance.grid, window, |_| true, &bodies, usize::MAX, seed);
        prop_assert_eq!(with_swap.is_some(), solvable, "with the swap: {:?}", instance);
        if let Some(plan) = with_swap {
            let checked = check_plan(&instance.grid, &instance.starts, &instance.goals, &plan);
            prop_assert!(checked.is_ok(), "with the swap: {:?} {:?}", checked, instance);
        }
    }
}

/// The optimal sum of costs, by Dijkstra over joint states, or `None` if no plan exists. A state
/// is every agent's cell and which agents have *finished* (arrived for good: they never move
/// again). A step moves each unfinished agent to a free neighbour (of four, or a hexagon's six)
/// or lets it wait, no two on
/// one cell, no two swapping, and costs one for each unfinished agent; an agent on its goal may
/// finish at no cost. Only for a handful of agents and cells.
fn brute_force_optimum(instance: &Instance) -> Option<u64> {
    let grid = &instance.grid;
    let agents = instance.starts.len();
    let moves = |q: Point| -> Vec<Point> {
        let steps: Vec<Point> = match instance.moves {
            Moves::FourWay => [(0, -1), (-1, 0), (1, 0), (0, 1)]
                .map(|(dx, dy)| Point::new(q.x + dx, q.y + dy))
                .to_vec(),
            Moves::Hex(layout) => layout.neighbours(q).to_vec(),
        };
        std::iter::once(q)
            .chain(steps)
            .filter(|&r| grid.is_passable(r))
            .collect()
    };
    type State = (Vec<Point>, u32);
    let everyone = (1u32 << agents) - 1;
    let mut cost: HashMap<State, u64> = HashMap::from([((instance.starts.clone(), 0), 0)]);
    let mut queue = BinaryHeap::from([Reverse((0u64, instance.starts.clone(), 0u32))]);
    while let Some(Reverse((g, config, finished))) = queue.pop() {
        if cost
            .get(&(config.clone(), finished))
            .is_some_and(|&known| known < g)
        {
            continue;
        }
        if finished == everyone {
            return Some(g);
        }
        let mut next: Vec<(Vec<Point>, u32, u64)> = (0..agents)
            .filter(|&a| finished & (1 << a) == 0 && config[a] == instance.goals[a])
            .map(|a| (config.clone(), finished | (1 << a), g))
            .collect();
        let mut steps: Vec<Vec<Point>> = vec![vec![]];
        for (a, &q) in config.iter().enumerate() {
            let choices = if finished & (1 << a) != 0 {
                vec![q]
            } else {
                moves(q)
            };
            steps = steps
                .into_iter()
                .flat_map(|partial| {
                    choices.iter().map(move |&r| {
                        let mut longer = partial.clone();
                        longer.push(r);
                        longer
                    })
                })
                .collect();
        }
        let unfinished = u64::from(agents as u32 - finished.count_ones());
        for candidate in steps {
            let cells: HashSet<Point> = candidate.iter().copied().collect();
            let swap = (0..agents).any(|a| {
                (0..agents)
                    .any(|b| a != b && candidate[a] == config[b] && candidate[b] == config[a])
            });
            if cells.len() == agents && !swap {
                next.push((candidate, finished, g + unfinished));
            }
        }
        for (config, finished, g) in next {
            let known = cost.entry((config.clone(), finished)).or_insert(u64::MAX);
            if g < *known {
                *known = g;
                queue.push(Reverse((g, config, finished)));
            }
        }
    }
    None
}

/// Agents that join and leave between steps, and goals that change: still legal at every step.
#[test]
fn lifelong_steps_stay_legal() {
    let grid = Grid::from_ascii(&["......", ".#..#.", "......", ".#..#.", "......"]).expect("map");
    let cell = |x, y| grid.index_of(Point::new(x, y)).expect("on the map");
    let (mut pibt, mut distances) = (Pibt::new(7), Distances::new());
    let mut positions = vec![cell(0, 0), cell(5, 4), cell(2, 2)];
    let mut goals = vec![cell(5, 4), cell(0, 0), cell(3, 2)];
    let mut history = vec![positions.clone()];
    for t in 0..60 {
        if t == 10 {
            positions.push(cell(0, 4)); // an agent joins
            goals.push(cell(5, 0));
        }
        if t == 30 {
            goals.swap(0, 1); // targets move
        }
        if t == 45 {
            positions.remove(2); // an agent leaves
            goals.remove(2);
            history.clear();
        }
        let next = pibt
            .step(&grid, &mut distances, &positions, &goals)
            .to_vec();
        let points =
            |cells: &[usize]| -> Vec<Point> { cells.iter().map(|&i| grid.point_of(i)).collect() };
        let step = vec![points(&positions), points(&next)];
        let check = check_plan(&grid, &step[0], &step[1], &step);
        assert!(check.is_ok(), "step {t}: {check:?}");
        positions = next;
        history.push(positions.clone());
    }
}

/// A wall built in an agent's way: the game clears the distance tables, and the next step follows
/// the new ones (PIBT keeps each agent's table between steps, and must notice they are gone).
#[test]
fn a_step_after_the_tables_were_cleared_follows_the_new_walls() {
    let open = Grid::from_ascii(&[".....", ".....", "....."]).expect("map");
    let walled = Grid::from_ascii(&[".....", "..#..", "....."]).expect("map");
    let cell = |x, y| open.index_of(Point::new(x, y)).expect("on the map");
    let (mut pibt, mut distances) = (Pibt::new(3), Distances::new());
    let goals = vec![cell(4, 1), cell(0, 0)];
    let mut positions = vec![cell(0, 1), cell(4, 2)];
    positions = pibt
        .step(&open, &mut distances, &positions, &goals)
        .to_vec();
    assert_eq!(
        positions[0],
        cell(1, 1),
        "straight on while the way is open"
    );
    distances.clear();
    let next = pibt
        .step(&walled, &mut distances, &positions, &goals)
        .to_vec();
    let mut to_goal = |at| distances.get(&walled, goals[0], at);
    assert_ne!(next[0], cell(2, 1), "into the new wall");
    assert!(to_goal(next[0]) < to_goal(positions[0]), "around the wall");
}

fn p(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

/// A hand-made plan: costs as the benchmark counts them, and each planted fault found.
#[test]
fn the_validator_counts_costs_and_catches_every_fault() {
    let grid = Grid::from_ascii(&["....", ".#..", "...."]).expect("map");
    let starts = [p(0, 0), p(3, 0)];
    let goals = [p(2, 0), p(3, 0)];
    // Agent 1 steps aside and back: its cost is when it is home for good (3), not 0.
    let plan = vec![
        vec![p(0, 0), p(3, 0)],
        vec![p(1, 0), p(3, 1)],
        vec![p(2, 0), p(3, 1)],
        vec![p(2, 0), p(3, 0)],
    ];
    let ok = check_plan(&grid, &starts, &goals, &plan).expect("a valid plan");
    assert_eq!(
        (ok.soc, ok.makespan, ok.soc_lb, ok.makespan_lb),
        (5, 3, 2, 2)
    );

    let with = |step: usize, agent: usize, at: Point| {
        let mut bad = plan.clone();
        bad[step][agent] = at;
        check_plan(&grid, &starts, &goals, &bad)
    };
    assert!(matches!(
        with(1, 0, p(1, 1)),
        Err(PlanError::OnWall {
            step: 1,
            agent: 0,
            ..
        })
    ));
    assert!(matches!(
        with(1, 0, p(-1, 0)),
        Err(PlanError::OffMap { step: 1, .. })
    ));
    assert!(matches!(
        with(1, 1, p(1, 0)),
        Err(PlanError::Vertex {
            step: 1,
            agents: (0, 1),
            ..
        })
    ));
    assert!(matches!(
        with(2, 0, p(3, 0)),
        Err(PlanError::Jump {
            step: 2,
            agent: 0,
            ..
        })
    ));
    assert!(matches!(
        with(0, 0, p(1, 0)),
        Err(PlanError::NotAtStart { agent: 0, .. })
    ));
    assert!(matches!(
        with(3, 0, p(1, 0)),
        Err(PlanError::NotAtGoal { agent: 0, .. })
    ));
    assert_eq!(
        check_plan(&grid, &starts, &goals, &[]),
        Err(PlanError::Empty)
    );
    let mut short = plan.clone();
    short[2].pop();
    assert!(matches!(
        check_plan(&grid, &starts, &goals, &short),
        Err(PlanError::AgentCount {
            step: 2,
            found: 1,
            expected: 2
        })
    ));
    // Two agents trade places: a swap, though no cell is shared at any step.
    let swap = vec![vec![p(0, 2), p(1, 2)], vec![p(1, 2), p(0, 2)]];
    let found = check_plan(&grid, &swap[0], &swap[1], &swap);
    assert!(
        matches!(
            found,
            Err(PlanError::Swap {
                step: 1,
                agents: (0, 1),
                ..
            })
        ),
        "{found:?}"
    );
    // A train, each agent stepping into the cell the one ahead leaves, is no swap.
    let train = vec![vec![p(0, 2), p(1, 2)], vec![p(1, 2), p(2, 2)]];
    assert!(check_plan(&grid, &train[0], &train[1], &train).is_ok());
    // Every message is one line.
    for e in [with(1, 1, p(1, 0)), found] {
        assert!(!e.expect_err("a fault").to_string().contains('\n'));
    }
}

#[test]
fn bad_instances_are_refused_with_a_reason() {
    let grid = Grid::from_ascii(&["..#", "..."]).expect("map");
    let refused = |starts: Vec<Point>, goals: Vec<Point>| {
        Instance::new(grid.clone(), starts, goals)
            .expect_err("refused")
            .to_string()
    };
    assert_eq!(refused(vec![], vec![]), "no agents: ask for at least one");
    assert!(refused(vec![p(2, 0)], vec![p(0, 0)]).contains("on a wall"));
    assert!(refused(vec![p(9, 0)], vec![p(0, 0)]).contains("outside the map"));
    assert!(refused(vec![p(0, 0), p(0, 0)], vec![p(1, 0), p(1, 1)]).contains("share the start"));
    assert!(refused(vec![p(0, 0)], vec![p(1, 0), p(1, 1)]).contains("1 starts but 2 goals"));
    let too_many = Instance::random(grid, 6, 1).expect_err("5 free cells");
    assert!(too_many.to_string().contains("only 5"));
}
