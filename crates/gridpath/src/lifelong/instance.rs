//! A lifelong instance in the League of Robot Runners format (the benchmark of Chen et al.,
//! AAAI 2024): a JSON configuration naming a map, a file of start cells and a file of task
//! cells, and how many agents take part.
//!
//! ```text
//! config.json   {"mapFile": "maps/x.map", "agentFile": "agents/x.agents",
//!                "taskFile": "tasks/x.tasks", "teamSize": 800, "numTasksReveal": 1,
//!                "taskAssignmentStrategy": "roundrobin"}
//! x.map         a Moving AI map; 'E' (emitter) and 'S' (service point) are free cells
//! x.agents      N, then N lines: a start cell as row * width + column
//! x.tasks       M, then M lines: a goal cell, the same way
//! ```
//!
//! Agent `k`'s `n`-th goal is task line `(n * teamSize + k) mod M` ([`LifelongInstance::task`]).
//! Every reader here refuses bad input with one line that names the file and what is wrong: a
//! start or a task on a wall or off the map, two agents on one start, a count that does not
//! match, a number that is not one. A task that no agent can reach is not an error: the run
//! reports it and goes on.

use super::json::{Value, parse_object};
use crate::grid::{Grid, Point};
use crate::movingai::text::visible_path;
use crate::movingai::{MAX_SCEN_BYTES, parse_map, read_text_file};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The largest configuration file read.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// At most this many agents, and this many tasks: a bound on what a hostile file can make us
/// hold.
pub const MAX_LIFELONG_AGENTS: usize = 1 << 20;
/// See [`MAX_LIFELONG_AGENTS`].
pub const MAX_LIFELONG_TASKS: usize = 1 << 24;

/// A lifelong instance, read and checked.
#[derive(Clone, Debug)]
pub struct LifelongInstance {
    /// The map.
    pub grid: Grid,
    /// The map file as the configuration names it (for the result file).
    pub map_file: String,
    /// One start cell per agent.
    pub starts: Vec<Point>,
    /// The task cells, in file order.
    pub tasks: Vec<Point>,
}

impl LifelongInstance {
    /// Checks starts and tasks against the grid: each on a free cell of the map, no two starts
    /// the same, at least one task.
    pub fn new(
        grid: Grid,
        map_file: String,
        starts: Vec<Point>,
        tasks: Vec<Point>,
    ) -> Result<Self, String> {
        if tasks.is_empty() {
            return Err("there are no tasks".into());
        }
        let mut seen = HashSet::new();
        for (k, &s) in starts.iter().enumerate() {
            if !grid.is_passable(s) {
                return Err(format!("agent {k} starts on a wall or off the map at {s}"));
            }
            if !seen.insert(s) {
                return Err(format!(
                    "agent {k} starts on {s}, where another agent starts"
                ));
            }
        }
        if let Some((n, t)) = tasks
            .iter()
            .enumerate()
            .find(|(_, t)| !grid.is_passable(**t))
        {
            return Err(format!("task {n} is on a wall or off the map at {t}"));
        }
        Ok(Self {
            grid,
            map_file,
            starts,
            tasks,
        })
    }

    /// Agent `agent`'s `n`-th goal (from 0): round-robin over the tasks, as the benchmark deals
    /// them.
    pub fn task(&self, agent: usize, n: usize) -> Point {
        let team = self.starts.len();
        self.tasks[(n.wrapping_mul(team).wrapping_add(agent)) % self.tasks.len()]
    }

