//! Agents: entities that walk to a [`Destination`] along routes the service plans for them.
//!
//! A [`GridAgent`] asks for a route ([`PathRequest`]) when it has none to its destination, when
//! the destination moves, when an edit touches what is left of its route, or when a wall taken
//! away (or a cost lowered) lies close enough to shorten it. It asks from the cell it is heading
//! for, so it keeps walking while the search runs; a search already running for an older
//! destination is let finish, and its route walked, until the next one lands. It walks at its
//! speed divided by the cost of the cell it stands on, so mud slows it. Before each step it
//! checks the step is legal on the grid as it is *now*: a route planned on an older grid never
//! walks it into a wall. Its [`AgentStatus`] says what it is doing.
//!
//! An agent with [`SharedFlow`](crate::flow::SharedFlow) asks for no route: it steps by its destination's flow field
//! ([`crate::flow`]), shared with every agent going there.
//!
//! This file is the vocabulary: the components a game puts on its walkers and reads back, and
//! the helpers the agents' systems (`agents.rs`) and the crowd's share.

use crate::classes::ClassId;
use crate::requests::{PathRequest, Route};
use bevy::prelude::*;
use gridpath::{Cell, Grid, Movement, Point};

/// An entity that walks the grid. Give it a [`Destination`] to send it somewhere; its
/// `Transform` is set from where it is on the grid (x and y; z is left alone).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(Transform, AgentStatus, AgentProgress)]
pub struct GridAgent {
    /// Cells a second on ground of cost 1.
    pub speed: f32,
    /// How it moves (its routes are planned with it).
    pub movement: Movement,
    /// Its side in cells: it covers `size × size` cells from the cell it stands on, right and
    /// down, and goes only where it fits ([`NavGrid::grid_for`](crate::NavGrid::grid_for)). Its cell is that top-left
    /// corner; its `Transform` is the middle of what it covers. 1 by default. (Flow fields are
    /// for units of one cell: a bigger unit follows routes.)
    pub size: u8,
    /// Its kind ([`UnitClasses`](crate::classes::UnitClasses)): which terrains it may enter and
    /// what each costs it. Its routes are planned for it. (Flow fields are for
    /// [`ClassId::DEFAULT`].)
    pub class: ClassId,
}

impl Default for GridAgent {
    fn default() -> Self {
        Self {
            speed: 4.0,
            movement: Movement::default(),
            size: 1,
            class: ClassId::DEFAULT,
        }
    }
}

impl GridAgent {
    /// An agent walking `speed` cells a second, with the default movement.
    pub fn new(speed: f32) -> Self {
        Self { speed, ..default() }
    }

    /// The same agent, `size` cells across.
    pub fn with_size(self, size: u8) -> Self {
        Self { size, ..self }
    }

    /// The same agent, of another class.
    pub fn with_class(self, class: ClassId) -> Self {
        Self { class, ..self }
    }

    /// From its cell's centre to the middle of the cells it covers, in cells.
    pub fn centre_offset(&self) -> Vec2 {
        Vec2::splat((f32::from(self.size.max(1)) - 1.0) / 2.0)
    }
}

/// Where a [`GridAgent`] is going. Change it at any time; remove it to stop the agent.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Destination(pub Point);

/// What an agent is doing.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AgentStatus {
    /// Waiting for a route (or for a destination).
    #[default]
    Waiting,
    /// Walking its route.
    Walking,
    /// At its destination.
    Arrived,
    /// No way to its destination as the grid is now: it waits for an edit or a new destination.
    Stuck,
}

/// Where an agent is along its route. Kept by the plugin; read it, do not write it.
#[derive(Component, Clone, Debug, Default)]
pub struct AgentProgress {
    /// Its position in cells (fractions between cell centres); `None` until it is placed.
    pub(crate) at: Option<Vec2>,
    /// The last cell centre it reached.
    pub(crate) here: Point,
    /// The index in its route of the cell it is heading for.
    pub(crate) next: usize,
    /// The route it follows: its request and revision (a new one is joined where it is heading).
    pub(crate) following: Option<(PathRequest, u64)>,
    /// The cell it is walking to, if it is walking.
    pub(crate) heading: Option<Point>,
    /// It found its way blocked, or a wall went up under it: it needs a new route.
    pub(crate) blocked: bool,
    /// The grid revision its last request failed on.
    pub(crate) failed_on: Option<u64>,
    /// Its route's revision, and the grid revision it was last checked against: the edits up to
    /// that one cannot touch it.
    pub(crate) checked: Option<(u64, u64)>,
    /// How far it is through taking a link (in cost-1 cells of time): it waits at the link's
    /// start for the link's cost, then stands at its end.
    pub(crate) crossing: f32,
}

impl AgentProgress {
    /// The cell it last stood at the centre of. Before the plugin has placed it (in the frame
    /// it is spawned) this reads (0, 0): use [`placed_cell`](Self::placed_cell) where that
    /// matters, say to pick a place near it.
    pub fn cell(&self) -> Point {
        self.here
    }

