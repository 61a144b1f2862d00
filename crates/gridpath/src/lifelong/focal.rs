//! The guide path with the least contraflow among the short enough: the focal search of Chen et
//! al.'s guided PIBT (AAAI 2024, the "GP-R100-F2" planner, its objective 1).
//!
//! Weighted A* ([`super::GuidePaths`]'s default) adds what contraflow costs to a path's length and
//! trades the two; the paper's planner keeps them apart. It is a focal search (Pearl and Kim's
//! A*<sub>ε</sub>): the cells whose `f = g + h` is within `bound` times the least `f` open form
//! the *focal list*, and the search expands from it the cell reached with the least contraflow,
//! then the least crowding, then the longest way made:
//!
//! ```text
//! open  : cells by f = g + dist(goal, ·)        (g: steps from the agent)
//! focal : the open cells with f ≤ min(bound · f_min, f_min + slack), by
//!         (contra, crowd + f, −g)               contra = Σ (ahead(u→v) + 1) · back(v→u)
//!                                               crowd  = Σ ⌊paths out of v / 2⌋
//! loop: if focal is empty, f_min ← least f open; move every open cell within the bound to
//!       focal; expand focal's first; stop at the goal
//! ```
//!
//! So a path meets another file head-on only when every way round is more than `bound` times
//! the shortest, or `slack` steps longer (the paper has no slack: twice a 200-step path across
//! a warehouse is a hundred steps of wandering; see [`super::Guidance::focal_slack`]). The
//! planner uses it for a new goal's guide path; an agent that strayed off its path re-plans by
//! weighted A*, which on the room map expands half the cells (553 a plan against 1,150) within
//! the step's re-planning budget, so more strays get a path: at 1,500 agents 3,071 tasks,
//! against 2,830 with focal re-plans. Measured over 1,000 steps beside weighted A*'s guide
//! paths (seeds 0 to 2, tasks summed, slack 32): the sorting centre at 800 agents 42,685
//! against 33,938, the room map at 500 8,676 against 8,312, at 1,500 8,869 against 8,679; the
//! warehouse at 8,000, seeds 0 and 1, 27,827 and 28,069 against 25,507 and 25,392. Where
//! contraflow cannot be avoided the focal list sweeps every cell within the bound before it
//! gives in: with a slack of 32 a step cost up to twice as much as weighted A*'s on the small
//! maps and the warehouse; the preset's slack of 8 halves that sweep's cost on the warehouse
//! (see [`super::Guidance::focal_slack`]). The search is bounded by `budget` expanded cells;
//! past it the caller plans by weighted A* instead.

use super::guidance::sides;
use crate::buckets::BucketQueue;
use crate::grid::Grid;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A cell reached by the search.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    g: u32,
    contra: u32,
    crowd: u32,
    closed: bool,
}

/// The focal search's scratch, kept between searches (see the module docs).
///
/// The open list is a bucket queue by `f` ([`BucketQueue`]); the focal list's entries are
/// plain numbers, each key packed over its cell, so that a comparison is one instruction (with
/// tuples and a version number per cell, 300 steps of the room map at 500 agents took 3,436 M
/// instructions, then 3,287 M). A cell reached a better way is pushed again; an entry whose key
/// is no longer its cell's is stale, and skipped when it comes up.
#[derive(Clone, Debug, Default)]
pub(super) struct FocalSearch {
    nodes: Vec<Node>,
    seen: Vec<u32>,
    round: u32,
    /// Cells by `f`.
    open: BucketQueue<u32>,
    /// [`focal_key`] `<< 32 | cell`.
    focal: BinaryHeap<Reverse<u128>>,
}

/// What the search reads of the guide paths already planned: per cell, the paths leaving it up,
/// left, right and down.
pub(super) type Usage = [[u16; 4]];

