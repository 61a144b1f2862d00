//! A jam that PIBT cannot undo, solved whole: LaCAM on a window of the map round it.
//!
//! PIBT plans one step at a time, and is not complete: where bodies are packed wall to wall,
//! each bound for a cell another holds (a passage one body wide, or a room filled to the last
//! cell), every push sends a body off its cell and it comes straight back, for ever. LaCAM
//! ([`solve_with_lacam`](crate::mapf::solve_with_lacam)) searches whole configurations and is
//! complete; with LaCAM\*'s emulated swap in its PIBT ([`Pibt::with_swap`]), bodies reordering
//! in a passage are planned in a millisecond. A jam is a few dozen bodies, so a window round it
//! is small: the caller holds those bodies and walks them through the plan, a step at a time.
//!
//! [`Pibt::with_swap`]: crate::mapf::Pibt::with_swap

use crate::grid::{Grid, Point};
use crate::mapf::instance::Instance;
use crate::mapf::lacam::LacamOutcome;
use crate::mapf::lacam::{Settings, lacam};
use std::collections::HashSet;
use std::time::Duration;

/// However much `effort` it is allowed, a search stops after this long.
const TIME_LIMIT: Duration = Duration::from_secs(10);

/// A window of a map: its corners, both inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// The top-left corner.
    pub min: Point,
    /// The bottom-right corner.
    pub max: Point,
}

impl Window {
    /// The window round `p`, `margin` cells each way, cut to `grid`.
    pub fn around(grid: &Grid, p: Point, margin: i32) -> Window {
        Window {
            min: Point::new(p.x - margin, p.y - margin),
            max: Point::new(p.x + margin, p.y + margin),
        }
        .cut_to(grid)
    }

    /// This window grown to hold `p` with `margin` cells round it, cut to `grid`.
    pub fn grown(self, grid: &Grid, p: Point, margin: i32) -> Window {
        let around = Window::around(grid, p, margin);
        Window {
            min: Point::new(self.min.x.min(around.min.x), self.min.y.min(around.min.y)),
            max: Point::new(self.max.x.max(around.max.x), self.max.y.max(around.max.y)),
        }
    }

    fn cut_to(self, grid: &Grid) -> Window {
        let (w, h) = (grid.width() as i32 - 1, grid.height() as i32 - 1);
        Window {
            min: Point::new(self.min.x.clamp(0, w), self.min.y.clamp(0, h)),
            max: Point::new(self.max.x.clamp(0, w), self.max.y.clamp(0, h)),
        }
    }

    /// Columns.
    pub fn width(&self) -> i32 {
        self.max.x - self.min.x + 1
    }

    /// Rows.
    pub fn height(&self) -> i32 {
        self.max.y - self.min.y + 1
    }

    /// Is `p` inside the window?
    pub fn contains(&self, p: Point) -> bool {
        (self.min.x..=self.max.x).contains(&p.x) && (self.min.y..=self.max.y).contains(&p.y)
    }
}

/// Moves for one-cell `bodies` (each its cell and its goal, all inside `window`, the cells
/// and the goals all different) to their goals, never leaving the window nor stepping on a cell
/// of `grid` that is a wall or not `open`: `plan[t][body]`, from their cells at `t = 0` to their
/// goals at the end. Moves are 4-way (legal 8-way moves too); no two bodies share a cell or swap.
/// `None` if the input breaks those rules, no plan exists, or LaCAM found none within `effort`
/// constraints (its unit of work: the same on any machine; a small jam needs tens, a room of
/// a hundred packed bodies thousands) or, whatever the effort, 10 s.
pub fn untangle(
    grid: &Grid,
    window: Window,
    open: impl Fn(Point) -> bool,
    bodies: &[(Point, Point)],
    effort: usize,
    seed: u64,
) -> Option<Vec<Vec<Point>>> {
    let usable = |p: Point| window.contains(p) && grid.is_passable(p) && open(p);
    let distinct = |ps: Vec<Point>| {
        let mut seen = HashSet::new();
        ps.into_iter().all(|p| usable(p) && seen.insert(p))
    };
    if bodies.is_empty()
        || !distinct(bodies.iter().map(|b| b.0).collect())
        || !distinct(bodies.iter().map(|b| b.1).collect())
    {
        return None;
    }
    // The window as a grid of its own, its cells shifted to start at (0, 0).
    let (w, h) = (window.width() as u32, window.height() as u32);
    let mut local = Grid::new(w, h).ok()?;
    let shift = |p: Point| Point::new(p.x - window.min.x, p.y - window.min.y);
    for y in window.min.y..=window.max.y {
        for x in window.min.x..=window.max.x {
            let p = Point::new(x, y);
            local.set_blocked(shift(p), !usable(p)).ok()?;
        }
    }
    let instance = Instance {
        grid: local,
        starts: bodies.iter().map(|b| shift(b.0)).collect(),
        goals: bodies.iter().map(|b| shift(b.1)).collect(),
        moves: crate::mapf::moves::Moves::FourWay,
    };
    let settings = Settings {
        seed,
        swap: true,
        most_constraints: effort,
    };
    let LacamOutcome::Solved(plan) = lacam(&instance, TIME_LIMIT, settings).0 else {
        return None;
    };
    let back = |p: &Point| Point::new(p.x + window.min.x, p.y + window.min.y);
    Some(plan.iter().map(|c| c.iter().map(back).collect()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bodies_each_on_the_others_goal_in_a_passage_pass_through_a_room() {
        // The passage of the crowd test, its two ends' cells held by bodies that have arrived:
        // the pair must go out into a room and come back in the other order.
        let grid = Grid::from_ascii(&[".......", "###.###", "###.###", "###.###", "###.###"])
            .expect("a grid");
        let bodies = [
            (Point::new(3, 2), Point::new(3, 3)),
            (Point::new(3, 3), Point::new(3, 2)),
            (Point::new(3, 1), Point::new(3, 1)),
        ];
        let window = Window::around(&grid, Point::new(3, 2), 3);
        let plan = untangle(&grid, window, |_| true, &bodies, 10_000, 1).expect("a plan");
        let first: Vec<Point> = bodies.iter().map(|b| b.0).collect();
        let last: Vec<Point> = bodies.iter().map(|b| b.1).collect();
        assert_eq!(plan.first(), Some(&first));
        assert_eq!(plan.last(), Some(&last));
        for pair in plan.windows(2) {
            for (i, (&a, &b)) in pair[0].iter().zip(&pair[1]).enumerate() {
                assert!((a.x - b.x).abs() + (a.y - b.y).abs() <= 1, "a jump");
                assert!(grid.is_passable(b) && window.contains(b));
                for (k, &c) in pair[1].iter().enumerate() {
                    assert!(k == i || c != b, "two on {b}");
                    assert!(k == i || !(c == a && pair[0][k] == b), "a swap");
                }
            }
        }
    }

    #[test]
    fn bodies_off_the_window_or_sharing_a_goal_are_refused() {
        let grid = Grid::from_ascii(&["....", "...."]).expect("a grid");
        let window = Window::around(&grid, Point::new(0, 0), 1);
        let (a, b, far) = (Point::new(0, 0), Point::new(1, 0), Point::new(3, 1));
        let solve =
            |bodies: &[(Point, Point)]| untangle(&grid, window, |_| true, bodies, 10_000, 1);
        assert!(solve(&[(a, far)]).is_none());
        assert!(solve(&[(a, b), (b, b)]).is_none());
        assert!(solve(&[(a, b)]).is_some());
        let closed = untangle(&grid, window, |p| p != b, &[(a, b)], 10_000, 1);
        assert!(closed.is_none());
    }
}
