//! Distance tables: for a goal, every cell's number of moves to it (4-way or hex, walls block), by one
//! breadth-first search back from the goal. PIBT orders an agent's candidate cells by them.

use super::moves::{Moves, for_each_neighbour};
use crate::grid::Grid;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};

/// Each goal's distance table, made the first time it is asked for and kept until [`clear`]:
/// agents that share a goal share its table. A table is 4 bytes a cell, so 1,000 distinct goals
/// on a 100,000-cell map take 400 MB; [`Distances::bytes`] says what is held.
///
/// [`clear`]: Distances::clear
#[derive(Debug)]
pub struct Distances {
    tables: Vec<Box<[u32]>>,
    /// Which table holds a goal's distances, by the goal's cell index.
    slot_of_goal: HashMap<usize, usize>,
    queue: VecDeque<usize>,
    /// The size of the grid the tables were made for: another size starts afresh.
    cells: usize,
    /// Names these tables, for those who keep slots: a fresh number on every clear and clone.
    id: u64,
    /// The moves the distances count.
    moves: Moves,
}

/// Fills `table` (one entry a cell) with every cell's 4-way moves to `goal` by one breadth-first
/// search back from it, [`Distances::UNREACHABLE`] where it cannot be reached.
fn fill_distances(
    grid: &Grid,
    moves: Moves,
    goal: usize,
    table: &mut [u32],
    queue: &mut VecDeque<usize>,
) {
    table.fill(Distances::UNREACHABLE);
    if goal >= table.len() || grid.raw_cost(goal) == 0 {
        return;
    }
    table[goal] = 0;
    queue.clear();
    queue.push_back(goal);
    while let Some(at) = queue.pop_front() {
        let next = table[at] + 1;
        for_each_neighbour(grid, moves, at, |n| {
            if table[n] == Distances::UNREACHABLE {
                table[n] = next;
                queue.push_back(n);
            }
        });
    }
}

/// The next [`Distances::id`]: unique in the process, so a slot kept for one set of tables is
/// never taken for another's.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn fresh_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

impl Default for Distances {
    fn default() -> Self {
        Self {
            tables: Vec::new(),
            slot_of_goal: HashMap::new(),
            queue: VecDeque::new(),
            cells: 0,
            id: fresh_id(),
            moves: Moves::FourWay,
        }
    }
}

impl Clone for Distances {
    fn clone(&self) -> Self {
        Self {
            tables: self.tables.clone(),
            slot_of_goal: self.slot_of_goal.clone(),
            queue: VecDeque::new(),
            cells: self.cells,
            id: fresh_id(),
            moves: self.moves,
        }
    }
}

impl Distances {
    /// The distance of a cell from which the goal cannot be reached.
    pub const UNREACHABLE: u32 = u32::MAX;

    /// Tables of 4-way moves.
    pub fn new() -> Self {
        Self::default()
    }

    /// Tables of `moves`.
    pub fn with_moves(moves: Moves) -> Self {
        Self {
            moves,
            ..Self::default()
        }
    }

    /// The moves the distances count.
    pub fn moves(&self) -> Moves {
        self.moves
    }

    /// The slot of `goal`'s table (a cell index), made now if it is new.
    pub fn slot(&mut self, grid: &Grid, goal: usize) -> usize {
        self.fit(grid);
        if let Some(&slot) = self.slot_of_goal.get(&goal) {
            return slot;
        }
        let mut table = vec![Self::UNREACHABLE; grid.len()].into_boxed_slice();
        fill_distances(grid, self.moves, goal, &mut table, &mut self.queue);
        self.tables.push(table);
        self.slot_of_goal.insert(goal, self.tables.len() - 1);
        self.tables.len() - 1
    }

    /// The table in `slot` (see [`Distances::slot`]): moves to its goal from every cell.
    pub fn table(&self, slot: usize) -> &[u32] {
        &self.tables[slot]
    }

    /// Moves from cell `from` to cell `goal`, or [`Distances::UNREACHABLE`].
    pub fn get(&mut self, grid: &Grid, goal: usize, from: usize) -> u32 {
        let slot = self.slot(grid, goal);
        self.tables[slot]
            .get(from)
            .copied()
            .unwrap_or(Self::UNREACHABLE)
    }

    /// Forgets every table: call it when walls change.
    pub fn clear(&mut self) {
        self.tables.clear();
        self.slot_of_goal.clear();
        self.id = fresh_id();
    }

    /// Starts afresh if the tables were made for a grid of another size, then names the tables:
    /// slots got from [`Distances::slot`] stay good for as long as this number stays the same.
    pub(crate) fn fit(&mut self, grid: &Grid) -> u64 {
        if self.cells != grid.len() {
            self.clear();
            self.cells = grid.len();
        }
        self.id
    }

    /// The memory the tables hold, in bytes.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(|t| t.len() * 4).sum()
    }
}
