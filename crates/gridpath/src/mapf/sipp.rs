//! Safe interval path planning (SIPP; Phillips and Likhachev, "SIPP: Safe Interval Path
//! Planning for Dynamic Environments", ICRA 2011): one agent's quickest path around the
//! others' known paths, the search refinement re-plans agents with.
//!
//! A space-time A\* has a state for each cell at each time, so an agent that must wait tens of
//! steps for a door expands every cell near it at every one of those times. Between two visits
//! of others a cell is free for a whole *safe interval*, and arriving early in one is never
//! worse than arriving late (the agent can wait there), so SIPP's states are (cell, interval),
//! each reached at its earliest time, and a wait is part of a move:
//!
//! ```text
//! open ← {(s, its first interval) at time 0}
//! while open is not empty:
//!     (v, i) at t ← the least t + h(v), latest t first
//!     if v = goal and i lasts for ever: return the path to it
//!     for u in neighbours(v), for each safe interval j of u:
//!         t' ← the earliest time in j after t that can be reached by waiting on v within i
//!              and stepping (not swapping with the one leaving u)
//!         if t' exists and t' + h(u) ≤ the limit and (u, j) was not reached by t':
//!             reach (u, j) at t', from (v, i)
//! ```

use super::distances::Distances;
use super::fx::FxMap;
use super::moves::{Moves, neighbours};
use super::until::Until;
use crate::grid::Grid;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

/// Who is where when: each cell's visits (time, agent), sorted, and the time from which an
/// agent stands on its goal cell for good.
pub(crate) struct Table {
    visits: Vec<Vec<(u32, u32)>>,
    held_from: Vec<(u32, u32)>,
}

impl Table {
    pub(crate) fn new(grid: &Grid) -> Self {
        Self {
            visits: vec![Vec::new(); grid.len()],
            held_from: vec![(NONE, NONE); grid.len()],
        }
    }

    /// The table of `paths[i]`, agent `i`'s: each cell's visits gathered, then sorted once
    /// (at 10,000 agents, 6.7 million visits put in one by one, each in its place, took
    /// seconds).
    pub(crate) fn from_paths(grid: &Grid, paths: &[Vec<u32>]) -> Self {
        let mut table = Self::new(grid);
        for (i, path) in paths.iter().enumerate() {
            for (t, &v) in path.iter().enumerate() {
                table.visits[v as usize].push((t as u32, i as u32));
            }
            if let Some(&goal) = path.last() {
                table.held_from[goal as usize] = ((path.len() - 1) as u32, i as u32);
            }
        }
        for visits in &mut table.visits {
            visits.sort_unstable();
        }
        table
    }

    pub(crate) fn add(&mut self, agent: u32, path: &[u32]) {
        for (t, &v) in path.iter().enumerate() {
            let visits = &mut self.visits[v as usize];
            let k = visits.partition_point(|&e| e < (t as u32, agent));
            visits.insert(k, (t as u32, agent));
        }
        if let Some(&goal) = path.last() {
            self.held_from[goal as usize] = ((path.len() - 1) as u32, agent);
        }
    }

    pub(crate) fn remove(&mut self, agent: u32, path: &[u32]) {
        for (t, &v) in path.iter().enumerate() {
            let visits = &mut self.visits[v as usize];
            if let Ok(k) = visits.binary_search(&(t as u32, agent)) {
                visits.remove(k);
            }
        }
        if let Some(&goal) = path.last()
            && self.held_from[goal as usize].1 == agent
        {
            self.held_from[goal as usize] = (NONE, NONE);
        }
    }

    /// Can `path` be walked as the table is (no one on its cells at its times, no one
    /// swapping with it, no one on its goal after it arrives)? `paths`: everyone's.
    pub(crate) fn clear_for(&self, path: &[u32], paths: &[Vec<u32>]) -> bool {
        let Some(&goal) = path.last() else {
            return true;
        };
        let end = (path.len() - 1) as u32;
        let free = path
            .iter()
            .enumerate()
            .all(|(t, &v)| self.at(v as usize, t as u32).is_none());
        let after = self.visits[goal as usize]
            .last()
            .is_none_or(|&(t, _)| t < end);
        let no_swaps = path.windows(2).enumerate().all(|(t, w)| {
            w[0] == w[1] || !swaps(self, paths, w[0] as usize, w[1] as usize, t as u32 + 1)
        });
        free && after && no_swaps
    }

    /// The agent on cell `v` at time `t`, if any.
    fn at(&self, v: usize, t: u32) -> Option<u32> {
        let (from, holder) = self.held_from[v];
        if from != NONE && t >= from {
            return Some(holder);
        }
        let visits = &self.visits[v];
        let k = visits.partition_point(|&(u, _)| u < t);
        visits.get(k).filter(|&&(u, _)| u == t).map(|&(_, a)| a)
    }

    /// Cell `v`'s safe interval `k` (the one after its `k`-th visit), first and last times
    /// (`NONE`: for ever); `None` when it is empty, or when it would start after the cell's
    /// holder came to stay.
    fn interval(&self, v: usize, k: usize) -> Option<(u32, u32)> {
        let visits = &self.visits[v];
        let lo = if k == 0 { 0 } else { visits[k - 1].0 + 1 };
        let hi = match visits.get(k) {
            Some(&(t, _)) => t.checked_sub(1)?,
            None if self.held_from[v].0 != NONE => return None,
            None => NONE,
        };
        (lo <= hi).then_some((lo, hi))
    }