impl FocalSearch {
    /// Searches from `from` to the goal of `table` (its distance table) for a path at most
    /// `bound` times the shortest and `slack` steps longer, expanding at most `budget` cells.
    /// Writes each reached cell's parent into `parent`; returns the goal cell if it was
    /// reached, and the cells expanded.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        grid: &Grid,
        usage: &Usage,
        table: &[u32],
        from: usize,
        bound: f32,
        slack: u32,
        budget: usize,
        parent: &mut [u32],
    ) -> (Option<usize>, usize) {
        // Every table cut to the grid's length: one `v < n` per side then stands for the
        // bounds checks of all of them.
        let n = grid.len();
        let (Some(dist), Some(usage), Some(parent)) =
            (table.get(..n), usage.get(..n), parent.get_mut(..n))
        else {
            return (None, 0); // tables of another grid
        };
        self.begin(n);
        let h = |v: usize| dist.get(v).copied().unwrap_or(u32::MAX);
        self.reach(from, Node::default());
        self.open.push(h(from) as usize, from as u32);
        let (mut f_bound, mut expanded) = (0, 0);
        let width = grid.width() as usize;
        while expanded < budget {
            if self.focal.is_empty() {
                let Some(f_min) = self.least_open_f(h) else {
                    return (None, expanded);
                };
                f_bound = focal_bound(f_min, bound, slack);
            }
            self.fill_focal(f_bound, h);
            let Some(Reverse(entry)) = self.focal.pop() else {
                continue;
            };
            let u = entry as u32 as usize;
            let here = self.nodes[u];
            if here.closed || focal_key(&here, h(u)) != entry >> 32 {
                continue; // stale
            }
            self.nodes[u].closed = true;
            if h(u) == 0 {
                return (Some(u), expanded);
            }
            expanded += 1;
            // `begin` made these the grid's length.
            let (Some(nodes), Some(seen)) = (self.nodes.get_mut(..n), self.seen.get_mut(..n))
            else {
                return (None, expanded);
            };
            let round = self.round;
            let ahead_of_u = usage[u];
            for (on_map, v, ahead) in sides(width, n, u) {
                if !on_map || v >= n || grid.raw_cost(v) == 0 || dist[v] == u32::MAX {
                    continue;
                }
                let hv = dist[v];
                let next = here.step(ahead_of_u[ahead], &usage[v], ahead);
                let f = next.g + hv;
                if seen[v] == round && !next.replaces(&nodes[v], hv, f_bound) {
                    continue;
                }
                (nodes[v], seen[v], parent[v]) = (next, round, u as u32);
                if f <= f_bound {
                    self.focal
                        .push(Reverse(focal_key(&next, hv) << 32 | v as u128));
                } else {
                    self.open.push(f as usize, v as u32);
                }
            }
        }
        (None, expanded)
    }

    fn begin(&mut self, cells: usize) {
        if self.nodes.len() != cells {
            self.nodes = vec![Node::default(); cells];
            self.seen = vec![0; cells];
            self.round = 0;
        }
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.seen.fill(0);
            self.round = 1;
        }
        self.open.clear();
        self.focal.clear();
    }

    /// Records `node` at `v`, reached first or a better way.
    fn reach(&mut self, v: usize, node: Node) {
        self.seen[v] = self.round;
        self.nodes[v] = node;
    }

    /// Whether an open entry (`f`, `cell`) is stale: its cell closed or since reached better.
    fn stale_open(&self, f: usize, v: usize, h: impl Fn(usize) -> u32) -> bool {
        let node = self.nodes[v];
        node.closed || (node.g + h(v)) as usize != f
    }

    /// The least `f` on the open list, stale entries dropped.
    fn least_open_f(&mut self, h: impl Fn(usize) -> u32 + Copy) -> Option<u32> {
        while let Some((f, v)) = self.open.pop() {
            if !self.stale_open(f, v as usize, h) {
                self.open.push(f, v); // put back: the least key, it comes out first again
                return Some(f as u32);
            }
        }
        None
    }

    /// Moves every open cell with `f` within the bound to the focal list.
    fn fill_focal(&mut self, f_bound: u32, h: impl Fn(usize) -> u32 + Copy) {
        while self.open.least_key().is_some_and(|f| f <= f_bound as usize) {
            let Some((f, v)) = self.open.pop() else {
                break;
            };
            let v = v as usize;
            if !self.stale_open(f, v, h) {
                let key = focal_key(&self.nodes[v], h(v));
                self.focal.push(Reverse(key << 32 | v as u128));
            }
        }
    }
}

/// The most f a node of the focal list may have: `bound` times the least f in the open list
/// and at most `slack` more. Never below it, or nothing would enter the focal list (an f of
/// millions times 1.0 can round down in f32).
fn focal_bound(f_min: u32, bound: f32, slack: u32) -> u32 {
    ((f_min as f32 * bound) as u32)
        .min(f_min.saturating_add(slack))
        .max(f_min)
}

