//! Tactics for turn-based games: a unit's movement range, what it sees, and the routes a
//! turn-based game asks for, kept fresh.
//!
//! Put a [`RangeRequest`] or a [`SightRequest`] on a unit (the selected one, or every unit of a
//! side's turn), or ask for a route that ends where a tactic says: to the nearest of several
//! targets ([`NearestRequest`]), to where a goal is in range ([`ApproachRequest`]), or away from
//! threats ([`FleeRequest`]). The plugin answers with an [`Answer`] beside it, computed off the frame on a
//! snapshot of the grid ([`SearchThread`]), and computes it again whenever the request changes
//! or an edit changes the grid, so the range drawn under a unit is always the map's. Until the
//! new answer lands the old one stays (a range does not flicker while a wall is painted). A
//! request that cannot be answered (its unit off the grid or on a wall) gets a [`TacticFailed`]
//! instead, which is replaced by an answer once it can be. For a small map, or a tool that wants
//! the answer in the same frame, [`TacticRequest::answer_now`].
//!
//! The answers are the core's [`gridpath::tactics`]: an [`Answer<RangeRequest>`] holds the
//! [`MovementRange`] (each reachable cell's cost, and the route to it), an
//! [`Answer<SightRequest>`] the [`FieldOfView`], the routes' answers an `Option<Path>` (`None`:
//! no cell qualifies). The debug plugin draws them
//! ([`TacticsGizmos`](crate::debug::TacticsGizmos)).

use crate::nav_grid::NavGrid;
use crate::off_frame::{Pending, SearchThread};
use crate::requests::PathFailure;
use bevy::prelude::*;
use gridpath::tactics::{Blockers, FieldOfView, MovementRange, TurnEnd, Within, split_into_turns};
use gridpath::{Grid, Movement, Path, Point};

/// A request the plugin answers and keeps fresh: a unit's range or sight.
pub trait TacticRequest: Component + Clone + PartialEq {
    /// What the core computes for it.
    type Answer: Send + Sync + 'static;

    /// The unit's cell: it must be an open cell of the grid.
    fn unit(&self) -> Point;

    /// Computes the answer on `grid`.
    fn compute(&self, grid: &Grid) -> Self::Answer;

    /// Answers now, in the frame, on the grid as it is: the same answer the plugin would give.
    fn answer_now(&self, nav: &NavGrid) -> Result<Answer<Self>, PathFailure> {
        check(nav.grid(), self.unit())?;
        Ok(Answer {
            answer: self.compute(nav.grid()),
            request: self.clone(),
            revision: nav.revision(),
        })
    }
}

/// "Where can this unit go this turn?": every cell within `budget` movement points of `from`,
/// with the cheapest way to each. Enemies close their cells and end a move in the cells next to
/// them (zones of control); `closed` cells (the unit's own side, say) are closed for it alone.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct RangeRequest {
    /// The unit's cell.
    pub from: Point,
    /// Its movement points.
    pub budget: f64,
    /// How it moves (the grid's shape: `Movement::Hex` on hexagons).
    pub movement: Movement,
    /// The enemies' cells.
    pub enemies: Vec<Point>,
    /// Other cells closed to it.
    pub closed: Vec<Point>,
}

impl RangeRequest {
    /// The range of a unit at `from` with `budget` points, moving by `movement`, no one else
    /// on the map.
    pub fn new(from: Point, budget: f64, movement: Movement) -> Self {
        Self {
            from,
            budget,
            movement,
            enemies: Vec::new(),
            closed: Vec::new(),
        }
    }

    /// The same request with these enemies.
    pub fn with_enemies(self, enemies: Vec<Point>) -> Self {
        Self { enemies, ..self }
    }

    /// The same request with these cells closed.
    pub fn with_closed(self, closed: Vec<Point>) -> Self {
        Self { closed, ..self }
    }

    /// Its enemies and closed cells as the core's [`Blockers`] on `grid`.
    pub fn blockers(&self, grid: &Grid) -> Blockers {
        blockers(grid, self.movement, &self.enemies, &self.closed)
    }
}

