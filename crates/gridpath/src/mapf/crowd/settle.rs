//! Bodies stand where they fit, apart ([`Settler`]): after an edit under them, or when new.
//!
//! A crowd's step never moves a body onto a wall or another body, so only an edit or a new
//! body can unsettle one: a body on a wall (painted under it), where it no longer fits, or
//! over another body (spawned there) moves to the nearest place where it fits and covers no
//! body, biggest bodies first.
//!
//! ```text
//! settle(bodies):                                 -- new bodies: biggest first
//!     each body that fits where it stands, covering no one yet, keeps its cell
//!     each other, biggest first: the nearest place, breadth first, where it fits uncovered
//! settle_near(bodies, the boxes an edit changed):  -- no new bodies: only the walled move
//!     as above, looking only within NEAR cells of the boxes; none found: settle them all
//! ```

use super::rules::covers;
use crate::grid::{Grid, Point};
use crate::mapf::fx::FxSet;
use std::cmp::Reverse;
use std::collections::VecDeque;
use std::sync::Arc;

/// How far round an edit [`Settler::settle_near`] looks for bodies in the way and places for
/// the bodies it walled, in cells.
pub const NEAR: i32 = 12;

/// A body as settling reads it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Standing {
    /// What names it: bodies of one size are placed in its order.
    pub key: u64,
    /// Its cell, and its size in cells across.
    pub at: Point,
    /// See `at`.
    pub size: u8,
}

/// Settles bodies; its table of covered cells is kept from one call to the next (a fresh one on
/// a big map is a fresh page of memory each time).
#[derive(Debug, Default)]
pub struct Settler {
    /// A bit a cell: covered by a body settled so far.
    taken: Vec<u64>,
    /// The map's revision and how many bodies were placed when [`Settler::due`] last looked.
    seen: Option<(u64, usize)>,
}

/// What [`Settler::due`] says to settle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettleDue {
    /// Some bodies are new ([`Settler::settle`]'s `new`).
    pub new: bool,
    /// The map's revision when it last looked, if it did: with no body new, only the edits
    /// since then can have walled one ([`Settler::settle_near`]).
    pub since: Option<u64>,
}

impl Settler {
    /// Must the bodies be settled now? Only an edit or a new body can unsettle one, so at most
    /// frames nothing is looked at (at 10,000 bodies a look cost 1.6 ms a frame, a cache miss a
    /// body): only when bodies are `fresh` or more or fewer are `placed`, or when the map's
    /// `revision` moved on and `walled` says an edit since the revision it is given left a body
    /// where it no longer fits (see [`walled_under`]). `None`: no body can be unsettled. Notes
    /// what it saw.
    pub fn due(
        &mut self,
        revision: u64,
        placed: usize,
        fresh: bool,
        walled: impl FnOnce(u64) -> bool,
    ) -> Option<SettleDue> {
        let since = self.seen.map(|(seen, _)| seen);
        let new = fresh || self.seen.is_none_or(|(_, was)| was != placed);
        let edited = since != Some(revision);
        let look = new || edited && since.is_none_or(walled);
        self.seen = Some((revision, placed));
        look.then_some(SettleDue { new, since })
    }

    fn start(&mut self, grid: &Grid) {
        self.taken.clear();
        self.taken.resize(grid.len().div_ceil(64), 0);
    }

    fn is_taken(&self, c: usize) -> bool {
        self.taken[c / 64] & (1 << (c % 64)) != 0
    }

    fn take(&mut self, grid: &Grid, at: Point, size: u8) {
        for c in covers(grid, at, size) {
            self.taken[c / 64] |= 1 << (c % 64);
        }
    }

    fn free(&self, grid: &Grid, at: Point, size: u8) -> bool {
        covers(grid, at, size).all(|c| !self.is_taken(c))
    }

    /// Settles every body of `bodies` on `grid` (`grid_for` gives the grid a size fits on):
    /// where each one that moves goes, by its place in `bodies`. `new`: some bodies are new
    /// and may overlap others, so the biggest keep their cells first; after an edit alone,
    /// every body that still fits keeps its cell whatever the order.
    pub fn settle(
        &mut self,
        grid: &Grid,
        grid_for: &mut dyn FnMut(u8) -> Arc<Grid>,
        bodies: &[Standing],
        new: bool,
    ) -> Vec<(usize, Point)> {
        self.start(grid);
        let big_first = |&i: &usize| (Reverse(bodies[i].size), bodies[i].key);
        let mut order: Vec<usize> = (0..bodies.len()).collect();
        if new {
            order.sort_by_key(big_first);
        }
        let mut homeless = Vec::new();
        for i in order {
            let b = bodies[i];
            if grid_for(b.size).is_passable(b.at) && self.free(grid, b.at, b.size) {
                self.take(grid, b.at, b.size);
            } else {
                homeless.push(i);
            }
        }
        homeless.sort_by_key(big_first);
        let mut moves = Vec::new();
        for i in homeless {
            let b = bodies[i];
            let sized = grid_for(b.size);
            let start = grid.point_of(grid.index_of(b.at).unwrap_or(0));
            let fits = |p: Point| sized.is_passable(p) && self.free(grid, p, b.size);
            let Some(to) = nearest_where(grid, start, fits) else {
                continue; // no room anywhere: it stays
            };
            self.take(grid, to, b.size);
            moves.push((i, to));
        }
        moves
    }

