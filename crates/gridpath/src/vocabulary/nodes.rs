//! Per-cell search state that is reused from one search to the next without clearing.
//!
//! A game may re-plan every frame. Clearing a 512×512 table of costs before each search would cost
//! more than many searches themselves, so each cell carries a *stamp* instead: a search bumps one
//! counter, and any cell whose stamp is older than that counter counts as unseen. Starting a
//! search is O(1), and nothing is allocated once the table has grown to the grid's size.

/// The state of one cell during a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeState {
    /// Not reached yet.
    Unseen,
    /// Reached and waiting in the frontier (the "open set").
    Open,
    /// Expanded: taken out of the frontier and its neighbours looked at (the "closed set").
    Closed,
}

pub(crate) const NO_PARENT: u32 = u32::MAX;

/// One cell's record. Kept together in 16 bytes, so a lookup touches one cache line instead of
/// three arrays.
#[derive(Clone, Copy, Debug)]
struct Node {
    g: f64,
    parent: u32,
    /// `== open_mark` means open, `open_mark + 1` closed, anything lower unseen.
    stamp: u32,
}

const UNSEEN: Node = Node {
    g: 0.0,
    parent: NO_PARENT,
    stamp: 0,
};

#[derive(Clone, Debug, Default)]
pub(crate) struct NodeTable {
    nodes: Vec<Node>,
    open_mark: u32,
}

impl NodeTable {
    /// Grows the table to `len` cells (all unseen), so that no search on a grid that size has to.
    pub(crate) fn reserve(&mut self, len: usize) {
        if self.nodes.len() < len {
            self.nodes.resize(len, UNSEEN);
        }
    }

    /// Forgets the previous search in O(1) (O(len) only when the table must grow, or once every
    /// two billion searches when the stamp counter wraps).
    pub(crate) fn reset(&mut self, len: usize) {
        self.reserve(len);
        if self.open_mark >= u32::MAX - 2 {
            self.nodes.fill(UNSEEN);
            self.open_mark = 0;
        }
        self.open_mark += 2;
    }

    #[inline]
    pub(crate) fn state(&self, i: usize) -> NodeState {
        let s = self.nodes[i].stamp;
        if s == self.open_mark {
            NodeState::Open
        } else if s == self.open_mark + 1 {
            NodeState::Closed
        } else {
            NodeState::Unseen
        }
    }

    #[inline]
    pub(crate) fn is_closed(&self, i: usize) -> bool {
        self.nodes[i].stamp == self.open_mark + 1
    }

    #[inline]
    pub(crate) fn g(&self, i: usize) -> f64 {
        self.nodes[i].g
    }

    /// The cell's state and, unless unseen, its cost so far, from one lookup.
    #[inline]
    pub(crate) fn state_and_g(&self, i: usize) -> (NodeState, f64) {
        let n = self.nodes[i];
        let state = if n.stamp == self.open_mark {
            NodeState::Open
        } else if n.stamp == self.open_mark + 1 {
            NodeState::Closed
        } else {
            NodeState::Unseen
        };
        (state, n.g)
    }

    #[inline]
    pub(crate) fn parent(&self, i: usize) -> Option<usize> {
        let p = self.nodes[i].parent;
        (p != NO_PARENT).then_some(p as usize)
    }

    /// Records that `i` is reached at cost `g` through `parent`, and is open.
    #[inline]
    pub(crate) fn open(&mut self, i: usize, g: f64, parent: u32) {
        self.nodes[i] = Node {
            g,
            parent,
            stamp: self.open_mark,
        };
    }

    #[inline]
    pub(crate) fn close(&mut self, i: usize) {
        self.nodes[i].stamp = self.open_mark + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_forgets_everything_without_clearing() {
        let mut t = NodeTable::default();
        t.reset(4);
        t.open(1, 2.5, 0);
        t.close(2);
        assert_eq!(t.state(1), NodeState::Open);
        assert_eq!(t.state(2), NodeState::Closed);
        t.reset(4);
        assert!((0..4).all(|i| t.state(i) == NodeState::Unseen));
    }

    #[test]
    fn stamp_wraparound_still_forgets() {
        let mut t = NodeTable::default();
        t.reset(2);
        t.open_mark = u32::MAX - 3;
        t.open(0, 1.0, NO_PARENT);
        t.close(1);
        t.reset(2);
        assert_eq!(t.state(0), NodeState::Unseen);
        assert_eq!(t.state(1), NodeState::Unseen);
    }
}
