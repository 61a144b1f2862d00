//! Gatherings: bodies that share a destination each get a cell of their own near it.

use super::body::Gathering;
use super::body::{Body, GatherCell};
use super::destinations::{Destinations, Key, alone_reach, beyond};
use super::gather_due::{Due, GatherDue};
use crate::flow::SharedFlow;
use crate::nav_grid::NavGrid;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use gridpath::mapf::crowd::{GaveUp, cells_wanted, footprint, gather_cells, hand_out};
use gridpath::{Movement, Point};

/// Bodies that share a destination get a cell of their own near it, handed out, swapped on the
/// way and given up after a jam by [`hand_out`] (see there).
///
/// It runs only on frames where something a gathering is made of changed ([`GatherDue`]).
pub(super) fn gather(
    nav: Option<Res<NavGrid>>,
    mut due: GatherDue,
    bodies: Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    mut commands: Commands,
    // A big body alone on its destination keeps the place it was given while no edit comes
    // near it: by destination, the grid's revision it was last checked on and the body.
    mut alone: Local<HashMap<(Point, Movement), (u64, Entity)>>,
    mut gave_up: Local<std::collections::HashMap<u64, GaveUp>>,
    mut kept: Local<HashMap<(Point, Movement), GatherCells>>,
    mut filed: Local<Destinations>,
    mut seen: Local<Vec<Entity>>,
) {
    let Some(nav) = nav else {
        filed.forget(); // what changes while there is no grid goes unseen
        return;
    };
    if !due.gathering() {
        return take_cells_back(&bodies, &mut commands, &mut filed);
    }
    let Some(due_now) = due.now(&nav, &mut seen) else {
        return;
    };
    let mut gave_any_up = false;
    gave_up.retain(|&e, g| sent_to(&bodies, Entity::from_bits(e)) == Some(g.to));
    let changed = filed.file(&bodies, &seen, &mut commands);
    forget_what_changed(&filed, &changed, &mut alone, &mut kept);
    let only = match due_now {
        Due::Everything => None,
        Due::Seen => Some(changed),
        Due::Edit { since } => {
            near_edit(&nav, since, &filed, &kept, &bodies, &gave_up).map(|mut near| {
                near.extend(changed);
                near
            })
        }
    };
    let groups = filed.gatherings(&bodies, &nav, &mut alone, only.as_ref());
    for ((to, movement), members) in groups {
        let n = cells_wanted(&members);
        let cells = &GatherCells::kept(&mut kept, &nav, movement, to, n).cells;
        let mut grid_for = |size: u8| nav.grid_for(size);
        let (changed, gave) = hand_out(to, cells, &members, &mut gave_up, &mut grid_for);
        gave_any_up |= gave;
        for (key, cell) in changed {
            let mut body = commands.entity(Entity::from_bits(key));
            match cell {
                Some(cell) => body.insert(GatherCell(cell)),
                None => body.remove::<GatherCell>(),
            };
        }
    }
    due.ran(gave_any_up, nav.revision());
}

/// What was kept for a destination whose bodies changed: its lone body's place unless it still
/// has exactly one, its cells unless it still has any.
fn forget_what_changed(
    filed: &Destinations,
    changed: &HashSet<Key>,
    alone: &mut HashMap<Key, (u64, Entity)>,
    kept: &mut HashMap<Key, GatherCells>,
) {
    for key in changed {
        if filed.count(key) != 1 {
            alone.remove(key);
        }
        if filed.count(key) == 0 {
            kept.remove(key);
        }
    }
}

/// The gatherings an edit since the grid's revision `since` may change (`None` when the grid
/// cannot say what changed): those whose cells it came near (as [`GatherCells::kept`] would
/// find them again, or keep a big body off them), or near the place of a big body alone at its destination (as
/// [`alone_reach`] says); and those of the bodies whose cell it covered that settled after a
/// jam (such a place may lie far from its gathering's cells).
fn near_edit(
    nav: &NavGrid,
    since: u64,
    filed: &Destinations,
    kept: &HashMap<Key, GatherCells>,
    bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    gave_up: &std::collections::HashMap<u64, GaveUp>,
) -> Option<HashSet<Key>> {
    let boxes = nav.changed_boxes_since(since)?;
    let near_to = |p: Point, reach: u32| {
        boxes.iter().any(|&(low, high)| {
            let nearest = Point::new(p.x.clamp(low.x, high.x), p.y.clamp(low.y, high.y));
            !beyond(p, nearest, reach)
        })
    };
    let mut near: HashSet<Key> = filed
        .shared()
        .filter(|&(key, size)| {
            // A wall may keep a big body off a cell up to its size down and right of it.
            let reach = kept
                .get(&key)
                .map_or_else(|| alone_reach(size), |g| g.reach + u32::from(size));
            near_to(key.0, reach)
        })
        .map(|(key, _)| key)
        .collect();
    // Every other body's cell is among its gathering's cells.
    for (&e, settled) in gave_up {
        if let Ok(b) = bodies.get(Entity::from_bits(e))
            && let Some(cell) = b.gathering
            && footprint(cell.0, b.agent.size.max(1)).any(|q| near_to(q, 0))
        {
            near.insert((settled.to, b.agent.movement));
        }
    }
    Some(near)
}

