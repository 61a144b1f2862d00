//! `gridpath mapf` and `gridpath mapf-check`: solve a multi-agent instance, and check any plan.

use gridpath::lifelong::parse_lifelong_map;
use gridpath::mapf::{
    AnytimeLimits, Instance, LacamOutcome, MAX_RESULT_BYTES, MapfResult, Moves,
    check_plan_with_moves, parse_result, solve_anytime, solve_with_lacam, solve_with_pibt,
    write_result,
};
use gridpath::movingai::text::visible_path;
use gridpath::movingai::{
    MapLimits, MapShape, read_scen_file, read_shaped_map_file_with_limits, read_text_file,
};
use std::path::Path;
use std::time::{Duration, Instant};

pub const USAGE: &str = "\
usage: gridpath mapf MAP.map (SCEN.scen --agents N | --random N) [--solver lacam|pibt]
                     [--time-limit SECONDS [--first] [--threads T]] [--seed K]
                     [--output RESULT.txt]
       gridpath mapf-check MAP.map RESULT.txt [SCEN.scen N]

mapf solves a multi-agent instance under the benchmark's rules (4-way moves and waits, no two
agents on a cell, no swaps; on a hex map, whose type line says so, moves to the six
neighbours): the first N agents of a scenario file, or N random agents in the map's largest
region. It prints one line, solved=1|0 soc=… soc_lb=… makespan=… makespan_lb=…
comp_time=…ms (the costs recomputed by the validator), and writes the plan in the field's result
format with --output. Exits 0 when solved, 1 when not (no solution, or out of time).

With --time-limit, LaCAM's first plan is made cheaper until the limit, on T threads (all cores
by default), and the line adds the first plan's cost and time (first_soc=… first_time=…ms), the
rounds of refinement (epochs=…) and optimal=1 when the plan is proven optimal (it then stops
early); --first stops at the first plan. Without it, the first plan
is the answer (searched for 60 s at most). The first plan is the same for the same seed.

mapf-check checks any result file, ours or another solver's: moves, walls, vertex and swap
conflicts, starts and goals (from the file, or the first N of a scenario file), and recomputes soc
and makespan. Exits 0 for a valid plan, 1 for an invalid one, 2 on bad input.";