    /// The cell it last stood at the centre of, once it is placed; `None` before.
    pub fn placed_cell(&self) -> Option<Point> {
        self.at.map(|_| self.here)
    }

    /// Its position in cells.
    pub fn position(&self) -> Option<Vec2> {
        self.at
    }

    /// The cells of `route` it has yet to walk, from the one it left: all of them until it has
    /// joined `route` (a body joins a new route at its next tick, not in the frame it lands).
    pub fn remaining<'r>(&self, route: &'r Route) -> &'r [Point] {
        let joined = self.following == Some((route.request, route.revision));
        let from = if joined {
            self.next.saturating_sub(1)
        } else {
            0
        };
        &route.cells[from.min(route.cells.len())..]
    }

    pub(crate) fn next_cell(&self, route: Option<&Route>) -> Option<Point> {
        route.and_then(|r| r.cells.get(self.next).copied())
    }

    /// The cell it heads for on `route`, as [`aim`](Self::aim) steers it: the next, or the
    /// last once it has walked it all (a body pushed back past the end heads back to it).
    pub(crate) fn aiming_at(&self, route: Option<&Route>) -> Option<Point> {
        route.and_then(|r| r.cells.get(self.next).or(r.cells.last()).copied())
    }

    /// The cells of `route` it has yet to reach; `None` until it has joined `route` (it was
    /// moved by hand, or the route is new): then how far along it is, is not known yet.
    pub(crate) fn left_on(&self, route: &Route) -> Option<usize> {
        let joined = self.following == Some((route.request, route.revision));
        (joined && self.next <= route.cells.len()).then(|| route.cells.len() - self.next)
    }

    pub(crate) fn placed(&self) -> bool {
        self.at.is_some()
    }

    pub(crate) fn set_position(&mut self, at: Vec2) {
        self.at = Some(at);
    }

    /// The agent was moved to `to` by hand (off a wall, or a body off another body): it needs
    /// a new route from there.
    pub(crate) fn jump_to(&mut self, to: Point) {
        self.here = to;
        self.at = Some(centre(to));
        self.next = usize::MAX;
        self.blocked = true;
    }

    /// The cell a body heads for next on `route`, joining it first if it is new: after the
    /// body's own cell if the route passes it, else at the route's first cell, if that is
    /// within two moves (on `grid`, its size's grid); if not, it asks again. (Pushes while the
    /// search ran, or a wall under it, may have moved it round the end of a wall.)
    pub(crate) fn aim(&mut self, route: &Route, grid: &Grid, movement: Movement) -> Option<Point> {
        let key = (route.request, route.revision);
        if self.following != Some(key) {
            self.following = Some(key);
            self.heading = None;
            self.next = match route.cells.iter().position(|&c| c == self.here) {
                Some(k) => k + 1,
                None => 0,
            };
            let start = route.cells.first();
            self.blocked = self.next == 0
                && !start.is_some_and(|&c| within_two_moves(grid, movement, self.here, c));
        }
        self.aiming_at(Some(route))
    }

    /// A body stepped to `to` (its route's next cell, or aside when pushed): it follows its
    /// route on from there, and asks for a new one when pushed off it further than two moves
    /// can undo (on `grid`, its size's grid).
    pub(crate) fn step_to(
        &mut self,
        to: Point,
        route: Option<&Route>,
        grid: &Grid,
        movement: Movement,
    ) {
        self.here = to;
        let Some(route) = route else {
            return;
        };
        let from = self.next.saturating_sub(1).min(route.cells.len());
        let ahead = route.cells[from..].iter().take(4).position(|&c| c == to);
        if let Some(k) = ahead {
            self.next = from + k + 1;
        } else if let Some(&aim) = route.cells.get(self.next) {
            self.blocked |= !within_two_moves(grid, movement, to, aim);
        }
    }
}

/// An agent a wall went up under was moved to the nearest free cell. Read it to tell the player,
/// or to count.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentEscaped {
    /// The agent.
    pub agent: Entity,
    /// The cell the wall went up on.
    pub from: Point,
    /// The free cell it stands on now.
    pub to: Point,
}

/// A cell's centre, in cells.
pub(crate) fn centre(p: Point) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

/// What crossing the cell `p` costs an agent: its ground's cost (1 off the grid or on a wall,
/// where it is only passing out).
pub(crate) fn ground_cost(grid: &Grid, p: Point) -> f32 {
    match grid.cell(p) {
        Some(Cell::Passable(c)) => c as f32,
        _ => 1.0,
    }
}

/// Can a body at `from` reach `to` in at most two legal moves on `grid`? A body pushed a cell
/// or two aside gets back onto its route; one pushed round the end of a wall, a cell from its
/// route as the crow flies but far from it on foot, needs a new route.
fn within_two_moves(grid: &Grid, movement: Movement, from: Point, to: Point) -> bool {
    let step = |a: Point, b: Point| a == b || movement.step_cost(grid, a, b).is_some();
    step(from, to) || movement.neighbors(grid, from).any(|(n, _)| step(n, to))
}
