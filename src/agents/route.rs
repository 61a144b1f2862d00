//! An agent's route: the cells it walks, where it is along them, and whether it needs a new one.

use crate::world::agents::Agent;
use crate::world::nav::path_touches;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use gridpath::Point;

/// What an agent is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RouteState {
    /// Waiting for a route.
    #[default]
    Waiting,
    Walking,
    /// At its target (a chaser at the goal).
    Arrived,
    /// No way to its target: it waits until a wall goes or the target moves.
    Stuck,
}

/// An agent's route. Added to every agent when it appears.
#[derive(Component, Clone, Debug, Default)]
pub struct Route {
    /// The cells to walk, the first being where the route was planned from.
    pub cells: Vec<Point>,
    /// The index of the cell the agent is heading for.
    pub next: usize,
    /// The cost from `cells[0]` to each cell, along the route.
    pub costs: Vec<f64>,
    /// Where it is going: the goal it chases, or the cell it wanders to.
    pub target: Option<Point>,
    pub state: RouteState,
    /// Stop at the next cell: the rest of the route may cross a new wall.
    pub hold: bool,
    /// It needs a new route, asked for at this request number (earlier asks go first).
    pub wanted: Option<u64>,
    /// A search for it is running.
    pub in_flight: bool,
    /// Failed searches in a row (a wanderer tries another target a few times).
    pub failures: u32,
}

/// The way an agent faces (a unit vector in cell units, y down), for its sprite.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Facing(pub Vec2);

impl Default for Facing {
    fn default() -> Self {
        Self(Vec2::X)
    }
}

/// Numbers requests, so that the oldest is served first.
static ASKED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Route {
    /// Ask for a new route (once: an agent already waiting keeps its place in the queue).
    pub fn want(&mut self) {
        if self.wanted.is_none() {
            self.wanted = Some(ASKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        }
    }

    /// The cell the agent walks to next, if it is walking.
    pub fn heading(&self) -> Option<Point> {
        self.cells.get(self.next).copied()
    }

    /// The cells it has yet to walk, from the one it left (or stands on).
    pub fn remaining(&self) -> &[Point] {
        &self.cells[self.next.saturating_sub(1).min(self.cells.len())..]
    }

    /// The cost of what it has yet to walk.
    pub fn remaining_cost(&self) -> f64 {
        let done = self.costs.get(self.next.saturating_sub(1)).copied();
        self.costs.last().copied().unwrap_or(0.0) - done.unwrap_or(0.0)
    }

    /// Does a change to any of `cells` touch what is left of the route: a cell on it, or a corner
    /// that one of its diagonal steps passes?
    pub fn touches(&self, cells: &HashSet<Point>) -> bool {
        path_touches(self.remaining(), cells)
    }

    /// Takes a new route, planned from `cells[0]`.
    pub fn adopt(&mut self, cells: Vec<Point>, costs: Vec<f64>, target: Point) {
        self.cells = cells;
        self.costs = costs;
        self.next = 0;
        self.target = Some(target);
        self.hold = false;
        self.failures = 0;
        self.state = RouteState::Walking;
    }

    /// Forgets the route (the agent stops where it is).
    pub fn clear(&mut self) {
        self.cells.clear();
        self.costs.clear();
        self.next = 0;
        self.hold = false;
    }
}

/// Every new agent gets a route, and asks for one.
pub(super) fn equip(add: On<Add, Agent>, mut commands: Commands) {
    let mut route = Route::default();
    route.want();
    commands
        .entity(add.entity)
        .insert((route, Facing::default()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_remains_starts_at_the_cell_left() {
        let mut route = Route::default();
        let cells = vec![Point::new(0, 0), Point::new(1, 0), Point::new(2, 0)];
        route.adopt(cells, vec![0.0, 1.0, 3.0], Point::new(2, 0));
        assert_eq!(route.remaining().len(), 3);
        assert_eq!(route.remaining_cost(), 3.0);
        route.next = 2;
        assert_eq!(route.remaining(), &[Point::new(1, 0), Point::new(2, 0)]);
        assert_eq!(route.remaining_cost(), 2.0);
    }
}
