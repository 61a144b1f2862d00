//! Distance tables shared by the agents bound for one goal, kept while anyone needs them.
//!
//! PIBT orders an agent's choices by how far each is from its goal, so every agent needs its
//! goal's table. [`crate::mapf::Distances`] keeps every table it ever made: right for one-shot
//! MAPF, where goals are fixed, but a lifelong run of 1,000 steps on the warehouse map deals out
//! some 25,000 distinct goals, 280 KB each. Here a table counts its users; one no one uses is
//! kept for a while (goals come round again: the sorting centre has 589 of them) and its memory
//! handed to a new goal when there are more than [`GoalTables::spare`] such tables.

use super::guidance::sides;
use crate::grid::Grid;
use crate::mapf::Distances;
use std::collections::{HashMap, VecDeque};

/// A handle on one goal's table, from [`GoalTables::acquire`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSlot(usize);

/// Goals' distance tables with their users counted (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct GoalTables {
    tables: Vec<Box<[u32]>>,
    goal_of: Vec<usize>,
    users: Vec<u32>,
    slot_of_goal: HashMap<usize, usize>,
    /// Slots no one uses, oldest first; a slot here may have been taken again since (its users
    /// say), and is then skipped.
    unused: VecDeque<usize>,
    queue: Vec<u32>,
    /// Per cell, a bit for each of its four sides ([`sides`]' order) that is a free cell: the
    /// searches read one byte a cell instead of working out where the sides are and whether
    /// they are walls.
    open_sides: Vec<u8>,
    sides_width: u32,
}

impl GoalTables {
    /// A table's entry for a cell from which its goal cannot be reached.
    pub const UNREACHABLE: u32 = Distances::UNREACHABLE;

    /// No tables yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many tables no one uses are kept: 64 MiB of them, and at least 16.
    pub fn spare(&self, grid: &Grid) -> usize {
        ((64 << 20) / (grid.len().max(1) * 4)).max(16)
    }

    /// The table of `goal` (a cell index), made now if no table for it is kept, with one more
    /// user. Give it back with [`GoalTables::release`].
    pub fn acquire(&mut self, grid: &Grid, goal: usize) -> TableSlot {
        if let Some(&slot) = self.slot_of_goal.get(&goal) {
            self.users[slot] += 1;
            return TableSlot(slot);
        }
        let slot = self.free_slot(grid);
        if (self.open_sides.len(), self.sides_width) != (grid.len(), grid.width()) {
            self.open_sides = open_sides(grid);
            self.sides_width = grid.width();
        }
        self.fill(grid, slot, goal);
        self.goal_of[slot] = goal;
        self.users[slot] = 1;
        self.slot_of_goal.insert(goal, slot);
        TableSlot(slot)
    }

    /// One user fewer for the table in `slot`.
    pub fn release(&mut self, slot: TableSlot) {
        let users = &mut self.users[slot.0];
        *users = users.saturating_sub(1);
        if *users == 0 {
            self.unused.push_back(slot.0);
        }
    }

    /// Moves to the slot's goal from cell `from`.
    pub fn distance(&self, slot: TableSlot, from: usize) -> u32 {
        self.tables[slot.0]
            .get(from)
            .copied()
            .unwrap_or(Self::UNREACHABLE)
    }

    /// The slot's whole table.
    pub fn table(&self, slot: TableSlot) -> &[u32] {
        &self.tables[slot.0]
    }

    /// Walls changed: every table in use is made again, and those no one uses are forgotten.
    pub fn refresh(&mut self, grid: &Grid) {
        self.open_sides = open_sides(grid);
        self.sides_width = grid.width();
        for slot in 0..self.tables.len() {
            if self.users[slot] > 0 {
                if self.tables[slot].len() != grid.len() {
                    self.tables[slot] = vec![0; grid.len()].into_boxed_slice();
                }
                self.fill(grid, slot, self.goal_of[slot]);
            } else {
                self.slot_of_goal.remove(&self.goal_of[slot]);
                self.goal_of[slot] = usize::MAX;
            }
        }
        self.unused = (0..self.tables.len())
            .filter(|&s| self.users[s] == 0)
            .collect();
    }

