//! Tactics: what a turn-based game asks of a map besides one route.
//!
//! A tactics game (Fire Emblem, XCOM, Civilization, Into the Breach) asks *where can this unit
//! go with 6 movement points?*, *which of these targets is nearest?*, *where is safest from those
//! threats?*, *how close must I get to shoot?*, *how many turns is that?* and *what can it see?*
//! Each is answered here on squares, hexagons and staggered isometric maps alike.
//!
//! ## Why a movement range is Dijkstra and not A\*
//!
//! A\* is fast because a heuristic pulls it towards **one** goal. A movement range has no goal:
//! it asks for *every* cell within a budget, so there is nothing to pull towards, and a heuristic
//! would only reorder the same work. What remains is Dijkstra's algorithm, expanding cells in
//! order of cost, stopped at the budget: every cell it settles is in range with its cheapest
//! cost, and the first cell past the budget ends the search. The same bounded Dijkstra answers
//! the nearest of many targets (stop at the first target settled: one search instead of one a
//! target), a route to within range of a goal (stop at the first cell that qualifies) and flight
//! (the cheapest cell, within the budget, farthest from the threats). [`MovementRange`] is that
//! one search, keeping its memory from query to query.
//!
//! ## One request's blockers
//!
//! Other units are walls for a query, not for the map: [`Blockers`] closes cells for one request
//! and gives enemies *zones of control* (the cells next to an enemy, where a move must end).
//!
//! ## Seeing
//!
//! [`FieldOfView`] is Albert Ford's *symmetric shadowcasting* on squares (and on a staggered map,
//! the square grid it is a shear of): a floor cell sees another exactly when the straight line
//! between their centres passes through no wall, each wall taken as the diamond inscribed in its
//! cell, so a sees b exactly when b sees a. On hexagons a cell sees another when Red Blob Games'
//! hex line between them ([`crate::hex::HexLayout::line`]) crosses no wall.
//!
//! ```
//! use gridpath::tactics::{Blockers, FieldOfView, MovementRange};
//! use gridpath::{Grid, Movement, Point, hex::HexLayout};
//!
//! let grid = Grid::from_ascii(&[
//!     ".......",
//!     "...#...",
//!     ".......",
//! ]).unwrap();
//! let hex = Movement::Hex(HexLayout::RowOdd);
//! let mut range = MovementRange::new();
//! range.compute(&grid, hex, Point::new(1, 1), 2.0, &Blockers::new());
//! assert_eq!(range.cost(Point::new(2, 1)), Some(1.0));
//! assert_eq!(range.cost(Point::new(4, 1)), None); // behind the wall: 4 steps round it
//! let route = range.path_to(Point::new(2, 0)).unwrap();
//! assert_eq!(route.cells.first(), Some(&Point::new(1, 1)));
//!
//! let mut fov = FieldOfView::new();
//! fov.compute(&grid, hex, Point::new(1, 1), 5);
//! assert!(fov.is_visible(Point::new(2, 1)));
//! assert!(!fov.is_visible(Point::new(5, 1))); // the wall is in the way
//! ```

mod blockers;
mod cell_set;
mod range;
mod sight;
mod targets;
mod turns;

pub use blockers::Blockers;
pub use range::MovementRange;
pub use sight::{FieldOfView, can_see};
pub use targets::{Within, steps_between};
pub use turns::{TurnEnd, TurnError, split_into_turns};