/// `gridpath mapf …`. Ok(solved).
pub fn solve(args: &[String]) -> Result<bool, String> {
    let [map_path, rest @ ..] = args else {
        return Err(USAGE.into());
    };
    let (grid, shape) = read_shaped_map_file_with_limits(map_path, &MapLimits::default())
        .map_err(|e| e.to_string())?;
    let moves = Moves::of_shape(shape);
    let (mut scen, mut agents, mut random) = (None, None, None);
    let (mut solver, mut limit, mut seed, mut output) = ("lacam", None, 0, None);
    let (mut first_only, mut threads) = (false, None);
    let mut rest = rest.iter();
    while let Some(arg) = rest.next() {
        let mut value = |name: &str| {
            rest.next()
                .ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"))
        };
        match arg.as_str() {
            "--agents" => agents = Some(count(value("--agents")?)?),
            "--random" => random = Some(count(value("--random")?)?),
            "--solver" => {
                solver = match value("--solver")?.as_str() {
                    "lacam" => "lacam",
                    "pibt" => "pibt",
                    other => return Err(format!("unknown solver '{}'", escape(other))),
                }
            }
            "--time-limit" => {
                let text = value("--time-limit")?;
                let seconds = text
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
                    .ok_or_else(|| format!("--time-limit takes seconds, not '{}'", escape(text)))?;
                limit = Some(seconds);
            }
            "--first" => first_only = true,
            "--threads" => threads = Some(count(value("--threads")?)?),
            "--seed" => {
                let text = value("--seed")?;
                seed = text
                    .parse()
                    .map_err(|_| format!("--seed takes a whole number, not '{}'", escape(text)))?;
            }
            "--output" => output = Some(value("--output")?.clone()),
            other if scen.is_none() && !other.starts_with("--") => scen = Some(other.to_string()),
            other => {
                return Err(format!(
                    "unexpected argument '{}'\n\n{USAGE}",
                    escape(other)
                ));
            }
        }
    }
    let instance = match (scen, agents, random) {
        (Some(scen_path), Some(n), None) => {
            let scenarios = read_scen_file(&scen_path).map_err(|e| e.to_string())?;
            Instance::from_scenarios(grid, &scenarios, n)
                .map_err(|e| format!("{}: {e}", visible_path(Path::new(&scen_path))))?
                .with_moves(moves)
        }
        (None, None, Some(n)) => {
            Instance::random_with(grid, moves, n, seed).map_err(|e| e.to_string())?
        }
        _ => {
            return Err(format!(
                "give a scenario file and --agents N, or --random N\n\n{USAGE}"
            ));
        }
    };
    let began = Instant::now();
    let anytime = limit.is_some() && !first_only && solver == "lacam";
    let limit = Duration::from_secs_f64(limit.unwrap_or(60.0));
    let mut progress = String::new();
    let outcome = match solver {
        "pibt" => {
            let run = solve_with_pibt(&instance, 100_000, seed);
            match run.solved {
                true => LacamOutcome::Solved(run.plan),
                false => LacamOutcome::TimedOut,
            }
        }
        _ if anytime => {
            let threads = threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
            });
            let limits = AnytimeLimits {
                time_limit: limit,
                threads,
                stop: None,
            };
            let run = solve_anytime(&instance, seed, limits, |_, _| {});
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
        _ => solve_with_lacam(&instance, limit, seed).0,
    };
    let plan = match outcome {
        LacamOutcome::Solved(plan) => Some(plan),
        LacamOutcome::NoSolution => {
            eprintln!("no solution exists: LaCAM tried every configuration");
            None
        }
        LacamOutcome::TimedOut if solver == "pibt" => {
            eprintln!("PIBT did not bring every agent home in 100,000 steps");
            None
        }
        LacamOutcome::TimedOut => {
            eprintln!("out of time after {} s", limit.as_secs_f64());
            None
        }
    };
    let comp_time = began.elapsed().as_secs_f64() * 1000.0;
    let mut result = MapfResult {
        map_file: file_name(map_path),
        solver: format!("gridpath-{solver}"),
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
    println!(
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
    if let Some(path) = output {
        std::fs::write(&path, write_result(&result))
            .map_err(|e| format!("{}: {e}", visible_path(Path::new(&path))))?;
    }
    Ok(result.solved)
}

/// `gridpath mapf-check …`. Ok(valid).
pub fn check(args: &[String]) -> Result<bool, String> {
    let (map_path, result_path, scen) = match args {
        [map, result] => (map, result, None),
        [map, result, scen, n] => (map, result, Some((scen, count(n)?))),
        _ => return Err(USAGE.into()),
    };
    // A League of Robot Runners map (a lifelong run's) marks free cells 'E' and 'S' too.
    let (grid, shape) =
        read_shaped_map_file_with_limits(map_path, &MapLimits::default()).or_else(|e| {
            read_text_file(map_path, 96 << 20)
                .ok()
                .and_then(|text| parse_lifelong_map(&text).ok())
                .map(|grid| (grid, MapShape::Octile))
                .ok_or_else(|| e.to_string())
        })?;
    let shown = visible_path(Path::new(result_path));
    let text = read_text_file(result_path, MAX_RESULT_BYTES).map_err(|e| e.to_string())?;
    let result = parse_result(&text).map_err(|e| format!("{shown}:{}: {}", e.line, e.message))?;
    let (starts, goals) = match scen {
        Some((scen_path, n)) => {
            let scenarios = read_scen_file(scen_path).map_err(|e| e.to_string())?;
            let instance = Instance::from_scenarios(grid.clone(), &scenarios, n)
                .map_err(|e| format!("{}: {e}", visible_path(Path::new(scen_path))))?;
            (instance.starts, instance.goals)
        }
        None => (result.starts.clone(), result.final_cells()),
    };
    if starts.is_empty() {
        return Err(format!("{shown}: no starts: give the scenario file and N"));
    }
    match check_plan_with_moves(&grid, Moves::of_shape(shape), &starts, &goals, &result.plan) {
        Ok(costs) => {
            let claims = [
                ("soc", result.soc, costs.soc),
                ("makespan", result.makespan, costs.makespan),
            ];
            for (what, claimed, found) in claims {
                if let Some(claimed) = claimed.filter(|&c| c != found) {
                    println!("invalid: the file says {what}={claimed}, the plan costs {found}");
                    return Ok(false);
                }
            }
            if let Some(n) = result.tasks_finished {
                // Its goals changed as they were reached: the moves are what can be checked.
                println!(
                    "valid: a lifelong run, agents={} steps={} tasks_finished={n} (claimed)",
                    starts.len(),
                    result.plan.len().saturating_sub(1)
                );
                return Ok(true);
            }
            println!(
                "valid: agents={} soc={} soc_lb={} makespan={} makespan_lb={}",
                starts.len(),
                costs.soc,
                costs.soc_lb,
                costs.makespan,
                costs.makespan_lb
            );
            Ok(true)
        }
        Err(e) => {
            println!("invalid: {e}");
            Ok(false)
        }
    }
}

fn count(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=gridpath::mapf::MAX_RESULT_AGENTS).contains(n))
        .ok_or_else(|| {
            format!(
                "expected a number of agents from 1 up, not '{}'",
                escape(text)
            )
        })
}

fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// An argument as a message may show it: short, with control characters escaped.
fn escape(text: &str) -> String {
    gridpath::movingai::text::quote(text)
        .trim_matches('\'')
        .to_string()
}
