//! The lifelong planner on the benchmark's format: a small real instance (see
//! `fixtures/lifelong/README.md`), liveness on random maps, unreachable tasks (the command line
//! is `gridpath_cli`'s tests), and a game's bodies given the planner's guide paths on the
//! shipped sorting centre. Every run is checked at every step by the validator, which
//! shares no code with the planner: `run_lifelong` fails on the first step that breaks a rule.

use gridpath::lifelong::{Guidance, LifelongInstance, run_lifelong};
use gridpath::{Grid, Point};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/lifelong/sortation_small_0_100.json"
);

const ALL: [Guidance; 4] = [
    Guidance::NONE,
    Guidance::TRAFFIC,
    Guidance::GUIDED,
    Guidance::FOCAL,
];

#[test]
fn the_sorting_centre_runs_with_every_step_valid_and_every_agent_working() {
    let instance = LifelongInstance::read(FIXTURE).expect("the fixture reads");
    assert_eq!(instance.starts.len(), 100);
    for guidance in ALL {
        let run = run_lifelong(&instance, 300, 1, guidance, false).expect("every step valid");
        assert_eq!(run.steps, 300);
        assert!(
            run.tasks_finished > 300,
            "{guidance:?}: {}",
            run.tasks_finished
        );
        assert_eq!(run.idle(), 0, "{guidance:?}: an agent finished nothing");
        assert_eq!(
            run.per_step.iter().map(|&n| u64::from(n)).sum::<u64>(),
            run.tasks_finished
        );
    }
}

/// A random map where every free cell lies on a cycle: walls only on cells whose column and
/// row are both odd, so each wall stands alone and the free cells round it make a ring.
fn ringed_map(width: i32, height: i32, seed: u64) -> Grid {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut roll = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let rows: Vec<String> = (0..height)
        .map(|y| {
            (0..width)
                .map(|x| {
                    let may = x % 2 == 1 && y % 2 == 1;
                    if may && roll() % 3 != 0 { '#' } else { '.' }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Grid::from_ascii(&rows).expect("a grid")
}

#[test]
fn on_maps_where_every_cell_lies_on_a_cycle_every_agent_keeps_finishing_tasks() {
    // PIBT's liveness (Okumura et al., AIJ 2022): with true distances, on a graph where every
    // cell lies on a cycle, the agent ranked highest reaches its goal, and with priorities that
    // only ever hold an agent back by a bounded amount, every agent is in time ranked highest.
    // (With the hold-back unbounded, as it was, an agent here went 373 steps without a task;
    // bounded, the worst is 86.)
    for seed in 0..12u64 {
        let grid = ringed_map(21, 15, seed);
        let free: Vec<Point> = (0..15)
            .flat_map(|y| (0..21).map(move |x| Point::new(x, y)))
            .filter(|&p| grid.is_passable(p))
            .collect();
        let pick = |k: usize| free[(k * 7919 + seed as usize * 31) % free.len()];
        let agents = free.len() / 2;
        let starts: Vec<Point> = (0..agents).map(|k| free[k * free.len() / agents]).collect();
        let tasks: Vec<Point> = (0..2000).map(pick).collect();
        let instance = LifelongInstance::new(grid, "ringed".into(), starts, tasks).expect("valid");
        for guidance in ALL {
            let run = run_lifelong(&instance, 600, seed, guidance, false).expect("valid");
            let worst = run.longest_gap.iter().max().copied().unwrap_or(0);
            assert!(
                worst <= 200,
                "seed {seed}, {guidance:?}: an agent went {worst} steps without a task"
            );
        }
    }
}

#[test]
fn a_task_no_agent_can_reach_is_reported_and_the_run_goes_on() {
    // Two rooms with no door: agent 1's first task is in the other room.
    let grid = Grid::from_ascii(&["...#...", "...#..."]).expect("a grid");
    let p = Point::new;
    let tasks = vec![p(2, 1), p(5, 0), p(0, 0), p(1, 1)];
    let instance = LifelongInstance::new(grid, "two rooms".into(), vec![p(0, 0), p(1, 0)], tasks)
        .expect("valid");
    let run = run_lifelong(&instance, 50, 0, Guidance::GUIDED, false).expect("runs on");
    assert_eq!(run.steps, 50);
    assert!(
        run.unreachable.iter().any(|n| n.contains("agent 1")),
        "{:?}",
        run.unreachable
    );
    assert!(run.finished[0] >= 1, "agent 0 still works");
    assert_eq!(run.finished[1], 0);
}

#[test]
fn the_planner_moves_as_it_did_before_it_became_a_configuration_of_the_crowd_runtime() {
    // The shipped sorting centre with its 800 robots (at the fixture's 100, goal tables do as
    // well as guide paths, and the test would not tell them apart). These are the figures of
    // the planner's own step, before `LifelongPlanner` ran on the crowd runtime (e82d0dd): the
    // same moves, step for step, under every preset; every step checked by the validator.
    let shipped = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/lifelong/sortation_small_0_800.json"
    );
    let instance = LifelongInstance::read(shipped).expect("the shipped instance reads");
    let presets = [
        (Guidance::FOCAL, 3_667, 0xf3f9_49ff_6477_67bb),
        (Guidance::GUIDED, 3_335, 0x219a_3c1c_f114_7614),
        (Guidance::TRAFFIC, 2_423, 0x1d34_cf15_f6a8_2ae7),
        (Guidance::NONE, 2_225, 0xbdf7_cd59_9df8_f910),
    ];
    for (guidance, tasks, plan) in presets {
        let run = run_lifelong(&instance, 300, 1, guidance, true).expect("every step valid");
        assert_eq!(run.tasks_finished, tasks, "{guidance:?}");
        assert_eq!(fingerprint(&run.plan), plan, "{guidance:?}: other moves");
    }
}

/// FNV-1a over every cell of every step of a plan, x then y (as the figures above were taken
/// from the command's `--output` of the planner before).
fn fingerprint(plan: &[Vec<Point>]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for v in plan.iter().flatten().flat_map(|p| [p.x, p.y]) {
        hash = (hash ^ u64::from(v as u32)).wrapping_mul(0x100_0000_01b3);
    }
    hash
}
