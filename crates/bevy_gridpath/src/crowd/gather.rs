//! Gatherings: bodies that share a destination each get a cell of their own near it.

use super::body::{Body, GatherCell};
use super::destinations::{Destinations, Key, alone_reach, beyond};
use super::gather_due::{Due, GatherDue};
use super::jams::{Gathering, GaveUp, Jams, give_up_on_jams};
use crate::flow::SharedFlow;
use crate::nav_grid::NavGrid;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use gridpath::mapf::crowd::{Mate, footprint, gather_cells, hand_round};
use gridpath::{Grid, Movement, Point};
use std::sync::Arc;

/// Bodies that share a destination get a cell of their own near it.
///
/// Cells are handed out once, nearest body to nearest cell, when the bodies are still far off:
/// by the time they arrive, a body bound for a cell deep in the gathering may find the way
/// filled by bodies already on theirs, and pushing through each of them costs many ticks. So,
/// as in TSWAP (Okumura and Défago, "Solving simultaneous target assignment and path planning
/// efficiently with time-independent execution", ICAPS 2022), a body about to step onto a
/// group-mate already standing on its own cell *swaps cells* with it: it stops there, and the
/// other walks on to the deeper cell. And bodies that each step onto the next one's cell, the
/// last onto the first's, hand their cells round ([`hand_round`]): two in a passage, each
/// bound past the other, need no room to pass.
///
/// That keeps a gathering of bodies of one size moving. But in a gathering of several sizes a
/// body can be jammed on its way in for good: it cannot swap with a body of another size, and a
/// cell deep in a thousand bodies of three sizes, packed wall to wall, may be out of reach of
/// the pushes of one body.
/// One that has got no nearer for [`GATHER_PATIENCE`] gives its cell up ([`give_up_on_jams`])
/// and settles where it stands, or, still outside the gathering's cells, at the free place
/// nearest to where it stands: a place it keeps for as long as the gathering lasts.
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
    mut gave_up: Local<HashMap<Entity, GaveUp>>,
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
    gave_up.retain(|&e, g| sent_to(&bodies, e) == Some(g.to));
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
        let area: usize = members.iter().map(|m| usize::from(m.2).pow(2)).sum();
        let cells = &GatherCells::kept(&mut kept, &nav, movement, to, 3 * area + 16).cells;
        let mixed = members.iter().any(|m| m.2 != members[0].2);
        let mut places = Places {
            nav: &nav,
            to,
            cells,
            claimed: HashSet::default(),
            assigned: HashMap::default(),
            sized: HashMap::default(),
        };
        let left = places.keep(&bodies, &gave_up, members, area);
        places.hand_out(&bodies, left, &mut commands);
        let Places {
            mut claimed,
            mut assigned,
            mut sized,
            ..
        } = places;
        let jams = Jams {
            nav: &nav,
            to,
            cells,
            claimed: &mut claimed,
            gave_up: &mut gave_up,
        };
        if mixed {
            gave_any_up |= give_up_on_jams(&bodies, &mut sized, jams, &mut assigned);
        }
        swap_on_the_way(&bodies, &mut assigned);
        for (e, cell) in assigned {
            if have(&bodies, e) != Some(cell) {
                commands.entity(e).insert(GatherCell(cell));
            }
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

/// The cell a body was given, if any.
fn have(bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>, e: Entity) -> Option<Point> {
    bodies.get(e).ok().and_then(|b| b.gathering.map(|g| g.0))
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
    gave_up: &HashMap<Entity, GaveUp>,
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
        if let Ok(b) = bodies.get(e)
            && let Some(cell) = b.gathering
            && footprint(cell.0, b.agent.size.max(1)).any(|q| near_to(q, 0))
        {
            near.insert((settled.to, b.agent.movement));
        }
    }
    Some(near)
}

/// One gathering's places as they are handed out: the cells claimed, each body's place, and
/// the grid for each size.
struct Places<'a> {
    nav: &'a NavGrid,
    to: Point,
    /// The gathering's cells, nearest first.
    cells: &'a [Point],
    claimed: HashSet<Point>,
    assigned: HashMap<Entity, Point>,
    sized: HashMap<u8, Arc<Grid>>,
}

