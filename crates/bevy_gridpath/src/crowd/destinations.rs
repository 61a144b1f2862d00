//! The crowd's bodies by destination, kept up to date from the bodies that changed.

use super::body::Body;
use super::body::{Gathering, GatheringItem};
use crate::agent::{Destination, GridAgent};
use crate::flow::SharedFlow;
use crate::nav_grid::NavGrid;
use bevy::ecs::entity::EntityHashMap;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use gridpath::mapf::crowd::{Member, distance_fifths as distance};
use gridpath::{Movement, Point};

/// A destination, and the moves of the bodies bound for it.
pub(super) type Key = (Point, Movement);

type Bodies<'w, 's> = Query<'w, 's, Gathering, (With<Body>, Without<SharedFlow>)>;

/// Which bodies go where. Most bodies of a crowd of wanderers go to a destination of their own,
/// and finding the few that share one by a pass over all of them cost 1 ms a frame at 10,000
/// bodies, on most frames (a wanderer that arrives somewhere is sent on at once). So the bodies
/// are filed by destination once, and filed again only when [`GatherDue`] sees them change.
///
/// [`GatherDue`]: super::gather_due::GatherDue
#[derive(Default)]
pub(super) struct Destinations {
    /// Filed since the crowd had a grid: a body changed while there was none is not seen.
    filed: bool,
    of: EntityHashMap<(Key, u8)>,
    members: HashMap<Key, Vec<(Entity, u8)>>,
    /// The gatherings: destinations of more than one body, or of a body bigger than one cell.
    shared: HashSet<Key>,
}

impl Destinations {
    /// To be filed afresh at the next hand-out.
    pub(super) fn forget(&mut self) {
        self.filed = false;
    }

    /// Files again the bodies in `seen` (those that changed or went): each under where it goes
    /// now. A body that no longer gathers (it goes nowhere, or alone to a cell of its own
    /// size) loses any cell it was given. Returns the destinations whose bodies changed, and
    /// those of the bodies in `seen`.
    pub(super) fn file(
        &mut self,
        bodies: &Bodies,
        seen: &[Entity],
        commands: &mut Commands,
    ) -> HashSet<Key> {
        let mut changed = HashSet::new();
        if !self.filed {
            *self = Self {
                filed: true,
                ..Self::default()
            };
            for b in bodies {
                changed.extend(self.note(b.entity, filed_as(b.agent, b.destination)));
            }
        }
        for &e in seen {
            let now = bodies
                .get(e)
                .ok()
                .and_then(|b| filed_as(b.agent, b.destination));
            changed.extend(self.note(e, now));
        }
        // Whoever may now be alone where it goes, or nowhere.
        let alone = |key: &Key| self.members.get(key).map_or(&[][..], |m| &m[..]);
        let lone: Vec<Entity> = changed
            .iter()
            .flat_map(|key| match alone(key) {
                [(e, 1)] => Some(*e),
                _ => None,
            })
            .chain(seen.iter().copied().filter(|e| !self.of.contains_key(e)))
            .collect();
        for e in lone {
            if bodies.get(e).is_ok_and(|b| b.gathering.is_some()) {
                commands.entity(e).remove::<super::body::GatherCell>();
            }
        }
        changed.extend(seen.iter().filter_map(|e| self.of.get(e).map(|f| f.0)));
        changed
    }

    /// Files `e` under `now` (or nowhere); returns the destinations whose bodies changed.
    fn note(&mut self, e: Entity, now: Option<(Key, u8)>) -> Vec<Key> {
        let before = self.of.get(&e).copied();
        if before == now {
            return Vec::new();
        }
        let mut changed = Vec::new();
        if let Some((key, _)) = before {
            self.of.remove(&e);
            if let Some(list) = self.members.get_mut(&key) {
                list.retain(|m| m.0 != e);
                if list.is_empty() {
                    self.members.remove(&key);
                }
            }
            changed.push(key);
        }
        if let Some((key, size)) = now {
            self.of.insert(e, (key, size));
            self.members.entry(key).or_default().push((e, size));
            changed.push(key);
        }
        for &key in &changed {
            let list = self.members.get(&key).map_or(&[][..], |m| &m[..]);
            if list.len() > 1 || list.iter().any(|m| m.1 > 1) {
                self.shared.insert(key);
            } else {
                self.shared.remove(&key);
            }
        }
        changed
    }

