//! Every gathering of a live crowd, kept from frame to frame ([`Gatherings`]): which bodies go
//! where, each gathering's cells, and who settled after a jam; handed out again only where
//! something changed.
//!
//! Most bodies of a crowd of wanderers go to a destination of their own, and finding the few
//! that share one by a pass over all of them cost 1 ms a frame at 10,000 bodies, on most frames
//! (a wanderer that arrives somewhere is sent on at once). So the bodies are filed by
//! destination once, and filed again only when the caller sees them change. A gathering's
//! cells are kept until it grows or shrinks, or an edit comes near enough to change them (a
//! thousand chasers of mixed sizes look through 28,000 cells: 2.4 ms a frame in a dev build),
//! and a big body alone at its destination keeps its place while no edit comes near it.
//!
//! ```text
//! each frame something a gathering is made of changed (`Due`):
//!     file again the bodies seen; a body alone (or nowhere) loses its place
//!     forget the cells and lone places of destinations whose bodies changed
//!     for each gathering due (all; those of the bodies seen; or those an edit came near):
//!         its cells, kept or found again; hand_out its places
//! ```

use super::gather::gather_cells;
use super::hand_out::{GaveUp, Member, cells_wanted, hand_out};
use super::map::{CrowdMap, beyond};
use super::rules::{distance_fifths, footprint};
use crate::grid::Point;
use crate::mapf::fx::{FxMap, FxSet};
use crate::movement::Movement;

/// A destination, and the moves of the bodies bound for it: a gathering.
pub type GatheringKey = (Point, Movement);
type Key = GatheringKey;

/// A body as the gatherings read it.
#[derive(Clone, Copy, Debug)]
pub struct Gatherer {
    /// What names it (bodies are filed and handed places by it).
    pub key: u64,
    /// Its cell, its size in cells across, and how it moves.
    pub at: Point,
    /// See `at`.
    pub size: u8,
    /// See `at`.
    pub movement: Movement,
    /// Where it was sent, if anywhere.
    pub destination: Option<Point>,
    /// The place it was given last, if any.
    pub given: Option<Point>,
    /// Where its route goes and its next cell along it (one move away), if it has one.
    pub heads: Option<(Point, Point)>,
    /// Seconds it has got no nearer to where it goes.
    pub stalled: f32,
}

impl Gatherer {
    /// Where it is filed: its destination and moves, and its size.
    fn filed_as(&self) -> Option<(Key, u8)> {
        self.destination
            .map(|to| ((to, self.movement), self.size.max(1)))
    }
}

/// Which gatherings are due for a hand-out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// Every one: a tick moved the bodies, or the last hand-out gave places up.
    Everything,
    /// Those the edits since the map's revision `since` may change (whose cells an edit came
    /// near, or the place a jammed body settled for), and those of the bodies seen. A wall
    /// stroke among 10,000 wanderers comes near a few of their 220 gatherings and 2,900 big
    /// bodies alone at their destinations: handing them all out again cost the stroke's frame
    /// 5 to 8 ms, these alone 1 to 2 ms.
    Edit {
        /// The map's revision at the last hand-out.
        since: u64,
    },
    /// Only those of the bodies seen.
    Seen,
}

/// A gathering's cells ([`gather_cells`]), kept between frames.
#[derive(Debug)]
struct GatherCells {
    n: usize,
    /// The map's revision they are good for, and how far from the destination the search
    /// reached (in moves along x or y): edits farther off than one more cannot change them.
    revision: u64,
    reach: u32,
    cells: Vec<Point>,
}

/// The crowd's gatherings, kept from frame to frame (see the module docs).
#[derive(Debug, Default)]
pub struct Gatherings {
    /// Filed since the crowd had a map: a body changed while there was none is not seen.
    filed: bool,
    of: FxMap<u64, (Key, u8)>,
    members: FxMap<Key, Vec<(u64, u8)>>,
    /// The gatherings: destinations of more than one body, or of a body bigger than one cell.
    shared: FxSet<Key>,
    /// A big body alone on its destination keeps the place it was given while no edit comes
    /// near it: by destination, the map's revision it was last checked on, and the body.
    alone: FxMap<Key, (u64, u64)>,
    cells: FxMap<Key, GatherCells>,
    gave_up: FxMap<u64, GaveUp>,
    /// The crowd's ticks at the last hand-out, whether it changed anything, and the map's
    /// revision then.
    last: Option<(u64, bool, u64)>,
}

