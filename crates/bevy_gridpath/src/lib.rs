//! Grid pathfinding for Bevy games, on the [`gridpath`] core.
//!
//! - A [`NavGrid`] kept in step with the game's own entities: [`Obstacle`] walls a cell and
//!   [`CellCost`] makes it costly, on entities with a [`CellPos`] or (feature `tilemap`) on the
//!   tiles of a bevy_ecs_tilemap layer.
//! - [`PathRequest`]s answered off the frame by one service ([`PathService`]): searches on the
//!   async task pool, a per-frame budget, answers discarded and searched again when an edit
//!   touched them, failures that say why ([`PathFailed`]). Or in the frame, for the same moves
//!   on every run ([`SearchThread`]).
//! - [`GridAgent`]s that walk to a [`Destination`], re-route when an edit touches their route,
//!   and never step into a wall; with [`SharedFlow`], many agents going to one place share one
//!   flow field ([`FlowFields`]) instead of a search each.
//! - [`Body`]: agents that take up their cell. A [`Crowd`] moves them a cell a tick with PIBT,
//!   so they queue at doors, give way in corridors, and gather round a shared destination on
//!   cells of their own.
//! - Tactics for turn-based games: a unit's movement range ([`RangeRequest`]) and what it sees
//!   ([`SightRequest`]), answered off the frame and kept fresh as the map changes.
//! - [`GridPathDebugPlugin`]: the grid, the walls, the routes, ranges and sight as gizmos.
//!
//! Systems run in [`GridPathSystems`] sets a game orders its own systems against.
#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
// On docs.rs (a nightly compiler), items behind the `tilemap` feature say so.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agent;
mod agents;
pub mod cells;
pub mod classes;
pub mod crowd;
pub mod debug;
pub mod flow;
pub mod layout;
pub mod links;
pub mod nav_grid;
pub mod off_frame;
mod plugin;
pub mod requests;
pub mod tactics;
#[cfg(feature = "tilemap")]
pub mod tilemap;

pub use agent::{AgentEscaped, AgentProgress, AgentStatus, Destination, GridAgent};
pub use cells::{CellCost, CellPos, Obstacle, ObstacleIgnored};
pub use classes::{CellTerrain, ClassId, UnitClasses, UnknownClass};
pub use crowd::{
    Body, BodyMotion, Crowd, CrowdGuidance, CrowdStats, CrowdWays, GatherCell, Patience,
    UNTANGLE_AFTER,
};
pub use debug::{
    DebugColors, FlowFieldGizmos, GridPathDebugPlugin, LinkGizmos, NavGridGizmos, ObstacleGizmos,
    RouteColor, RouteGizmos, TacticsGizmos,
};
pub use flow::{FlowFields, SharedFlow};
pub use gridpath;
pub use layout::{CellShape, GridLayout};
pub use links::NavLink;
pub use nav_grid::{NavGrid, path_touches};
pub use off_frame::SearchThread;
pub use plugin::{GridPathPlugin, GridPathSystems};
pub use requests::{
    OwnSearch, PathFailed, PathFailure, PathRequest, PathService, PathStats, Route, SearchStats,
    TableWork,
};
pub use tactics::{
    Answer, ApproachRequest, FleeRequest, NearestRequest, RangeRequest, SightRequest, TacticFailed,
    TacticRequest,
};

/// Everything a game uses, in one `use bevy_gridpath::prelude::*`.
pub mod prelude {
    pub use crate::{
        AgentStatus, Body, CellCost, CellPos, CellShape, CellTerrain, ClassId, Crowd, DebugColors,
        Destination, FlowFieldGizmos, FlowFields, GridAgent, GridLayout, GridPathDebugPlugin,
        GridPathPlugin, GridPathSystems, NavGrid, NavGridGizmos, Obstacle, ObstacleGizmos,
        PathFailed, PathFailure, PathRequest, PathService, RangeRequest, Route, RouteGizmos,
        SearchThread, SharedFlow, SightRequest, TacticsGizmos, UnitClasses,
    };
    pub use gridpath::{CornerRule, Movement, Point, Terrain, UnitClass};
}
