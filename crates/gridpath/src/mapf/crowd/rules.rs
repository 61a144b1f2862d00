//! The crowd step's geometry: footprints, the rules two bodies' moves must keep (no overlap,
//! no swap, no diagonal crossing), and where a body asked to make room heads.

use super::mover::Room;
use super::state::{CrowdStep, NONE, UNPLANNED};
use crate::grid::{Grid, Point};
use crate::movement::Movement;

/// The cells of a footprint: `size × size` from `at`, right and down (a size of 0 counts as 1).
pub fn footprint(at: Point, size: u8) -> impl Iterator<Item = Point> {
    let k = i32::from(size.max(1));
    (0..k).flat_map(move |dy| (0..k).map(move |dx| Point::new(at.x + dx, at.y + dy)))
}

/// The indices of the cells a body of `size` covers from `at` (those on the grid).
pub fn covers(grid: &Grid, at: Point, size: u8) -> impl Iterator<Item = usize> + '_ {
    footprint(at, size).filter_map(|p| grid.index_of(p))
}

/// Do the footprints at `a` (size `ka`) and `b` (size `kb`) share a cell?
pub(super) fn overlap(a: Point, ka: u8, b: Point, kb: u8) -> bool {
    let (ka, kb) = (i32::from(ka), i32::from(kb));
    a.x < b.x + kb && b.x < a.x + ka && a.y < b.y + kb && b.y < a.y + ka
}

/// Would two squares gliding in a straight line, `a0 → a1` (side `ka`) and `b0 → b1` (side
/// `kb`), overlap on the way, each drawn a quarter cell in from its edges? Along x the inset
/// squares overlap while `-(kb - ½) < bx - ax < ka - ½`, a window of time since the difference
/// changes linearly, and likewise along y; they meet if the windows meet.
///
/// The inset is what a grid of one-cell bodies already allows: a body that steps into a cell
/// as another turns out of it brushes it by a quarter cell or so on the way. The inset keeps
/// such brushes (a diagonal step that follows or turns behind another) and forbids crossings,
/// where two bodies would pass through the same place; for one-cell bodies that is exactly the
/// rule that no body steps across a diagonal another steps across the other way.
pub(super) fn glides_meet(a0: Point, a1: Point, ka: u8, b0: Point, b1: Point, kb: u8) -> bool {
    let window = |d0: i32, d1: i32| -> (f32, f32) {
        let (low, high) = (0.5 - f32::from(kb), f32::from(ka) - 0.5);
        let (d0, d1) = (d0 as f32, d1 as f32);
        if d0 == d1 {
            return if low < d0 && d0 < high {
                (0.0, 1.0)
            } else {
                (1.0, 0.0)
            };
        }
        let (t_low, t_high) = ((low - d0) / (d1 - d0), (high - d0) / (d1 - d0));
        let (t0, t1) = (t_low.min(t_high), t_low.max(t_high));
        (t0.max(0.0), t1.min(1.0))
    };
    let (x0, x1) = window(b0.x - a0.x, b1.x - a1.x);
    let (y0, y1) = window(b0.y - a0.y, b1.y - a1.y);
    x0.max(y0) < x1.min(y1)
}

/// Moves from `a` to `b`, walls aside.
pub(super) fn steps(movement: Movement, a: Point, b: Point) -> u32 {
    let (dx, dy) = movement.axis_distances(a, b);
    if movement.allows_diagonals() {
        dx.max(dy)
    } else {
        dx + dy
    }
}