/// What a hand-out reads of the crowd: every body (read only when they are filed afresh), and
/// one body by its key.
pub struct GatheringBodies<'a> {
    /// Every gathering body.
    pub all: &'a mut dyn Iterator<Item = Gatherer>,
    /// One body, if it is still a gathering body.
    pub one: &'a dyn Fn(u64) -> Option<Gatherer>,
}

impl Gatherings {
    /// To be filed afresh at the next hand-out (the caller stops seeing what changes).
    pub fn forget(&mut self) {
        self.filed = false;
    }

    /// Which gatherings are due at the crowd's tick `ticks` on the map of `revision`, if any,
    /// given whether any body changed or went since the last frame (`seen_any`). Bodies change
    /// cells only at ticks, so between them a hand-out would come out the same frame after
    /// frame (at 10,000 wanderers, as many instructions as the crowd's whole step): after a
    /// tick, or a hand-out that changed something, every gathering is; after an edit, those it
    /// came near; else those of the bodies seen. A jammed body's patience runs out with time,
    /// unwatched: it gives up at most a tick late.
    pub fn due(&self, ticks: u64, revision: u64, seen_any: bool) -> Option<Due> {
        match self.last {
            Some((ticked, false, since)) if ticked == ticks => {
                if since != revision {
                    Some(Due::Edit { since })
                } else {
                    seen_any.then_some(Due::Seen)
                }
            }
            _ => Some(Due::Everything),
        }
    }

    /// Notes a hand-out at the crowd's tick `ticks` on the map of `revision` that did (or did
    /// not) change a place or give one up.
    pub fn ran(&mut self, ticks: u64, changed: bool, revision: u64) {
        self.last = Some((ticks, changed, revision));
    }

    /// Hands out the places of the gatherings `due` (the bodies `seen` changed or went since the
    /// last hand-out) on `map`: every place that changed (`None`: its body has none now), and
    /// whether any body gave up on a jam (then hand every gathering out again next frame).
    pub fn hand_out(
        &mut self,
        map: &dyn CrowdMap,
        due: Due,
        seen: &[u64],
        bodies: GatheringBodies<'_>,
    ) -> (Vec<(u64, Option<Point>)>, bool) {
        let one = bodies.one;
        self.gave_up
            .retain(|&key, g| one(key).and_then(|b| b.destination) == Some(g.to));
        let (changed, mut places) = self.file(bodies, seen);
        self.forget_what_changed(&changed);
        let only = match due {
            Due::Everything => None,
            Due::Seen => Some(changed),
            Due::Edit { since } => self.near_edit(map, since, one).map(|mut near| {
                near.extend(changed);
                near
            }),
        };
        let mut gave_any_up = false;
        for (key, members) in self.gatherings(map, one, only.as_ref()) {
            let n = cells_wanted(&members);
            let cells = &cells_of(&mut self.cells, map, key, n).cells;
            let mut grid_for = |size: u8| map.grid_for(size);
            let gave_up = &mut self.gave_up;
            let (changed, gave) = hand_out(key.0, cells, &members, gave_up, &mut grid_for);
            places.extend(changed);
            gave_any_up |= gave;
        }
        (places, gave_any_up)
    }

