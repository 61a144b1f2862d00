//! The query every planner answers: the map, the two markers and the search settings, read
//! the same way by the live planner, the stepper and the comparison.

use super::settings::PlannerSettings;
use crate::world::markers::{Goal, MarkerCell, Start};
use crate::world::nav::NavGrid;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridpath::{Grid, Point, SearchConfig};

/// What identifies a query: a different key means a different answer. (A changed map is told
/// apart by [`PlanQuery::map_changed`].)
pub type QueryKey = (Point, Point, SearchConfig);

#[derive(SystemParam)]
pub struct PlanQuery<'w, 's> {
    settings: Res<'w, PlannerSettings>,
    nav: Option<Res<'w, NavGrid>>,
    start: Single<'w, 's, &'static MarkerCell, With<Start>>,
    goal: Single<'w, 's, &'static MarkerCell, With<Goal>>,
}

impl PlanQuery<'_, '_> {
    pub fn settings(&self) -> &PlannerSettings {
        &self.settings
    }

    /// The grid to search; `None` until the first map has loaded.
    pub fn nav(&self) -> Option<&NavGrid> {
        self.nav.as_deref()
    }

    pub fn grid(&self) -> Option<&Grid> {
        self.nav().map(NavGrid::grid)
    }

    pub fn start(&self) -> Point {
        self.start.0
    }

    pub fn goal(&self) -> Point {
        self.goal.0
    }

    /// The settings' search, recording its trace so that it can be drawn.
    pub fn traced_config(&self) -> SearchConfig {
        traced(self.settings.search)
    }

    pub fn key(&self) -> QueryKey {
        (self.start.0, self.goal.0, self.settings.search)
    }

    /// Did the map change since this system last ran?
    pub fn map_changed(&self) -> bool {
        self.nav.as_ref().is_some_and(|n| n.is_changed())
    }

    pub fn settings_changed(&self) -> bool {
        self.settings.is_changed()
    }
}

/// The same search, recording every open and close so that it can be drawn.
pub fn traced(config: SearchConfig) -> SearchConfig {
    SearchConfig {
        record_trace: true,
        ..config
    }
}