    /// The gatherings, each with the size of its biggest body.
    pub(super) fn shared(&self) -> impl Iterator<Item = (Key, u8)> + '_ {
        self.shared.iter().map(|&key| {
            let list = self.members.get(&key).map_or(&[][..], |m| &m[..]);
            (key, list.iter().map(|m| m.1).max().unwrap_or(1))
        })
    }

    /// How many bodies go to `key`'s destination.
    pub(super) fn count(&self, key: &Key) -> usize {
        self.members.get(key).map_or(0, Vec::len)
    }

    /// The gatherings (or those of them `only` names), each with its bodies in the entities'
    /// order (the order they keep their cells in, where two overlap: nearest first did a
    /// little worse in a chase of 1,000 bodies of three sizes); without the bodies bigger than
    /// one cell alone at theirs that keep their place ([`keeps_alone`]).
    pub(super) fn gatherings(
        &self,
        bodies: &Bodies,
        nav: &NavGrid,
        alone: &mut HashMap<Key, (u64, Entity)>,
        only: Option<&HashSet<Key>>,
    ) -> Vec<(Key, Vec<Member>)> {
        let mut groups = Vec::new();
        let keys: Box<dyn Iterator<Item = &Key>> = match only {
            Some(only) => Box::new(only.iter().filter(|k| self.shared.contains(*k))),
            None => Box::new(self.shared.iter()),
        };
        for &key in keys {
            let list = self.members.get(&key).map_or(&[][..], |m| &m[..]);
            if let [(e, size)] = *list
                && keeps_alone(alone, nav, key, e, size)
            {
                continue;
            }
            let mut members: Vec<Member> = list
                .iter()
                .filter_map(|&(e, size)| Some(member(&bodies.get(e).ok()?, key, size)))
                .collect();
            members.sort_unstable_by_key(|m| m.key);
            groups.push((key, members));
        }
        groups
    }
}

/// A body of the gathering at `key`, of `size`, as its hand-out reads it.
fn member(b: &GatheringItem<'_, '_>, key: Key, size: u8) -> Member {
    let at = b.progress.cell();
    let next = |r| b.progress.next_cell(Some(r));
    let heads = b.route.and_then(|r| Some((r.request.to, next(r)?)));
    Member {
        key: b.entity.to_bits(),
        at,
        size,
        distance: distance(key.1, at, key.0),
        given: b.gathering.map(|g| g.0),
        heads: heads.filter(|(_, n)| n.x.abs_diff(at.x).max(n.y.abs_diff(at.y)) == 1),
        stalled: b.motion.stalled(),
    }
}

/// Where a body is filed: its destination and moves, and its size.
fn filed_as(agent: &GridAgent, destination: Option<&Destination>) -> Option<(Key, u8)> {
    destination.map(|&Destination(to)| ((to, agent.movement), agent.size.max(1)))
}

/// Is `p` more than `reach` moves along x or y from `to`?
pub(super) fn beyond(to: Point, p: Point, reach: u32) -> bool {
    p.x.abs_diff(to.x).max(p.y.abs_diff(to.y)) > reach
}

/// How far from its destination an edit may change the place of a body of `size` alone there
/// (see [`keeps_alone`]), in moves along x or y.
pub(super) fn alone_reach(size: u8) -> u32 {
    3 * u32::from(size).pow(2) + 16 + u32::from(size) + 1
}

/// Does the one body of `size` bound for `key`'s destination keep the place it was given there?
/// Its place is chosen among the nearest `3 · area + 16` cells, found breadth first from the
/// destination: an edit farther off than that many moves (and its size, for the grid it fits
/// on) cannot change it. (The same holds when there was no place for it: it is not looked for
/// again.)
fn keeps_alone(
    alone: &mut HashMap<Key, (u64, Entity)>,
    nav: &NavGrid,
    key: Key,
    e: Entity,
    size: u8,
) -> bool {
    let far = |p: Point| beyond(key.0, p, alone_reach(size));
    let now = (nav.revision(), e);
    // One look-up a body a frame: thousands of big wanderers each stand alone at theirs.
    let Some(seen) = alone.get_mut(&key) else {
        alone.insert(key, now);
        return false;
    };
    let kept = seen.1 == e
        && (seen.0 == now.0 || nav.changes_since(seen.0).is_some_and(|mut c| c.all(far)));
    *seen = now;
    kept
}