    /// Files again the bodies `seen` (those that changed or went): each under where it goes
    /// now. A body that no longer gathers (it goes nowhere, or alone to a cell of its own size)
    /// loses any place it was given. Returns the destinations whose bodies changed, and those
    /// of the bodies seen; and the places lost.
    fn file(
        &mut self,
        bodies: GatheringBodies<'_>,
        seen: &[u64],
    ) -> (FxSet<Key>, Vec<(u64, Option<Point>)>) {
        let mut changed = FxSet::default();
        if !self.filed {
            self.of.clear();
            self.members.clear();
            self.shared.clear();
            self.filed = true;
            for b in bodies.all {
                changed.extend(self.note(b.key, b.filed_as()));
            }
        }
        for &key in seen {
            let now = (bodies.one)(key).and_then(|b| b.filed_as());
            changed.extend(self.note(key, now));
        }
        // Whoever may now be alone where it goes, or nowhere.
        let alone = |key: &Key| self.members.get(key).map_or(&[][..], |m| &m[..]);
        let lone: Vec<u64> = changed
            .iter()
            .flat_map(|key| match alone(key) {
                [(b, 1)] => Some(*b),
                _ => None,
            })
            .chain(seen.iter().copied().filter(|b| !self.of.contains_key(b)))
            .collect();
        let lost = lone
            .into_iter()
            .filter(|&b| (bodies.one)(b).is_some_and(|b| b.given.is_some()))
            .map(|b| (b, None))
            .collect();
        changed.extend(seen.iter().filter_map(|b| self.of.get(b).map(|f| f.0)));
        (changed, lost)
    }

