//! `gridpath lifelong`: run a lifelong benchmark instance, every step checked.

use gridpath::lifelong::{Guidance, LifelongInstance, run_lifelong, write_lifelong_result};
use gridpath::movingai::text::{quote, visible_path};
use std::path::Path;

pub const USAGE: &str = "\
usage: gridpath lifelong CONFIG.json [--steps N] [--seed S] [--output FILE]
                         [--guidance guided|focal|traffic|none] [--contraflow W] [--vertex V]
                         [--focal B] [--focal-slack STEPS] [--replan CELLS]
                         [--strays keep|drop] [--flow W] [--flow-cap C]

lifelong runs a lifelong instance in the League of Robot Runners format (a JSON file naming the
map, the agents' starts and the tasks; each agent gets its next task the moment it reaches one)
for N steps (1,000), checks every step with a validator that shares no code with the planner,
and prints one line: tasks finished, planning time per step (mean and p99), agents that
finished no task in the second half of the run (starved) and no task at all (idle). --output
writes the run in the field's MAPF result format, with tasks_finished=.

--guidance guided (the default): guide paths that avoid contraflow, each guide path the other way
adding W steps (1) to a step and each through the cell stepped onto V (0), and CELLS cells
(10000) a step expanded re-planning those of agents that strayed; ties between equally short
moves go with the recent flow, each agent's step the other way costing W cells (0.1), at most C
(0.45). focal: guided, but a new goal's guide path is the one with the least contraflow among
those at most B times (2) and STEPS steps (8) longer than the shortest (the paper's focal
search; more tasks, more CPU), and an agent pushed off its guide path keeps it, led back to it,
until its turn to plan a new one comes (--strays keep; guided drops it and follows its shortest
way meanwhile: --strays drop). traffic: the ties alone. none: plain PIBT.
Exits 2 on bad input.";

/// `gridpath lifelong …`. Ok(true) once run.
pub fn run(args: &[String]) -> Result<bool, String> {
    let [config, rest @ ..] = args else {
        return Err(USAGE.into());
    };
    if config.starts_with("--") {
        return Err(format!("give the configuration file first\n\n{USAGE}"));
    }
    let (mut steps, mut seed, mut output) = (1000usize, 0u64, None);
    let mut guidance = Guidance::default();
    let mut rest = rest.iter();
    while let Some(arg) = rest.next() {
        let mut value = |name: &str| {
            rest.next()
                .ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"))
        };
        match arg.as_str() {
            "--steps" => {
                let text = value("--steps")?;
                steps = text
                    .parse()
                    .ok()
                    .filter(|n| (1..=1_000_000).contains(n))
                    .ok_or_else(|| format!("--steps takes 1 to 1000000, not {}", quote(text)))?;
            }
            "--seed" => {
                let text = value("--seed")?;
                seed = text
                    .parse()
                    .map_err(|_| format!("--seed takes a whole number, not {}", quote(text)))?;
            }
            "--output" => output = Some(value("--output")?.clone()),
            "--guidance" => {
                guidance = match value("--guidance")?.as_str() {
                    "none" => Guidance::NONE,
                    "traffic" => Guidance::TRAFFIC,
                    "guided" => Guidance::GUIDED,
                    "focal" => Guidance::FOCAL,
                    other => return Err(format!("unknown guidance {}", quote(other))),
                }
            }
            "--contraflow" => guidance.contraflow = cells(value("--contraflow")?, "--contraflow")?,
            "--vertex" => guidance.vertex = cells(value("--vertex")?, "--vertex")?,
            "--focal" => guidance.focal = focal_bound(value("--focal")?)?,
            "--focal-slack" => {
                let text = value("--focal-slack")?;
                guidance.focal_slack = text.parse().map_err(|_| {
                    format!(
                        "--focal-slack takes a whole number of steps, not {}",
                        quote(text)
                    )
                })?;
            }
            "--replan" => {
                let text = value("--replan")?;
                guidance.replan = text
                    .parse()
                    .map_err(|_| format!("--replan takes cells to expand, not {}", quote(text)))?;
            }
            "--strays" => {
                guidance.keep_path = match value("--strays")?.as_str() {
                    "keep" => true,
                    "drop" => false,
                    other => {
                        return Err(format!("--strays takes keep or drop, not {}", quote(other)));
                    }
                }
            }
            "--flow" => guidance.flow = cells(value("--flow")?, "--flow")?,
            "--flow-cap" => guidance.flow_cap = cells(value("--flow-cap")?, "--flow-cap")?,
            other => return Err(format!("unexpected argument {}\n\n{USAGE}", quote(other))),
        }
    }
    let instance = LifelongInstance::read(config)?;
    let run = run_lifelong(&instance, steps, seed, guidance, output.is_some())
        .map_err(|e| format!("internal error, the run broke a rule: {e}"))?;
    for note in &run.unreachable {
        eprintln!("warning: {note}");
    }
    let (mean, p99) = run.ms_per_step();
    println!(
        "tasks_finished={} steps={} agents={} ms_per_step_mean={mean:.3} ms_per_step_p99={p99:.3} \
         starved={} idle={}",
        run.tasks_finished,
        run.steps,
        instance.starts.len(),
        run.starved(),
        run.idle(),
    );
    if let Some(path) = output {
        std::fs::write(&path, write_lifelong_result(&instance, &run))
            .map_err(|e| format!("{}: {e}", visible_path(Path::new(&path))))?;
    }
    Ok(true)
}

/// The focal search's bound: 1 to 1000, or 0 for none (weighted A*).
fn focal_bound(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|b| *b == 0.0 || (1.0..=1000.0).contains(b))
        .ok_or_else(|| {
            format!(
                "--focal takes a bound from 1 to 1000 (0: weighted A*), not {}",
                quote(text)
            )
        })
}

/// A distance in cells, from 0 to 1,000.
fn cells(text: &str, name: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|w| w.is_finite() && (0.0..=1000.0).contains(w))
        .ok_or_else(|| format!("{name} takes cells from 0 to 1000, not {}", quote(text)))
}
