//! Following a wall edit in 4-way labels, near the cells edited, instead of labelling the grid
//! whole: see [`Components::follow_walls`].

use super::Components;
use crate::grid::Grid;
use std::collections::VecDeque;

/// No flood owns the cell (in [`Components`]' `owner` scratch).
const NONE: u32 = u32::MAX;

impl Components {
    /// Brings 4-way labels made on the grid's walls of `revision` up to date with the cells
    /// changed since ([`Grid::wall_changes_since`]), near them alone; false when that cannot
    /// be done, and the grid must be labelled whole. A wall stroke on a large map changes a few
    /// dozen cells, and relabelling 512 × 512 for it, once per unit size, cost a frame
    /// milliseconds.
    ///
    /// First the cells walled, all at once. A region they cut into loses them; if no open cell
    /// beside them (its *frontier*) is left, the region was walled whole and is gone. Otherwise
    /// floods from the frontier cells ([`Floods`]) find whether they still join one another,
    /// and any part cut off. Then the cells opened: one with open sides joins their regions
    /// into one, one with none begins a region. Only a region cut into two large parts is given
    /// up on.
    pub(super) fn follow_walls(&mut self, grid: &Grid, revision: u64) -> bool {
        const MOST: usize = 4096;
        let Some(changes) = grid.wall_changes_since(revision) else {
            return false;
        };
        if changes.len() > MOST || self.labels.len() != grid.len() {
            return false;
        }
        let mut cells: Vec<usize> = changes.filter_map(|p| grid.index_of(p)).collect();
        cells.sort_unstable();
        cells.dedup();
        let open_now = |i: usize| grid.raw_cost(i) != 0;
        cells.retain(|&i| open_now(i) != (self.labels[i] != 0));
        let (walled, opened): (Vec<usize>, Vec<usize>) =
            cells.into_iter().partition(|&i| !open_now(i));
        let mut cut: Vec<u32> = walled.iter().map(|&i| self.labels[i]).collect();
        for &i in &walled {
            self.labels[i] = 0;
        }
        let mut frontier: Vec<usize> = walled
            .iter()
            .flat_map(|&i| sides(grid, i))
            .filter(|&j| self.labels[j] != 0)
            .collect();
        frontier.sort_unstable();
        frontier.dedup();
        cut.sort_unstable();
        cut.dedup();
        let mut kept: Vec<u32> = frontier.iter().map(|&j| self.labels[j]).collect();
        kept.sort_unstable();
        kept.dedup();
        // A region with no cell left beside the walls had all its cells walled.
        self.count -= (cut.len() - kept.len()) as u32;
        let mut owner = std::mem::take(&mut self.owner);
        owner.resize(grid.len(), NONE);
        let islands = Floods::new(frontier, &self.labels).cut_off(grid, &self.labels, &mut owner);
        self.owner = owner;
        let Some(islands) = islands else {
            return false; // a region cut in two, both parts large
        };
        for island in islands {
            self.count += 1;
            self.last_label += 1;
            for i in island {
                self.labels[i] = self.last_label;
            }
        }
        self.open(grid, &opened);
        true
    }

    /// Labels the cells `opened`: each joins the regions beside it into one, or begins one.
    /// Regions joined are renamed in one pass over the labels at the end, however many joined.
    fn open(&mut self, grid: &Grid, opened: &[usize]) {
        // Per label, the label it became; made at the first join.
        let mut became: Vec<u32> = Vec::new();
        for &i in opened {
            let mut label = 0;
            for j in sides(grid, i) {
                let l = renamed(&became, self.labels[j]);
                if l == 0 || l == label {
                    continue;
                }
                if label == 0 {
                    label = l;
                    continue;
                }
                if became.is_empty() {
                    became = (0..=self.last_label).collect();
                }
                became[l as usize] = label; // two regions become one
                self.count -= 1;
            }
            if label == 0 {
                self.count += 1;
                self.last_label += 1;
                label = self.last_label;
                if !became.is_empty() {
                    became.push(label);
                }
            }
            self.labels[i] = label;
        }
        if !became.is_empty() {
            for l in 0..became.len() as u32 {
                became[l as usize] = renamed(&became, l);
            }
            for m in &mut self.labels {
                *m = became[*m as usize];
            }
        }
    }
}

/// What label `l` became after the joins so far (`became` empty: none yet).
fn renamed(became: &[u32], mut l: u32) -> u32 {
    while let Some(&m) = became.get(l as usize)
        && m != l
    {
        l = m;
    }
    l
}