    /// The memory the tables hold, in bytes.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(|t| t.len() * 4).sum()
    }

    /// Fills the table in `slot` with every cell's 4-way moves to `goal` by one breadth-first
    /// search back from it, [`Self::UNREACHABLE`] where it cannot be reached. The queue is a
    /// list read from the front: each cell joins it at most once.
    fn fill(&mut self, grid: &Grid, slot: usize, goal: usize) {
        let table = &mut self.tables[slot];
        table.fill(Self::UNREACHABLE);
        if grid.raw_cost_at(goal).is_none_or(|c| c == 0) {
            return;
        }
        let width = grid.width() as usize;
        let queue = &mut self.queue;
        queue.clear();
        queue.push(goal as u32);
        table[goal] = 0;
        let mut head = 0;
        while let Some(&at) = queue.get(head) {
            head += 1;
            let at = at as usize;
            let (next, open) = (table[at] + 1, self.open_sides[at]);
            let around = [
                at.wrapping_sub(width),
                at.wrapping_sub(1),
                at + 1,
                at + width,
            ];
            for (k, v) in around.into_iter().enumerate() {
                if open >> k & 1 != 0 && table[v] == Self::UNREACHABLE {
                    table[v] = next;
                    queue.push(v as u32);
                }
            }
        }
    }

    /// A slot for a new table: an unused one's when more than [`GoalTables::spare`] are kept,
    /// else a new one.
    fn free_slot(&mut self, grid: &Grid) -> usize {
        if self.unused.len() > self.spare(grid) {
            while let Some(slot) = self.unused.pop_front() {
                if self.users[slot] == 0 {
                    if self.goal_of[slot] != usize::MAX {
                        self.slot_of_goal.remove(&self.goal_of[slot]);
                    }
                    if self.tables[slot].len() == grid.len() {
                        return slot;
                    }
                }
            }
        }
        self.tables.push(vec![0; grid.len()].into_boxed_slice());
        self.goal_of.push(usize::MAX);
        self.users.push(0);
        self.tables.len() - 1
    }
}

/// [`GoalTables::open_sides`] of every cell of `grid`.
fn open_sides(grid: &Grid) -> Vec<u8> {
    (0..grid.len())
        .map(|u| {
            sides(grid.width() as usize, grid.len(), u)
                .iter()
                .filter(|&&(on_map, v, _)| on_map && grid.raw_cost(v) != 0)
                .fold(0, |bits, &(_, _, k)| bits | 1 << k)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_shared_kept_and_its_memory_reused() {
        let grid = Grid::from_ascii(&["....", ".##.", "...."]).expect("a grid");
        let mut tables = GoalTables::new();
        let a = tables.acquire(&grid, 0);
        let b = tables.acquire(&grid, 0);
        assert_eq!(a, b, "one table for one goal");
        assert_eq!(tables.distance(a, 11), 5);
        tables.release(a);
        tables.release(b);
        let again = tables.acquire(&grid, 0);
        assert_eq!(again, a, "kept while spare");
        tables.release(again);
        // Past the spare count, an unused table's memory goes to the next new goal.
        let spare = tables.spare(&grid);
        let held: Vec<TableSlot> = (0..spare + 2)
            .map(|g| tables.acquire(&grid, g % 12))
            .collect();
        for s in held {
            tables.release(s);
        }
        assert!(tables.bytes() <= (spare + 2) * grid.len() * 4);
        let c = tables.acquire(&grid, 3);
        assert_eq!(tables.distance(c, 0), 3);
    }

    #[test]
    fn walls_changed_remake_the_tables_in_use() {
        let mut grid = Grid::from_ascii(&["...."]).expect("a grid");
        let mut tables = GoalTables::new();
        let a = tables.acquire(&grid, 3);
        grid.set_blocked(crate::grid::Point::new(1, 0), true)
            .expect("on the map");
        tables.refresh(&grid);
        assert_eq!(tables.distance(a, 0), GoalTables::UNREACHABLE);
        assert_eq!(tables.distance(a, 2), 1);
    }

    #[test]
    fn tables_match_the_mapf_distances_on_random_grids() {
        // mapf's `Distances` fills its tables by its own breadth-first search: an oracle that
        // shares no code with `GoalTables::fill`.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let (w, h) = (1 + next() % 12, 1 + next() % 9);
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| if next() % 3 == 0 { '#' } else { '.' })
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let grid = Grid::from_ascii(&rows).expect("a grid");
            let (mut ours, mut oracle) = (GoalTables::new(), Distances::new());
            for goal in 0..grid.len() {
                let slot = ours.acquire(&grid, goal);
                let theirs = oracle.slot(&grid, goal);
                assert_eq!(
                    ours.table(slot),
                    oracle.table(theirs),
                    "{rows:?}, goal {goal}"
                );
                ours.release(slot);
            }
        }
    }
}