/// Where a mover of `size` at `at` heads to make `room`: the nearest cell (in moves on its size's
/// grid, at most 8 away) where it covers no cell of the wanted footprint, nor of the body that
/// asked for it where it stands, and is not ahead of that body, if there is one so near; else
/// the nearest ahead. A body that steps out ahead is in the way again at the next step, and a
/// row of them all asked to step ahead moves nowhere.
pub(super) fn way_out(
    sized: &Grid,
    movement: Movement,
    at: Point,
    size: u8,
    room: Room,
) -> Option<Point> {
    let (dx, dy) = (room.at.x - room.from.x, room.at.y - room.from.y);
    let ahead = |p: Point| (p.x - at.x) * dx + (p.y - at.y) * dy;
    let clear =
        |p: Point| !overlap(p, size, room.at, room.size) && !overlap(p, size, room.from, room.size);
    let mut frontier = vec![at];
    let mut seen = vec![at];
    let mut best: Option<(bool, Point)> = None;
    for _ in 0..=8 {
        for &p in &frontier {
            if clear(p) && best.is_none_or(|(was_ahead, _)| was_ahead && ahead(p) <= 0) {
                best = Some((ahead(p) > 0, p));
            }
        }
        if let Some((false, p)) = best {
            return Some(p);
        }
        let mut next = Vec::new();
        for &p in &frontier {
            for q in movement.moves(sized, p) {
                if !seen.contains(&q) {
                    seen.push(q);
                    next.push(q);
                }
            }
        }
        frontier = next;
    }
    best.map(|(_, p)| p)
}

impl CrowdStep {
    /// Would `i` stepping to `v` swap with a body: step onto a cell it leaves while it steps
    /// onto a cell `i` leaves?
    pub(super) fn swaps(&self, grid: &Grid, i: usize, v: usize) -> bool {
        let (here, size) = (grid.point_of(self.from[i]), self.size[i]);
        if self.from[i] == v {
            return false;
        }
        footprint(grid.point_of(v), size).any(|q| {
            let Some(k) = grid.index_of(q).map(|c| self.standing(c)) else {
                return false;
            };
            let k = k as usize;
            if k == NONE as usize || k == i {
                return false;
            }
            let (k_from, k_to) = (self.from[k], self.to[k]);
            k_to != UNPLANNED
                && k_to != k_from
                && overlap(grid.point_of(k_to), self.size[k], here, size)
        })
    }

    /// Would a diagonal step of `i` to `v` meet a body's diagonal step on the way? Straight
    /// steps that follow or turn behind a body are let be, as on a grid of one-cell bodies.
    pub(super) fn crosses(&self, grid: &Grid, i: usize, v: usize) -> bool {
        let (a0, a1, ka) = (grid.point_of(self.from[i]), grid.point_of(v), self.size[i]);
        if a0.x == a1.x || a0.y == a1.y {
            return false;
        }
        // Anyone whose diagonal step could meet this one stands within the largest size of it.
        let reach = i32::from(self.largest);
        let (x0, x1) = (a0.x.min(a1.x) - reach, a0.x.max(a1.x) + i32::from(ka));
        let (y0, y1) = (a0.y.min(a1.y) - reach, a0.y.max(a1.y) + i32::from(ka));
        (y0..=y1).any(|y| {
            (x0..=x1).any(|x| {
                let Some(k) = grid.index_of(Point::new(x, y)).map(|c| self.standing(c)) else {
                    return false;
                };
                let k = k as usize;
                if k == NONE as usize || k == i || self.to[k] == UNPLANNED {
                    return false;
                }
                let (b0, b1) = (grid.point_of(self.from[k]), grid.point_of(self.to[k]));
                b0.x != b1.x && b0.y != b1.y && glides_meet(a0, a1, ka, b0, b1, self.size[k])
            })
        })
    }
}

/// Octile distance in fifths of a cell (straight 5, diagonal 7), or Manhattan for 4-way (on a
/// staggered map, between the sheared cells).
pub fn distance_fifths(movement: Movement, a: Point, b: Point) -> u32 {
    let (dx, dy) = movement.axis_distances(a, b);
    if movement.allows_diagonals() {
        5 * dx.max(dy) + 2 * dx.min(dy)
    } else {
        5 * (dx + dy)
    }
}