impl Places<'_> {
    /// A body keeps its cell while that is still among the nearest (a body joining or leaving
    /// moves no one else), and one it settled for after a jam, near or not. Returns the others,
    /// nearest first.
    fn keep(
        &mut self,
        bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
        gave_up: &HashMap<Entity, GaveUp>,
        mut members: Vec<(u32, Entity, u8)>,
        area: usize,
    ) -> Vec<(u32, Entity, u8)> {
        let near: HashSet<Point> = self
            .cells
            .iter()
            .take(area + area / 4 + 4)
            .copied()
            .collect();
        // Places settled for after a jam first: the bodies they cover are elsewhere.
        members.sort_by_key(|m| !gave_up.contains_key(&m.1));
        members.retain(|&(_, e, size)| {
            let nav = self.nav;
            let fits = self.sized.entry(size).or_insert_with(|| nav.grid_for(size));
            let settled = gave_up.contains_key(&e);
            let kept = have(bodies, e).filter(|&c| {
                fits.is_passable(c)
                    && footprint(c, size)
                        .all(|q| (settled || near.contains(&q)) && !self.claimed.contains(&q))
            });
            if let Some(c) = kept {
                self.claimed.extend(footprint(c, size));
                self.assigned.insert(e, c);
            }
            kept.is_none()
        });
        members.sort_unstable();
        members
    }

    /// The bodies left, nearest first, take the nearest places left; one with none left loses
    /// its cell.
    fn hand_out(
        &mut self,
        bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
        members: Vec<(u32, Entity, u8)>,
        commands: &mut Commands,
    ) {
        // Each size's places, nearest middle first, and how far down the list a body of that
        // size has looked (a place that overlaps a claim stays overlapped).
        let mut places: HashMap<u8, (Vec<Point>, usize)> = HashMap::default();
        let (nav, to, cells) = (self.nav, self.to, self.cells);
        for (_, e, size) in members {
            let fits = self.sized.entry(size).or_insert_with(|| nav.grid_for(size));
            let (list, looked) = places.entry(size).or_insert_with(|| {
                let mut list: Vec<Point> = cells
                    .iter()
                    .copied()
                    .filter(|&p| fits.is_passable(p))
                    .collect();
                let k = i32::from(size) - 1;
                let d2 = |p: &Point| (2 * (p.x - to.x) + k).pow(2) + (2 * (p.y - to.y) + k).pow(2);
                list.sort_by_key(|p| (d2(p), *p));
                (list, 0)
            });
            while *looked < list.len()
                && footprint(list[*looked], size).any(|q| self.claimed.contains(&q))
            {
                *looked += 1;
            }
            match list.get(*looked) {
                Some(&place) => {
                    self.claimed.extend(footprint(place, size));
                    self.assigned.insert(e, place);
                }
                None if have(bodies, e).is_some() => {
                    commands.entity(e).remove::<GatherCell>();
                }
                None => {}
            }
        }
    }
}

/// TSWAP's two ways of handing cells round a gathering (see [`gather`]), read off where each
/// body stands and the cell it steps onto next.
fn swap_on_the_way(
    bodies: &Query<Gathering, (With<Body>, Without<SharedFlow>)>,
    assigned: &mut HashMap<Entity, Point>,
) {
    let mut mates: Vec<(Entity, Mate)> = assigned
        .iter()
        .filter_map(|(&e, &cell)| {
            let b = bodies.get(e).ok()?;
            let (agent, progress, route) = (b.agent, b.progress, b.route);
            let at = progress.cell();
            // Only a step along a route to its cell: one still bound for a cell it was given
            // before, or pushed off its route, would be read as wanting a way it does not go.
            let next = route
                .filter(|r| r.request.to == cell && at != cell)
                .and_then(|r| progress.next_cell(Some(r)))
                .filter(|n| n.x.abs_diff(at.x).max(n.y.abs_diff(at.y)) == 1);
            Some((
                e,
                Mate {
                    at,
                    next,
                    size: agent.size,
                },
            ))
        })
        .collect();
    mates.sort_unstable_by_key(|&(e, _)| e);
    let seen: Vec<Mate> = mates.iter().map(|&(_, m)| m).collect();
    let mut cells: Vec<Option<Point>> = mates
        .iter()
        .map(|(e, _)| assigned.get(e).copied())
        .collect();
    hand_round(&seen, &mut cells);
    for ((e, _), cell) in mates.iter().zip(cells) {
        if let Some(cell) = cell {
            assigned.insert(*e, cell);
        }
    }
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
