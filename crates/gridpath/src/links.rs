//! Links: edges of their own between two cells of a grid, beside the moves between neighbours.
//!
//! A door in a wall that opens and shuts, a ladder, a teleporter, the stairs between two floors:
//! each joins two cells that need not touch, one way or both, at a cost of its own. Several
//! floors of a building are then regions of one grid (one floor beside the other) joined by
//! stairs. This is Godot's `NavigationLink` and the A\* Pathfinding Project's off-mesh links, on
//! a grid.
//!
//! A link may be of a kind (a [`Terrain`] id, such as a `LADDER` the game names): a
//! [`crate::UnitClass`] reads it as it reads a cell of that terrain, closed to it or dearer by its
//! factor, so a ladder can be open to soldiers and closed to tanks. A link of no kind is open to
//! every class at its own cost. Either way the cell it leads to must be one the class may stand
//! on; entering it by a link costs the link's cost, not the cell's.

use crate::point::Point;
use crate::terrain::Terrain;

/// One link between two cells that need not touch: a door, stairs, a ladder, a teleporter, one
/// way or both, at a cost of its own. A [`crate::UnitClass`] reads a link of a kind as it reads a
/// cell of that terrain (closed to it, or dearer by its factor); a link of no kind is open to
/// every class. The cell it leads to must be one the class may stand on; entering it by the link
/// costs the link's cost, not the cell's.
///
/// ```
/// use gridpath::{Grid, Link, Point, Search, SearchConfig};
///
/// // Two floors side by side, a wall between them; stairs from (1, 1) up to (5, 1).
/// let mut grid = Grid::from_ascii(&[
///     "...#...",
///     "...#...",
///     "...#...",
/// ]).unwrap();
/// grid.add_link(Link::new(Point::new(1, 1), Point::new(5, 1), 4)).unwrap();
/// let route = Search::new()
///     .find_path(&grid, Point::new(0, 1), Point::new(6, 1), &SearchConfig::default())
///     .unwrap()
///     .path
///     .unwrap();
/// assert_eq!(route.cells, [Point::new(0, 1), Point::new(1, 1), Point::new(5, 1), Point::new(6, 1)]);
/// assert_eq!(route.cost, 6.0); // a step, the stairs, a step
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Link {
    /// Where it starts (for a two-way link, either end).
    pub from: Point,
    /// Where it leads.
    pub to: Point,
    /// What taking it costs, at least 1 (for a class, times its factor for the link's kind).
    pub cost: u32,
    /// Whether it may be taken from `to` back to `from` too.
    pub two_way: bool,
    /// The kind a class reads it as, or `None`: open to every class at its cost.
    pub kind: Option<Terrain>,
    /// A shut door is a link that is not open: no search takes it until it opens again.
    pub open: bool,
}

impl Link {
    /// An open two-way link of no kind from `from` to `to`, at `cost` (0 is taken as 1).
    pub fn new(from: Point, to: Point, cost: u32) -> Self {
        Self {
            from,
            to,
            cost: cost.max(1),
            two_way: true,
            kind: None,
            open: true,
        }
    }

    /// This link, taken from `from` to `to` only (a drop, a one-way teleporter).
    pub fn one_way(self) -> Self {
        Self {
            two_way: false,
            ..self
        }
    }

    /// This link, of `kind`: each class reads it as it reads a cell of that terrain.
    pub fn of_kind(self, kind: Terrain) -> Self {
        Self {
            kind: Some(kind),
            ..self
        }
    }

    /// This link, shut (`false`) or open.
    pub fn opened(self, open: bool) -> Self {
        Self { open, ..self }
    }
}

/// A link's handle on its grid, from [`crate::Grid::add_link`]; good until the link is
/// removed (a removed link's number is given to the next one added).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkId(pub u32);

/// One direction of an open link, by cell index: what a search reads when it expands a cell
/// (and what it costs a class: `EntryCosts::link_cost`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LinkEdge {
    pub(crate) from: u32,
    pub(crate) to: u32,
    pub(crate) cost: u32,
    pub(crate) kind: Option<Terrain>,
}

/// A grid's links, and the open ones' edges sorted by the cell they leave: a search finds a
/// cell's edges by a binary search, and a grid with no link pays one test an expansion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Links {
    slots: Vec<Option<Link>>,
    edges: Vec<LinkEdge>,
    /// The same edges by the cell they lead to, for the searches that run back from a goal.
    incoming: Vec<LinkEdge>,
}

impl Links {
    pub(crate) fn add(&mut self, link: Link, width: u32) -> LinkId {
        let link = Link {
            cost: link.cost.max(1),
            ..link
        };
        let free = self.slots.iter().position(Option::is_none);
        let id = match free {
            Some(i) => {
                self.slots[i] = Some(link);
                i
            }
            None => {
                self.slots.push(Some(link));
                self.slots.len() - 1
            }
        };
        self.index(width);
        LinkId(id as u32)
    }

    pub(crate) fn remove(&mut self, id: LinkId, width: u32) -> Option<Link> {
        let link = self.slots.get_mut(id.0 as usize)?.take();
        self.index(width);
        link
    }

    /// Opens or shuts a link; whether it changed.
    pub(crate) fn set_open(&mut self, id: LinkId, open: bool, width: u32) -> bool {
        let Some(Some(link)) = self.slots.get_mut(id.0 as usize) else {
            return false;
        };
        if link.open == open {
            return false;
        }
        link.open = open;
        self.index(width);
        true
    }

    pub(crate) fn get(&self, id: LinkId) -> Option<&Link> {
        self.slots.get(id.0 as usize)?.as_ref()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (LinkId, &Link)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.as_ref().map(|l| (LinkId(i as u32), l)))
    }

    /// Every open link's directions, by the cell they leave.
    pub(crate) fn edges(&self) -> &[LinkEdge] {
        &self.edges
    }

    /// The open links' directions out of the cell at `index`.
    #[inline]
    pub(crate) fn edges_from(&self, index: usize) -> &[LinkEdge] {
        run_of(&self.edges, |e| e.from, index as u32)
    }

    /// The same, sorted by the cell they lead to.
    pub(crate) fn incoming(&self) -> &[LinkEdge] {
        &self.incoming
    }

    /// The open links' directions into the cell at `index`.
    #[inline]
    pub(crate) fn edges_into(&self, index: usize) -> &[LinkEdge] {
        run_of(&self.incoming, |e| e.to, index as u32)
    }

    /// Lays out the open links' edges again (links are few; a change redoes them all).
    fn index(&mut self, width: u32) {
        let at = |p: Point| p.y as u32 * width + p.x as u32;
        self.edges.clear();
        for link in self.slots.iter().flatten().filter(|l| l.open) {
            let (from, to) = (at(link.from), at(link.to));
            let edge = |from, to| LinkEdge {
                from,
                to,
                cost: link.cost,
                kind: link.kind,
            };
            self.edges.push(edge(from, to));
            if link.two_way {
                self.edges.push(edge(to, from));
            }
        }
        self.edges.sort_by_key(|e| (e.from, e.to, e.cost));
        self.incoming.clone_from(&self.edges);
        self.incoming.sort_by_key(|e| (e.to, e.from, e.cost));
    }
}

/// The edges of `edges` (sorted by `key`) whose key is `at`, by two binary searches.
#[inline]
fn run_of(edges: &[LinkEdge], key: impl Fn(&LinkEdge) -> u32, at: u32) -> &[LinkEdge] {
    let first = edges.partition_point(|e| key(e) < at);
    let end = first + edges[first..].partition_point(|e| key(e) == at);
    &edges[first..end]
}
