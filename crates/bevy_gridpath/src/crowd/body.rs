//! What a body is: the component that makes an agent one, the cell of its own it gathers on, and
//! how the crowd's systems hold a body and count it deadlocked.

use super::motion::BodyMotion;
use crate::agent::{AgentProgress, AgentStatus, Destination, GridAgent};
use crate::requests::Route;
use bevy::prelude::*;
use gridpath::{Grid, Point};

/// A body as the crowd's systems hold it.
pub(super) type BodyItem<'a> = (
    Entity,
    &'a GridAgent,
    Mut<'a, AgentProgress>,
    Mut<'a, AgentStatus>,
    Mut<'a, BodyMotion>,
    Mut<'a, Transform>,
    Option<&'a Route>,
    Option<&'a Destination>,
    Option<&'a GatherCell>,
    bool,
);

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

/// The indices of the cells a body of `size` covers from `at` (those on the grid).
pub(super) fn covers(grid: &Grid, at: Point, size: u8) -> impl Iterator<Item = usize> + '_ {
    let k = i32::from(size.max(1));
    (0..k)
        .flat_map(move |dy| (0..k).map(move |dx| Point::new(at.x + dx, at.y + dy)))
        .filter_map(|p| grid.index_of(p))
}
