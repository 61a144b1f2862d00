//! The frontier (open set): the cells a search has reached but not yet expanded.
//!
//! The order in which the frontier hands cells back *is* the algorithm. A queue gives
//! breadth-first search, a stack depth-first search, and a priority queue keyed on cost gives
//! Dijkstra, greedy best-first and A*, depending on the key.

use std::collections::VecDeque;

/// How a frontier orders its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// First in, first out.
    Queue,
    /// Last in, first out.
    Stack,
    /// Lowest priority value first (a heap).
    Priority,
}

/// One entry of the priority queue, packed into a single 128-bit *key*: the smaller the key, the
/// sooner the cell is expanded, so the heap orders its entries with plain integer comparisons.
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
        let priority = priority.to_bits(); // lower priority → smaller key
        let g = !(g as f32).to_bits(); // larger g → smaller key
        let node = node as u32; // smaller index → smaller key
        Self((u128::from(priority) << 64) | (u128::from(g) << 32) | u128::from(node))
    }

    #[inline]
    fn node(self) -> usize {
        self.0 as u32 as usize
    }

    #[inline]
    fn priority(self) -> f64 {
        f64::from_bits((self.0 >> 64) as u64)
    }
}

/// A frontier that keeps its memory between searches.
#[derive(Clone, Debug)]
pub(crate) struct Frontier {
    order: Order,
    heap: IndexedHeap,
    line: VecDeque<u32>,
}

impl Default for Frontier {
    fn default() -> Self {
        Self {
            order: Order::Priority,
            heap: IndexedHeap::default(),
            line: VecDeque::new(),
        }
    }
}

impl Frontier {
    /// Empties the frontier and sets its order, for a grid of `len` cells, keeping the allocated
    /// capacity.
    pub(crate) fn reset(&mut self, order: Order, len: usize) {
        self.order = order;
        self.heap.clear(len);
        self.line.clear();
    }

    /// Grows the frontier's memory for a grid of `len` cells, so that no search on a grid that
    /// size has to.
    pub(crate) fn reserve(&mut self, len: usize) {
        self.heap.reserve(len);
    }

    /// Adds a cell that is not in the frontier.
    #[inline]
    pub(crate) fn push(&mut self, node: usize, priority: f64, g: f64) {
        self.push_as(self.order, node, priority, g)
    }

    /// [`Frontier::push`] for a caller that knows the order the frontier was reset with: given
    /// as a constant, it lets the compiler leave out the test.
    #[inline(always)]
    pub(crate) fn push_as(&mut self, order: Order, node: usize, priority: f64, g: f64) {
        debug_assert_eq!(order, self.order);
        match order {
            Order::Priority => self.heap.push(Entry::new(node, priority, g)),
            Order::Queue | Order::Stack => self.line.push_back(node as u32),
        }
    }

    /// Moves a cell that is in the frontier forward, to a lower priority (a cheaper route to it
    /// was found). Only a priority queue reorders: the searches with the other orders never
    /// take a cheaper route, and if one did, the cell would simply be queued again.
    #[inline]
    pub(crate) fn improve(&mut self, node: usize, priority: f64, g: f64) {
        self.improve_as(self.order, node, priority, g)
    }

    /// [`Frontier::improve`] with the order known, like [`Frontier::push_as`].
    #[inline(always)]
    pub(crate) fn improve_as(&mut self, order: Order, node: usize, priority: f64, g: f64) {
        debug_assert_eq!(order, self.order);
        match order {
            Order::Priority => self.heap.improve(Entry::new(node, priority, g)),
            Order::Queue | Order::Stack => self.line.push_back(node as u32),
        }
    }

    /// The next cell to expand. Always inlined: the best-first loop takes cells out in two
    /// places (squares and hexagons), and called, the pop cost A* 2 % more instructions.
    #[inline(always)]
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
        let top = self.heap.entries.first()?;
        Some((top.node(), top.priority()))
    }

    pub(crate) fn len(&self) -> usize {
        self.heap.entries.len() + self.line.len()
    }
}

/// Each entry of [`IndexedHeap`] has this many children.
const ARITY: usize = 4;

/// A min-heap of [`Entry`]s that knows where each cell's entry is, so that a cell found again by
/// a cheaper route has its entry moved up in place ("decrease-key").
///
/// Why not the standard `BinaryHeap`? It cannot find an entry, so a cheaper route has to push
/// a second one and leave the first behind, to be popped and thrown away later. On a grid that
/// is common: a cell is often first reached diagonally and then more cheaply straight on. On
/// the Moving AI arena2 map, A* pushed 10,400 entries per query and threw 4,500 of them away,
/// each costing a pop as dear as a real one. Keeping `slot` up to date costs one store per
/// entry moved, much less than those pops.
///
/// Why four children rather than two? A pop sinks a hole from the top to the bottom, moving
/// one entry per level: with four children there are half as many levels, for two more
/// comparisons per level, and the four children (16 bytes each) lie side by side in 64 bytes.
/// On the same queries A* ran 4–8 % fewer instructions than with two.
#[derive(Clone, Debug, Default)]
struct IndexedHeap {
    /// The heap: `entries[0]` has the smallest key; the entry at `i` has a smaller key than its
    /// children, at `4i + 1` to `4i + 4`.
    entries: Vec<Entry>,
    /// For each cell in the heap, where its entry is in `entries`. Stale for cells that are not
    /// in the heap, and never cleared: it is only read for cells that are.
    slot: Vec<u32>,
}

impl IndexedHeap {
    fn clear(&mut self, len: usize) {
        self.entries.clear();
        self.reserve(len);
    }