    /// Settles after an edit alone, near it: no body overlaps another before it (only new
    /// bodies can), so only those the edit walled need a place, and only bodies near it can be
    /// in the way of one: those within [`NEAR`] cells of its `boxes` (each `(low, high)`) are
    /// marked, not all of them, and places are looked for there alone. `None` when one finds
    /// none near: settle them all then.
    pub fn settle_near(
        &mut self,
        grid: &Grid,
        grid_for: &mut dyn FnMut(u8) -> Arc<Grid>,
        bodies: &[Standing],
        boxes: &[(Point, Point)],
    ) -> Option<Vec<(usize, Point)>> {
        self.start(grid);
        let near = Near {
            windows: boxes.iter().map(|&b| window(grid, b)).collect(),
        };
        let mut homeless = Vec::new();
        for (i, b) in bodies.iter().enumerate() {
            if !near.touches(b.at, b.size) {
                continue;
            }
            if grid_for(b.size).is_passable(b.at) {
                self.take(grid, b.at, b.size);
            } else {
                homeless.push((Reverse(b.size), b.key, i));
            }
        }
        homeless.sort_unstable();
        let mut moves = Vec::new();
        for (Reverse(size), _, i) in homeless {
            let sized = grid_for(size);
            let fits =
                |p: Point| near.holds(p, size) && sized.is_passable(p) && self.free(grid, p, size);
            let to = nearest_within(grid, bodies[i].at, |p| near.holds(p, 1), fits)?;
            self.take(grid, to, size);
            moves.push((i, to));
        }
        Some(moves)
    }
}

/// Does a body of `bodies` stand where it no longer fits, after edits to the cells `changed`?
/// Only the bodies within the edits' bounding box are looked up on their grids.
pub fn walled_under(
    changed: impl Iterator<Item = Point>,
    bodies: impl Iterator<Item = Standing>,
    grid_for: &mut dyn FnMut(u8) -> Arc<Grid>,
) -> bool {
    let Some((low, high)) = changed.fold(None, |b: Option<(Point, Point)>, p| {
        let (lo, hi) = b.unwrap_or((p, p));
        let low = Point::new(lo.x.min(p.x), lo.y.min(p.y));
        Some((low, Point::new(hi.x.max(p.x), hi.y.max(p.y))))
    }) else {
        return false;
    };
    bodies.into_iter().any(|b| {
        let (at, k) = (b.at, i32::from(b.size.max(1)));
        let near = at.x + k > low.x && at.x <= high.x && at.y + k > low.y && at.y <= high.y;
        near && !grid_for(b.size).is_passable(at)
    })
}

/// The box `(low, high)` grown by [`NEAR`] cells each way, within the grid.
fn window(grid: &Grid, (low, high): (Point, Point)) -> (Point, Point) {
    let last = Point::new(grid.width() as i32 - 1, grid.height() as i32 - 1);
    (
        Point::new((low.x - NEAR).max(0), (low.y - NEAR).max(0)),
        Point::new((high.x + NEAR).min(last.x), (high.y + NEAR).min(last.y)),
    )
}

/// The windows round an edit's boxes that [`Settler::settle_near`] looks in.
struct Near {
    windows: Vec<(Point, Point)>,
}

impl Near {
    /// Is the footprint of a body of `size` at `p` inside one window?
    fn holds(&self, p: Point, size: u8) -> bool {
        let k = i32::from(size.max(1)) - 1;
        self.windows.iter().any(|&(low, high)| {
            p.x >= low.x && p.y >= low.y && p.x + k <= high.x && p.y + k <= high.y
        })
    }

    /// Does the footprint of a body of `size` at `p` reach into a window?
    fn touches(&self, p: Point, size: u8) -> bool {
        let k = i32::from(size.max(1)) - 1;
        self.windows.iter().any(|&(low, high)| {
            p.x + k >= low.x && p.y + k >= low.y && p.x <= high.x && p.y <= high.y
        })
    }
}

