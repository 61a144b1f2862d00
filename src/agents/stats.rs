//! What the agents cost and how they fare, for the panel: how many walk, wait or are stuck,
//! re-plans per second, the mean and worst search time over the last second, and how many
//! results were thrown away because an edit overtook them.

use super::route::{Route, RouteState};
use crate::planner::flow::GoalField;
use bevy::prelude::*;
use std::collections::VecDeque;

#[derive(Resource, Default, Debug)]
pub struct AgentStats {
    pub agents: usize,
    pub walking: usize,
    pub waiting: usize,
    pub arrived: usize,
    pub stuck: usize,
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
    /// Every search ever finished.
    pub planned: u64,
    /// The last second's searches: (when, microseconds).
    recent: VecDeque<(f64, f64)>,
    /// Searches finished this frame, stamped in [`count`].
    fresh: Vec<f64>,
}

impl AgentStats {
    pub(super) fn planned(&mut self, micros: f64) {
        self.planned += 1;
        self.fresh.push(micros);
    }
}

/// Counts the agents by state, and rolls the last second's searches.
pub(super) fn count(
    time: Res<Time<Real>>,
    goal_field: Res<GoalField>,
    routes: Query<&Route>,
    mut stats: ResMut<AgentStats>,
) {
    let now = time.elapsed_secs_f64();
    let stats = &mut *stats;
    (stats.field_micros, stats.field_reachable) = (goal_field.micros, goal_field.reachable);
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
    for route in &routes {
        match route.state {
            RouteState::Walking => walking += 1,
            RouteState::Waiting => waiting += 1,
            RouteState::Arrived => arrived += 1,
            RouteState::Stuck => stuck += 1,
        }
    }
    stats.agents = routes.iter().len();
    (stats.walking, stats.waiting, stats.arrived, stats.stuck) = (walking, waiting, arrived, stuck);
}
