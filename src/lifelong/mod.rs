//! Lifelong: robots that always have a next task, planned live by the core's
//! [`LifelongPlanner`] (`gridpath::lifelong`) on the map on screen.
//!
//! A benchmark instance of the field (League of Robot Runners format: a map, the robots' starts,
//! a list of tasks dealt round-robin) is loaded, its map put in the world, and the robots step
//! one cell at a time at the speed the panel sets. Each robot that reaches its goal finishes a
//! task and is given its next one at once. What the panel shows comes from here: the step, the
//! tasks finished (in all, and each step, for the throughput plot), and the robots that have
//! finished nothing for a long while (*starved*, ringed on the map).
//!
//! A wall painted or another map closes the run: its tasks belong to its own map.

use crate::frame::AppSystems;
use crate::notices::Notices;
use crate::world::map_load::{LoadMap, MapLoaded};
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::lifelong::{
    Guidance, LifelongInstance, LifelongPlanner, parse_cells, parse_lifelong_map,
};
use gridpath::{Grid, Point};
use std::path::PathBuf;

/// A robot that has finished no task for this many steps is *starved* (and ringed).
pub const STARVED_AFTER: usize = 250;

/// The steps a second the speed slider offers.
pub const SPEED_RANGE: std::ops::RangeInclusive<f32> = 1.0..=60.0;

/// The shipped instance: the sorting centre, its 800 robots and 5,000 tasks (see
/// `assets/lifelong/README.md`).
const SHIPPED_MAP: &str = include_str!("../../assets/lifelong/sortation_small.map");
const SHIPPED_AGENTS: &str = include_str!("../../assets/lifelong/sortation_small_0_800.agents");
const SHIPPED_TASKS: &str = include_str!("../../assets/lifelong/sortation_small_0.task");

/// Where an instance comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum LifelongSource {
    /// The shipped sorting centre with its first `robots` robots.
    SortingCentre { robots: usize },
    /// A configuration file on disk (not in a browser).
    File(PathBuf),
}

/// Load an instance and start it.
#[derive(Message, Clone, Debug)]
pub struct OpenLifelong {
    pub source: LifelongSource,
    pub guidance: Guidance,
}

/// Close the run on screen.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct CloseLifelong;

/// A run on screen.
pub struct LiveRun {
    /// What it is, for the panel: "sorting centre, 400 robots".
    pub title: String,
    pub planner: LifelongPlanner,
    instance: LifelongInstance,
    /// How many goals each robot has been given, and the step it last finished a task.
    given: Vec<usize>,
    last_done: Vec<usize>,
    /// Where each robot stood before the last step, and stands now.
    pub before: Vec<Point>,
    pub now: Vec<Point>,
    /// The steps taken, the tasks finished at each, and the planner's time for each (ms).
    pub step: usize,
    pub per_step: Vec<u32>,
    pub step_ms: Vec<f32>,
    pub tasks_finished: u64,
}

impl LiveRun {
    fn new(title: String, instance: LifelongInstance, guidance: Guidance) -> Result<Self, String> {
        let mut planner = LifelongPlanner::new(instance.grid.clone(), guidance, 1);
        for (k, &start) in instance.starts.iter().enumerate() {
            planner.add_agent(start, instance.task(k, 0))?;
        }
        let robots = instance.starts.len();
        Ok(Self {
            title,
            planner,
            given: vec![0; robots],
            last_done: vec![0; robots],
            before: instance.starts.clone(),
            now: instance.starts.clone(),
            instance,
            step: 0,
            per_step: Vec::new(),
            step_ms: Vec::new(),
            tasks_finished: 0,
        })
    }

    /// One step of every robot; those on their goal finish a task and get the next.
    pub fn advance(&mut self) {
        let began = bevy::platform::time::Instant::now();
        let next = self.planner.step().to_vec();
        let mut done = 0;
        for (k, &at) in next.iter().enumerate() {
            if Some(at) == self.planner.goal(k) {
                self.given[k] += 1;
                self.last_done[k] = self.step + 1;
                done += 1;
                // The instance checked every task is a free cell, so this cannot fail.
                let _ = self
                    .planner
                    .set_goal(k, self.instance.task(k, self.given[k]));
            }
        }
        self.step_ms.push(began.elapsed().as_secs_f32() * 1e3);
        self.before = std::mem::replace(&mut self.now, next);
        self.step += 1;
        self.per_step.push(done);
        self.tasks_finished += u64::from(done);
    }

    pub fn robots(&self) -> usize {
        self.now.len()
    }

    /// Has robot `k` finished nothing for [`STARVED_AFTER`] steps?
    pub fn starved(&self, k: usize) -> bool {
        self.step >= self.last_done[k] + STARVED_AFTER
    }

    /// Robot `k`'s goal.
    pub fn goal(&self, k: usize) -> Option<Point> {
        self.planner.goal(k)
    }

    fn grid(&self) -> &Grid {
        &self.instance.grid
    }
}

/// The run on screen, if any.
#[derive(Resource, Default)]
pub struct LifelongScene(pub Option<LiveRun>);

/// The run's clock: how far into the next step the robots are drawn, whether it runs, how fast.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct LifelongClock {
    /// From 0 to 1: how far the robots have glided from `before` to `now`.
    pub glide: f32,
    pub playing: bool,
    /// Steps a second.
    pub speed: f32,
}

