//! The region a jam is solved in: the cells round its bodies, passages one body wide taken in
//! whole.
//!
//! A region is cut out of the map round the jammed bodies (and where they go) by a
//! breadth-first walk of 4-way steps. The bodies in a passage one cell wide can only be
//! reordered at its ends, so a step into such a passage costs nothing: the region takes in the
//! whole passage and room past both ends, which is what a plan through the jam needs.

use crate::grid::Point;
use std::collections::{HashSet, VecDeque};

/// The cells `open` lets a body reach within `radius` 4-way steps of any of `from`, a step into
/// a cell with at most two open neighbours (a passage one cell wide) counting nothing. At most
/// `most_cells` cells (those of `from` always).
pub fn jam_region(
    from: impl Iterator<Item = Point>,
    radius: u32,
    most_cells: usize,
    open: &impl Fn(Point) -> bool,
) -> HashSet<Point> {
    let narrow = |p: Point| four_steps(p).filter(|&n| open(n)).count() <= 2;
    // The queue in the order `from` gives (not the set's, which differs run to run): which
    // cells a region that reaches `most_cells` holds must not.
    let mut seen = HashSet::new();
    let mut queue: VecDeque<(Point, u32)> = from
        .filter(|&p| open(p) && seen.insert(p))
        .map(|p| (p, 0))
        .collect();
    while let Some((p, d)) = queue.pop_front() {
        for n in four_steps(p) {
            if seen.len() >= most_cells || !open(n) || seen.contains(&n) {
                continue;
            }
            if narrow(n) {
                seen.insert(n);
                queue.push_front((n, d));
            } else if d < radius {
                seen.insert(n);
                queue.push_back((n, d + 1));
            }
        }
    }
    seen
}

/// The cell of `region` nearest `from` (4-way steps through the region) where `take` succeeds.
/// It stays in the region: a goal a plan cannot reach inside it is no goal.
pub fn nearest_in_region(
    from: Point,
    region: &HashSet<Point>,
    mut take: impl FnMut(Point) -> bool,
) -> Option<Point> {
    let mut seen = HashSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        if region.contains(&p) && take(p) {
            return Some(p);
        }
        for n in four_steps(p) {
            if region.contains(&n) && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    None
}

/// The four cells beside `p`.
pub fn four_steps(p: Point) -> impl Iterator<Item = Point> {
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .map(move |(dx, dy)| Point::new(p.x + dx, p.y + dy))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passage_is_taken_in_whole_at_no_cost_of_the_radius() {
        // A room, a passage six cells long, another room.
        let open = |p: Point| {
            let room = |x0: i32| (x0..x0 + 3).contains(&p.x) && (0..3).contains(&p.y);
            room(0) || room(9) || ((3..9).contains(&p.x) && p.y == 1)
        };
        // Two steps: to the passage's mouth, and one past its far end (the passage is free).
        let region = jam_region([Point::new(1, 1)].into_iter(), 2, 400, &open);
        for x in 3..9 {
            assert!(region.contains(&Point::new(x, 1)), "the passage at {x}");
        }
        assert!(
            region.contains(&Point::new(9, 1)),
            "and a step past its end"
        );
        assert!(!region.contains(&Point::new(10, 1)), "but no further");
        let most = jam_region([Point::new(1, 1)].into_iter(), 1, 4, &open);
        assert_eq!(most.len(), 4);
        let nearest = nearest_in_region(Point::new(1, 1), &region, |p| p.x >= 5);
        assert_eq!(nearest, Some(Point::new(5, 1)));
    }

    #[test]
    fn a_region_at_its_cell_limit_grows_round_the_bodies_in_the_order_given() {
        // Two bodies far apart in an open field, room for five cells: both bodies and three
        // cells round the first. Asked again and again, the same cells (a set's order, random
        // from one set to the next, must not choose them).
        let open = |p: Point| (0..20).contains(&p.x) && (0..20).contains(&p.y);
        let (a, b) = (Point::new(2, 2), Point::new(17, 17));
        let first = jam_region([a, b].into_iter(), 3, 5, &open);
        assert_eq!(first.len(), 5);
        assert!(first.contains(&a) && first.contains(&b));
        assert!(
            first
                .iter()
                .all(|&p| p == b || p.x.abs_diff(a.x) + p.y.abs_diff(a.y) <= 1)
        );
        for _ in 0..50 {
            assert_eq!(jam_region([a, b].into_iter(), 3, 5, &open), first);
        }
        let other_way = jam_region([b, a].into_iter(), 3, 5, &open);
        assert!(
            other_way
                .iter()
                .all(|&p| p == a || p.x.abs_diff(b.x) + p.y.abs_diff(b.y) <= 1)
        );
    }
}
