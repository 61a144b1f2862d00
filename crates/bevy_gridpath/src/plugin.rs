//! The plugin and its system sets: the one place that knows every module, and wires each one's
//! systems into the schedule.
//!
//! The modules name no set of this file: each `plugin` function is handed the sets its systems
//! go in, so no module reaches back up for them (and `plugin.rs` depends on the modules, never
//! the other way round). The order inside [`GridPathSystems::Plan`] is set here too, by the
//! private [`Planning`] steps.

use crate::{agents, cells, crowd, flow, links, off_frame, requests, tactics};
use bevy::prelude::*;

/// Adds the nav grid's bookkeeping, the path service and the agents. Insert a
/// [`NavGrid`](crate::NavGrid) when a level loads (before or after its walls: it reads those
/// already there).
pub struct GridPathPlugin;

/// The plugin's systems, in this order in `Update`, then drawing in `PostUpdate`. Order a game's
/// systems against them: set a [`Destination`](crate::Destination) or spawn walls before
/// [`GridPathSystems::SyncGrid`], read [`Route`](crate::Route)s and
/// [`AgentStatus`](crate::AgentStatus) after [`GridPathSystems::Plan`] or
/// [`GridPathSystems::Move`].
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GridPathSystems {
    /// The nav grid follows moved walls and changed costs (additions and removals apply at once).
    SyncGrid,
    /// Agents ask for routes; the service collects answers and starts searches; flow fields are
    /// kept fresh.
    Plan,
    /// Agents walk.
    Move,
    /// The debug plugin draws (in `PostUpdate`).
    Draw,
}

/// The steps inside [`GridPathSystems::Plan`]: new agents are placed, then bodies are settled
/// and gathered (they may change where agents go), then agents ask for routes, and last the
/// service starts the searches asked for (the answers of earlier ones collected, cancelled
/// ones dropped, flow fields, ranges and sight kept fresh before it, in any order with the
/// rest).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Planning {
    PlaceAgents,
    GatherBodies,
    AskForRoutes,
    CollectAnswers,
    KeepFields,
    StartSearches,
}

impl Plugin for GridPathPlugin {
    fn build(&self, app: &mut App) {
        use GridPathSystems::{Move, Plan, SyncGrid};
        use Planning::*;
        app.configure_sets(Update, (SyncGrid, Plan, Move).chain())
            .configure_sets(
                Update,
                (
                    (PlaceAgents, GatherBodies, AskForRoutes, StartSearches).chain(),
                    (CollectAnswers, KeepFields).before(StartSearches),
                )
                    .in_set(Plan),
            );
        off_frame::plugin(app);
        cells::plugin(app, SyncGrid);
        links::plugin(app, SyncGrid);
        requests::plugin(app, CollectAnswers, StartSearches);
        flow::plugin(app, KeepFields);
        tactics::plugin(app, KeepFields);
        agents::plugin(app, PlaceAgents, AskForRoutes, Move);
        crowd::plugin(app, GatherBodies, Move);
    }
}
