//! LaCAM*'s emulated swap, for two one-cell bodies that must pass each other in a passage one
//! body wide.

use super::state::{CrowdStep, NONE, UNPLANNED};
use crate::grid::{Grid, Point};
use crate::mapf::moves::Way;
use crate::movement::Movement;

impl CrowdStep {
    /// The body `i` must back out for, if any: LaCAM*'s emulated swap (Okumura, "Improving
    /// LaCAM for Scalable Eventually Optimal Multi-Agent Pathfinding", IJCAI 2023, and its
    /// code, lacam3), for one-cell bodies. PIBT never swaps two bodies, so two that must pass
    /// each other in a passage one body wide (the deeper bound for a cell nearer the way in,
    /// the other deeper in) push each other round it for ever. The emulated swap:
    ///
    /// ```text
    /// P ← the passage one body wide from i's cell through its best cell, to its dead end or
    ///     fork (if it forks at once, nothing: there is room to pass)
    /// j ← the body on i's best cell
    /// if j has not planned and must get past i down P (swap_required(i, j)), and i, backing
    ///     out, reaches a fork (swap_possible): back out for j
    /// else for each body k beside i:                                  -- "clear"
    ///     if k would have to get past i once i stepped onto its best cell (swap_required(k,
    ///     i)), and i can back out from there: back out for k
    /// ```
    ///
    /// Backing out is taking the cells in the reverse order; on the first, the partner, if it
    /// has not planned, steps onto i's cell after it ([`CrowdStep::pull`]). At the fork they
    /// pass.
    ///
    /// lacam3 tells which way each body wants to go by its tables of true distances. Here
    /// the passage itself tells, where it can (see [`CrowdStep::swap_required`]): in a dead
    /// end, and between two cells of a passage open at both ends. A body bound outside a
    /// passage open at both ends is left to pushing, with [`PUSHED_BACK`] and
    /// [`GIVE_WAY_AFTER`]: distances guessed past a body's next cell once turned pairs to and
    /// fro at a gap one cell long between two packed rooms.
    pub(super) fn swap_partner(
        &self,
        grid: &Grid,
        movement: Movement,
        i: usize,
        best: usize,
    ) -> Option<usize> {
        let here = self.from[i];
        if best == here {
            return None;
        }
        let one_cell = |k: u32| k != NONE && k as usize != i && self.size[k as usize] == 1;
        let j = self.standing(best);
        let near = || {
            movement
                .moves(grid, grid.point_of(here))
                .filter_map(|p| grid.index_of(p))
                .filter(|&u| u != best)
                .map(|u| self.standing(u))
        };
        // No one to pass: the passage need not be followed (most steps, off the jams).
        let j_unplanned = one_cell(j) && self.to[j as usize] == UNPLANNED;
        if !(j_unplanned || near().any(one_cell)) {
            return None;
        }
        let passage = self.passage(grid, movement, here, best)?;
        if passage.open && passage.cells.len() < 3 {
            return None; // it forks at once: there is room to pass
        }
        let partner = if j_unplanned && self.swap_required(grid, i, j as usize, &passage) {
            Some(j as usize)
        } else {
            near()
                .find(|&k| one_cell(k) && self.swap_required(grid, k as usize, i, &passage))
                .map(|k| k as usize)
        };
        partner.filter(|_| self.swap_possible(grid, movement, best, here))
    }

    /// The passage one body wide that a body at `from` steps into at `into`, followed to its
    /// end within [`SWAP_REACH`] cells: its cells from `from` on, the last a dead end or a
    /// fork (two ways on or more). `None` if it goes on further.
    pub(super) fn passage(
        &self,
        grid: &Grid,
        movement: Movement,
        from: usize,
        into: usize,
    ) -> Option<Passage> {
        let mut cells = vec![from, into];
        while cells.len() <= SWAP_REACH {
            let [.., behind, ahead] = cells[..] else {
                return None;
            };
            match self.narrow_past(grid, movement, behind, ahead) {
                Way::On(next) => cells.push(next),
                Way::Fork => return Some(Passage { cells, open: true }),
                Way::DeadEnd => return Some(Passage { cells, open: false }),
            }
        }
        None
    }

    /// The next cell past `ahead` away from `behind` where the way is one body wide: `None`
    /// at a fork (two ways on or more) or a dead end. A body that has arrived in a dead end of
    /// its own (a cell with one way in) is as good as a wall: it need not make way.
    pub(super) fn narrow_past(
        &self,
        grid: &Grid,
        movement: Movement,
        behind: usize,
        ahead: usize,
    ) -> Way {
        let ways = movement.moves(grid, grid.point_of(ahead));
        Way::past(behind, ways.filter_map(|p| grid.index_of(p)), |u| {
            let k = self.standing(u);
            k != NONE
                && self.arrived[k as usize]
                && movement.moves(grid, grid.point_of(u)).nth(1).is_none()
        })
    }

    /// Must `puller` get past `pusher` down the passage (lacam3's `is_swap_required`)? The
    /// pusher stands on its first cell and would step onto its second. lacam3 follows the
    /// passage while it leads the pusher nearer its goal, by a table of true distances; if it
    /// forks first, the two can pass there. Else it answers yes if where that stops the puller
    /// wants to be behind (nearer the pusher's side) and the pusher ahead, or on its goal.
    ///
    /// Down a passage one body wide, a goal in it is as far as the cells between, and needs no
    /// table: so yes if the pusher's goal is in it short of its end, and the puller's no deeper.
    /// A goal outside a dead end is back out past its mouth, so a puller bound for one must get
    /// past too. Outside a passage open at both ends, it is not known which end a body leaves
    /// by: no. (A step's `cost_to_go` guides a body to the next cell of its route, and says
    /// nothing of the cells past it, so it could not tell.)
    pub(super) fn swap_required(
        &self,
        grid: &Grid,
        pusher: usize,
        puller: usize,
        passage: &Passage,
    ) -> bool {
        let (Some(pusher_goal), Some(puller_goal)) = (self.goal[pusher], self.goal[puller]) else {
            return false;
        };
        let cells = &passage.cells;
        let depth = |goal: Point| cells.iter().position(|&c| grid.point_of(c) == goal);
        // The pusher heads in, and not onto the fork at the far end (they pass there).
        let Some(deep) = depth(pusher_goal).filter(|&d| d >= 1) else {
            return false;
        };
        if passage.open && deep + 1 == cells.len() {
            return false;
        }
        match depth(puller_goal) {
            Some(d) => d < deep,
            None => !passage.open,
        }
    }

    /// Can a body at `from` back out, away from one at `into`, to a fork where the two can
    /// pass (lacam3's `is_swap_possible`)?
    pub(super) fn swap_possible(
        &self,
        grid: &Grid,
        movement: Movement,
        into: usize,
        from: usize,
    ) -> bool {
        let (mut behind, mut ahead) = (into, from);
        for _ in 0..SWAP_REACH {
            if ahead == into {
                return false;
            }
            match self.narrow_past(grid, movement, behind, ahead) {
                Way::Fork => return true,
                Way::DeadEnd => return false,
                Way::On(next) => (behind, ahead) = (ahead, next),
            }
        }
        false
    }
}

/// How far the emulated swap follows a passage one body wide, in cells: it bounds a step's
/// work, and two bodies that must pass that far down a passage are better served by a new
/// route.
const SWAP_REACH: usize = 64;

/// A passage one body wide ([`CrowdStep::passage`]).
pub(super) struct Passage {
    /// Its cells, from where the body stands.
    cells: Vec<usize>,
    /// Whether it ends at a fork (else at a dead end).
    open: bool,
}
