//! Running a lifelong instance: the benchmark's loop, with every step checked.
//!
//! ```text
//! give every agent k its first goal, task k
//! for t in 1..=steps:
//!     next ← planner.step()                     -- timed: the planning time per step
//!     check(next)                               -- the independent validator
//!     for each agent on its goal: one task finished, its next goal given now
//! ```

use super::agents::LifelongAgents;
use super::check::LifelongCheck;
use super::guidance::Guidance;
use super::instance::LifelongInstance;
use super::planner::LifelongPlanner;
use crate::grid::Point;
use std::fmt::Write as _;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// What a run did, as the validator counted it.
#[derive(Clone, Debug, Default)]
pub struct LifelongRun {
    /// Steps run.
    pub steps: usize,
    /// Tasks finished in all.
    pub tasks_finished: u64,
    /// Planning time of each step, in milliseconds (goals given included).
    pub step_ms: Vec<f64>,
    /// Tasks each agent finished, and those in the second half of the run.
    pub finished: Vec<u32>,
    /// Tasks each agent finished in the second half of the run (the starved have none).
    pub finished_late: Vec<u32>,
    /// Tasks finished at each step.
    pub per_step: Vec<u32>,
    /// The most steps each agent went without finishing a task (counting up to the run's end).
    pub longest_gap: Vec<u32>,
    /// One line for each goal given that its agent cannot reach (it never finishes).
    pub unreachable: Vec<String>,
    /// Every agent's cell at steps 0 to `steps`, when asked for.
    pub plan: Vec<Vec<Point>>,
}

impl LifelongRun {
    /// Agents that finished no task at all.
    pub fn idle(&self) -> usize {
        self.finished.iter().filter(|&&n| n == 0).count()
    }

    /// Agents that finished no task in the second half of the run: *starved*.
    pub fn starved(&self) -> usize {
        self.finished_late.iter().filter(|&&n| n == 0).count()
    }

    /// The mean and the 99th percentile of the planning time per step, in milliseconds.
    pub fn ms_per_step(&self) -> (f64, f64) {
        if self.step_ms.is_empty() {
            return (0.0, 0.0);
        }
        let mean = self.step_ms.iter().sum::<f64>() / self.step_ms.len() as f64;
        let mut sorted = self.step_ms.clone();
        sorted.sort_by(f64::total_cmp);
        let rank = (0.99 * sorted.len() as f64).ceil() as usize;
        (mean, sorted[rank.clamp(1, sorted.len()) - 1])
    }
}

/// Runs `instance` for `steps` steps with the planner and its `guidance`. `record`: keep every
/// step's cells in [`LifelongRun::plan`]. An error is the validator's: the planner broke a rule
/// (a bug, never bad input).
pub fn run_lifelong(
    instance: &LifelongInstance,
    steps: usize,
    seed: u64,
    guidance: Guidance,
    record: bool,
) -> Result<LifelongRun, String> {
    let planner = LifelongPlanner::new(instance.grid.clone(), guidance, seed);
    run_agents(instance, steps, record, planner)
}

/// The benchmark's loop (see the module docs) over any [`LifelongAgents`].
pub fn run_agents(
    instance: &LifelongInstance,
    steps: usize,
    record: bool,
    mut planner: impl LifelongAgents,
) -> Result<LifelongRun, String> {
    let grid = &instance.grid;
    let mut check = LifelongCheck::new(grid, &instance.starts, &instance.tasks)?;
    let agents = instance.starts.len();
    let mut run = LifelongRun {
        finished: vec![0; agents],
        finished_late: vec![0; agents],
        longest_gap: vec![0; agents],
        ..LifelongRun::default()
    };
    let mut given = vec![0usize; agents];
    let mut last = vec![0usize; agents];
    for (k, &start) in instance.starts.iter().enumerate() {
        planner.add_agent(start, instance.task(k, 0))?;
        note_unreachable(&planner, k, 0, &mut run.unreachable);
    }
    if record {
        run.plan.push(instance.starts.clone());
    }
    for t in 1..=steps {
        let began = Instant::now();
        let next = planner.step();
        let mut done = Vec::new();
        for (k, &at) in next.iter().enumerate() {
            if Some(at) == planner.goal(k) {
                done.push(k);
                given[k] += 1;
                planner.set_goal(k, instance.task(k, given[k]))?;
            }
        }
        run.step_ms.push(began.elapsed().as_secs_f64() * 1e3);
        let counted = check.step(&next)?;
        if counted as usize != done.len() {
            return Err(format!(
                "step {t}: the planner finished {} tasks, the validator counted {counted}",
                done.len()
            ));
        }
        for &k in &done {
            run.longest_gap[k] = run.longest_gap[k].max((t - last[k]) as u32);
            last[k] = t;
            run.finished[k] += 1;
            if 2 * t > steps {
                run.finished_late[k] += 1;
            }
            note_unreachable(&planner, k, given[k], &mut run.unreachable);
        }
        run.tasks_finished += u64::from(counted);
        run.per_step.push(counted);
        if record {
            run.plan.push(next);
        }
        run.steps = t;
    }
    for (gap, &last) in run.longest_gap.iter_mut().zip(&last) {
        *gap = (*gap).max((steps - last) as u32);
    }
    Ok(run)
}

/// Notes a goal its agent cannot reach: the run goes on, the agent never finishes it.
fn note_unreachable(planner: &impl LifelongAgents, k: usize, n: usize, notes: &mut Vec<String>) {
    if planner.reaches_goal(k) == Some(false) && notes.len() < 1000 {
        let (at, goal) = (planner.at(k), planner.goal(k));
        if let (Some(at), Some(goal)) = (at, goal) {
            notes.push(format!(
                "agent {k}'s goal {n} at {goal} cannot be reached from {at}: it will not finish it"
            ));
        }
    }
}

/// The run in the field's MAPF result format (`key=value` lines, then `solution=` and one
/// `t:(x,y),...` line a step, x the column), with `tasks_finished=`: any MAPF validator or
/// visualiser replays it, and [`crate::mapf::parse_result`] reads it. `goals=` lists each
/// agent's first goal.
pub fn write_lifelong_result(instance: &LifelongInstance, run: &LifelongRun) -> String {
    let mut out = String::new();
    let (mean, p99) = run.ms_per_step();
    let points = |cells: &mut dyn Iterator<Item = Point>| -> String {
        cells.map(|p| format!("({},{}),", p.x, p.y)).collect()
    };
    let _ = writeln!(out, "agents={}", instance.starts.len());
    let _ = writeln!(out, "map_file={}", instance.map_file);
    let _ = writeln!(out, "solver=gridpath-lifelong");
    let _ = writeln!(out, "solved=1");
    let _ = writeln!(out, "steps={}", run.steps);
    let _ = writeln!(out, "tasks_finished={}", run.tasks_finished);
    let _ = writeln!(out, "starved={}", run.starved());
    let _ = writeln!(out, "comp_time={}", (mean * run.steps as f64).round());
    let _ = writeln!(out, "ms_per_step_mean={mean:.3}");
    let _ = writeln!(out, "ms_per_step_p99={p99:.3}");
    let _ = writeln!(
        out,
        "starts={}",
        points(&mut instance.starts.iter().copied())
    );
    let firsts = (0..instance.starts.len()).map(|k| instance.task(k, 0));
    let _ = writeln!(out, "goals={}", points(&mut firsts.into_iter()));
    let _ = writeln!(out, "solution=");
    for (t, cells) in run.plan.iter().enumerate() {
        let _ = writeln!(out, "{t}:{}", points(&mut cells.iter().copied()));
    }
    out
}