/// Enemies and closed cells as the core's [`Blockers`] on `grid`.
fn blockers(grid: &Grid, movement: Movement, enemies: &[Point], closed: &[Point]) -> Blockers {
    let mut blockers = Blockers::new();
    for &p in closed {
        blockers.close(grid, p);
    }
    for &enemy in enemies {
        blockers.enemy(grid, movement, enemy);
    }
    blockers
}

/// "Which of these is nearest, and what is the way there?": the cheapest route from `from` to
/// any of `targets` (one search, stopped at the first target it reaches), or `None`.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct NearestRequest {
    /// The unit's cell.
    pub from: Point,
    /// The cells it may go to.
    pub targets: Vec<Point>,
    /// How it moves.
    pub movement: Movement,
    /// The enemies' cells (closed, their neighbours ending a move).
    pub enemies: Vec<Point>,
}

impl TacticRequest for NearestRequest {
    type Answer = Option<Path>;

    fn unit(&self) -> Point {
        self.from
    }

    fn compute(&self, grid: &Grid) -> Option<Path> {
        let blockers = blockers(grid, self.movement, &self.enemies, &[]);
        MovementRange::new().nearest(grid, self.movement, self.from, &self.targets, &blockers)
    }
}

/// "Where can I shoot it from?": the cheapest route from `from` to a cell [`Within`] so many
/// steps of `goal` (and, with `within.sight`, in sight of it), or `None`.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct ApproachRequest {
    /// The unit's cell.
    pub from: Point,
    /// What it wants in range (often an enemy's cell, closed to it).
    pub goal: Point,
    /// How close it must end, and whether it must see the goal.
    pub within: Within,
    /// How it moves.
    pub movement: Movement,
    /// The enemies' cells.
    pub enemies: Vec<Point>,
}

impl TacticRequest for ApproachRequest {
    type Answer = Option<Path>;

    fn unit(&self) -> Point {
        self.from
    }

    fn compute(&self, grid: &Grid) -> Option<Path> {
        let blockers = blockers(grid, self.movement, &self.enemies, &[]);
        let (from, goal, within) = (self.from, self.goal, self.within);
        MovementRange::new().approach(grid, self.movement, from, goal, within, &blockers)
    }
}

/// "Get away from them": the cheapest route to the cell within `budget` of `from` that the
/// `threats` must walk farthest to reach (see [`MovementRange::flee`]).
#[derive(Component, Clone, Debug, PartialEq)]
pub struct FleeRequest {
    /// The unit's cell.
    pub from: Point,
    /// Where the threats stand.
    pub threats: Vec<Point>,
    /// The unit's movement points.
    pub budget: f64,
    /// How it moves (and the threats).
    pub movement: Movement,
}

impl TacticRequest for FleeRequest {
    type Answer = Option<Path>;

    fn unit(&self) -> Point {
        self.from
    }

    fn compute(&self, grid: &Grid) -> Option<Path> {
        let none = Blockers::new();
        let mut danger = MovementRange::new();
        danger.compute_from(grid, self.movement, &self.threats, f64::INFINITY, &none);
        let budget = if self.budget.is_nan() {
            0.0
        } else {
            self.budget
        };
        MovementRange::new().flee(grid, self.movement, self.from, &danger, budget, &none)
    }
}

impl TacticRequest for RangeRequest {
    type Answer = MovementRange;

    fn unit(&self) -> Point {
        self.from
    }

    fn compute(&self, grid: &Grid) -> MovementRange {
        let mut range = MovementRange::new();
        let budget = if self.budget.is_nan() {
            0.0
        } else {
            self.budget
        };
        let blockers = self.blockers(grid);
        range.compute(grid, self.movement, self.from, budget, &blockers);
        range
    }
}

/// "What does this unit see?": every cell within `radius` of `from` in its line of sight
/// (symmetric: it sees a cell exactly when a unit there would see it).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct SightRequest {
    /// The unit's cell.
    pub from: Point,
    /// How far it sees, in cells.
    pub radius: u32,
    /// The grid's shape, as a movement (`Movement::Hex` on hexagons, a staggered one on a
    /// staggered map; any square movement on squares).
    pub movement: Movement,
}

impl TacticRequest for SightRequest {
    type Answer = FieldOfView;

    fn unit(&self) -> Point {
        self.from
    }

