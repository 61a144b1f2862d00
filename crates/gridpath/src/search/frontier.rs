//! The frontier (open set): the cells a search has reached but not yet expanded.
//!
//! The order in which the frontier hands cells back *is* the algorithm. A queue gives
//! breadth-first search, a stack depth-first search, and a priority queue keyed on cost gives
//! Dijkstra, greedy best-first and A*, depending on the key.

use std::collections::{BinaryHeap, VecDeque};

/// How a frontier orders its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// First in, first out.
    Queue,
    /// Last in, first out.
    Stack,
    /// Lowest priority value first (a binary heap).
    Priority,
}

/// One entry of the priority queue, packed into a single 128-bit *rank*: the larger the rank,
/// the sooner the cell is expanded, so the standard max-heap pops the right entry with plain
/// integer comparisons.
///
/// Ties are broken in a fixed, documented way so that the same query always expands cells in the
/// same order and returns the same path:
/// 1. lowest `priority` first;
/// 2. among equal priorities, the larger `g` (compared at single precision): the cell further
///    along its path, so the search pushes on towards the goal instead of widening;
/// 3. then the smaller cell index (row-major: top rows first, then left columns).
///
/// Priorities and costs are never negative, and for non-negative floats the order of the bit
/// patterns is the order of the numbers, which is what makes the packing work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry(u128);

impl Entry {
    #[inline]
    fn new(node: usize, priority: f64, g: f64) -> Self {
        let priority = !priority.to_bits(); // lower priority → larger rank
        let g = (g as f32).to_bits(); // larger g → larger rank
        let node = !(node as u32); // smaller index → larger rank
        Self((u128::from(priority) << 64) | (u128::from(g) << 32) | u128::from(node))
    }

    #[inline]
    fn node(self) -> usize {
        !(self.0 as u32) as usize
    }
}

/// A frontier that keeps its memory between searches.
#[derive(Clone, Debug)]
pub(crate) struct Frontier {
    order: Order,
    heap: BinaryHeap<Entry>,
    line: VecDeque<u32>,
}

impl Default for Frontier {
    fn default() -> Self {
        Self {
            order: Order::Priority,
            heap: BinaryHeap::new(),
            line: VecDeque::new(),
        }
    }
}

impl Frontier {
    /// Empties the frontier and sets its order, keeping the allocated capacity.
    pub(crate) fn reset(&mut self, order: Order) {
        self.order = order;
        self.heap.clear();
        self.line.clear();
    }

    #[inline]
    pub(crate) fn push(&mut self, node: usize, priority: f64, g: f64) {
        match self.order {
            Order::Priority => self.heap.push(Entry::new(node, priority, g)),
            Order::Queue | Order::Stack => self.line.push_back(node as u32),
        }
    }

    /// The next cell to expand. A priority queue may hand back a cell more than once (when a
    /// cheaper route to it was found, the old entry stays behind); the caller skips closed cells.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<usize> {
        match self.order {
            Order::Priority => self.heap.pop().map(Entry::node),
            Order::Queue => self.line.pop_front().map(|n| n as usize),
            Order::Stack => self.line.pop_back().map(|n| n as usize),
        }
    }

    /// The cell a priority queue would hand back next, and its priority (a bidirectional search
    /// reads both sides' before choosing one). `None` for the other orders.
    pub(crate) fn peek(&self) -> Option<(usize, f64)> {
        let top = self.heap.peek()?;
        Some((top.node(), f64::from_bits(!((top.0 >> 64) as u64))))
    }

    pub(crate) fn len(&self) -> usize {
        self.heap.len() + self.line.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(f: &mut Frontier) -> Vec<usize> {
        std::iter::from_fn(|| f.pop()).collect()
    }

    #[test]
    fn each_order() {
        let mut f = Frontier::default();
        for order in [Order::Queue, Order::Stack] {
            f.reset(order);
            for n in [3, 1, 2] {
                f.push(n, 0.0, 0.0);
            }
            let expected = if order == Order::Queue {
                [3, 1, 2]
            } else {
                [2, 1, 3]
            };
            assert_eq!(drain(&mut f), expected);
        }
    }

    #[test]
    fn priority_ties_prefer_larger_g_then_smaller_index() {
        let mut f = Frontier::default();
        f.reset(Order::Priority);
        f.push(7, 5.0, 1.0);
        f.push(4, 5.0, 3.0);
        f.push(9, 5.0, 3.0);
        f.push(2, 6.0, 6.0);
        f.push(8, 4.0, 0.0);
        assert_eq!(f.peek(), Some((8, 4.0)));
        assert_eq!(drain(&mut f), [8, 4, 9, 7, 2]);
        assert_eq!(f.peek(), None);
    }
}
