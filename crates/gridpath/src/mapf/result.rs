//! The result format the field's solvers and visualisers write and read (LaCAM's and
//! mapf-visualizer's): `key=value` lines, then `solution=` and one line a time step, every
//! agent's `(x,y),` in scenario order:
//!
//! ```text
//! agents=2
//! map_file=random-32-32-10.map
//! solver=gridpath-lacam
//! solved=1
//! soc=9
//! ...
//! starts=(11,6),(29,9),
//! goals=(7,18),(1,16),
//! solution=
//! 0:(11,6),(29,9),
//! 1:(10,6),(29,10),
//! ```
//!
//! A result file is input like any other: [`parse_result`] refuses a malformed one with a
//! one-line [`FormatError`] naming the line, and never panics.

use crate::grid::Point;
use crate::movingai::FormatError;
use crate::movingai::text::{quote, whole_number, without_bom};
use std::fmt::Write as _;

/// At most this many agents in a result file: a bound on what a hostile file can make us hold.
pub const MAX_RESULT_AGENTS: usize = 1 << 20;

/// The largest result file read: 256 MiB, a thousand agents for tens of thousands of steps.
pub const MAX_RESULT_BYTES: u64 = 256 << 20;

/// A plan with what its solver says of it. Keys this format does not know are skipped; the
/// numbers a file claims are kept as claims, for a validator to compare with its own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapfResult {
    /// The map's file name.
    pub map_file: String,
    /// The solver's name.
    pub solver: String,
    /// Did it solve the instance?
    pub solved: bool,
    /// The sum of costs it claims.
    pub soc: Option<u64>,
    /// The lower bound on the sum of costs it claims.
    pub soc_lb: Option<u64>,
    /// The makespan it claims.
    pub makespan: Option<u64>,
    /// The lower bound on the makespan it claims.
    pub makespan_lb: Option<u64>,
    /// Milliseconds to the solution.
    pub comp_time: Option<f64>,
    /// Each agent's start.
    pub starts: Vec<Point>,
    /// Each agent's goal.
    pub goals: Vec<Point>,
    /// `plan[t][agent]`, the starts at t = 0.
    pub plan: Vec<Vec<Point>>,
    /// A lifelong run's claim (`tasks_finished=`, see [`crate::lifelong`]): its agents' goals
    /// change as they reach them, so `goals` lists only the first, and no agent need end on it.
    pub tasks_finished: Option<u64>,
}

impl MapfResult {
    /// The cells each agent must end on for the plan to be valid: its goal, or, for a lifelong
    /// run (whose goals change), wherever it ends.
    pub fn final_cells(&self) -> Vec<Point> {
        match (self.tasks_finished, self.plan.last()) {
            (Some(_), Some(last)) => last.clone(),
            _ => self.goals.clone(),
        }
    }
}

/// The file's text.
pub fn write_result(result: &MapfResult) -> String {
    let mut out = String::new();
    let number = |n: Option<u64>| n.map_or(String::new(), |n| n.to_string());
    let _ = writeln!(out, "agents={}", result.starts.len());
    let _ = writeln!(out, "map_file={}", result.map_file);
    let _ = writeln!(out, "solver={}", result.solver);
    let _ = writeln!(out, "solved={}", u8::from(result.solved));
    let _ = writeln!(out, "soc={}", number(result.soc));
    let _ = writeln!(out, "soc_lb={}", number(result.soc_lb));
    let _ = writeln!(out, "makespan={}", number(result.makespan));
    let _ = writeln!(out, "makespan_lb={}", number(result.makespan_lb));
    let _ = writeln!(out, "comp_time={}", result.comp_time.unwrap_or(0.0).round());
    if let Some(n) = result.tasks_finished {
        let _ = writeln!(out, "tasks_finished={n}");
    }
    let points = |cells: &[Point]| -> String {
        cells
            .iter()
            .map(|p| format!("({},{}),", p.x, p.y))
            .collect()
    };
    let _ = writeln!(out, "starts={}", points(&result.starts));
    let _ = writeln!(out, "goals={}", points(&result.goals));
    let _ = writeln!(out, "solution=");
    for (t, cells) in result.plan.iter().enumerate() {
        let _ = writeln!(out, "{t}:{}", points(cells));
    }
    out
}

