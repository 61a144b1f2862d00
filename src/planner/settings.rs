//! How and when to plan: the settings the panel changes, the mode, and the planner's system sets.

use bevy::prelude::*;
use gridpath::SearchConfig;

/// The shortest and longest re-plan intervals the UI offers.
pub const INTERVAL_RANGE: std::ops::RangeInclusive<f32> = 0.05..=5.0;

/// How and how often to plan.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct PlannerSettings {
    /// Seconds between re-plans.
    pub interval: f32,
    pub search: SearchConfig,
    /// Also draw the path pulled tight with line of sight ([`straighten`](super::straighten)).
    pub straighten: bool,
}

impl Default for PlannerSettings {
    fn default() -> Self {
        Self {
            interval: 1.0,
            search: SearchConfig::default(),
            straighten: false,
        }
    }
}

/// Re-planning live on the timer, or stepping by hand. Each mode's systems run only in it.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlannerMode {
    #[default]
    Live,
    Stepping,
}

/// The two steps of planning within a frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlanSystems {
    /// The live planner, the stepper and the comparison update their own searches.
    Search,
    /// [`shown`](super::shown) picks the search to draw.
    Show,
}
