//! `gridpath lifelong`: run a lifelong benchmark instance, every step checked.

use clap::{Args, ValueEnum};
use gridpath::lifelong::{Guidance, LifelongInstance, run_lifelong, write_lifelong_result};
use gridpath::movingai::text::visible_path;
use std::path::PathBuf;

/// Run a lifelong instance of the League of Robot Runners, every step checked.
///
/// The instance is a JSON file naming the map, the agents' starts and the tasks; each agent gets
/// its next task the moment it reaches one. Runs N steps, checks every step with a validator
/// that shares no code with the planner, and prints one line: tasks finished, planning time per
/// step (mean and p99), agents that finished no task in the second half of the run (starved)
/// and no task at all (idle). --output writes the run in the field's MAPF result format, with
/// tasks_finished=. Exits 2 on bad input.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct LifelongArgs {
    /// The instance's JSON file.
    config: PathBuf,
    /// How many steps to run.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    steps: u32,
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    seed: u64,
    /// Write the run here, in the field's MAPF result format.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The guidance; the settings below change it.
    #[arg(long, value_enum, default_value_t = Preset::Guided)]
    guidance: Preset,
    /// Each guide path the other way adds W steps to a step.
    #[arg(long, value_name = "W", allow_negative_numbers = true, value_parser = cells)]
    contraflow: Option<f32>,
    /// Each guide path through the cell stepped onto adds V steps.
    #[arg(long, value_name = "V", allow_negative_numbers = true, value_parser = cells)]
    vertex: Option<f32>,
    /// focal: a new goal's guide path is the one with the least contraflow among those at most B
    /// times longer than the shortest (0: weighted A*).
    #[arg(verbatim_doc_comment, long, value_name = "B", allow_negative_numbers = true, value_parser = focal_bound)]
    focal: Option<f32>,
    /// focal: ...and at most STEPS steps longer.
    #[arg(long, value_name = "STEPS", allow_negative_numbers = true)]
    focal_slack: Option<u32>,
    /// Cells a step may expand re-planning the guide paths of agents that strayed.
    #[arg(long, value_name = "CELLS", allow_negative_numbers = true)]
    replan: Option<u32>,
    /// An agent pushed off its guide path keeps it and is led back (keep), or drops it and
    /// follows its shortest way until its turn to plan a new one (drop).
    #[arg(verbatim_doc_comment, long, value_enum)]
    strays: Option<Strays>,
    /// Ties between equally short moves go with the recent flow: each agent's step the other way
    /// costs W cells.
    #[arg(verbatim_doc_comment, long, value_name = "W", allow_negative_numbers = true, value_parser = cells)]
    flow: Option<f32>,
    /// ...at most C cells.
    #[arg(long, value_name = "C", allow_negative_numbers = true, value_parser = cells)]
    flow_cap: Option<f32>,
}

/// `--guidance`: the planner's presets.
#[derive(Clone, Copy, ValueEnum)]
enum Preset {
    /// Guide paths that avoid contraflow, and the flow's tie-breaks.
    Guided,
    /// Guided, with each new goal's guide path from a focal search (more tasks, more CPU).
    Focal,
    /// The flow's tie-breaks alone.
    Traffic,
    /// Plain PIBT.
    None,
}

#[derive(Clone, Copy, ValueEnum)]
enum Strays {
    Keep,
    Drop,
}

impl LifelongArgs {
    /// The preset, with every setting given on the command line in place of its own.
    fn guidance(&self) -> Guidance {
        let mut guidance = match self.guidance {
            Preset::Guided => Guidance::GUIDED,
            Preset::Focal => Guidance::FOCAL,
            Preset::Traffic => Guidance::TRAFFIC,
            Preset::None => Guidance::NONE,
        };
        let set = |slot: &mut f32, value: Option<f32>| *slot = value.unwrap_or(*slot);
        set(&mut guidance.contraflow, self.contraflow);
        set(&mut guidance.vertex, self.vertex);
        set(&mut guidance.focal, self.focal);
        set(&mut guidance.flow, self.flow);
        set(&mut guidance.flow_cap, self.flow_cap);
        guidance.focal_slack = self.focal_slack.unwrap_or(guidance.focal_slack);
        guidance.replan = self.replan.unwrap_or(guidance.replan);
        if let Some(strays) = self.strays {
            guidance.keep_path = matches!(strays, Strays::Keep);
        }
        guidance
    }
}

/// `gridpath lifelong …`. Ok(true) once run.
pub fn run(args: LifelongArgs) -> Result<bool, String> {
    let instance = LifelongInstance::read(&args.config)?;
    let keep_plan = args.output.is_some();
    let steps = args.steps as usize;
    let run = run_lifelong(&instance, steps, args.seed, args.guidance(), keep_plan)
        .map_err(|e| format!("internal error, the run broke a rule: {e}"))?;
    for note in &run.unreachable {
        eprintln!("warning: {note}");
    }
    let (mean, p99) = run.ms_per_step();
    outln!(
        "tasks_finished={} steps={} agents={} ms_per_step_mean={mean:.3} ms_per_step_p99={p99:.3} \
         starved={} idle={}",
        run.tasks_finished,
        run.steps,
        instance.starts.len(),
        run.starved(),
        run.idle(),
    );
    if let Some(path) = &args.output {
        std::fs::write(path, write_lifelong_result(&instance, &run))
            .map_err(|e| format!("{}: {e}", visible_path(path)))?;
    }
    Ok(true)
}

/// The focal search's bound: 1 to 1000, or 0 for none (weighted A*).
fn focal_bound(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|b| *b == 0.0 || (1.0..=1000.0).contains(b))
        .ok_or_else(|| "expected a bound from 1 to 1000 (0: weighted A*)".into())
}

/// A distance in cells, from 0 to 1,000.
fn cells(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|w| w.is_finite() && (0.0..=1000.0).contains(w))
        .ok_or_else(|| "expected cells from 0 to 1000".into())
}
