//! A* on any graph: the algorithm without the grid.
//!
//! Everything else in this crate searches a [`crate::grid::Grid`], where a node is a cell and its
//! neighbours are the cells around it. A* itself needs far less: a start, a way to list a node's
//! neighbours with the cost of reaching each, a heuristic, and a test for the goal. This module is
//! that A*, over any node type, written to be read and to be checked by hand: [`astar_traced`]
//! reports every expansion with its g, h and f and the open list, as a course exercise asks
//! students to write them down (`cargo run -p gridpath --example romania` prints the textbook's
//! Arad-to-Bucharest search). A test checks that on a grid, seen as a graph, it finds the same
//! costs as the grid A*.
//!
//! The loop, as in [`crate::textbook::astar`]: take the open node with the lowest f = g + h (ties
//! to the larger g, then to the node opened first); stop if it is the goal; otherwise offer each
//! neighbour the route through it, and open the neighbour if the route is new or cheaper.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hash;

/// A path found by [`astar`]: the nodes from start to goal, and the sum of the step costs.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphPath<N> {
    /// The nodes, from the start to the goal.
    pub nodes: Vec<N>,
    /// The sum of the step costs.
    pub cost: f64,
}

/// One expansion, as [`astar_traced`] reports it.
pub struct Expansion<'a, N> {
    /// The node taken out of the open list.
    pub node: &'a N,
    /// Its cost from the start, its heuristic, and their sum.
    pub g: f64,
    /// Its heuristic estimate to the goal.
    pub h: f64,
    /// g + h: what the open list orders by.
    pub f: f64,
    open: &'a HashMap<N, Record<N>>,
}

impl<N: Clone> Expansion<'_, N> {
    /// The open list after expanding `node` (it is out, its neighbours are in): each node with its
    /// g and f, lowest f first (ties as the search breaks them). Built on request, so a search that does not ask pays nothing.
    pub fn open_list(&self) -> Vec<(N, f64, f64)> {
        let mut open: Vec<&Record<N>> = self.open.values().filter(|r| !r.closed).collect();
        open.sort_by(|a, b| a.key().cmp(&b.key()).reverse());
        open.into_iter()
            .map(|r| (r.node.clone(), r.g, r.g + r.h))
            .collect()
    }
}

/// What the search knows of one node it has reached.
struct Record<N> {
    node: N,
    g: f64,
    h: f64,
    parent: Option<N>,
    closed: bool,
    /// When it was (last) opened: the final tie-break, first opened first.
    opened: u64,
}

impl<N> Record<N> {
    fn key(&self) -> Key {
        Key {
            f: self.g + self.h,
            g: self.g,
            opened: self.opened,
        }
    }
}

/// The open list's order: lowest f first, then the larger g, then the earlier opened. As a
/// max-heap key, "greater" means "sooner".
#[derive(Clone, Copy, PartialEq)]
struct Key {
    f: f64,
    g: f64,
    opened: u64,
}

impl Eq for Key {}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then(self.g.total_cmp(&other.g))
            .then(other.opened.cmp(&self.opened))
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A* from `start` to the first node for which `is_goal` holds. `neighbours(n)` lists the nodes
/// reachable from `n` in one step, each with the step's cost (never negative); `heuristic(n)`
/// estimates the cost from `n` to a goal (never more than the truth, for the path to be a
/// cheapest one). Returns `None` when no goal can be reached.
///
/// ```
/// use gridpath::graph::astar;
///
/// // A triangle where the direct road is the long way.
/// let roads = |town: &&str| match *town {
///     "A" => vec![("B", 1.0), ("C", 5.0)],
///     "B" => vec![("C", 1.0)],
///     _ => vec![],
/// };
/// let path = astar("A", roads, |_| 0.0, |town| *town == "C").unwrap();
/// assert_eq!(path.nodes, ["A", "B", "C"]);
/// assert_eq!(path.cost, 2.0);
/// ```
pub fn astar<N, I>(
    start: N,
    neighbours: impl FnMut(&N) -> I,
    heuristic: impl FnMut(&N) -> f64,
    is_goal: impl FnMut(&N) -> bool,
) -> Option<GraphPath<N>>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = (N, f64)>,
{
    astar_traced(start, neighbours, heuristic, is_goal, |_| {})
}

/// [`astar`], calling `on_expand` with every node it expands, in order, once the node's neighbours
/// are in the open list (the goal last, when it is reached).
///
/// Why one long function: it is the textbook's A*, the loop a student reads top to bottom (open
/// list, closed set, relaxing each neighbour), with the trace's one call added.
pub fn astar_traced<N, I>(
    start: N,
    mut neighbours: impl FnMut(&N) -> I,
    mut heuristic: impl FnMut(&N) -> f64,
    mut is_goal: impl FnMut(&N) -> bool,
    mut on_expand: impl FnMut(&Expansion<N>),
) -> Option<GraphPath<N>>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = (N, f64)>,
{
    let mut known: HashMap<N, Record<N>> = HashMap::new();
    // The open list: a heap of (key, node). A node whose route improves is pushed again; its old
    // entry is recognised as stale when it comes out (its key no longer matches).
    let mut open: BinaryHeap<(Key, u64)> = BinaryHeap::new();
    let mut by_order: Vec<N> = Vec::new(); // `opened` number → node, to find a heap entry's node
    let h = heuristic(&start);
    let first = Record {
        node: start.clone(),
        g: 0.0,
        h,
        parent: None,
        closed: false,
        opened: 0,
    };
    open.push((first.key(), 0));
    by_order.push(start.clone());
    known.insert(start, first);

    while let Some((key, opened)) = open.pop() {
        let node = by_order[opened as usize].clone();
        let record = known.get_mut(&node)?;
        if record.closed || record.opened != opened {
            continue; // stale: expanded already, or reopened by a cheaper route since
        }
        record.closed = true;
        let (g, h) = (record.g, record.h);
        let report = |known: &HashMap<N, Record<N>>, on_expand: &mut dyn FnMut(&Expansion<N>)| {
            on_expand(&Expansion {
                node: &node,
                g,
                h,
                f: key.f,
                open: known,
            })
        };
        if is_goal(&node) {
            report(&known, &mut on_expand);
            return Some(GraphPath {
                nodes: path_to(&known, node),
                cost: g,
            });
        }
        for (next, step) in neighbours(&node) {
            let through = g + step;
            // New, or reached more cheaply than before. (With a consistent heuristic, such as a
            // straight-line distance, a closed node is never reached more cheaply; with one that
            // is only admissible it can be, and is then opened again.)
            let better = known.get(&next).is_none_or(|r| through < r.g);
            if !better {
                continue;
            }
            let opened = by_order.len() as u64;
            by_order.push(next.clone());
            let h = match known.get(&next) {
                Some(r) => r.h,
                None => heuristic(&next),
            };
            let record = Record {
                node: next.clone(),
                g: through,
                h,
                parent: Some(node.clone()),
                closed: false,
                opened,
            };
            open.push((record.key(), opened));
            known.insert(next, record);
        }
        // Reported once its neighbours are in: the open list is the one the next step picks from.
        report(&known, &mut on_expand);
    }
    None
}

/// The nodes from the start to `goal`, by following the parent links back.
fn path_to<N: Clone + Eq + Hash>(known: &HashMap<N, Record<N>>, goal: N) -> Vec<N> {
    let mut nodes = vec![goal];
    while let Some(parent) = nodes
        .last()
        .and_then(|n| known.get(n))
        .and_then(|r| r.parent.clone())
    {
        nodes.push(parent);
    }
    nodes.reverse();
    nodes
}
