//! The path on screen pulled tight with line of sight ("Straighten the path" in the Search
//! section): the post-process that PathFinding.js calls `smoothenPath`, drawn over the grid
//! path so a learner sees what straight segments save, and what Theta* saves beyond it.

use super::settings::{PlanSystems, PlannerSettings};
use super::shown::ShownSearch;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::line_of_sight::{polyline_length, smoothen_path};
use gridpath::{CornerRule, Grid, Movement, Point, SearchConfig};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Straightened>().add_systems(
        Update,
        straighten
            .in_set(PlanSystems::Show)
            .after(super::shown::show_search),
    );
}

/// The shown path, straightened, or why it cannot be.
#[derive(Resource, Default, Debug, PartialEq)]
pub struct Straightened {
    /// Corners from start to goal; empty when off, refused, or there is no path.
    pub corners: Vec<Point>,
    /// Its length and the grid path's, in cells (each step 1 or √2).
    pub length: f64,
    pub grid_length: f64,
    /// Why it was not done although asked for.
    pub refused: Option<&'static str>,
}

/// Straightening needs what line of sight needs: equal cell costs, moves that never cut corners.
pub fn straightening_refused(config: &SearchConfig, grid: &Grid) -> Option<&'static str> {
    if !grid.is_uniform_cost() {
        Some("only on maps without terrain costs (a straight line has no single price)")
    } else if matches!(config.movement, Movement::EightWay(rule) if rule != CornerRule::NeverCut) {
        Some("only with moves that never cut corners, as the segments may not")
    } else {
        None
    }
}

fn straighten(
    settings: Res<PlannerSettings>,
    shown: Res<ShownSearch>,
    nav: Option<Res<NavGrid>>,
    mut straightened: ResMut<Straightened>,
) {
    let Some(nav) = nav else { return };
    if !(shown.is_changed() || settings.is_changed() || nav.is_changed()) {
        return;
    }
    let grid = nav.grid();
    // An any-angle path is straight already: nothing to do, and nothing to say.
    let asked = settings.straighten && !settings.search.algorithm.is_any_angle();
    let refused = asked
        .then(|| straightening_refused(&settings.search, grid))
        .flatten();
    let corners = if asked && refused.is_none() && shown.path.len() > 2 {
        smoothen_path(grid, &shown.path)
    } else {
        Vec::new()
    };
    straightened.set_if_neq(Straightened {
        length: polyline_length(&corners),
        grid_length: polyline_length(&shown.path),
        corners,
        refused,
    });
}
