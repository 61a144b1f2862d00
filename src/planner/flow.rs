//! The goal's flow field: every cell's cost to the goal marker and the way to step from it, the
//! view that tower-defense games use to move many units with one search (see
//! [`gridpath::FlowField`]). Computed only while its overlay is on, and again only when the
//! goal, the map or the moves change. (The chasers steered by a field use the plugin's own,
//! [`bevy_gridpath::FlowFields`], computed off the frame; this one is the teaching view of its
//! costs and steps.) On a big map one computation takes a few frames' time
//! (57 ms on 512 × 512 in a debug build), so while the goal is dragged or walls are painted it is
//! redone at most four times a second, and once more when they come to rest.

use super::query::PlanQuery;
use super::settings::PlanSystems;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use gridpath::{FlowField, Movement, Point};

/// The flow field towards the goal marker, and what computing it cost.
#[derive(Resource, Default)]
pub struct GoalField {
    /// Compute it? The panel's "Show flow field" switch.
    pub enabled: bool,
    pub field: FlowField,
    /// Bumped on every computation: what is drawn follows it.
    pub revision: u64,
    /// How long the last computation took, in microseconds.
    pub micros: f64,
    /// Cells that can reach the goal, and the largest of their costs (for the colour scale).
    pub reachable: usize,
    pub max_cost: f64,
    made_for: Option<(Point, Movement)>,
    /// The map changed since the last computation.
    map_changed: bool,
    /// When it was last computed (seconds of real time).
    computed_at: f64,
}

/// A computation slower than this (µs) is not redone more often than every [`SLOW_GAP`] seconds.
const SLOW_MICROS: f64 = 8_000.0;
const SLOW_GAP: f64 = 0.25;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<GoalField>()
        .add_systems(Update, update_goal_field.in_set(PlanSystems::Search));
}

fn update_goal_field(query: PlanQuery, time: Res<Time<Real>>, mut goal_field: ResMut<GoalField>) {
    if !goal_field.enabled {
        if goal_field.made_for.is_some() {
            goal_field.made_for = None; // switched off: compute afresh when switched on again
        }
        return;
    }
    let Some(grid) = query.grid() else {
        return;
    };
    if query.map_changed() && goal_field.made_for.is_some() {
        goal_field.map_changed = true;
    }
    let key = (query.goal(), query.settings().search.movement);
    if goal_field.made_for == Some(key) && !goal_field.map_changed {
        return;
    }
    let now = time.elapsed_secs_f64();
    let slow = goal_field.micros > SLOW_MICROS && goal_field.made_for.is_some();
    if slow && now - goal_field.computed_at < SLOW_GAP {
        return; // a slow field asked for again too soon (a drag, a stroke): a little later
    }
    let began = Instant::now();
    let GoalField { field, .. } = &mut *goal_field;
    field.compute(grid, &[key.0], key.1);
    let micros = began.elapsed().as_secs_f64() * 1e6;
    let (reachable, max_cost) = field
        .reachable_costs()
        .fold((0, 0.0f64), |(n, max), c| (n + 1, max.max(c)));
    goal_field.micros = micros;
    goal_field.reachable = reachable;
    goal_field.max_cost = max_cost;
    goal_field.made_for = Some(key);
    goal_field.map_changed = false;
    goal_field.computed_at = now;
    goal_field.revision += 1;
}
