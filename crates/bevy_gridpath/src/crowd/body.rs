//! What a body is: the component that makes an agent one, the cell of its own it gathers on, and
//! how the crowd's systems hold a body and count it deadlocked.

use super::motion::BodyMotion;
use crate::agent::{AgentProgress, AgentStatus, Destination, GridAgent};
use crate::requests::{PathRequest, Route};
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use gridpath::Point;

/// A body as the crowd's systems hold it: the agent, where it is, how it moves, and where it
/// goes.
#[derive(QueryData)]
#[query_data(mutable)]
pub(super) struct BodyData {
    pub(super) entity: Entity,
    pub(super) agent: &'static GridAgent,
    pub(super) progress: &'static mut AgentProgress,
    pub(super) status: &'static mut AgentStatus,
    pub(super) motion: &'static mut BodyMotion,
    pub(super) transform: &'static mut Transform,
    pub(super) route: Option<&'static Route>,
    pub(super) destination: Option<&'static Destination>,
    pub(super) gathering: Option<&'static GatherCell>,
    /// Waiting for a route: its old one is walked meanwhile, but getting along it is no progress.
    pub(super) asking: Has<PathRequest>,
}

/// A body as the gatherings read it.
#[derive(QueryData)]
pub(super) struct Gathering {
    pub(super) entity: Entity,
    pub(super) agent: &'static GridAgent,
    pub(super) progress: &'static AgentProgress,
    pub(super) route: Option<&'static Route>,
    pub(super) destination: Option<&'static Destination>,
    pub(super) gathering: Option<&'static GatherCell>,
    pub(super) motion: &'static BodyMotion,
}

/// A body as settling reads and moves it.
#[derive(QueryData)]
#[query_data(mutable)]
pub(super) struct Settling {
    pub(super) entity: Entity,
    pub(super) agent: &'static GridAgent,
    pub(super) progress: &'static mut AgentProgress,
    pub(super) motion: &'static mut BodyMotion,
}

impl BodyDataItem<'_, '_> {
    /// Where it heads: its gathering cell, else its destination.
    pub(super) fn target(&self) -> Option<Point> {
        self.gathering
            .map(|g| g.0)
            .or(self.destination.map(|d| d.0))
    }
}

/// Makes a [`GridAgent`] a body: it takes up its cell, and the crowd moves it (see the module
/// docs). A body with [`SharedFlow`] is moved as a body but asks for no route, so it only gives
/// way: bodies follow routes.
///
/// [`SharedFlow`]: crate::SharedFlow
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[require(GridAgent, BodyMotion)]
pub struct Body;

/// The cell of its own a body heads for when it shares its [`Destination`] with other bodies.
/// Kept by the crowd; read it, do not write it.
///
/// [`Destination`]: crate::Destination
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherCell(pub Point);

/// An agent that is no longer a body heads for its destination itself, and starts its PIBT
/// state afresh if it becomes one again.
pub(super) fn unbody(remove: On<Remove, Body>, mut commands: Commands) {
    // `try_`: a despawned body is removed too, and is gone by the time these run.
    if let Ok(mut entity) = commands.get_entity(remove.entity) {
        entity
            .try_remove::<GatherCell>()
            .try_insert(BodyMotion::default());
    }
}
