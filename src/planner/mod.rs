//! Planning: the live planner re-plans on a repeating timer ([`live`]); step mode pauses it and
//! steps the search by hand ([`stepping`]); the comparison runs every algorithm on the same query
//! ([`compare`]); the tactics view asks for a unit's range and sight ([`tactics`]). Each keeps its own [`gridpath::Search`], and [`shown`] picks, once per frame and
//! after all three, the one search whose cells and path are drawn.

pub mod classes;
pub mod compare;
pub mod flow;
pub mod live;
pub mod optimality;
pub mod plan;
pub mod query;
pub mod settings;
pub mod shown;
pub mod stepping;
pub mod straighten;
pub mod tactics;

use crate::frame::AppSystems;
use crate::world::layout::MapLayout;
use bevy::prelude::*;
use gridpath::{Heuristic, Movement};

pub use live::{PlanOffFrame, Planner, ReplanNow};
pub use optimality::Optimality;
pub use plan::{Plan, PlanStatus};
pub use settings::{INTERVAL_RANGE, PlanSystems, PlannerMode, PlannerSettings};

/// A map of hexagons is searched with hex moves and the hex distance; back on squares, the
/// square moves chosen before (8-way by default) come back. A heuristic chosen by hand stays
/// where it measures the new moves.
fn follow_map_shape(
    layout: Option<Res<MapLayout>>,
    mut settings: ResMut<PlannerSettings>,
    mut squares: Local<Option<Movement>>,
) {
    let Some(layout) = layout.filter(|l| l.is_changed()) else {
        return;
    };
    let search = &mut settings.search;
    let before = search.movement;
    let wanted = match layout.shape.hex() {
        Some(h) => Movement::Hex(h),
        None => match before {
            Movement::Hex(_) => squares.take().unwrap_or_default(),
            square => square,
        },
    };
    if wanted == before {
        return;
    }
    if before.hex().is_none() {
        *squares = Some(before);
    }
    search.movement = wanted;
    let fits = if wanted.hex().is_some() {
        Heuristic::HEX.contains(&search.heuristic)
    } else {
        search.heuristic != Heuristic::Hex
    };
    if search.heuristic == Heuristic::best_for(before) || !fits {
        search.heuristic = Heuristic::best_for(wanted);
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlannerSettings>()
        .init_state::<PlannerMode>()
        .add_systems(Update, follow_map_shape.in_set(AppSystems::Derive));
    app.add_plugins((
        live::plugin,
        stepping::plugin,
        compare::plugin,
        flow::plugin,
        shown::plugin,
        straighten::plugin,
        tactics::plugin,
        classes::plugin,
    ));
    // The searches first, in any order; then the one owner of what is drawn picks among them.
    app.configure_sets(
        Update,
        (PlanSystems::Search, PlanSystems::Show)
            .chain()
            .in_set(AppSystems::Plan),
    );
}