/// A gathering's cells ([`gather_cells`]), kept between frames: found again only when the
/// gathering grows or shrinks, or an edit comes near enough to change them. (A thousand
/// chasers of mixed sizes look through 28,000 cells: 2.4 ms a frame in a dev build.)
pub(super) struct GatherCells {
    n: usize,
    /// The grid's revision they are good for, and how far from the destination the search
    /// reached (in moves along x or y): edits farther off than one more cannot change them.
    revision: u64,
    reach: u32,
    cells: Vec<Point>,
}

impl GatherCells {
    /// The `n` cells of the gathering at `to`, from `kept` while still good.
    fn kept<'k>(
        kept: &'k mut HashMap<(Point, Movement), GatherCells>,
        nav: &NavGrid,
        movement: Movement,
        to: Point,
        n: usize,
    ) -> &'k GatherCells {
        let revision = nav.revision();
        let entry = kept.entry((to, movement));
        let fresh = |g: &GatherCells| {
            let far = |p: Point| beyond(to, p, g.reach + 1);
            g.n == n
                && nav
                    .changes_since(g.revision)
                    .is_some_and(|mut c| c.all(far))
        };
        entry
            .and_modify(|g| {
                if !fresh(g) {
                    (g.cells, g.reach) = gather_cells(nav.grid(), movement, to, n);
                    g.n = n;
                }
                g.revision = revision;
            })
            .or_insert_with(|| {
                let (cells, reach) = gather_cells(nav.grid(), movement, to, n);
                GatherCells {
                    n,
                    revision,
                    reach,
                    cells,
                }
            })
    }
}

/// Each body goes to its destination itself ([`Crowd::gather`] off): the cells given out are
/// taken back, and the bodies filed afresh if gathering comes back on.
///
/// [`Crowd::gather`]: crate::Crowd::gather
fn take_cells_back(
    bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    commands: &mut Commands,
    filed: &mut Destinations,
) {
    filed.forget();
    for b in bodies.iter().filter(|b| b.gathering.is_some()) {
        commands.entity(b.entity).remove::<GatherCell>();
    }
}

/// Where body `e` was sent, if it is a gathering body.
fn sent_to(
    bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    e: Entity,
) -> Option<Point> {
    bodies.get(e).ok()?.destination.map(|d| d.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gatherings_cells_are_kept_till_an_edit_comes_near_them() {
        let mut nav = NavGrid::new(64, 64).expect("a grid");
        let movement = Movement::EightWay(gridpath::CornerRule::NeverCut);
        let to = Point::new(10, 10);
        let mut kept = HashMap::default();
        let fresh = |nav: &NavGrid| gather_cells(nav.grid(), movement, to, 40).0;
        let first = GatherCells::kept(&mut kept, &nav, movement, to, 40)
            .cells
            .clone();
        assert_eq!(first, fresh(&nav));
        // A wall far off: the same cells, not searched again (the very same list).
        let list = kept[&(to, movement)].cells.as_ptr();
        nav.block(Point::new(60, 60), Entity::from_bits(1));
        let again = GatherCells::kept(&mut kept, &nav, movement, to, 40);
        assert_eq!(again.cells.as_ptr(), list);
        assert_eq!(again.cells, first);
        // A wall on one of them: searched again, and it is gone.
        nav.block(first[5], Entity::from_bits(2));
        let now = GatherCells::kept(&mut kept, &nav, movement, to, 40)
            .cells
            .clone();
        assert_eq!(now, fresh(&nav));
        assert!(!now.contains(&first[5]));
        // The gathering grows: searched again.
        assert_eq!(
            GatherCells::kept(&mut kept, &nav, movement, to, 60).cells,
            gather_cells(nav.grid(), movement, to, 60).0
        );
    }
}
