//! What the agents cost and how they fare, for the panel: how many walk, wait or are stuck,
//! re-plans per second, the mean and worst search time over the last second, and how many
//! results were thrown away because an edit overtook them.

use super::settings::AgentSettings;
use crate::planner::PlannerSettings;
use crate::world::agents::Agent;
use crate::world::markers::{Goal, MarkerCell};
use bevy::prelude::*;
use bevy_gridpath::{
    AgentStatus, Crowd, CrowdStats, FlowFields, PathFailed, PathFailure, PathService, Route,
};
use std::collections::VecDeque;

#[derive(Resource, Default, Debug)]
pub struct AgentStats {
    pub agents: usize,
    pub walking: usize,
    pub waiting: usize,
    pub arrived: usize,
    pub stuck: usize,
    /// Of the stuck, those a unit of one cell would not be: no gap on the way is wide enough
    /// for their size.
    pub too_narrow: usize,
    /// Searches that finished in the last second.
    pub replans_per_second: usize,
    /// Mean and worst time of those searches, in microseconds (on the task pool, not the frame).
    pub mean_micros: f64,
    pub worst_micros: f64,
    /// Results discarded because the grid changed where they went (since the app started).
    pub discarded: u64,
    /// Agents moved off a wall painted under them (since the app started).
    pub pushed: u64,
    /// The goal's flow field, when it steers the chasers: its last computation's time and how
    /// many cells reach the goal.
    pub field_micros: f64,
    pub field_reachable: usize,
    /// Every route an agent was given.
    pub planned: u64,
    /// The bodies' counts, when agents are bodies.
    pub crowd: CrowdStats,
    /// The last second's searches: (when, microseconds).
    recent: VecDeque<(f64, f64)>,
    /// Searches finished this frame, stamped in [`count`].
    fresh: Vec<f64>,
    /// The flow fields computed when the reachable cells were last counted.
    fields_counted: u64,
}

/// A route given to an agent counts as a re-plan.
pub(super) fn count_route(
    insert: On<Insert, Route>,
    routes: Query<&Route, With<Agent>>,
    mut stats: ResMut<AgentStats>,
) {
    if let Ok(route) = routes.get(insert.entity) {
        stats.planned += 1;
        stats.fresh.push(route.stats.micros);
    }
}

/// Counts the agents by state, and rolls the last second's searches.
#[allow(clippy::too_many_arguments)]
pub(super) fn count(
    time: Res<Time<Real>>,
    service: Res<PathService>,
    fields: Res<FlowFields>,
    settings: Res<AgentSettings>,
    planner: Res<PlannerSettings>,
    crowd: Res<Crowd>,
    goal: Single<&MarkerCell, With<Goal>>,
    agents: Query<(&AgentStatus, Option<&PathFailed>), With<Agent>>,
    mut stats: ResMut<AgentStats>,
) {
    let now = time.elapsed_secs_f64();
    let stats = &mut *stats;
    stats.discarded = service.stats().discarded;
    stats.crowd = crowd.stats();
    if settings.flow_chasing() && fields.computed() != stats.fields_counted {
        stats.fields_counted = fields.computed();
        stats.field_micros = fields.micros();
        let field = fields.get(goal.0, planner.search.movement);
        stats.field_reachable = field.map_or(0, |f| f.reachable_costs().count());
    }
    for micros in stats.fresh.drain(..) {
        stats.recent.push_back((now, micros));
    }
    while stats.recent.front().is_some_and(|(t, _)| now - t > 1.0) {
        stats.recent.pop_front();
    }
    let n = stats.recent.len();
    stats.replans_per_second = n;
    stats.mean_micros = stats.recent.iter().map(|(_, m)| m).sum::<f64>() / n.max(1) as f64;
    stats.worst_micros = stats.recent.iter().map(|(_, m)| *m).fold(0.0, f64::max);
    let (mut walking, mut waiting, mut arrived, mut stuck) = (0, 0, 0, 0);
    stats.too_narrow = 0;
    for (status, failed) in &agents {
        match status {
            AgentStatus::Walking => walking += 1,
            AgentStatus::Waiting => waiting += 1,
            AgentStatus::Arrived => arrived += 1,
            AgentStatus::Stuck => stuck += 1,
        }
        if *status == AgentStatus::Stuck
            && failed.is_some_and(|f| f.reason == PathFailure::TooNarrow)
        {
            stats.too_narrow += 1;
        }
    }
    stats.agents = agents.iter().len();
    (stats.walking, stats.waiting, stats.arrived, stats.stuck) = (walking, waiting, arrived, stuck);
}
