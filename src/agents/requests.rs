//! Route searches off the frame. Each runs on Bevy's `AsyncComputeTaskPool`, against a snapshot
//! of the grid shared with the world (an `Arc`: copied only if the world is edited while the
//! search still holds it). A result comes back tagged with the grid revision it was planned on;
//! if the cells it walks changed since, it is discarded and asked for again.
//!
//! The searches' memory is reused: a finished task hands its [`Search`] back to the
//! [`SearchPool`], so a thousand re-plans allocate nothing once the pool is warm.

use super::route::{Route, RouteState};
use super::stats::AgentStats;
use super::{AgentGoal, AgentSettings, Steering};
use crate::planner::PlannerSettings;
use crate::world::agents::{Agent, AgentPos, random_free_cell_near};
use crate::world::generators::rng::Rng;
use crate::world::markers::{Goal, MarkerCell};
use crate::world::nav::NavGrid;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use gridpath::{Grid, Movement, Point, Search, SearchConfig, SearchStatus};
use std::sync::Arc;

/// Searches waiting to be reused.
#[derive(Resource, Default)]
pub struct SearchPool(Vec<Search>);

/// Picks wanderers' targets.
#[derive(Resource)]
pub struct WanderRng(pub Rng);

impl Default for WanderRng {
    fn default() -> Self {
        Self(Rng::new(0x3A9D))
    }
}

/// A search running for an agent.
#[derive(Component)]
pub struct RouteTask(Task<Routed>);

/// What a search hands back.
pub struct Routed {
    search: Search,
    /// The grid revision it searched.
    revision: u64,
    from: Point,
    to: Point,
    /// The cells from `from` to `to`, and the cost to each; empty when there is no way.
    cells: Vec<Point>,
    costs: Vec<f64>,
    micros: f64,
}

/// Plans a route on a snapshot of the grid; runs on a task pool thread.
fn plan(
    mut search: Search,
    grid: Arc<Grid>,
    from: Point,
    to: Point,
    movement: Movement,
    revision: u64,
) -> Routed {
    let began = Instant::now();
    let config = SearchConfig::astar(movement);
    let found = search
        .begin(&grid, from, to, &config)
        .map(|()| search.run(&grid));
    let cells = match found {
        Ok(SearchStatus::Found) => search.path().to_vec(),
        _ => Vec::new(),
    };
    let mut costs = Vec::with_capacity(cells.len());
    let mut total = 0.0;
    for (i, &p) in cells.iter().enumerate() {
        if i > 0 {
            total += movement.step_cost(&grid, cells[i - 1], p).unwrap_or(0.0);
        }
        costs.push(total);
    }
    Routed {
        search,
        revision,
        from,
        to,
        cells,
        costs,
        micros: began.elapsed().as_secs_f64() * 1e6,
    }
}

/// The cell to plan from: the one the agent is heading for when it may still go there, else the
/// one it stands on. Planning from the next cell lets it keep walking while the search runs.
pub fn plan_from(route: &Route, pos: AgentPos, grid: &Grid, movement: Movement) -> Point {
    let here = pos.cell();
    match route.heading() {
        Some(next) if route.state == RouteState::Walking && !route.hold => {
            if next == here || movement.step_cost(grid, here, next).is_some() {
                next
            } else {
                here
            }
        }
        _ => here,
    }
}

/// Starts searches for the agents that asked longest ago, up to the frame's budget.
pub(super) fn start_requests(
    settings: Res<AgentSettings>,
    planner: Res<PlannerSettings>,
    nav: Res<NavGrid>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut pool: ResMut<SearchPool>,
    mut rng: ResMut<WanderRng>,
    mut agents: Query<(Entity, &AgentPos, &mut Route), With<Agent>>,
    mut commands: Commands,
) {
    let flow_chasing =
        settings.goal == AgentGoal::Chase && settings.steering == Steering::FlowField;
    let mut waiting: Vec<(u64, Entity)> = agents
        .iter()
        .filter(|(_, _, r)| !r.in_flight)
        .filter_map(|(e, _, r)| Some((r.wanted?, e)))
        .collect();
    if waiting.is_empty() {
        return;
    }
    waiting.sort_unstable();
    let movement = planner.search.movement;
    let tasks = AsyncComputeTaskPool::get();
    for (_, entity) in waiting.into_iter().take(settings.budget.max(1)) {
        let Ok((_, &pos, mut route)) = agents.get_mut(entity) else {
            continue;
        };
        route.wanted = None;
        if flow_chasing {
            continue; // the flow field steers it: no search
        }
        let to = match settings.goal {
            AgentGoal::Chase => goal.0,
            AgentGoal::Wander => match route.target.filter(|t| nav.is_passable(*t)) {
                Some(t) if route.state != RouteState::Arrived => t,
                _ => match random_free_cell_near(&mut rng.0, &nav, pos.cell()) {
                    Some(t) => t,
                    None => continue,
                },
            },
        };
        let from = plan_from(&route, pos, nav.grid(), movement);
        let search = pool.0.pop().unwrap_or_default();
        let (grid, revision) = (nav.snapshot(), nav.revision());
        route.in_flight = true;
        route.target = Some(to);
        if route.state == RouteState::Arrived {
            route.state = RouteState::Waiting;
        }
        let task = tasks.spawn(async move { plan(search, grid, from, to, movement, revision) });
        commands.entity(entity).insert(RouteTask(task));
    }
}

/// How many stops in a row a wanderer tries before it calls itself stuck: one without a way may
/// lie in a walled-off room, and another may not.
const WANDER_TRIES: u32 = 3;

/// Takes the routes whose searches finished: adopted if still good, asked for again if not.
pub(super) fn collect_routes(
    settings: Res<AgentSettings>,
    nav: Res<NavGrid>,
    mut pool: ResMut<SearchPool>,
    mut stats: ResMut<AgentStats>,
    mut agents: Query<(Entity, &mut RouteTask, &mut Route)>,
    mut commands: Commands,
) {
    for (entity, mut task, mut route) in &mut agents {
        let Some(routed) = check_ready(&mut task.0) else {
            continue;
        };
        commands.entity(entity).remove::<RouteTask>();
        route.in_flight = false;
        stats.planned(routed.micros);
        let Routed {
            search,
            revision,
            from,
            to,
            cells,
            costs,
            ..
        } = routed;
        pool.0.push(search);
        if nav.changed_under(revision, &cells) {
            stats.discarded += 1;
            route.want();
            continue;
        }
        if cells.is_empty() {
            route.failures += 1;
            route.clear();
            if settings.goal == AgentGoal::Wander && route.failures < WANDER_TRIES {
                route.target = None; // somewhere else, then
                route.state = RouteState::Waiting;
                route.want();
            } else {
                route.state = RouteState::Stuck;
            }
            continue;
        }
        // The agent walked on while the search ran: join the new route where it is heading.
        let start = match route
            .heading()
            .filter(|_| route.state == RouteState::Walking)
        {
            Some(h) if h != from => cells.iter().position(|&c| c == h),
            _ => Some(0),
        };
        match start {
            Some(k) => {
                route.adopt(cells, costs, to);
                route.next = k;
            }
            None => route.want(),
        }
    }
}