impl Default for LifelongClock {
    fn default() -> Self {
        Self {
            glide: 1.0,
            playing: true,
            speed: 8.0,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<OpenLifelong>()
        .add_message::<CloseLifelong>()
        .init_resource::<LifelongScene>()
        .init_resource::<LifelongClock>()
        .add_systems(
            Update,
            (open, close_on_other_map).chain().in_set(AppSystems::Maps),
        )
        .add_systems(Update, (close_on_edit, run).chain().in_set(AppSystems::Act));
}

/// Reads the instance, puts its map in the world and starts the run; or says why not.
fn open(
    mut requests: MessageReader<OpenLifelong>,
    mut closes: MessageReader<CloseLifelong>,
    mut scene: ResMut<LifelongScene>,
    mut clock: ResMut<LifelongClock>,
    mut load: MessageWriter<LoadMap>,
    mut notices: ResMut<Notices>,
) {
    if closes.read().count() > 0 {
        scene.0 = None;
    }
    let Some(request) = requests.read().last() else {
        return;
    };
    let opened = match &request.source {
        LifelongSource::SortingCentre { robots } => shipped(*robots),
        LifelongSource::File(path) => LifelongInstance::read(path).map(|i| {
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into());
            (name, i)
        }),
    };
    let run = opened.and_then(|(title, instance)| LiveRun::new(title, instance, request.guidance));
    match run {
        Ok(run) => {
            notices.info(format!("Lifelong: {}", run.title));
            load.write(LoadMap::new(
                format!("lifelong: {}", run.title),
                run.grid().clone(),
            ));
            scene.0 = Some(run);
            *clock = LifelongClock {
                speed: clock.speed,
                ..LifelongClock::default()
            };
        }
        Err(e) => notices.error(format!("Lifelong: {e}")),
    }
}

/// The shipped sorting centre with its first `robots` robots (1 to 800).
fn shipped(robots: usize) -> Result<(String, LifelongInstance), String> {
    let grid = parse_lifelong_map(SHIPPED_MAP)?;
    let mut starts = parse_cells(SHIPPED_AGENTS, &grid, 800)?;
    starts.truncate(robots.clamp(1, 800));
    let tasks = parse_cells(SHIPPED_TASKS, &grid, 5000)?;
    let title = format!("sorting centre, {} robots", starts.len());
    let instance = LifelongInstance::new(grid, "sortation_small.map".into(), starts, tasks)?;
    Ok((title, instance))
}

/// Another map in the world (a shipped one, a file, an undo): the run's tasks were for its own.
fn close_on_other_map(mut loaded: MessageReader<MapLoaded>, mut scene: ResMut<LifelongScene>) {
    for map in loaded.read() {
        let ours = scene
            .0
            .as_ref()
            .is_some_and(|run| same_walls(&map.after.grid, run.grid()));
        if !ours {
            scene.0 = None;
        }
    }
}

/// A wall painted or cleared on the run's map closes it.
fn close_on_edit(
    nav: Option<Res<NavGrid>>,
    mut scene: ResMut<LifelongScene>,
    mut notices: ResMut<Notices>,
) {
    let (Some(nav), Some(run)) = (nav, &scene.0) else {
        return;
    };
    if nav.is_changed() && !same_walls(nav.grid(), run.grid()) {
        scene.0 = None;
        notices.warn("Lifelong: the run closed, as the map changed (its tasks were for its walls)");
    }
}

fn same_walls(a: &Grid, b: &Grid) -> bool {
    a.width() == b.width()
        && a.height() == b.height()
        && (0..a.height() as i32).all(|y| {
            (0..a.width() as i32).all(|x| {
                let p = Point::new(x, y);
                a.is_passable(p) == b.is_passable(p)
            })
        })
}

/// Steps the run at the clock's speed (at most four steps a frame, so a slow frame never
/// snowballs), the robots gliding between steps.
fn run(time: Res<Time>, mut scene: ResMut<LifelongScene>, mut clock: ResMut<LifelongClock>) {
    let Some(run) = &mut scene.0 else {
        return;
    };
    if !clock.playing {
        clock.glide = 1.0;
        return;
    }
    clock.glide += time.delta_secs() * clock.speed;
    let mut steps = 0;
    while clock.glide >= 1.0 && steps < 4 {
        run.advance();
        clock.glide -= 1.0;
        steps += 1;
    }
    clock.glide = clock.glide.min(1.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_sorting_centre_loads_and_its_robots_finish_tasks() {
        let (title, instance) = shipped(200).expect("the shipped instance parses");
        assert!(title.contains("200 robots"));
        let mut run = LiveRun::new(title, instance, Guidance::GUIDED).expect("valid");
        for _ in 0..100 {
            let before = run.now.clone();
            run.advance();
            for (k, (a, b)) in before.iter().zip(&run.now).enumerate() {
                assert!(
                    (a.x - b.x).abs() + (a.y - b.y).abs() <= 1,
                    "robot {k} jumped"
                );
            }
            let mut seen = std::collections::HashSet::new();
            assert!(
                run.now.iter().all(|p| seen.insert(*p)),
                "two robots on one cell"
            );
        }
        assert!(run.tasks_finished > 50, "{}", run.tasks_finished);
        assert_eq!(run.per_step.len(), 100);
    }
}
