//! Jams in a gathering of several sizes, undone: a jammed body settles where it stands.

use super::body::{Body, GatherCell};
use super::motion::BodyMotion;
use crate::agent::{AgentProgress, Destination, GridAgent};
use crate::flow::SharedFlow;
use crate::nav_grid::NavGrid;
use crate::requests::Route;
use bevy::ecs::query::QueryData;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use gridpath::mapf::crowd::{Patience, d2, footprint, nearest_free};
use gridpath::{Grid, Point};
use std::sync::Arc;

/// A body as the gathering and its jams read it.
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

/// Seconds a body in a gathering of several sizes may get no nearer to its [`GatherCell`]
/// before it gives that cell up and settles where it stands (see the module docs). Well under
/// [`DEADLOCK_SECONDS`], so a jam is undone before it counts as a deadlock.
///
/// [`GatherCell`]: crate::GatherCell
/// [`DEADLOCK_SECONDS`]: crate::crowd::DEADLOCK_SECONDS
pub const GATHER_PATIENCE: f32 = 1.5;

/// A gathering body that gave up on a jam: the destination it gathers at, and its patience.
#[derive(Clone, Copy, Debug)]
pub(super) struct GaveUp {
    pub(super) to: Point,
    pub(super) patience: Patience,
}

/// A gathering, as [`give_up_on_jams`] changes it.
pub(super) struct Jams<'a> {
    pub(super) nav: &'a NavGrid,
    /// Its destination, and its cells, nearest first.
    pub(super) to: Point,
    pub(super) cells: &'a [Point],
    /// The cells its places cover.
    pub(super) claimed: &'a mut HashSet<Point>,
    pub(super) gave_up: &'a mut HashMap<Entity, GaveUp>,
}

/// At most this many bodies give up in one frame (each looks through the gathering's cells).
pub(super) const GIVE_UPS_PER_FRAME: usize = 8;

/// Gives up the places of bodies jammed on their way to them (see [`gather`]): once a
/// [`GATHER_PATIENCE`], and again only after that once more, or after getting nearer.
///
/// A jammed body among the gathering's cells settles where it stands: the bodies whose places
/// it covers are elsewhere, not jammed there, and settle near where they are. One still
/// outside them settles for the free place nearest to where it stands (at the edge of the
/// gathering, not beyond the jam), and where it stands if it is jammed again on its way there.
/// (Settling only within the cells the gathering would fill, packed, read 0 deadlocked
/// headless against 0.1, but 81 looks of 790 found one in a 10-minute soak, against 2 of 522.)
/// Returns whether any body gave up.
pub(super) fn give_up_on_jams(
    bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    sized: &mut HashMap<u8, Arc<Grid>>,
    mut jams: Jams<'_>,
    assigned: &mut HashMap<Entity, Point>,
) -> bool {
    let mut jammed = jammed(bodies, jams.gave_up, assigned);
    jammed.sort_unstable_by_key(|&(e, ..)| e);
    jammed.truncate(GIVE_UPS_PER_FRAME);
    if jammed.is_empty() {
        return false;
    }
    let size = |e: Entity| bodies.get(e).map_or(1, |b| b.agent.size.max(1));
    // Who claims each cell.
    let mut claims: HashMap<Point, Entity> = assigned
        .iter()
        .flat_map(|(&e, &c)| footprint(c, size(e)).map(move |q| (q, e)))
        .collect();
    let inside: HashSet<Point> = jams.cells.iter().copied().collect();
    for (e, here, k, stalled) in jammed {
        let Some(&mine) = assigned.get(&e) else {
            continue;
        };
        let to = jams.to;
        // Jammed again on its way to the place it settled for: no more looking.
        let mut patience = Patience::default();
        patience.give_up(stalled);
        let again = jams
            .gave_up
            .insert(e, GaveUp { to, patience })
            .is_some_and(|g| g.to == to && !g.patience.nearer_since(stalled));
        let mut unclaim = |e: Entity, at: Point, claims: &mut HashMap<Point, Entity>| {
            for q in footprint(at, size(e)) {
                jams.claimed.remove(&q);
                claims.remove(&q);
            }
        };
        unclaim(e, mine, &mut claims);
        let fits = sized
            .entry(k)
            .or_insert_with(|| jams.nav.grid_for(k))
            .clone();
        let mut evicted = Vec::new();
        let place = if (again || inside.contains(&here)) && fits.is_passable(here) {
            let covered: HashSet<Entity> = footprint(here, k)
                .filter_map(|q| claims.get(&q).copied())
                .collect();
            for other in covered {
                if let Some(at) = assigned.remove(&other) {
                    unclaim(other, at, &mut claims);
                    evicted.push(other);
                }
            }
            here
        } else {
            nearest_free(jams.cells, &fits, |q| jams.claimed.contains(&q), here, k)
                .filter(|&p| d2(p, here) < d2(mine, here))
                .unwrap_or(mine)
        };
        jams.claimed.extend(footprint(place, k));
        claims.extend(footprint(place, k).map(|q| (q, e)));
        assigned.insert(e, place);
        // Those it displaced settle for the free place nearest to where they are, so that
        // one jam undone does not send others deep into the gathering.
        for other in evicted {
            resettle(bodies, sized, &mut jams, &mut claims, assigned, other);
        }
    }
    true
}

/// The bodies jammed on their way to their places: no nearer for a patience since they last
/// gave up (or got nearer). With where each stands, its size and how long it has been stalled.
fn jammed(
    bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    gave_up: &HashMap<Entity, GaveUp>,
    assigned: &HashMap<Entity, Point>,
) -> Vec<(Entity, Point, u8, f32)> {
    let mut jammed = Vec::new();
    for (&e, &place) in assigned.iter() {
        let Ok(GatheringItem {
            agent,
            progress,
            motion,
            ..
        }) = bodies.get(e)
        else {
            continue;
        };
        let stalled = motion.stalled();
        let patience = gave_up.get(&e).map(|g| g.patience).unwrap_or_default();
        if progress.cell() != place && patience.run_out(stalled, GATHER_PATIENCE) {
            jammed.push((e, progress.cell(), agent.size.max(1), stalled));
        }
    }
    jammed
}

/// A body displaced by a jammed one settles for the free place nearest to where it is.
fn resettle(
    bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    sized: &mut HashMap<u8, Arc<Grid>>,
    jams: &mut Jams<'_>,
    claims: &mut HashMap<Point, Entity>,
    assigned: &mut HashMap<Entity, Point>,
    other: Entity,
) {
    let Ok(GatheringItem {
        agent,
        progress,
        motion,
        ..
    }) = bodies.get(other)
    else {
        return;
    };
    let k = agent.size.max(1);
    let fits = sized.entry(k).or_insert_with(|| jams.nav.grid_for(k));
    let claimed = &*jams.claimed;
    let Some(place) = nearest_free(
        jams.cells,
        fits,
        |q| claimed.contains(&q),
        progress.cell(),
        k,
    ) else {
        return;
    };
    jams.claimed.extend(footprint(place, k));
    claims.extend(footprint(place, k).map(|q| (q, other)));
    assigned.insert(other, place);
    let mut patience = Patience::default();
    patience.give_up(motion.stalled());
    jams.gave_up.insert(
        other,
        GaveUp {
            to: jams.to,
            patience,
        },
    );
}