    /// Reads a configuration file and the files it names (relative to its folder).
    pub fn read(config: impl AsRef<Path>) -> Result<Self, String> {
        let config = config.as_ref();
        let name = visible_path(config);
        let text = read_text_file(config, MAX_CONFIG_BYTES).map_err(|e| e.to_string())?;
        let settings = parse_config(&text).map_err(|e| format!("{name}: {e}"))?;
        let folder = config.parent().unwrap_or(Path::new(""));
        let beside = |file: &str| -> PathBuf { folder.join(file) };
        let map_path = beside(&settings.map_file);
        let map_text = read_text_file(&map_path, 96 << 20).map_err(|e| e.to_string())?;
        let grid = parse_lifelong_map(&map_text)
            .map_err(|e| format!("{}: {e}", visible_path(&map_path)))?;
        let agent_path = beside(&settings.agent_file);
        let mut starts = read_cells(&agent_path, &grid, MAX_LIFELONG_AGENTS)?;
        let tasks = read_cells(&beside(&settings.task_file), &grid, MAX_LIFELONG_TASKS)?;
        if let Some(team) = settings.team_size {
            if team > starts.len() {
                return Err(format!(
                    "{name}: teamSize is {team}, but {} has {} agents",
                    visible_path(&agent_path),
                    starts.len()
                ));
            }
            starts.truncate(team);
        }
        Self::new(grid, settings.map_file, starts, tasks).map_err(|e| format!("{name}: {e}"))
    }
}

/// What a configuration file says: the files it names (relative to its folder) and how many
/// agents take part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LifelongConfig {
    /// The map file.
    pub map_file: String,
    /// The agents' file: their start cells.
    pub agent_file: String,
    /// The tasks' file: the cells agents are sent to, in order.
    pub task_file: String,
    /// The first `team_size` agents of the agent file; all of them if `None`.
    pub team_size: Option<usize>,
}

/// Reads a configuration file's text: a JSON object with `mapFile`, `agentFile` and `taskFile`
/// (strings) and optionally `teamSize`; `numTasksReveal`, if there, must be 1 and
/// `taskAssignmentStrategy` `"roundrobin"`, the only rules this runner knows. Other keys are
/// skipped. An error is one short, printable line.
pub fn parse_config(text: &str) -> Result<LifelongConfig, String> {
    let object = parse_object(text)?;
    let text_key = |key: &str| match object.get(key) {
        Some(Value::Text(t)) => Ok(t.clone()),
        Some(_) => Err(format!("\"{key}\" is not a string")),
        None => Err(format!("\"{key}\" is missing")),
    };
    let (map_file, agent_file, task_file) = (
        text_key("mapFile")?,
        text_key("agentFile")?,
        text_key("taskFile")?,
    );
    if let Some(strategy) = object.get("taskAssignmentStrategy")
        && *strategy != Value::Text("roundrobin".into())
    {
        return Err("only the \"roundrobin\" taskAssignmentStrategy is supported".into());
    }
    if let Some(reveal) = object.get("numTasksReveal")
        && *reveal != Value::Number(1.0)
    {
        return Err("only numTasksReveal 1 is supported".into());
    }
    let team_size = match object.get("teamSize") {
        None => None,
        Some(Value::Number(n)) if n.fract() == 0.0 && (1.0..=1e9).contains(n) => Some(*n as usize),
        Some(_) => return Err("\"teamSize\" is not a whole number from 1 up".into()),
    };
    Ok(LifelongConfig {
        map_file,
        agent_file,
        task_file,
        team_size,
    })
}

/// A League of Robot Runners map: a Moving AI map whose rows may also hold `E` (an emitter)
/// and `S` (a service point), both free cells. (In our own maps `S` is swamp.)
pub fn parse_lifelong_map(text: &str) -> Result<Grid, String> {
    let mut in_rows = false;
    let mut plain = String::with_capacity(text.len());
    for line in text.lines() {
        if in_rows {
            plain.extend(
                line.chars()
                    .map(|c| if c == 'E' || c == 'S' { '.' } else { c }),
            );
        } else {
            plain.push_str(line);
            in_rows = line.trim() == "map";
        }
        plain.push('\n');
    }
    parse_map(&plain).map_err(|e| e.to_string())
}

/// A file of cells: a count, then one cell a line as `row * width + column`.
fn read_cells(path: &Path, grid: &Grid, most: usize) -> Result<Vec<Point>, String> {
    let name = visible_path(path);
    let text = read_text_file(path, MAX_SCEN_BYTES).map_err(|e| e.to_string())?;
    parse_cells(&text, grid, most).map_err(|e| format!("{name}: {e}"))
}

