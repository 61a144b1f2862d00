//! Shared flow fields: many agents, one destination, one search.
//!
//! A thousand agents chasing one goal with a route each repeat each other's work: near the goal
//! every search expands the same cells. A [`FlowField`] is computed once, backwards from the goal,
//! and gives every cell its cheapest next step. An agent with [`SharedFlow`] asks for no route: it
//! steps by the field of its [`Destination`], shared with every other agent going there.
//!
//! [`FlowFields`] keeps one field per destination (and movement) in use. Each is computed on the
//! async task pool, on a snapshot of the grid, and computed again after an edit: one computation
//! at a time per destination, so a stroke of walls costs a few fields, not one per frame. Until
//! the new field lands agents step by the old one, checked against the grid as it is now, so they
//! never step into a wall. A field no agent uses any more is dropped.
//!
//! [`Destination`]: crate::Destination

use crate::agent::{Destination, GridAgent};
use crate::nav_grid::NavGrid;
use crate::off_frame::{Pending, SearchThread};
use bevy::platform::collections::HashMap;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use gridpath::{FlowField, Movement, Point};

/// Put it on a [`GridAgent`]: it steers by the flow field of its destination instead of a route
/// of its own. Best when many agents share a destination; one alone is better off with a route.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharedFlow;

/// The flow fields agents with [`SharedFlow`] steer by: one per destination and movement.
#[derive(Resource, Default)]
pub struct FlowFields {
    fields: HashMap<(Point, Movement), Shared>,
    computed: u64,
    micros: f64,
}

/// One destination's field, and the computation that will replace it.
#[derive(Default)]
struct Shared {
    /// The field agents step by (computed on `revision`), once one has landed.
    field: Option<FlowField>,
    revision: u64,
    task: Option<Pending<(FlowField, u64, f64)>>,
    /// The field it replaced: its memory is reused by the next computation.
    spare: Option<FlowField>,
    used: bool,
}

impl FlowFields {
    /// The field towards `to` under `movement`, if one has been computed for the grid's size.
    pub fn get(&self, to: Point, movement: Movement) -> Option<&FlowField> {
        self.fields.get(&(to, movement))?.field.as_ref()
    }

    /// Every field, with its destination and movement.
    pub fn iter(&self) -> impl Iterator<Item = (Point, Movement, &FlowField)> {
        self.fields
            .iter()
            .filter_map(|(&(to, m), s)| Some((to, m, s.field.as_ref()?)))
    }

    /// Fields computed since the app started.
    pub fn computed(&self) -> u64 {
        self.computed
    }

    /// How long the last field took to compute, in microseconds (on the task pool).
    pub fn micros(&self) -> f64 {
        self.micros
    }
}

/// The fields are kept fresh in `keep` (the plugin puts it before the searches start).
pub(crate) fn plugin(app: &mut App, keep: impl SystemSet) {
    app.init_resource::<FlowFields>()
        .add_systems(Update, keep_fields.in_set(keep));
}

/// Takes finished fields, drops unused ones, and starts a computation for each destination whose
/// field is missing or older than the grid.
fn keep_fields(
    nav: Option<Res<NavGrid>>,
    mut fields: ResMut<FlowFields>,
    agents: Query<(&GridAgent, &Destination), With<SharedFlow>>,
    thread: Res<SearchThread>,
) {
    let Some(nav) = nav else {
        return;
    };
    let FlowFields {
        fields,
        computed,
        micros,
    } = &mut *fields;
    for shared in fields.values_mut() {
        shared.used = false;
    }
    for (agent, destination) in &agents {
        let key = (destination.0, agent.movement);
        fields.entry(key).or_default().used = true;
    }
    fields.retain(|_, shared| shared.used);
    for (&(to, movement), shared) in fields.iter_mut() {
        if let Some(task) = &mut shared.task
            && let Some((field, revision, took)) = task.take()
        {
            shared.task = None;
            *micros = took;
            shared.spare = shared.field.replace(field);
            shared.revision = revision;
            *computed += 1;
        }
        let stale = shared.field.as_ref().is_none_or(|f| !f.fits(nav.grid()))
            || shared.revision != nav.revision();
        if stale && shared.task.is_none() {
            let mut field = shared.spare.take().unwrap_or_default();
            let (grid, revision) = (nav.snapshot(), nav.revision());
            shared.task = Some(Pending::start(*thread, move || {
                let began = Instant::now();
                field.compute(&grid, &[to], movement);
                (field, revision, began.elapsed().as_secs_f64() * 1e6)
            }));
        }
        if shared.field.as_ref().is_some_and(|f| !f.fits(nav.grid())) {
            shared.field = None; // another level: wait for its own field
        }
    }
}
