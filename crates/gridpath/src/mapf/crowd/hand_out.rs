//! A gathering's places handed out: bodies that share a destination each get a place of their
//! own near it ([`hand_out`]).
//!
//! Places are handed out nearest body to nearest place, when the bodies are still far off: by
//! the time they arrive, a body bound for a place deep in the gathering may find the way filled
//! by bodies already on theirs, and pushing through each of them costs many ticks. So, as in
//! TSWAP (Okumura and Défago, ICAPS 2022), a body about to step onto a group-mate already
//! standing on its own place *swaps places* with it, and bodies that each step onto the next
//! one's place, the last onto the first's, hand their places round ([`hand_round`]).
//!
//! That keeps a gathering of bodies of one size moving. But in a gathering of several sizes a
//! body can be jammed on its way in for good: it cannot swap with a body of another size, and a
//! place deep in a thousand bodies of three sizes, packed wall to wall, may be out of reach of
//! the pushes of one body. One that has got no nearer for [`GATHER_PATIENCE`] gives its place
//! up and settles where it stands, or, still outside the gathering's cells, at the free place
//! nearest to where it stands: a place it keeps for as long as the gathering lasts.
//!
//! ```text
//! hand_out(gathering at `to`, its cells nearest first, its members):
//!     each keeps its place while that is still among the nearest (settled ones: wherever)
//!     the others, nearest first, take the nearest places left that fit them
//!     if sizes are mixed: the jammed give up their places and settle (at most 8 at once)
//!     TSWAP: swap with a mate on its own place in the way; hand places round a ring
//! ```

use super::gather::{Mate, d2, hand_round, nearest_free};
use super::patience::Patience;
use super::rules::footprint;
use crate::grid::{Grid, Point};
use crate::mapf::fx::{FxMap, FxSet};
use std::sync::Arc;

/// Seconds a body in a gathering of several sizes may get no nearer to its place before it
/// gives that place up and settles where it stands. Well under a crowd's deadlock count (five
/// seconds in `bevy_gridpath`), so a jam is undone before it counts as a deadlock.
pub const GATHER_PATIENCE: f32 = 1.5;

/// At most this many bodies give up in one hand-out (each looks through the gathering's cells).
pub const GIVE_UPS_AT_ONCE: usize = 8;

/// A body of a gathering, as a hand-out reads it.
#[derive(Clone, Copy, Debug)]
pub struct Member {
    /// What names it from one hand-out to the next (members are given sorted by it).
    pub key: u64,
    /// Its cell, and its size in cells across (at least 1).
    pub at: Point,
    /// See `at`.
    pub size: u8,
    /// How far it has to go to the destination (in fifths of a move): nearest first.
    pub distance: u32,
    /// The place it was given last, if any.
    pub given: Option<Point>,
    /// Where its route goes and the cell it steps onto next along it (one move away), if it
    /// has one: a step along a route to its place is what TSWAP swaps on.
    pub heads: Option<(Point, Point)>,
    /// Seconds it has got no nearer to where it goes.
    pub stalled: f32,
}

/// A body that gave up on a jam in its gathering: the destination it gathers at, and its
/// patience. Kept by the caller from one hand-out to the next, while the body is bound there.
#[derive(Clone, Copy, Debug)]
pub struct GaveUp {
    /// The destination of the gathering it settled in.
    pub to: Point,
    patience: Patience,
}

impl GaveUp {
    fn now(to: Point, stalled: f32) -> Self {
        let mut patience = Patience::default();
        patience.give_up(stalled);
        Self { to, patience }
    }
}

/// How many of a gathering's cells its places are looked for in, nearest first.
pub fn cells_wanted(members: &[Member]) -> usize {
    3 * area(members) + 16
}

/// The cells its members cover.
fn area(members: &[Member]) -> usize {
    members.iter().map(|m| usize::from(m.size).pow(2)).sum()
}

/// Hands out the places of the gathering at `to` to its `members` (sorted by key): `cells` are
/// its cells nearest first ([`gather_cells`](super::gather_cells), [`cells_wanted`] of them),
/// `grid_for` the grid each size fits on, `gave_up` the bodies that settled after a jam. Returns
/// every place that changed (`None`: its body lost its place, none being left), and whether
/// any body gave up.
pub fn hand_out(
    to: Point,
    cells: &[Point],
    members: &[Member],
    gave_up: &mut FxMap<u64, GaveUp>,
    grid_for: &mut dyn FnMut(u8) -> Arc<Grid>,
) -> (Vec<(u64, Option<Point>)>, bool) {
    let mut places = Places {
        to,
        cells,
        members,
        claimed: FxSet::default(),
        assigned: FxMap::default(),
        sized: FxMap::default(),
        grid_for,
    };
    let left = places.keep(gave_up);
    let mut changed = places.take_nearest(left);
    let mixed = members.iter().any(|m| m.size != members[0].size);
    let gave_any_up = mixed && places.give_up_on_jams(gave_up);
    places.swap_on_the_way();
    for m in members {
        match places.assigned.get(&m.key) {
            Some(&cell) if m.given != Some(cell) => changed.push((m.key, Some(cell))),
            _ => {}
        }
    }
    (changed, gave_any_up)
}

