//! What a body is: the component that makes an agent one, its glide and PIBT state (the core's
//! [`Glide`] and [`BodyState`]), the cell of its own it gathers on, and how the crowd's systems
//! read a body.

use crate::agent::{AgentProgress, AgentStatus, Destination, GridAgent};
use crate::requests::{PathRequest, Route};
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use gridpath::Point;
use gridpath::mapf::crowd::{BodyState, Glide};

/// A body as the crowd's step holds it.
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

/// A body's glide between cells and its PIBT state. Kept by the crowd.
#[derive(Component, Clone, Debug, Default)]
pub struct BodyMotion {
    pub(super) glide: Glide,
    /// Its move credit, PIBT state and progress counts.
    pub(super) state: BodyState,
}

impl BodyMotion {
    /// Seconds it has got no nearer to where it goes, as of the crowd's last frame (0 when it
    /// has arrived or has nowhere to go). A game's AI reads it to give up on a jam: a wanderer,
    /// say, picks somewhere else to go.
    pub fn stalled(&self) -> f32 {
        self.state.stalled()
    }

    /// Was it counted deadlocked ([`CrowdStats::deadlocked`]) at the crowd's last frame?
    ///
    /// [`CrowdStats::deadlocked`]: crate::CrowdStats::deadlocked
    pub fn deadlocked(&self) -> bool {
        self.state.deadlocked()
    }
}
