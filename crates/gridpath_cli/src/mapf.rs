//! `gridpath mapf` and `gridpath mapf-check`: solve a multi-agent instance, and check any plan.

use clap::{ArgGroup, Args, ValueEnum};
use gridpath::lifelong::parse_lifelong_map;
use gridpath::mapf::{
    AnytimeLimits, Instance, LacamOutcome, MAX_RESULT_AGENTS, MAX_RESULT_BYTES, MapfResult, Moves,
    check_plan_with_moves, parse_result, solve_anytime, solve_with_lacam, solve_with_pibt,
    write_result,
};
use gridpath::movingai::text::visible_path;
use gridpath::movingai::{
    MapLimits, MapShape, read_scen_file, read_shaped_map_file_with_limits, read_text_file,
};
use gridpath::{Grid, Point};

/// One row of cells per time step.
type Plan = Vec<Vec<Point>>;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Solve a multi-agent instance under the benchmark's rules.
///
/// 4-way moves and waits, no two agents on a cell, no swaps; on a hex map, whose type line says
/// so, moves to the six neighbours. The agents are the first N of a scenario file, or N random
/// ones in the map's largest region. Prints one line, solved=1|0 soc=… soc_lb=… makespan=…
/// makespan_lb=… comp_time=…ms (the costs recomputed by the validator), and writes the plan in
/// the field's result format with --output. Exits 0 when solved, 1 when not (no solution, or
/// out of time), 2 on bad input.
///
/// With --time-limit, LaCAM's first plan is made cheaper until the limit, and the line adds the
/// first plan's cost and time (first_soc=… first_time=…ms), the rounds of refinement (epochs=…)
/// and optimal=1 when the plan is proven optimal (it then stops early). Without it, the first
/// plan is the answer (searched for 60 s at most). The first plan is the same for the same seed.
#[derive(Args)]
#[command(verbatim_doc_comment)]
#[command(group(ArgGroup::new("who").required(true).args(["agents", "random"])))]
pub struct MapfArgs {
    /// The map (.map).
    map: PathBuf,
    /// A scenario file, whose first N agents are planned (with --agents N).
    #[arg(requires = "agents")]
    scen: Option<PathBuf>,
    /// How many of the scenario file's agents.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = agent_count, requires = "scen")]
    agents: Option<usize>,
    /// N agents with random starts and goals instead.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = agent_count, conflicts_with = "scen")]
    random: Option<usize>,
    #[arg(long, value_enum, default_value_t = Solver::Lacam)]
    solver: Solver,
    /// Refine LaCAM's plan until this many seconds have passed.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = seconds)]
    time_limit: Option<f64>,
    /// With --time-limit: stop at the first plan.
    #[arg(long, requires = "time_limit")]
    first: bool,
    /// With --time-limit: refine on T threads (all cores by default).
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = agent_count, requires = "time_limit")]
    threads: Option<usize>,
    /// The random agents' and the solvers' seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    seed: u64,
    /// Write the plan here, in the field's result format.
    #[arg(long, value_name = "RESULT.txt")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Solver {
    /// LaCAM: complete; finds a plan whenever one exists.
    Lacam,
    /// PIBT alone: fast, not complete (100,000 steps at most).
    Pibt,
}

impl Solver {
    fn key(self) -> &'static str {
        match self {
            Solver::Lacam => "lacam",
            Solver::Pibt => "pibt",
        }
    }
}

/// Check any result file, ours or another solver's.
///
/// Checks moves, walls, vertex and swap conflicts, starts and goals (from the file, or the first
/// N of a scenario file), and recomputes soc and makespan. Exits 0 for a valid plan, 1 for an
/// invalid one, 2 on bad input.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct CheckArgs {
    /// The map (.map, or a League of Robot Runners map).
    map: PathBuf,
    /// The plan, in the field's result format.
    result: PathBuf,
    /// A scenario file for the starts and goals (with N).
    #[arg(requires = "agents")]
    scen: Option<PathBuf>,
    /// How many of the scenario file's agents.
    #[arg(value_name = "N", value_parser = agent_count)]
    agents: Option<usize>,
}

