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
//! focal : the open cells with f ≤ bound · f_min, by
//!         (contra, crowd + f, −g)               contra = Σ (ahead(u→v) + 1) · back(v→u)
//!                                               crowd  = Σ ⌊paths out of v / 2⌋
//! loop: if focal is empty, f_min ← least f open; move every open cell with f ≤ bound · f_min
//!       to focal; expand focal's first; stop at the goal
//! ```
//!
//! So a path meets another file head-on only when every way round is more than `bound` times
//! the shortest. Measured (1,000 steps, beside weighted A* with contraflow costing a step):
//! the sorting centre at 800 agents finishes 14,715 tasks where weighted A* finishes 11,919 and
//! the room map at 500 2,886 where it finishes 2,805; but where contraflow cannot be avoided the
//! focal list sweeps every cell within the bound before it gives in, and a step costs two to six
//! times as much (on the 500 × 140 warehouse, twenty). The search is bounded by
//! `budget` expanded cells; past it the caller plans by weighted A* instead.

use crate::grid::Grid;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A cell reached by the search.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    g: u32,
    contra: u32,
    crowd: u32,
    /// Bumped each time the cell is reached a better way: heap entries of an older version are
    /// stale and skipped.
    version: u32,
    closed: bool,
}

/// The focal search's scratch, kept between searches (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct FocalSearch {
    nodes: Vec<Node>,
    seen: Vec<u32>,
    round: u32,
    /// By `f`, then version, then cell.
    open: BinaryHeap<Reverse<(u32, u32, u32)>>,
    focal: BinaryHeap<Reverse<FocalEntry>>,
}

/// A focal list entry: by contraflow, crowding plus `f`, the longer way made ([`focal_key`]);
/// then version, then cell.
type FocalEntry = (u32, u32, Reverse<u32>, u32, u32);

/// What the search reads of the guide paths already planned: per cell, the paths leaving it up,
/// left, right and down.
pub(super) type Usage = [[u16; 4]];

impl FocalSearch {
    /// Searches from `from` to the goal of `table` (its distance table), expanding at most
    /// `budget` cells. Writes each reached cell's parent into `parent`; returns the goal cell if
    /// it was reached, and the cells expanded.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        grid: &Grid,
        usage: &Usage,
        table: &[u32],
        from: usize,
        bound: f32,
        budget: usize,
        parent: &mut [u32],
    ) -> (Option<usize>, usize) {
        self.begin(grid.len());
        let h = |v: usize| table.get(v).copied().unwrap_or(u32::MAX);
        self.reach(from, Node::default());
        self.open.push(Reverse((h(from), 0, from as u32)));
        let (mut f_bound, mut expanded) = (0, 0);
        let width = grid.width() as usize;
        while expanded < budget {
            if self.focal.is_empty() {
                let Some(f_min) = self.least_open_f() else {
                    return (None, expanded);
                };
                f_bound = (f_min as f32 * bound) as u32;
            }
            self.fill_focal(f_bound);
            let Some(Reverse((_, _, _, version, cell))) = self.focal.pop() else {
                continue;
            };
            let u = cell as usize;
            if self.stale(u, version) {
                continue;
            }
            self.nodes[u].closed = true;
            if h(u) == 0 {
                return (Some(u), expanded);
            }
            expanded += 1;
            let here = self.nodes[u];
            // Up, left, right, down, each with its direction and the direction back.
            let (x, y) = (u % width, u / width);
            let sides = [
                (y > 0, u.wrapping_sub(width), 0, 3),
                (x > 0, u.wrapping_sub(1), 1, 2),
                (x + 1 < width, u + 1, 2, 1),
                (u + width < grid.len(), u + width, 3, 0),
            ];
            for (on_map, v, ahead, back) in sides {
                if !on_map || grid.raw_cost(v) == 0 || h(v) == u32::MAX {
                    continue;
                }
                let same = u32::from(usage[u][ahead]) + 1;
                let paths_out: u32 = usage[v].iter().map(|&n| u32::from(n)).sum();
                let next = Node {
                    g: here.g + 1,
                    contra: here.contra + same * u32::from(usage[v][back]),
                    crowd: here.crowd + paths_out / 2,
                    version: 0,
                    closed: false,
                };
                let f = next.g + h(v);
                if let Some(old) = self.known(v) {
                    let old_f = old.g + h(v);
                    let better = if old_f <= f_bound {
                        f <= f_bound && focal_key(&next, f) < focal_key(&old, old_f)
                    } else {
                        f < old_f
                    };
                    if old.closed || !better {
                        continue;
                    }
                }
                let version = self.reach(v, next);
                parent[v] = u as u32;
                if f <= f_bound {
                    let key = focal_key(&self.nodes[v], f);
                    self.focal
                        .push(Reverse((key.0, key.1, key.2, version, v as u32)));
                } else {
                    self.open.push(Reverse((f, version, v as u32)));
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

    fn known(&self, v: usize) -> Option<Node> {
        (self.seen[v] == self.round).then_some(self.nodes[v])
    }

    /// Records `node` at `v` (reached first, or a better way), returning its version.
    fn reach(&mut self, v: usize, mut node: Node) -> u32 {
        node.version = match self.known(v) {
            Some(old) => old.version + 1,
            None => 0,
        };
        self.seen[v] = self.round;
        self.nodes[v] = node;
        node.version
    }

    fn stale(&self, v: usize, version: u32) -> bool {
        let node = self.nodes[v];
        node.closed || node.version != version
    }

    /// The least `f` on the open list, stale entries dropped.
    fn least_open_f(&mut self) -> Option<u32> {
        while let Some(&Reverse((f, version, cell))) = self.open.peek() {
            if !self.stale(cell as usize, version) {
                return Some(f);
            }
            self.open.pop();
        }
        None
    }

    /// Moves every open cell with `f` within the bound to the focal list.
    fn fill_focal(&mut self, f_bound: u32) {
        while let Some(&Reverse((f, version, cell))) = self.open.peek() {
            if f > f_bound {
                break;
            }
            self.open.pop();
            if !self.stale(cell as usize, version) {
                let key = focal_key(&self.nodes[cell as usize], f);
                self.focal
                    .push(Reverse((key.0, key.1, key.2, version, cell)));
            }
        }
    }
}

/// The focal list's order: least contraflow, then least crowding plus `f`, then the longer way
/// made (nearer the goal).
fn focal_key(node: &Node, f: u32) -> (u32, u32, Reverse<u32>) {
    (node.contra, node.crowd + f, Reverse(node.g))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grid, Point};

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
        let (reached, _) = focal.search(&grid, &usage, &table, from, 2.0, 10_000, &mut parent);
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
        let (reached, _) = focal.search(&grid, &usage, &table, from, 1.0, 10_000, &mut parent);
        assert_eq!(reached, Some(goal));
        assert_eq!(path_to(&parent, from, goal).len() - 1, 8);
        // Out of budget, it says so.
        let (reached, expanded) = focal.search(&grid, &usage, &table, from, 2.0, 3, &mut parent);
        assert_eq!((reached, expanded), (None, 3));
    }
}
