//! Links drawn with the Links tool: a click on a free cell starts one, a click on another ends
//! it (a two-way link costing [`LINK_COST`]: stairs, a ladder, a teleporter), a click on a
//! link's end removes that link. Each is a `NavLink` entity, as a game would spawn it, and one
//! undo step.

use super::history::{Edit, History};
use crate::notices::Notices;
use crate::world::map_load::MapLoaded;
use crate::world::nav::{NavGrid, NavLink};
use bevy::prelude::*;
use gridpath::{Link, Point};

/// What a link drawn with the tool costs to take: two steps' worth.
pub const LINK_COST: u32 = 2;

/// A click of the Links tool on this cell.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkClick(pub Point);

/// The cell a link being drawn starts at, between the two clicks.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PendingLink(pub Option<Point>);

pub(super) fn edit_links(
    mut clicks: MessageReader<LinkClick>,
    mut pending: ResMut<PendingLink>,
    links: Query<(Entity, &NavLink)>,
    nav: Res<NavGrid>,
    mut history: ResMut<History>,
    mut notices: ResMut<Notices>,
    mut commands: Commands,
) {
    for &LinkClick(cell) in clicks.read() {
        let at_an_end = links
            .iter()
            .find(|(_, l)| l.0.from == cell || l.0.to == cell);
        match (pending.0.take(), at_an_end) {
            (None, Some((entity, link))) => {
                commands.entity(entity).despawn();
                let (from, to) = (link.0.from, link.0.to);
                notices.info(format!("Removed the link from {from} to {to}."));
                history.record(Edit::Links {
                    label: "remove a link",
                    added: Vec::new(),
                    removed: vec![link.0],
                });
            }
            (None, None) if !nav.is_passable(cell) => {
                notices.warn(format!(
                    "A link starts on a free cell, not the wall at {cell}."
                ));
            }
            (None, None) => {
                pending.0 = Some(cell);
                notices.info(format!(
                    "A link from {cell}: click the cell it leads to (the same cell again: none)."
                ));
            }
            (Some(from), _) if from == cell => notices.info("No link made."),
            (Some(_), _) if !nav.is_passable(cell) => {
                notices.warn(format!(
                    "A link leads to a free cell, not the wall at {cell}."
                ));
            }
            (Some(from), _) => {
                let link = Link::new(from, cell, LINK_COST);
                commands.spawn(NavLink(link));
                notices.info(format!(
                    "A link from {from} to {cell}, costing {LINK_COST} either way."
                ));
                history.record(Edit::Links {
                    label: "add a link",
                    added: vec![link],
                    removed: Vec::new(),
                });
            }
        }
    }
}

/// A new map drops a link half drawn.
pub(super) fn forget_on_new_map(
    mut loaded: MessageReader<MapLoaded>,
    mut pending: ResMut<PendingLink>,
) {
    if loaded.read().count() > 0 {
        pending.0 = None;
    }
}