    /// Files `body` under `now` (or nowhere); returns the destinations whose bodies changed.
    fn note(&mut self, body: u64, now: Option<(Key, u8)>) -> Vec<Key> {
        let before = self.of.get(&body).copied();
        if before == now {
            return Vec::new();
        }
        let mut changed = Vec::new();
        if let Some((key, _)) = before {
            self.of.remove(&body);
            if let Some(list) = self.members.get_mut(&key) {
                list.retain(|m| m.0 != body);
                if list.is_empty() {
                    self.members.remove(&key);
                }
            }
            changed.push(key);
        }
        if let Some((key, size)) = now {
            self.of.insert(body, (key, size));
            self.members.entry(key).or_default().push((body, size));
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

    /// How many bodies go to `key`'s destination.
    fn count(&self, key: &Key) -> usize {
        self.members.get(key).map_or(0, Vec::len)
    }

    /// What was kept for a destination whose bodies changed: its lone body's place unless it
    /// still has exactly one, its cells unless it still has any.
    fn forget_what_changed(&mut self, changed: &FxSet<Key>) {
        for key in changed {
            if self.count(key) != 1 {
                self.alone.remove(key);
            }
            if self.count(key) == 0 {
                self.cells.remove(key);
            }
        }
    }

    /// The gatherings an edit since the map's revision `since` may change (`None` when the map
    /// cannot say what changed): those whose cells it came near (as [`cells_of`] would
    /// find them again, or keep a big body off them), or near the place of a big body alone at
    /// its destination (as [`alone_reach`] says); and those of the bodies whose cell it
    /// covered that settled after a jam (such a place may lie far from its gathering's cells).
    fn near_edit(
        &self,
        map: &dyn CrowdMap,
        since: u64,
        one: &dyn Fn(u64) -> Option<Gatherer>,
    ) -> Option<FxSet<Key>> {
        let boxes = map.changed_boxes_since(since)?;
        let near_to = |p: Point, reach: u32| {
            boxes.iter().any(|&(low, high)| {
                let nearest = Point::new(p.x.clamp(low.x, high.x), p.y.clamp(low.y, high.y));
                !beyond(p, nearest, reach)
            })
        };
        let mut near: FxSet<Key> = FxSet::default();
        for &key in &self.shared {
            let list = self.members.get(&key).map_or(&[][..], |m| &m[..]);
            let size = list.iter().map(|m| m.1).max().unwrap_or(1);
            // A wall may keep a big body off a cell up to its size down and right of it.
            let reach = self
                .cells
                .get(&key)
                .map_or_else(|| alone_reach(size), |g| g.reach + u32::from(size));
            if near_to(key.0, reach) {
                near.insert(key);
            }
        }
        // Every other body's place is among its gathering's cells.
        for (&key, settled) in &self.gave_up {
            if let Some(b) = one(key)
                && let Some(cell) = b.given
                && footprint(cell, b.size.max(1)).any(|q| near_to(q, 0))
            {
                near.insert((settled.to, b.movement));
            }
        }
        Some(near)
    }

    /// The gatherings (or those of them `only` names), each with its bodies in their keys'
    /// order (the order they keep their places in, where two overlap: nearest first did a
    /// little worse in a chase of 1,000 bodies of three sizes); without the bodies bigger than
    /// one cell alone at theirs that keep their place ([`Self::keeps_alone`]).
    fn gatherings(
        &mut self,
        map: &dyn CrowdMap,
        one: &dyn Fn(u64) -> Option<Gatherer>,
        only: Option<&FxSet<Key>>,
    ) -> Vec<(Key, Vec<Member>)> {
        let keys: Vec<Key> = match only {
            Some(only) => only
                .iter()
                .filter(|k| self.shared.contains(*k))
                .copied()
                .collect(),
            None => self.shared.iter().copied().collect(),
        };
        let mut groups = Vec::new();
        for key in keys {
            let list = self.members.get(&key).map_or(&[][..], |m| &m[..]);
            if let [(body, size)] = *list
                && self.keeps_alone(map, key, body, size)
            {
                continue;
            }
            let list = self.members.get(&key).map_or(&[][..], |m| &m[..]);
            let mut members: Vec<Member> = list
                .iter()
                .filter_map(|&(body, size)| Some(member(&one(body)?, key, size)))
                .collect();
            members.sort_unstable_by_key(|m| m.key);
            groups.push((key, members));
        }
        groups
    }

    /// Does the one `body` of `size` bound for `key`'s destination keep the place it was given
    /// there? Its place is chosen among the nearest `3 · area + 16` cells, found breadth first
    /// from the destination: an edit farther off than that many moves (and its size, for the
    /// grid it fits on) cannot change it. (The same holds when there was no place for it: it
    /// is not looked for again.)
    fn keeps_alone(&mut self, map: &dyn CrowdMap, key: Key, body: u64, size: u8) -> bool {
        let far = |p: Point| beyond(key.0, p, alone_reach(size));
        let now = (map.revision(), body);
        // One look-up a body a frame: thousands of big wanderers each stand alone at theirs.
        let Some(seen) = self.alone.get_mut(&key) else {
            self.alone.insert(key, now);
            return false;
        };
        let kept = seen.1 == body
            && (seen.0 == now.0 || map.changes_since(seen.0).is_some_and(|mut c| c.all(far)));
        *seen = now;
        kept
    }
}

/// The `n` cells of the gathering at `key`, kept while still good.
fn cells_of<'k>(
    kept: &'k mut FxMap<Key, GatherCells>,
    map: &dyn CrowdMap,
    key: Key,
    n: usize,
) -> &'k GatherCells {
    let (to, movement) = key;
    let revision = map.revision();
    let fresh = |g: &GatherCells| {
        let far = |p: Point| beyond(to, p, g.reach + 1);
        g.n == n
            && map
                .changes_since(g.revision)
                .is_some_and(|mut c| c.all(far))
    };
    kept.entry(key)
        .and_modify(|g| {
            if !fresh(g) {
                (g.cells, g.reach) = gather_cells(map.grid(), movement, to, n);
                g.n = n;
            }
            g.revision = revision;
        })
        .or_insert_with(|| {
            let (cells, reach) = gather_cells(map.grid(), movement, to, n);
            GatherCells {
                n,
                revision,
                reach,
                cells,
            }
        })
}

/// A body of the gathering at `key`, filed with `size`, as its hand-out reads it.
fn member(b: &Gatherer, key: Key, size: u8) -> Member {
    Member {
        key: b.key,
        at: b.at,
        size,
        distance: distance_fifths(key.1, b.at, key.0),
        given: b.given,
        heads: b.heads,
        stalled: b.stalled,
    }
}