/// The cell of `grid` nearest to `from` in steps where `wanted` holds, breadth first over every
/// cell (walls too: a unit walled in by a wide stroke still gets out). A set of the cells seen,
/// not a grid-sized table: the cell is mostly a few steps off.
pub fn nearest_where(grid: &Grid, from: Point, wanted: impl Fn(Point) -> bool) -> Option<Point> {
    nearest_within(grid, from, |_| true, wanted)
}

/// [`nearest_where`], looking only at the cells `inside` says (and `from`).
pub fn nearest_within(
    grid: &Grid,
    from: Point,
    inside: impl Fn(Point) -> bool,
    wanted: impl Fn(Point) -> bool,
) -> Option<Point> {
    let mut seen = FxSet::default();
    seen.insert(from);
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        if wanted(p) {
            return Some(p);
        }
        for (dx, dy) in crate::STEPS {
            let q = Point::new(p.x + dx, p.y + dy);
            if grid.contains(q) && inside(q) && seen.insert(q) {
                queue.push_back(q);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(width: u32, height: u32) -> Arc<Grid> {
        Arc::new(Grid::new(width, height).expect("a grid"))
    }

    #[test]
    fn bodies_spawned_on_one_cell_are_moved_apart_biggest_first() {
        let grid = open(8, 8);
        let mut grid_for = |size: u8| {
            let mut g = (*grid).clone();
            let k = i32::from(size.max(1)) - 1;
            for y in 0..8 {
                for x in 0..8 {
                    if x + k >= 8 || y + k >= 8 {
                        g.set_blocked(Point::new(x, y), true).expect("on the grid");
                    }
                }
            }
            Arc::new(g)
        };
        let at = Point::new(3, 3);
        let bodies = [
            Standing {
                key: 1,
                at,
                size: 1,
            },
            Standing {
                key: 2,
                at,
                size: 2,
            },
            Standing {
                key: 3,
                at,
                size: 1,
            },
        ];
        let moves = Settler::default().settle(&grid, &mut grid_for, &bodies, true);
        // The big one keeps the cell; the two small ones move off its footprint, apart.
        assert!(moves.iter().all(|&(i, _)| i != 1));
        let mut covered: Vec<Point> =
            vec![at, Point::new(4, 3), Point::new(3, 4), Point::new(4, 4)];
        for (_, to) in moves {
            assert!(!covered.contains(&to), "{to:?} is covered");
            covered.push(to);
        }
        assert_eq!(covered.len(), 6);
    }

    #[test]
    fn after_a_wall_under_a_body_only_that_body_moves_and_nearby() {
        let mut grid = (*open(40, 40)).clone();
        let walled = Point::new(20, 20);
        grid.set_blocked(walled, true).expect("on the grid");
        let grid = Arc::new(grid);
        let mut grid_for = |_: u8| grid.clone();
        let bodies = [
            Standing {
                key: 1,
                at: Point::new(2, 2),
                size: 1,
            },
            Standing {
                key: 2,
                at: walled,
                size: 1,
            },
            Standing {
                key: 3,
                at: Point::new(21, 20),
                size: 1,
            },
        ];
        let changed = [walled];
        assert!(walled_under(
            changed.into_iter(),
            bodies.into_iter(),
            &mut grid_for
        ));
        let moves = Settler::default()
            .settle_near(&grid, &mut grid_for, &bodies, &[(walled, walled)])
            .expect("room near the edit");
        assert_eq!(moves.len(), 1);
        let (i, to) = moves[0];
        assert_eq!(i, 1);
        assert!(grid.is_passable(to) && to != Point::new(21, 20));
        assert_eq!((to.x - walled.x).abs() + (to.y - walled.y).abs(), 1);
    }

    #[test]
    fn bodies_are_settled_when_new_or_after_an_edit_that_walls_one_and_not_otherwise() {
        let mut settler = Settler::default();
        let never = |_: u64| -> bool { panic!("no edit to look at") };
        // The first look settles everything: every body is new.
        let first = settler.due(7, 3, false, never);
        assert_eq!(
            first,
            Some(SettleDue {
                new: true,
                since: None
            })
        );
        // Nothing changed: nothing to settle, and the edits are not read.
        assert_eq!(settler.due(7, 3, false, never), None);
        // One more body, or bodies said to be fresh: the new ones are settled.
        let more = Some(SettleDue {
            new: true,
            since: Some(7),
        });
        assert_eq!(settler.due(7, 4, false, never), more);
        assert_eq!(settler.due(7, 4, true, never), more);
        // An edit that walls no body: nothing to settle, but it is seen.
        assert_eq!(settler.due(8, 4, false, |since| since != 7), None);
        assert_eq!(settler.due(8, 4, false, never), None);
        // An edit that walls one: settle near the edits since the revision last seen.
        let walled = settler.due(9, 4, false, |since| since == 8);
        assert_eq!(
            walled,
            Some(SettleDue {
                new: false,
                since: Some(8)
            })
        );
    }
}
