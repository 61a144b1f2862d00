//! The debug plugin's gizmo groups, switched like any gizmo group, and their colours.

use bevy::prelude::*;

/// The grid's lines (off by default: busy on big maps).
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct NavGridGizmos;

/// The walled cells: a box each when zoomed in, the outline of wall regions when zoomed out.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct ObstacleGizmos;

/// Every [`Route`](crate::Route): what an agent has left to walk, or a whole route for other
/// entities; and a ring round a stuck agent. In [`DebugColors::route`], or the entity's own
/// [`RouteColor`].
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct RouteGizmos {
    /// Also draw the way of each agent with [`SharedFlow`](crate::SharedFlow): the first cells
    /// its destination's field leads it through. Off by default: the ways of a thousand agents
    /// would hide the crowd.
    pub flow_ways: bool,
}

/// Draw this entity's route (and its range, [`TacticsGizmos`]) in its own colour (a unit's team,
/// say), not [`DebugColors::route`] (or [`DebugColors::range`]).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct RouteColor(pub Color);

/// Every shared flow field ([`FlowFields`](crate::FlowFields)): an arrow from each cell that can
/// reach the destination towards the cell it steps to (off by default: busy on big maps).
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct FlowFieldGizmos;

/// Every unit's range ([`RangeRequest`](crate::RangeRequest)): each cell in it outlined; every
/// unit's field of view ([`SightRequest`](crate::SightRequest)): a dot on each cell seen; and the
/// routes of the other tactics' requests, as lines.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct TacticsGizmos;

/// Every link of the grid ([`NavLink`](crate::NavLink)): its ends ringed and joined, an arrow
/// for one taken one way, dim while shut.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct LinkGizmos;

/// The overlays' colours; change them to stand out from a game's own art.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct DebugColors {
    /// Grid lines.
    pub grid: Color,
    /// Wall boxes and outlines.
    pub wall: Color,
    /// Routes.
    pub route: Color,
    /// The ring round a stuck agent.
    pub stuck: Color,
    /// Flow field arrows.
    pub flow: Color,
    /// The cells of a unit's range.
    pub range: Color,
    /// The cells a unit sees.
    pub sight: Color,
    /// Links (doors, stairs, teleporters), and the ring where a route takes one.
    pub link: Color,
}

impl Default for DebugColors {
    fn default() -> Self {
        Self {
            grid: Color::srgba(1.0, 1.0, 1.0, 0.12),
            wall: Color::srgb(1.0, 0.55, 0.1),
            route: Color::srgb(0.2, 0.95, 0.35),
            stuck: Color::srgb(0.95, 0.2, 0.2),
            flow: Color::srgba(0.35, 0.75, 1.0, 0.6),
            range: Color::srgb(0.3, 0.6, 1.0),
            sight: Color::srgb(1.0, 0.9, 0.3),
            link: Color::srgb(0.85, 0.4, 1.0),
        }
    }
}