    fn compute(&self, grid: &Grid) -> FieldOfView {
        let mut fov = FieldOfView::new();
        fov.compute(grid, self.movement, self.from, self.radius);
        fov
    }
}

/// The answer to a request `R`, beside it on the same entity, for the grid at `revision`.
#[derive(Component, Clone, Debug)]
pub struct Answer<R: TacticRequest> {
    /// The request it answers.
    pub request: R,
    /// The grid revision it was computed on ([`NavGrid::revision`]).
    pub revision: u64,
    /// The core's answer: a [`MovementRange`] or a [`FieldOfView`].
    pub answer: R::Answer,
}

impl Answer<RangeRequest> {
    /// The cheapest route from the unit to `to`, if `to` is in range.
    pub fn route_to(&self, to: Point) -> Option<Path> {
        self.answer.path_to(to)
    }

    /// That route cut into turns of `points` movement points each
    /// ([`split_into_turns`]): where each turn ends. `None` if `to` is out of range.
    pub fn turns_to(&self, grid: &Grid, to: Point, points: f64) -> Option<Vec<TurnEnd>> {
        let route = self.route_to(to)?;
        let blockers = self.request.blockers(grid);
        split_into_turns(grid, self.request.movement, &route.cells, points, &blockers).ok()
    }
}

/// A request `R` that has no answer on the grid at `revision`, and why (its unit off the grid
/// or on a wall). It is looked at again after every edit.
#[derive(Component, Clone, Debug)]
pub struct TacticFailed<R: TacticRequest> {
    /// The request.
    pub request: R,
    /// The grid revision it failed on.
    pub revision: u64,
    /// Why: [`PathFailure::StartOutside`] or [`PathFailure::StartBlocked`].
    pub reason: PathFailure,
}

/// The computation under way for a request.
#[derive(Component)]
struct Working<R: TacticRequest>(Pending<(R, u64, R::Answer)>);

fn check(grid: &Grid, unit: Point) -> Result<(), PathFailure> {
    if !grid.contains(unit) {
        Err(PathFailure::StartOutside)
    } else if !grid.is_passable(unit) {
        Err(PathFailure::StartBlocked)
    } else {
        Ok(())
    }
}

/// Every kind of request is kept answered in `set`.
pub(crate) fn plugin(app: &mut App, set: impl SystemSet + Clone) {
    app.add_systems(
        Update,
        (
            answer::<RangeRequest>,
            answer::<SightRequest>,
            answer::<NearestRequest>,
            answer::<ApproachRequest>,
            answer::<FleeRequest>,
        )
            .in_set(set),
    );
}

/// Lands finished answers, and starts a computation for each request whose answer is missing,
/// of another request, or of an older grid (one at a time a request).
fn answer<R: TacticRequest>(
    nav: Option<Res<NavGrid>>,
    thread: Res<SearchThread>,
    mut requests: Query<(
        Entity,
        &R,
        Option<&Answer<R>>,
        Option<&TacticFailed<R>>,
        Option<&mut Working<R>>,
    )>,
    mut commands: Commands,
) {
    let Some(nav) = nav else {
        return;
    };
    for (entity, request, answer, failed, working) in &mut requests {
        let mut busy = working.is_some();
        if let Some(mut working) = working
            && let Some((request, revision, answer)) = working.0.take()
        {
            busy = false;
            commands
                .entity(entity)
                .remove::<(Working<R>, TacticFailed<R>)>()
                .insert(Answer {
                    request,
                    revision,
                    answer,
                });
        }
        let fresh = |r: &R, revision: u64| r == request && revision == nav.revision();
        let answered = answer.is_some_and(|a| fresh(&a.request, a.revision))
            || failed.is_some_and(|f| fresh(&f.request, f.revision));
        if busy || answered {
            continue;
        }
        if let Err(reason) = check(nav.grid(), request.unit()) {
            commands.entity(entity).insert(TacticFailed {
                request: request.clone(),
                revision: nav.revision(),
                reason,
            });
            continue;
        }
        let (grid, revision, request) = (nav.snapshot(), nav.revision(), request.clone());
        let work = Pending::start(*thread, move || {
            let answer = request.compute(&grid);
            (request, revision, answer)
        });
        commands.entity(entity).insert(Working(work));
    }
}