/// Reads a result file's text.
pub fn parse_result(text: &str) -> Result<MapfResult, FormatError> {
    let mut result = MapfResult::default();
    let mut lines = without_bom(text)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l));
    let mut in_solution = false;
    for (n, line) in &mut lines {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            let why = format!("expected key=value, found {}", quote(line));
            return Err(FormatError::new(n, why));
        };
        // Trimmed, a key that names a field is one of the plain names below, so it can go into
        // a message as it is (the raw key may hold control characters: found by fuzzing).
        let key = key.trim();
        let whole = |value: &str| {
            whole_number(value.trim()).map(u64::from).ok_or_else(|| {
                FormatError::new(n, format!("{key} is not a whole number: {}", quote(value)))
            })
        };
        match key {
            "map_file" => result.map_file = quote_free(value),
            "solver" => result.solver = quote_free(value),
            "solved" => result.solved = whole(value)? == 1,
            "soc" if !value.trim().is_empty() => result.soc = Some(whole(value)?),
            "soc_lb" if !value.trim().is_empty() => result.soc_lb = Some(whole(value)?),
            "makespan" if !value.trim().is_empty() => result.makespan = Some(whole(value)?),
            "makespan_lb" if !value.trim().is_empty() => result.makespan_lb = Some(whole(value)?),
            "comp_time" => result.comp_time = value.trim().parse().ok(),
            "tasks_finished" => result.tasks_finished = Some(whole(value)?),
            "starts" => result.starts = points(value, n)?,
            "goals" => result.goals = points(value, n)?,
            "solution" => {
                in_solution = true;
                break;
            }
            _ => {} // other solvers write more keys (seeds, timings): not ours to judge
        }
    }
    if !in_solution {
        let last = text.lines().count().max(1);
        return Err(FormatError::new(
            last,
            "no 'solution=' line: no plan in this file",
        ));
    }
    for (n, line) in lines {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let Some((step, cells)) = line.split_once(':') else {
            let why = format!("expected t:(x,y),... found {}", quote(line));
            return Err(FormatError::new(n, why));
        };
        let t = result.plan.len();
        if whole_number(step.trim()).map(|s| s as usize) != Some(t) {
            let why = format!("expected time step {t}, found {}", quote(step));
            return Err(FormatError::new(n, why));
        }
        result.plan.push(points(cells, n)?);
    }
    Ok(result)
}

/// A list of points `(x,y),(x,y),` (the last comma optional).
fn points(text: &str, line: usize) -> Result<Vec<Point>, FormatError> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if out.len() == MAX_RESULT_AGENTS {
            let why = format!("more than {MAX_RESULT_AGENTS} agents on one line");
            return Err(FormatError::new(line, why));
        }
        let bad = |at: &str| FormatError::new(line, format!("expected (x,y), found {}", quote(at)));
        let inner = rest.strip_prefix('(').ok_or_else(|| bad(rest))?;
        let (pair, after) = inner.split_once(')').ok_or_else(|| bad(rest))?;
        let (x, y) = pair.split_once(',').ok_or_else(|| bad(rest))?;
        let coordinate = |c: &str| whole_number(c.trim()).and_then(|v| i32::try_from(v).ok());
        let (Some(x), Some(y)) = (coordinate(x), coordinate(y)) else {
            return Err(bad(rest));
        };
        out.push(Point::new(x, y));
        rest = after.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Ok(out)
}

/// A name from the file, with control characters dropped (it may be printed back), at most 256
/// characters, trimmed last so that it reads back the same (found by fuzzing: a control
/// character before a space left the space in front).
fn quote_free(value: &str) -> String {
    let visible: String = value.chars().filter(|c| !c.is_control()).collect();
    let cut: String = visible.trim().chars().take(256).collect();
    cut.trim_end().to_string()
}