/// Floods from every frontier cell of a wall edit at once, breadth-first, each its own set in a
/// union-find; where two meet, their sets join. Floods in one region meet round the ends of a
/// wall stroke after a few cells, so the answer costs about as many cells as the stroke has,
/// not the map.
///
/// A set whose floods all ended without meeting the rest of its region is a part the walls
/// cut off: it is all there, found at the cost of its own size (the parallel search of Even
/// and Shiloach's "An on-line edge-deletion problem", JACM 1981, which grows both sides of a
/// cut at once and stops with the smaller). Two large parts would flood one of them whole: the
/// floods give up after some thousands of cells, and the grid is labelled whole instead.
struct Floods {
    /// Union-find parents of the floods, one per frontier cell.
    parent: Vec<u32>,
    /// Per set (at its root): cells queued and not yet looked round.
    pending: Vec<u32>,
    /// Per flood: its region's label.
    label: Vec<u32>,
    /// Per region in the frontier: its label and how many of its sets are still apart.
    apart: Vec<(u32, u32)>,
    frontier: Vec<usize>,
}

impl Floods {
    fn new(frontier: Vec<usize>, labels: &[u32]) -> Self {
        let label: Vec<u32> = frontier.iter().map(|&j| labels[j]).collect();
        let mut apart: Vec<(u32, u32)> = Vec::new();
        for &l in &label {
            match apart.binary_search_by_key(&l, |a| a.0) {
                Ok(k) => apart[k].1 += 1,
                Err(k) => apart.insert(k, (l, 1)),
            }
        }
        Self {
            parent: (0..frontier.len() as u32).collect(),
            pending: vec![0; frontier.len()],
            label,
            apart,
            frontier,
        }
    }

    fn root(&mut self, mut r: u32) -> u32 {
        while self.parent[r as usize] != r {
            let grand = self.parent[self.parent[r as usize] as usize];
            self.parent[r as usize] = grand;
            r = grand;
        }
        r
    }

    /// Joins the sets of floods `a` and `b` (of one region) and returns the root.
    fn join(&mut self, a: u32, b: u32) -> u32 {
        let (a, b) = (self.root(a), self.root(b));
        if a != b {
            self.parent[a as usize] = b;
            self.pending[b as usize] += self.pending[a as usize];
            self.one_fewer_apart(b);
        }
        b
    }

    /// One set fewer apart in the region of set `r`; the sets still apart, all regions counted.
    fn one_fewer_apart(&mut self, r: u32) {
        let l = self.label[r as usize];
        if let Ok(k) = self.apart.binary_search_by_key(&l, |a| a.0) {
            self.apart[k].1 -= 1;
        }
    }

    fn apart_in(&self, r: u32) -> u32 {
        let l = self.label[r as usize];
        self.apart
            .binary_search_by_key(&l, |a| a.0)
            .map_or(0, |k| self.apart[k].1)
    }

    /// Floods until each region's frontier cells are one set again, and returns the parts cut
    /// off (their cells), or `None` when it gave up. `owner` (per cell, the flood that reached
    /// it first, or [`NONE`]) is all [`NONE`] before and after.
    fn cut_off(
        mut self,
        grid: &Grid,
        labels: &[u32],
        owner: &mut [u32],
    ) -> Option<Vec<Vec<usize>>> {
        let budget = 16_384 + 64 * self.frontier.len();
        let mut reached: Vec<usize> = Vec::new();
        let mut queue = VecDeque::new();
        let mut islands = Vec::new();
        let mut left = self.frontier.len();
        for k in 0..self.frontier.len() {
            let j = self.frontier[k];
            self.pending[k] = 1;
            owner[j] = k as u32;
            reached.push(j);
            queue.push_back(j);
        }
        while left > self.apart.len() && reached.len() <= budget {
            let Some(j) = queue.pop_front() else { break };
            let mut r = self.root(owner[j]);
            for n in sides(grid, j).filter(|&n| labels[n] != 0) {
                if owner[n] == NONE {
                    owner[n] = r;
                    self.pending[r as usize] += 1;
                    reached.push(n);
                    queue.push_back(n);
                } else if self.root(owner[n]) != r {
                    r = self.join(owner[n], r);
                    left -= 1;
                }
            }
            self.pending[r as usize] -= 1;
            if self.pending[r as usize] == 0 && self.apart_in(r) > 1 {
                // Every cell of this set is looked round, and none touched another set of its
                // region: the walls cut it off.
                let mut island = Vec::new();
                for &c in &reached {
                    if self.root(owner[c]) == r {
                        island.push(c);
                    }
                }
                islands.push(island);
                self.one_fewer_apart(r);
                left -= 1;
            }
        }
        let done = left <= self.apart.len();
        for c in reached {
            owner[c] = NONE;
        }
        done.then_some(islands)
    }
}

/// The cells beside cell `i` on the grid, by index: above, right, below, left.
fn sides(grid: &Grid, i: usize) -> impl Iterator<Item = usize> {
    let (w, len) = (grid.width() as usize, grid.len());
    let x = i % w;
    [
        i.checked_sub(w),
        (x + 1 < w).then_some(i + 1),
        (i + w < len).then_some(i + w),
        (x > 0).then(|| i - 1),
    ]
    .into_iter()
    .flatten()
}