impl Node {
    /// The node one step on from this one, into a cell whose guide paths leave it `out_of_v`
    /// times to each side, going the way (`ahead`) that `same` guide paths went before from
    /// here (one more: this one): its contraflow grows by those times the paths coming the
    /// other way, and its crowding by half the paths through the cell.
    fn step(&self, same: u16, out_of_v: &[u16; 4], ahead: usize) -> Node {
        let same = u32::from(same) + 1;
        let paths_out: u32 = out_of_v.iter().map(|&k| u32::from(k)).sum();
        Node {
            g: self.g + 1,
            contra: self
                .contra
                .saturating_add(same.saturating_mul(u32::from(out_of_v[3 - ahead]))),
            crowd: self.crowd.saturating_add(paths_out / 2),
            closed: false,
        }
    }

    /// Whether this node replaces `old`, reached before (with `h`, the cell's distance to go):
    /// not if `old` is closed; in the focal list, if it is in it too and better by
    /// [`focal_key`]; in the open list, if its f is lower.
    fn replaces(&self, old: &Node, h: u32, f_bound: u32) -> bool {
        let (f, old_f) = (self.g + h, old.g + h);
        let better = if old_f <= f_bound {
            f <= f_bound && focal_key(self, h) < focal_key(old, h)
        } else {
            f < old_f
        };
        !old.closed && better
    }
}

/// The focal list's order, packed in one number: least contraflow, then least crowding plus
/// `f`, then the longer way made (nearer the goal). `h` is the cell's distance to the goal.
fn focal_key(node: &Node, h: u32) -> u128 {
    let f = node.g + h;
    u128::from(node.contra) << 64
        | u128::from(node.crowd.saturating_add(f)) << 32
        | u128::from(u32::MAX - node.g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Point};

    fn path_to(parent: &[u32], from: usize, goal: usize) -> Vec<usize> {
        let mut path = vec![goal];
        while *path.last().expect("a cell") != from {
            path.push(parent[*path.last().expect("a cell")] as usize);
        }
        path.reverse();
        path
    }

    #[test]
    fn a_path_goes_round_a_file_coming_the_other_way_when_it_is_short_enough() {
        // Five rows of nine; guide paths run right along the middle row.
        let grid = Grid::from_ascii(&[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ])
        .expect("a grid");
        let mut usage = vec![[0u16; 4]; grid.len()];
        for x in 0..8 {
            usage[2 * 9 + x][2] = 1; // a path steps right out of each cell of row 2
        }
        let goal = Point::new(0, 2);
        // An open grid: the goal's distances are Manhattan's.
        let table: Vec<u32> = (0..grid.len())
            .map(|i| {
                let p = grid.point_of(i);
                ((p.x - goal.x).abs() + (p.y - goal.y).abs()) as u32
            })
            .collect();
        let from = grid.index_of(Point::new(8, 2)).expect("on the map");
        let mut parent = vec![0; grid.len()];
        let mut focal = FocalSearch::default();
        let (reached, _) = focal.search(&grid, &usage, &table, from, 2.0, 48, 10_000, &mut parent);
        let goal = grid.index_of(goal).expect("on the map");
        assert_eq!(reached, Some(goal));
        let path = path_to(&parent, from, goal);
        let inside = &path[1..path.len() - 1];
        assert!(
            inside.iter().all(|&c| c / 9 != 2),
            "the way back keeps off the busy row between its ends: {path:?}"
        );
        assert!(path.len() - 1 <= 2 * 8, "and within twice the shortest");
        for pair in path.windows(2) {
            let (a, b) = (grid.point_of(pair[0]), grid.point_of(pair[1]));
            assert_eq!((a.x - b.x).abs() + (a.y - b.y).abs(), 1, "4-way steps");
        }
        // Bounded to the shortest, it has no choice but the busy row.
        let (reached, _) = focal.search(&grid, &usage, &table, from, 1.0, 48, 10_000, &mut parent);
        assert_eq!(reached, Some(goal));
        assert_eq!(path_to(&parent, from, goal).len() - 1, 8);
        // So it has with no slack, whatever the bound.
        let (reached, _) = focal.search(&grid, &usage, &table, from, 2.0, 0, 10_000, &mut parent);
        assert_eq!(reached, Some(goal));
        assert_eq!(path_to(&parent, from, goal).len() - 1, 8);
        // Out of budget, it says so.
        let (reached, expanded) =
            focal.search(&grid, &usage, &table, from, 2.0, 48, 3, &mut parent);
        assert_eq!((reached, expanded), (None, 3));
    }
}