    /// The interval `t` falls in, if `t` is a safe time on `v`.
    fn interval_at(&self, v: usize, t: u32) -> Option<usize> {
        let k = self.visits[v].partition_point(|&(u, _)| u < t);
        self.interval(v, k).map(|_| k)
    }
}

/// A state reached: a cell, its interval, the earliest time, and the state it was reached from.
#[derive(Clone, Copy)]
struct Reached {
    cell: u32,
    interval: u32,
    time: u32,
    from: u32,
}

/// SIPP's scratch, kept between searches.
#[derive(Default)]
pub(crate) struct Sipp {
    /// (f, `u32::MAX - t`, state): least f, then the latest time (deepest) first.
    open: BinaryHeap<Reverse<(u32, u32, u32)>>,
    states: Vec<Reached>,
    /// Each (cell, interval) reached: its state. A cell's intervals are few; kept by cell.
    seen: FxMap<(u32, u32), u32>,
}

/// One search's question: from `start` to `goal` with the goal's distance table, arriving by
/// `limit`, expanding at most `most` states.
pub(crate) struct Ask<'a> {
    pub(crate) moves: Moves,
    pub(crate) start: u32,
    pub(crate) goal: u32,
    pub(crate) to_goal: &'a [u32],
    pub(crate) limit: u32,
    pub(crate) most: usize,
}

impl Sipp {
    /// The quickest path (a cell each step) that keeps clear of `table`, whose agents follow
    /// `paths`, and ends on the goal for good; `None` if none arrives by the limit, or the
    /// search ran out of states or of time. Adds the states it expanded to `spent`.
    pub(crate) fn run(
        &mut self,
        grid: &Grid,
        table: &Table,
        paths: &[Vec<u32>],
        ask: &Ask<'_>,
        until: &Until<'_>,
        spent: &mut usize,
    ) -> Option<Vec<u32>> {
        let h0 = ask.to_goal[ask.start as usize];
        let first = table.interval_at(ask.start as usize, 0)?;
        if h0 == Distances::UNREACHABLE {
            return None;
        }
        self.open.clear();
        self.states.clear();
        self.seen.clear();
        self.reach(ask.start, first as u32, 0, NONE, h0);
        let mut expansions = 0;
        while let Some(Reverse((_, _, id))) = self.open.pop() {
            let state = self.states[id as usize];
            if self.seen.get(&(state.cell, state.interval)) != Some(&id) {
                continue; // reached earlier since
            }
            let (v, k) = (state.cell as usize, state.interval as usize);
            let Some((_, hi)) = table.interval(v, k) else {
                continue;
            };
            if v == ask.goal as usize && hi == NONE {
                *spent += expansions;
                return Some(self.path_to(id));
            }
            expansions += 1;
            if expansions > ask.most || (expansions.is_multiple_of(256) && until.now()) {
                *spent += expansions;
                return None;
            }
            // Leave v at some time in t..=hi, arriving one step later.
            let latest = hi.saturating_add(1);
            for u in neighbours(grid, ask.moves, v) {
                let h = ask.to_goal[u];
                if h == Distances::UNREACHABLE {
                    continue;
                }
                let mut j = table.visits[u].partition_point(|&(x, _)| x <= state.time);
                while j <= table.visits[u].len() {
                    let Some((lo, u_hi)) = table.interval(u, j) else {
                        j += 1;
                        continue;
                    };
                    let mut t = lo.max(state.time + 1);
                    if t > latest || t.saturating_add(h) > ask.limit {
                        break;
                    }
                    // Not onto a cell whose agent steps onto v as this one leaves it.
                    while t <= u_hi.min(latest) && swaps(table, paths, v, u, t) {
                        t += 1;
                    }
                    if t <= u_hi.min(latest) && t.saturating_add(h) <= ask.limit {
                        let known = self.seen.get(&(u as u32, j as u32));
                        if known.is_none_or(|&s| self.states[s as usize].time > t) {
                            self.reach(u as u32, j as u32, t, id, h);
                        }
                    }
                    j += 1;
                }
            }
        }
        *spent += expansions;
        None
    }

    fn reach(&mut self, cell: u32, interval: u32, time: u32, from: u32, h: u32) {
        let id = self.states.len() as u32;
        self.states.push(Reached {
            cell,
            interval,
            time,
            from,
        });
        self.seen.insert((cell, interval), id);
        self.open.push(Reverse((time + h, u32::MAX - time, id)));
    }

    /// The path to state `id`, a cell each step: the waits put back in.
    fn path_to(&self, id: u32) -> Vec<u32> {
        let mut chain = Vec::new();
        let mut at = id;
        while at != NONE {
            let s = self.states[at as usize];
            chain.push((s.cell, s.time));
            at = s.from;
        }
        chain.reverse();
        let mut path = Vec::new();
        for pair in chain.windows(2) {
            let ((v, t), (_, next)) = (pair[0], pair[1]);
            path.extend(std::iter::repeat_n(v, (next - t) as usize));
        }
        if let Some(&(v, _)) = chain.last() {
            path.push(v);
        }
        path
    }
}

/// Would stepping from `v` onto `u`, arriving at `t`, swap with the agent on `u` at `t - 1`?
fn swaps(table: &Table, paths: &[Vec<u32>], v: usize, u: usize, t: u32) -> bool {
    table.at(u, t - 1).is_some_and(|j| {
        let p = &paths[j as usize];
        p[(t as usize).min(p.len() - 1)] == v as u32
    })
}