/// How far from its destination an edit may change the place of a body of `size` alone there
/// (see [`Gatherings::keeps_alone`]), in moves along x or y.
fn alone_reach(size: u8) -> u32 {
    3 * u32::from(size).pow(2) + 16 + u32::from(size) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::movement::CornerRule;
    use std::sync::Arc;

    /// A map that logs its walls as they are painted.
    struct Logged {
        grid: Grid,
        log: Vec<Point>,
    }

    impl Logged {
        fn open(width: u32, height: u32) -> Self {
            let grid = Grid::new(width, height).expect("a grid");
            Self {
                grid,
                log: Vec::new(),
            }
        }

        fn wall(&mut self, p: Point) {
            self.grid.set_blocked(p, true).expect("on the grid");
            self.log.push(p);
        }
    }

    impl CrowdMap for Logged {
        fn grid(&self) -> &Grid {
            &self.grid
        }

        fn grid_for(&self, _: u8) -> Arc<Grid> {
            Arc::new(self.grid.clone())
        }

        fn revision(&self) -> u64 {
            self.log.len() as u64
        }

        fn changes_since(&self, revision: u64) -> Option<Box<dyn Iterator<Item = Point> + '_>> {
            let from = usize::try_from(revision).ok()?;
            Some(Box::new(self.log.get(from..)?.iter().copied()))
        }
    }

    #[test]
    fn a_gatherings_cells_are_kept_till_an_edit_comes_near_them() {
        let mut map = Logged::open(64, 64);
        let movement = Movement::EightWay(CornerRule::NeverCut);
        let key = (Point::new(10, 10), movement);
        let mut kept = FxMap::default();
        let fresh = |map: &Logged| gather_cells(&map.grid, movement, key.0, 40).0;
        let first = cells_of(&mut kept, &map, key, 40).cells.clone();
        assert_eq!(first, fresh(&map));
        // A wall far off: the same cells, not searched again (the very same list).
        let list = kept[&key].cells.as_ptr();
        map.wall(Point::new(60, 60));
        let again = cells_of(&mut kept, &map, key, 40);
        assert_eq!(again.cells.as_ptr(), list);
        assert_eq!(again.cells, first);
        // A wall on one of them: searched again, and it is gone.
        map.wall(first[5]);
        let now = cells_of(&mut kept, &map, key, 40).cells.clone();
        assert_eq!(now, fresh(&map));
        assert!(!now.contains(&first[5]));
        // The gathering grows: searched again.
        let grown = cells_of(&mut kept, &map, key, 60).cells.clone();
        assert_eq!(grown, gather_cells(&map.grid, movement, key.0, 60).0);
    }

    #[test]
    fn bodies_sent_to_one_cell_each_get_a_place_and_keep_it_while_others_leave() {
        let map = Logged::open(32, 32);
        let to = Point::new(16, 16);
        let mut bodies: Vec<Gatherer> = (0..5)
            .map(|k| Gatherer {
                key: k,
                at: Point::new(2 + 3 * k as i32, 2),
                size: 1,
                movement: Movement::FourWay,
                destination: Some(to),
                given: None,
                heads: None,
                stalled: 0.0,
            })
            .collect();
        let mut gatherings = Gatherings::default();
        let mut run = |bodies: &mut Vec<Gatherer>, due: Due, seen: &[u64]| {
            let snapshot = bodies.clone();
            let one = |key: u64| snapshot.iter().find(|b| b.key == key).copied();
            let all = &mut snapshot.iter().copied();
            let bodies_now = GatheringBodies { all, one: &one };
            let (places, gave_up) = gatherings.hand_out(&map, due, seen, bodies_now);
            assert!(!gave_up);
            for (key, place) in places {
                if let Some(b) = bodies.iter_mut().find(|b| b.key == key) {
                    b.given = place;
                }
            }
        };
        run(&mut bodies, Due::Everything, &[]);
        let places: FxSet<Point> = bodies.iter().filter_map(|b| b.given).collect();
        assert_eq!(places.len(), 5, "{bodies:?}");
        assert!(places.contains(&to));
        assert!(places.iter().all(|&p| !beyond(to, p, 2)));
        // One is sent elsewhere: the others keep their places, and it loses its own.
        let before: Vec<Option<Point>> = bodies.iter().map(|b| b.given).collect();
        bodies[2].destination = Some(Point::new(1, 30));
        run(&mut bodies, Due::Seen, &[2]);
        for (k, b) in bodies.iter().enumerate() {
            if k == 2 {
                assert_eq!(b.given, None);
            } else {
                assert_eq!(b.given, before[k]);
            }
        }
    }
}