/// `gridpath mapf …`. Ok(solved).
pub fn solve(args: MapfArgs) -> Result<bool, String> {
    let (grid, shape) = read_shaped_map_file_with_limits(&args.map, &MapLimits::default())
        .map_err(|e| e.to_string())?;
    let moves = Moves::of_shape(shape);
    let instance = match (&args.scen, args.agents, args.random) {
        (Some(scen_path), Some(n), _) => scenario_instance(grid, scen_path, n)?.with_moves(moves),
        (_, _, Some(n)) => {
            Instance::random_with(grid, moves, n, args.seed).map_err(|e| e.to_string())?
        }
        _ => return Err("give a scenario file and --agents N, or --random N".into()),
    };
    let began = Instant::now();
    let (plan, progress) = run_solver(&args, &instance);
    let comp_time = began.elapsed().as_secs_f64() * 1000.0;
    let mut result = MapfResult {
        map_file: file_name(&args.map),
        solver: format!("gridpath-{}", args.solver.key()),
        solved: plan.is_some(),
        comp_time: Some(comp_time),
        starts: instance.starts.clone(),
        goals: instance.goals.clone(),
        plan: plan.unwrap_or_default(),
        ..MapfResult::default()
    };
    if result.solved {
        // The figures come from the validator, not from the solver.
        let costs = check_plan_with_moves(
            &instance.grid,
            moves,
            &instance.starts,
            &instance.goals,
            &result.plan,
        )
        .map_err(|e| format!("internal error, the plan is invalid: {e}"))?;
        result.soc = Some(costs.soc);
        result.soc_lb = Some(costs.soc_lb);
        result.makespan = Some(costs.makespan);
        result.makespan_lb = Some(costs.makespan_lb);
    }
    let figure = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    outln!(
        "solved={} soc={} soc_lb={} makespan={} makespan_lb={} comp_time={:.0}ms agents={} solver={}{progress}",
        u8::from(result.solved),
        figure(result.soc),
        figure(result.soc_lb),
        figure(result.makespan),
        figure(result.makespan_lb),
        comp_time,
        instance.agents(),
        result.solver,
    );
    if let Some(path) = &args.output {
        std::fs::write(path, write_result(&result))
            .map_err(|e| format!("{}: {e}", visible_path(path)))?;
    }
    Ok(result.solved)
}

/// The first `n` agents of a scenario file on `grid`.
fn scenario_instance(grid: Grid, scen_path: &Path, n: usize) -> Result<Instance, String> {
    let scenarios = read_scen_file(scen_path).map_err(|e| e.to_string())?;
    Instance::from_scenarios(grid, &scenarios, n)
        .map_err(|e| format!("{}: {e}", visible_path(scen_path)))
}