/// One gathering's places as they are handed out: the cells claimed, each body's place, and
/// the grid for each size.
struct Places<'a> {
    to: Point,
    /// The gathering's cells, nearest first.
    cells: &'a [Point],
    members: &'a [Member],
    claimed: FxSet<Point>,
    assigned: FxMap<u64, Point>,
    sized: FxMap<u8, Arc<Grid>>,
    grid_for: &'a mut dyn FnMut(u8) -> Arc<Grid>,
}

impl Places<'_> {
    /// The grid a body of `size` fits on.
    fn fits(&mut self, size: u8) -> Arc<Grid> {
        let grid_for = &mut self.grid_for;
        self.sized
            .entry(size)
            .or_insert_with(|| grid_for(size))
            .clone()
    }

    /// The member named `key`.
    fn member(&self, key: u64) -> Option<&Member> {
        let i = self.members.binary_search_by_key(&key, |m| m.key).ok()?;
        self.members.get(i)
    }

    /// A body keeps its place while that is still among the nearest (a body joining or leaving
    /// moves no one else), and one it settled for after a jam, near or not. Returns the others,
    /// nearest first.
    fn keep(&mut self, gave_up: &FxMap<u64, GaveUp>) -> Vec<Member> {
        let area = area(self.members);
        let near: FxSet<Point> = self
            .cells
            .iter()
            .take(area + area / 4 + 4)
            .copied()
            .collect();
        let mut members = self.members.to_vec();
        // Places settled for after a jam first: the bodies they cover are elsewhere.
        members.sort_by_key(|m| !gave_up.contains_key(&m.key));
        members.retain(|m| {
            let fits = self.fits(m.size);
            let settled = gave_up.contains_key(&m.key);
            let kept = m.given.filter(|&c| {
                fits.is_passable(c)
                    && footprint(c, m.size)
                        .all(|q| (settled || near.contains(&q)) && !self.claimed.contains(&q))
            });
            if let Some(c) = kept {
                self.claimed.extend(footprint(c, m.size));
                self.assigned.insert(m.key, c);
            }
            kept.is_none()
        });
        members.sort_unstable_by_key(|m| (m.distance, m.key, m.size));
        members
    }

    /// The bodies `left`, nearest first, take the nearest places left; those with none left
    /// that had one lose it (returned).
    fn take_nearest(&mut self, left: Vec<Member>) -> Vec<(u64, Option<Point>)> {
        // Each size's places, nearest middle first, and how far down the list a body of that
        // size has looked (a place that overlaps a claim stays overlapped).
        let mut places: FxMap<u8, (Vec<Point>, usize)> = FxMap::default();
        let mut lost = Vec::new();
        let (to, cells) = (self.to, self.cells);
        for m in left {
            let fits = self.fits(m.size);
            let (list, looked) = places.entry(m.size).or_insert_with(|| {
                let mut list: Vec<Point> = cells
                    .iter()
                    .copied()
                    .filter(|&p| fits.is_passable(p))
                    .collect();
                let k = i32::from(m.size) - 1;
                let d2 = |p: &Point| (2 * (p.x - to.x) + k).pow(2) + (2 * (p.y - to.y) + k).pow(2);
                list.sort_by_key(|p| (d2(p), *p));
                (list, 0)
            });
            while *looked < list.len()
                && footprint(list[*looked], m.size).any(|q| self.claimed.contains(&q))
            {
                *looked += 1;
            }
            match list.get(*looked) {
                Some(&place) => {
                    self.claimed.extend(footprint(place, m.size));
                    self.assigned.insert(m.key, place);
                }
                None if m.given.is_some() => lost.push((m.key, None)),
                None => {}
            }
        }
        lost
    }

    /// Gives up the places of bodies jammed on their way to them: once a [`GATHER_PATIENCE`],
    /// and again only after that once more, or after getting nearer.
    ///
    /// A jammed body among the gathering's cells settles where it stands: the bodies whose
    /// places it covers are elsewhere, not jammed there, and settle near where they are. One
    /// still outside them settles for the free place nearest to where it stands (at the edge of
    /// the gathering, not beyond the jam), and where it stands if it is jammed again on its way
    /// there. (Settling only within the cells the gathering would fill, packed, read 0
    /// deadlocked headless against 0.1, but 81 looks of 790 found one in a 10-minute soak,
    /// against 2 of 522.) Returns whether any body gave up.
    fn give_up_on_jams(&mut self, gave_up: &mut FxMap<u64, GaveUp>) -> bool {
        let mut jammed = self.jammed(gave_up);
        jammed.sort_unstable_by_key(|m| m.key);
        jammed.truncate(GIVE_UPS_AT_ONCE);
        if jammed.is_empty() {
            return false;
        }
        // Who claims each cell.
        let mut claims: FxMap<Point, u64> = FxMap::default();
        for (&key, &c) in &self.assigned {
            let size = self.member(key).map_or(1, |m| m.size);
            claims.extend(footprint(c, size).map(|q| (q, key)));
        }
        let inside: FxSet<Point> = self.cells.iter().copied().collect();
        for m in jammed {
            let Some(&mine) = self.assigned.get(&m.key) else {
                continue;
            };
            // Jammed again on its way to the place it settled for: no more looking.
            let again = gave_up
                .insert(m.key, GaveUp::now(self.to, m.stalled))
                .is_some_and(|g| g.to == self.to && !g.patience.nearer_since(m.stalled));
            self.unclaim(m.key, mine, &mut claims);
            let fits = self.fits(m.size);
            let mut evicted = Vec::new();
            let place = if (again || inside.contains(&m.at)) && fits.is_passable(m.at) {
                let mut covered: Vec<u64> = footprint(m.at, m.size)
                    .filter_map(|q| claims.get(&q).copied())
                    .collect();
                covered.sort_unstable();
                covered.dedup();
                for other in covered {
                    if let Some(at) = self.assigned.remove(&other) {
                        self.unclaim(other, at, &mut claims);
                        evicted.push(other);
                    }
                }
                m.at
            } else {
                nearest_free(
                    self.cells,
                    &fits,
                    |q| self.claimed.contains(&q),
                    m.at,
                    m.size,
                )
                .filter(|&p| d2(p, m.at) < d2(mine, m.at))
                .unwrap_or(mine)
            };
            self.claim(m.key, place, m.size, &mut claims);
            // Those it displaced settle for the free place nearest to where they are, so that
            // one jam undone does not send others deep into the gathering.
            for other in evicted {
                self.resettle(other, gave_up, &mut claims);
            }
        }
        true
    }

    /// The bodies jammed on their way to their places: no nearer for a patience since they
    /// last gave up (or got nearer).
    fn jammed(&self, gave_up: &FxMap<u64, GaveUp>) -> Vec<Member> {
        let mut jammed = Vec::new();
        for (&key, &place) in &self.assigned {
            let Some(m) = self.member(key) else {
                continue;
            };
            let patience = gave_up.get(&key).map(|g| g.patience).unwrap_or_default();
            if m.at != place && patience.run_out(m.stalled, GATHER_PATIENCE) {
                jammed.push(*m);
            }
        }
        jammed
    }

    /// A body displaced by a jammed one settles for the free place nearest to where it is.
    fn resettle(
        &mut self,
        key: u64,
        gave_up: &mut FxMap<u64, GaveUp>,
        claims: &mut FxMap<Point, u64>,
    ) {
        let Some(&m) = self.member(key) else {
            return;
        };
        let fits = self.fits(m.size);
        let claimed = &self.claimed;
        let Some(place) = nearest_free(self.cells, &fits, |q| claimed.contains(&q), m.at, m.size)
        else {
            return;
        };
        self.claim(key, place, m.size, claims);
        gave_up.insert(key, GaveUp::now(self.to, m.stalled));
    }

    /// Gives `key` the place `at` for its `size`.
    fn claim(&mut self, key: u64, at: Point, size: u8, claims: &mut FxMap<Point, u64>) {
        self.claimed.extend(footprint(at, size));
        claims.extend(footprint(at, size).map(|q| (q, key)));
        self.assigned.insert(key, at);
    }

    /// Takes back the cells of `key`'s place `at`.
    fn unclaim(&mut self, key: u64, at: Point, claims: &mut FxMap<Point, u64>) {
        let size = self.member(key).map_or(1, |m| m.size);
        for q in footprint(at, size) {
            self.claimed.remove(&q);
            claims.remove(&q);
        }
    }

    /// TSWAP's two ways of handing places round a gathering, read off where each body stands
    /// and the cell it steps onto next: only a step along a route to its place (one still bound
    /// for a place it was given before, or pushed off its route, would be read as wanting a way
    /// it does not go).
    fn swap_on_the_way(&mut self) {
        let mut keys: Vec<u64> = self.assigned.keys().copied().collect();
        keys.sort_unstable();
        let mut mates = Vec::with_capacity(keys.len());
        let mut cells = Vec::with_capacity(keys.len());
        keys.retain(|&key| {
            let (Some(m), Some(&cell)) = (self.member(key), self.assigned.get(&key)) else {
                return false;
            };
            let next = m
                .heads
                .filter(|&(to, _)| to == cell && m.at != cell)
                .map(|(_, next)| next);
            mates.push(Mate {
                at: m.at,
                next,
                size: m.size,
            });
            cells.push(Some(cell));
            true
        });
        hand_round(&mates, &mut cells);
        for (key, cell) in keys.into_iter().zip(cells) {
            if let Some(cell) = cell {
                self.assigned.insert(key, cell);
            }
        }
    }
}