/// The text of a file of cells: a count, then one cell a line as `row * width + column`, each
/// checked to lie on the map.
pub fn parse_cells(text: &str, grid: &Grid, most: usize) -> Result<Vec<Point>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((_, first)) = lines.next() else {
        return Err("the file is empty".into());
    };
    let count: usize = first
        .parse()
        .map_err(|_| format!("line 1: expected a count, found '{}'", clip(first)))?;
    if count > most {
        return Err(format!(
            "line 1: {count} is more than the {most} this reader takes"
        ));
    }
    let mut cells = Vec::with_capacity(count);
    for (n, line) in lines.take(count) {
        let index: usize = line
            .parse()
            .map_err(|_| format!("line {n}: expected a cell number, found '{}'", clip(line)))?;
        if index >= grid.len() {
            return Err(format!(
                "line {n}: cell {index} is off the {}×{} map",
                grid.width(),
                grid.height()
            ));
        }
        cells.push(grid.point_of(index));
    }
    if cells.len() < count {
        return Err(format!(
            "line 1 promises {count} cells, the file has {}",
            cells.len()
        ));
    }
    Ok(cells)
}

/// At most 20 characters of a line, printable, for a message.
fn clip(line: &str) -> String {
    line.chars()
        .take(20)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "type octile\nheight 2\nwidth 4\nmap\n.E.@\nS...\n";

    #[test]
    fn emitters_and_service_points_are_free() {
        let grid = parse_lifelong_map(MAP).expect("a map");
        assert!(grid.is_passable(Point::new(1, 0)) && grid.is_passable(Point::new(0, 1)));
        assert!(!grid.is_passable(Point::new(3, 0)));
    }

    #[test]
    fn cells_are_row_major_and_checked() {
        let grid = parse_lifelong_map(MAP).expect("a map");
        let cells = parse_cells("2\n1\n4\n", &grid, 10).expect("cells");
        assert_eq!(cells, [Point::new(1, 0), Point::new(0, 1)]);
        for (bad, why) in [
            ("", "empty"),
            ("x", "expected a count"),
            ("2\n1\n", "promises 2"),
            ("1\n8\n", "off the 4×2 map"),
            ("1\n-1\n", "expected a cell number"),
            ("99\n", "more than"),
        ] {
            let e = parse_cells(bad, &grid, 10).expect_err(bad);
            assert!(e.contains(why), "{bad:?}: {e}");
        }
    }

    #[test]
    fn starts_on_walls_or_shared_and_tasks_on_walls_are_refused() {
        let grid = parse_lifelong_map(MAP).expect("a map");
        let p = Point::new;
        let new = |s: Vec<Point>, t: Vec<Point>| {
            LifelongInstance::new(grid.clone(), "m".into(), s, t).map(|_| ())
        };
        assert!(new(vec![p(0, 0)], vec![p(1, 1)]).is_ok());
        assert!(
            new(vec![p(3, 0)], vec![p(1, 1)])
                .unwrap_err()
                .contains("agent 0")
        );
        assert!(
            new(vec![p(0, 0), p(0, 0)], vec![p(1, 1)])
                .unwrap_err()
                .contains("agent 1")
        );
        assert!(
            new(vec![p(0, 0)], vec![p(3, 0)])
                .unwrap_err()
                .contains("task 0")
        );
        assert!(new(vec![p(0, 0)], vec![]).unwrap_err().contains("no tasks"));
    }

    #[test]
    fn goals_are_dealt_round_robin() {
        let grid = parse_lifelong_map(MAP).expect("a map");
        let p = Point::new;
        let tasks = vec![p(0, 0), p(1, 0), p(2, 0)];
        let instance =
            LifelongInstance::new(grid, "m".into(), vec![p(0, 1), p(1, 1)], tasks).expect("valid");
        // Agent 1's goals: lines 1, 3 mod 3 = 0, 5 mod 3 = 2.
        let goals: Vec<Point> = (0..3).map(|n| instance.task(1, n)).collect();
        assert_eq!(goals, [p(1, 0), p(0, 0), p(2, 0)]);
    }
}