    fn reserve(&mut self, len: usize) {
        if self.slot.len() < len {
            self.slot.resize(len, 0);
        }
    }

    #[inline]
    fn push(&mut self, entry: Entry) {
        let at = self.entries.len();
        self.entries.push(entry);
        self.sift_up(at, entry);
    }

    /// Lowers the key of an entry already in the heap (its cell has a lower priority now).
    /// Always inlined, as the pop: the hex maps' loop called it (0.7 times a cell expanded).
    #[inline(always)]
    fn improve(&mut self, entry: Entry) {
        let at = self.slot[entry.node()] as usize;
        self.sift_up(at, entry);
    }

    /// Takes out the top entry. The last entry fills its place: as in the standard library, the
    /// hole left at the top sinks to the bottom along the smallest children first (no
    /// comparison with the entry that will fill it), and the last entry then rises from there,
    /// usually not far.
    #[inline(always)]
    fn pop(&mut self) -> Option<Entry> {
        let last = self.entries.pop()?;
        let Some(&top) = self.entries.first() else {
            return Some(last);
        };
        let (entries, slot) = (&mut self.entries[..], &mut self.slot[..]);
        // Heap positions fit in 32 bits (cells are numbered in 32 bits). Saying so lets the
        // compiler see that `first` cannot wrap, so the hole, above the children just read, is
        // inside the heap too: the loop runs without bounds checks.
        let mut hole: u32 = 0;
        let first = loop {
            let first = ARITY * u64::from(hole) as usize + 1;
            let Some(children) = entries.get(first..first + ARITY) else {
                break first;
            };
            let pick = smallest_of_four(children);
            let smallest = children[pick];
            place(entries, slot, hole as usize, smallest);
            hole = (first + pick) as u32;
        };
        // At the bottom: fewer than four children, perhaps none.
        if let Some(children) = entries.get(first..).filter(|c| !c.is_empty()) {
            let pick = (1..children.len()).fold(0, |best, k| {
                if children[k] < children[best] {
                    k
                } else {
                    best
                }
            });
            let smallest = children[pick];
            place(entries, slot, hole as usize, smallest);
            hole = (first + pick) as u32;
        }
        sift_up(entries, slot, hole as usize, last);
        Some(top)
    }

    #[inline]
    fn sift_up(&mut self, at: usize, entry: Entry) {
        sift_up(&mut self.entries, &mut self.slot, at, entry);
    }
}

/// Puts `entry` at `at`, which must be a hole (its old entry moved elsewhere), and moves it up
/// past every parent with a larger key.
#[inline]
fn sift_up(entries: &mut [Entry], slot: &mut [u32], mut at: usize, entry: Entry) {
    while at > 0 {
        let parent = (at - 1) / ARITY;
        let above = entries[parent];
        if above <= entry {
            break;
        }
        place(entries, slot, at, above);
        at = parent;
    }
    place(entries, slot, at, entry);
}

/// Where in four entries the smallest is: two pairs, then their winners.
#[inline(always)]
fn smallest_of_four(four: &[Entry]) -> usize {
    let ab = usize::from(four[1] < four[0]);
    let cd = 2 + usize::from(four[3] < four[2]);
    if four[cd] < four[ab] { cd } else { ab }
}

#[inline(always)]
fn place(entries: &mut [Entry], slot: &mut [u32], at: usize, entry: Entry) {
    entries[at] = entry;
    slot[entry.node()] = at as u32;
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
            f.reset(order, 10);
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
        f.reset(Order::Priority, 10);
        f.push(7, 5.0, 1.0);
        f.push(4, 5.0, 3.0);
        f.push(9, 5.0, 3.0);
        f.push(2, 6.0, 6.0);
        f.push(8, 4.0, 0.0);
        assert_eq!(f.peek(), Some((8, 4.0)));
        assert_eq!(drain(&mut f), [8, 4, 9, 7, 2]);
        assert_eq!(f.peek(), None);
    }

    #[test]
    fn improving_moves_an_entry_forward_without_a_copy() {
        let mut f = Frontier::default();
        f.reset(Order::Priority, 10);
        for (node, priority) in [(1, 9.0), (2, 8.0), (3, 7.0), (4, 6.0), (5, 5.0)] {
            f.push(node, priority, 0.0);
        }
        f.improve(1, 4.0, 0.0);
        f.improve(3, 4.5, 0.0);
        assert_eq!(f.len(), 5);
        assert_eq!(drain(&mut f), [1, 3, 5, 4, 2]);
    }

    proptest::proptest! {
        /// Any mix of pushes, improvements and pops hands cells back in the order of a plain
        /// sorted list of their latest ranks.
        #[test]
        fn the_heap_agrees_with_a_sorted_list(
            ops in proptest::collection::vec((0usize..40, 0u32..50, 0u8..3), 1..300)
        ) {
            let mut f = Frontier::default();
            f.reset(Order::Priority, 40);
            let mut model: Vec<(u32, usize)> = Vec::new(); // (priority, node), lowest first
            for (node, priority, op) in ops {
                let known = model.iter().position(|&(_, n)| n == node);
                match (op, known) {
                    (0, _) => {
                        let expected = model.iter().min().map(|&(_, n)| n);
                        model.retain(|&(_, n)| Some(n) != expected);
                        proptest::prop_assert_eq!(f.pop(), expected);
                    }
                    (_, None) => {
                        f.push(node, f64::from(priority), 0.0);
                        model.push((priority, node));
                    }
                    (_, Some(k)) if priority < model[k].0 => {
                        f.improve(node, f64::from(priority), 0.0);
                        model[k].0 = priority;
                    }
                    _ => {}
                }
                proptest::prop_assert_eq!(f.len(), model.len());
            }
        }
    }
}