/// Runs the solver asked for: the plan, if one was found, and what the anytime search adds to
/// the printed line. Why no plan is said on stderr.
fn run_solver(args: &MapfArgs, instance: &Instance) -> (Option<Plan>, String) {
    let anytime = args.time_limit.is_some() && !args.first && args.solver == Solver::Lacam;
    let limit = Duration::from_secs_f64(args.time_limit.unwrap_or(60.0));
    let mut progress = String::new();
    let outcome = match args.solver {
        Solver::Pibt => {
            let run = solve_with_pibt(instance, 100_000, args.seed);
            match run.solved {
                true => LacamOutcome::Solved(run.plan),
                false => LacamOutcome::TimedOut,
            }
        }
        Solver::Lacam if anytime => {
            let threads = args.threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
            });
            let limits = AnytimeLimits {
                time_limit: limit,
                threads,
                stop: None,
            };
            let run = solve_anytime(instance, args.seed, limits, |_, _| {});
            if let Some(first) = run.first() {
                progress = format!(
                    " first_soc={} first_time={:.0}ms epochs={} threads={threads} optimal={}",
                    first.soc,
                    first.at.as_secs_f64() * 1000.0,
                    run.epochs,
                    u8::from(run.optimal)
                );
            }
            run.outcome
        }
        Solver::Lacam => solve_with_lacam(instance, limit, args.seed).0,
    };
    let plan = match outcome {
        LacamOutcome::Solved(plan) => Some(plan),
        LacamOutcome::NoSolution => {
            eprintln!("no solution exists: LaCAM tried every configuration");
            None
        }
        LacamOutcome::TimedOut if args.solver == Solver::Pibt => {
            eprintln!("PIBT did not bring every agent home in 100,000 steps");
            None
        }
        LacamOutcome::TimedOut => {
            eprintln!("out of time after {} s", limit.as_secs_f64());
            None
        }
    };
    (plan, progress)
}

/// `gridpath mapf-check …`. Ok(valid).
pub fn check(args: CheckArgs) -> Result<bool, String> {
    // A League of Robot Runners map (a lifelong run's) marks free cells 'E' and 'S' too.
    let (grid, shape) = read_shaped_map_file_with_limits(&args.map, &MapLimits::default())
        .or_else(|e| {
            read_text_file(&args.map, 96 << 20)
                .ok()
                .and_then(|text| parse_lifelong_map(&text).ok())
                .map(|grid| (grid, MapShape::Octile))
                .ok_or_else(|| e.to_string())
        })?;
    let shown = visible_path(&args.result);
    let text = read_text_file(&args.result, MAX_RESULT_BYTES).map_err(|e| e.to_string())?;
    let result = parse_result(&text).map_err(|e| format!("{shown}:{}: {}", e.line, e.message))?;
    let (starts, goals) = match (&args.scen, args.agents) {
        (Some(scen_path), Some(n)) => {
            let instance = scenario_instance(grid.clone(), scen_path, n)?;
            (instance.starts, instance.goals)
        }
        _ => (result.starts.clone(), result.final_cells()),
    };
    if starts.is_empty() {
        return Err(format!("{shown}: no starts: give the scenario file and N"));
    }
    let costs =
        match check_plan_with_moves(&grid, Moves::of_shape(shape), &starts, &goals, &result.plan) {
            Ok(costs) => costs,
            Err(e) => {
                outln!("invalid: {e}");
                return Ok(false);
            }
        };
    let claims = [
        ("soc", result.soc, costs.soc),
        ("makespan", result.makespan, costs.makespan),
    ];
    for (what, claimed, found) in claims {
        if let Some(claimed) = claimed.filter(|&c| c != found) {
            outln!("invalid: the file says {what}={claimed}, the plan costs {found}");
            return Ok(false);
        }
    }
    if let Some(n) = result.tasks_finished {
        // Its goals changed as they were reached: the moves are what can be checked.
        outln!(
            "valid: a lifelong run, agents={} steps={} tasks_finished={n} (claimed)",
            starts.len(),
            result.plan.len().saturating_sub(1)
        );
        return Ok(true);
    }
    outln!(
        "valid: agents={} soc={} soc_lb={} makespan={} makespan_lb={}",
        starts.len(),
        costs.soc,
        costs.soc_lb,
        costs.makespan,
        costs.makespan_lb
    );
    Ok(true)
}

/// A number of agents (or threads): 1 up to what a result file may hold.
fn agent_count(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_RESULT_AGENTS).contains(n))
        .ok_or_else(|| format!("expected a number from 1 to {MAX_RESULT_AGENTS}"))
}

/// `--time-limit`: seconds, more than 0 and at most a day.
fn seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
        .ok_or_else(|| "expected seconds, more than 0 and at most 86400".into())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .into_owned()
}
