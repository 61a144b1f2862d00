//! A live crowd's tick ([`CrowdRuntime`]): one guided PIBT step of every body, with the ways
//! round for the stalled and a jam held while it is planned whole, prepared on the caller's
//! thread, run anywhere, and taken back at the tick with whatever changed meanwhile held.
//!
//! A game's bodies change cells only at ticks, so the step for the next tick can be planned
//! while they glide, off the frame ([`StepInput`] is owned and `Send`); what the game does
//! meanwhile (a wall painted, a body spawned or moved) is checked when the step is taken
//! ([`CrowdRuntime::finish`]): a move that no longer fits holds, and so does every body that
//! would step onto a held one.
//!
//! ```text
//! prepare(bodies, each one's mover):
//!     the stalled look for ways round the bodies in their way (Detours)
//!     a jam's bodies are held from PIBT and its region closed (Untangler)
//!     → StepInput: the guided step, owned
//! run: GuidedStep::step                             -- anywhere, at any time before the tick
//! finish(the step's moves, the bodies as they stand now):
//!     each body where the step found it takes its move; a jam's bodies walk their plan
//!     hold_what_no_longer_fits
//! ```

use super::body::{BodyState, RouteLeft};
use super::detour::Detours;
use super::guided::{CrowdGuidance, CrowdWays, Flow, GuidedStep};
use super::hold::hold_what_no_longer_fits;
use super::jam::{JamBody, Untangler};
use super::liveness::{Wait, blocked, first_step};
use super::mover::Mover;
use super::settle::Standing;
use crate::grid::{Grid, Point};
use crate::mapf::fx::FxMap;
use crate::movement::Movement;
use std::sync::Arc;

/// Seconds without getting nearer after which a body bigger than one cell looks for a way
/// round the bodies in its way ([`Detours`]).
const DETOUR_SECONDS: f32 = 1.0;

/// The same for a body of one cell, which PIBT's pushes serve well: in a queue at a door,
/// bodies that look for ways round too soon swirl about instead of filing through.
const DETOUR_SECONDS_ONE_CELL: f32 = 4.0;

/// How long a body of `size` waits before it looks for a way round.
fn patience(size: u8) -> f32 {
    if size > 1 {
        DETOUR_SECONDS
    } else {
        DETOUR_SECONDS_ONE_CELL
    }
}

/// A body at a tick, as [`CrowdRuntime::prepare`] reads it: as the untangler reads it, and
/// where its route heads next and how long it has got no nearer.
#[derive(Clone, Copy, Debug, Default)]
pub struct TickBody {
    /// The body as a jam's untangling reads it.
    pub jam: JamBody,
    /// The next cell of its route, if it has one (none: it goes by its goal, or only gives way).
    pub aim: Option<Point>,
    /// Seconds it has got no nearer to where it goes.
    pub stalled: f32,
}

/// A body at a frame, as the crowd's deadlock count reads it ([`CrowdRuntime::note_frame`]).
#[derive(Clone, Copy, Debug)]
pub struct FrameBody {
    /// What names it, its cell, its size and how it moves.
    pub key: u64,
    /// See `key`.
    pub at: Point,
    /// See `key`.
    pub size: u8,
    /// See `key`.
    pub movement: Movement,
    /// Where it goes, and what its route tells of how near it is.
    pub target: Option<Point>,
    /// See `target`.
    pub left: RouteLeft,
    /// On its target (`home`: standing or gliding back onto it), and standing still there.
    pub home: bool,
    /// See `home`.
    pub arrived: bool,
    /// The cell of its route it heads for, if any: it waits behind whoever stands on its first
    /// step there ([`first_step`]).
    pub aim: Option<Point>,
}

/// What the core step needs, owned, so that it can run anywhere.
#[derive(Debug)]
pub struct StepInput {
    guided: GuidedStep,
    grids: Vec<Arc<Grid>>,
    revision: u64,
    movement: Movement,
    keys: Vec<u64>,
    movers: Vec<Mover>,
    aims: Vec<(Point, Option<Point>)>,
    detours: Detours,
}

/// The core step's answer: its state, the movers as it left them, and each mover's next cell
/// (the bodies' first, in their order, then the cells a jam's plan keeps).
#[derive(Debug)]
pub struct StepOutput {
    guided: GuidedStep,
    movers: Vec<Mover>,
    next: Vec<Point>,
    detours: Detours,
}

impl StepInput {
    /// One guided step ([`GuidedStep::step`]).
    pub fn run(mut self) -> StepOutput {
        let grids: Vec<&Grid> = self.grids.iter().map(|g| &**g).collect();
        let next = self.guided.step(
            &grids,
            self.movement,
            self.revision,
            &self.keys,
            &mut self.movers,
            &mut self.aims,
            &mut self.detours,
        );
        StepOutput {
            guided: self.guided,
            movers: self.movers,
            next,
            detours: self.detours,
        }
    }
}

/// What a step was planned from: who stood where, and the jam's bodies it held (and whether
/// they may take their plan's next step). Its moves are checked against them when taken.
#[derive(Debug)]
pub struct Planned {
    bodies: Vec<(u64, Point)>,
    held: Option<(Vec<u64>, bool)>,
}

impl Planned {
    /// How many bodies it was planned for.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Was it planned for none?
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }
}

/// A live crowd's state between ticks (see the module docs).
#[derive(Debug)]
pub struct CrowdRuntime {
    /// How bodies are steered off each other's way, and what orders each body's moves.
    pub guidance: CrowdGuidance,
    /// See `guidance`.
    pub ways: CrowdWays,
    /// What the traffic weighs, with [`CrowdGuidance::Traffic`].
    pub flow: Flow,
    /// Jams found, planned whole and walked through.
    pub untangler: Untangler,
    /// PIBT's state, handed to each step and back.
    guided: Option<GuidedStep>,
    /// The last tick's ways round, kept for their scratch.
    detours: Detours,
    /// How many bodies cover each cell, for checking a step taken.
    counts: Vec<u16>,
}

impl CrowdRuntime {
    /// A crowd whose tie-breaks are drawn from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            guidance: CrowdGuidance::default(),
            ways: CrowdWays::default(),
            flow: Flow::default(),
            untangler: Untangler::default(),
            guided: Some(GuidedStep::new(seed)),
            detours: Detours::default(),
            counts: Vec::new(),
        }
    }

    /// Everything of a tick but the step, for `bodies` (sorted by key if jams are untangled,
    /// [`Untangler::look`]; otherwise in any order, the same at [`finish`](Self::finish)) with
    /// their `movers` (each one's [`BodyState::mover`](super::BodyState::mover)) on `grids`
    /// (one for each size from 1, of the map's `revision`), moving by `movement`, at `now` on
    /// the crowd's clock: the stalled look for ways round, a jam's bodies are held and its
    /// region closed.
    pub fn prepare(
        &mut self,
        bodies: &[TickBody],
        mut movers: Vec<Mover>,
        (grids, revision): (Vec<Arc<Grid>>, u64),
        movement: Movement,
        now: f32,
    ) -> (Planned, StepInput) {
        let mut detours = Detours::new(std::mem::take(&mut self.detours));
        let mut aims = Vec::with_capacity(bodies.len());
        for (i, b) in bodies.iter().enumerate() {
            aims.push((b.jam.at, b.aim));
            if b.aim.is_some() && b.stalled > patience(b.jam.size) {
                detours.stalled(i, b.jam.size);
            }
        }
        if detours.any() {
            for (b, _) in bodies.iter().zip(&movers).filter(|(_, m)| !m.arrived) {
                detours.in_the_way(b.jam.at, b.jam.size);
            }
        }
        let jam: Vec<JamBody> = match self.untangler.busy() {
            true => bodies.iter().map(|b| b.jam).collect(),
            false => Vec::new(),
        };
        let held = self.untangler.hold(&jam, &mut movers, now);
        if held.is_some() {
            self.untangler.reserve(&jam, &mut movers);
        }
        let keys: Vec<u64> = bodies.iter().map(|b| b.jam.key).collect();
        let held = held.map(|(i, ready)| (i.iter().map(|&i| keys[i]).collect(), ready));
        let mut guided = self.guided.take().unwrap_or_else(|| GuidedStep::new(0));
        (guided.guidance, guided.ways, guided.flow) = (self.guidance, self.ways, self.flow);
        let planned = Planned {
            bodies: bodies.iter().map(|b| (b.jam.key, b.jam.at)).collect(),
            held,
        };
        let input = StepInput {
            guided,
            grids,
            revision,
            movement,
            keys,
            movers,
            aims,
            detours,
        };
        (planned, input)
    }

    /// The step's state, to give it ways from outside ([`GuidedStep::guide_by`]): `None`
    /// while a step is out, between [`prepare`](Self::prepare) and [`finish`](Self::finish).
    pub fn guided(&mut self) -> Option<&mut GuidedStep> {
        self.guided.as_mut()
    }

    /// Notes each body's progress at a frame at `now` (`states` in the order of `bodies`), and
    /// counts the deadlocked: stalled for [`DEADLOCK_SECONDS`](super::DEADLOCK_SECONDS), and not
    /// queued behind a body on the move, for a second ([`blocked`],
    /// [`BodyState::still_blocked`]). A body a jam's plan holds is on its way, and one waiting
    /// behind it, or behind a body on its own cell in or beside the jam's closed region, is
    /// queued. `grid_for` gives the grid each size moves on.
    pub fn note_frame(
        &self,
        bodies: &[FrameBody],
        states: &mut [&mut BodyState],
        grid_for: &mut dyn FnMut(u8) -> Arc<Grid>,
        now: f32,
    ) -> usize {
        let (planned, near_plan) = (self.untangler.held(), self.untangler.around());
        let mut waits = Vec::with_capacity(bodies.len());
        for (b, state) in bodies.iter().zip(states.iter_mut()) {
            state.note((b.at, b.target), b.left, (b.home, b.arrived), now);
            let on_plan = planned.binary_search(&b.key).is_ok();
            let stalled = state.long_stalled(now) && !b.arrived && !on_plan;
            let behind = b.aim.filter(|_| stalled);
            waits.push(Wait {
                cell: b.at,
                size: b.size.max(1),
                behind: behind.and_then(|aim| first_step(&grid_for(b.size), b.movement, b.at, aim)),
                stalled,
                home: b.home && !on_plan && !near_plan.contains(&b.at),
            });
        }
        let blocked = blocked(&waits);
        let still = states.iter_mut().zip(blocked);
        still
            .map(|(state, blocked)| usize::from(state.still_blocked(blocked, now)))
            .sum()
    }

    /// Takes a step's moves for `bodies` as they stand now (in any order) on `grids` (one for
    /// each size from 1): each body that still stands where the step found it gets its next
    /// cell, a jam's bodies walk on along their plan, and any move that no longer fits holds
    /// ([`hold_what_no_longer_fits`]). Returns each body's next cell, and its mover as the
    /// step left it (none for a body that came since).
    pub fn finish(
        &mut self,
        planned: Planned,
        output: StepOutput,
        bodies: &[Standing],
        grids: &[&Grid],
        now: f32,
    ) -> Vec<(Point, Option<Mover>)> {
        self.guided = Some(output.guided);
        self.detours = output.detours;
        let cells: Vec<Point> = bodies.iter().map(|b| b.at).collect();
        let mut next = cells.clone();
        let mut movers: Vec<Option<Mover>> = vec![None; bodies.len()];
        let mut unchanged = planned.bodies.len() == bodies.len();
        // Bodies are mostly given in the order they were planned in; the others are looked up.
        let mut planned_at: Option<FxMap<u64, usize>> = None;
        for (i, b) in bodies.iter().enumerate() {
            let k = match planned.bodies.get(i) {
                Some(&(key, _)) if key == b.key => Some(i),
                _ => planned_at
                    .get_or_insert_with(|| by_key(planned.bodies.iter().map(|p| p.0)))
                    .get(&b.key)
                    .copied(),
            };
            let Some(k) = k else {
                unchanged = false; // came since
                continue;
            };
            movers[i] = output.movers.get(k).copied();
            if planned.bodies[k].1 == cells[i] {
                next[i] = output.next.get(k).copied().unwrap_or(cells[i]);
            } else {
                unchanged = false; // moved since: it holds
            }
        }
        if let Some((held, ready)) = &planned.held {
            let at = by_key(bodies.iter().map(|b| b.key));
            let held: Option<Vec<usize>> = held.iter().map(|key| at.get(key).copied()).collect();
            if let Some(held) = held {
                self.untangler.walk(bodies, (&held, *ready), &mut next, now);
            }
        }
        let sizes: Vec<u8> = bodies.iter().map(|b| b.size.max(1)).collect();
        let counts = &mut self.counts;
        hold_what_no_longer_fits(grids, &cells, &sizes, &mut next, unchanged, counts);
        next.into_iter().zip(movers).collect()
    }
}

/// Where each key is in a list of them.
fn by_key(keys: impl Iterator<Item = u64>) -> FxMap<u64, usize> {
    keys.enumerate().map(|(i, key)| (key, i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapf::crowd::{BodyAtTick, DEADLOCK_SECONDS};

    /// Two bodies in a corridor five cells long, both bound east: their records and movers.
    fn corridor(states: &mut [BodyState], at: &[Point]) -> (Vec<TickBody>, Vec<Mover>) {
        let mut bodies = Vec::new();
        let mut movers = Vec::new();
        for (k, (state, &here)) in states.iter_mut().zip(at).enumerate() {
            let target = Some(Point::new(4, 0));
            let body = BodyAtTick {
                key: k as u64,
                at: here,
                size: 1,
                movement: Movement::FourWay,
                speed: 1.0,
                cost: 1.0,
                target,
                routed: true,
                asking: false,
            };
            movers.push(state.mover(&body, CrowdWays::Routes, (1.0, 0.0)));
            let jam = JamBody {
                key: k as u64,
                at: here,
                size: 1,
                moves: true,
                target,
                circling: None,
            };
            let aim = Some(Point::new(here.x + 1, 0));
            bodies.push(TickBody {
                jam,
                aim,
                stalled: 0.0,
            });
        }
        (bodies, movers)
    }

    fn standing(at: &[Point]) -> Vec<Standing> {
        let body = |(k, &at): (usize, &Point)| Standing {
            key: k as u64,
            at,
            size: 1,
        };
        at.iter().enumerate().map(body).collect()
    }

    #[test]
    fn a_step_taken_after_an_edit_holds_what_no_longer_fits() {
        let grid = Arc::new(Grid::new(5, 1).expect("a grid"));
        let at = [Point::new(1, 0), Point::new(0, 0)];
        let mut states = vec![BodyState::default(); 2];
        // As planned: both step east, the one behind into the cell the first leaves.
        let mut crowd = CrowdRuntime::new(1);
        let (bodies, movers) = corridor(&mut states, &at);
        let grids = (vec![grid.clone()], 0);
        let (planned, input) = crowd.prepare(&bodies, movers, grids, Movement::FourWay, 0.0);
        let moves = crowd.finish(planned, input.run(), &standing(&at), &[&grid], 0.0);
        let next: Vec<Point> = moves.iter().map(|m| m.0).collect();
        assert_eq!(next, [Point::new(2, 0), Point::new(1, 0)]);
        // A wall painted on the first one's next cell while the step ran: it holds, and so
        // does the one that would have stepped onto it.
        let mut walled = (*grid).clone();
        walled
            .set_blocked(Point::new(2, 0), true)
            .expect("on the grid");
        let mut crowd = CrowdRuntime::new(1);
        let mut states = vec![BodyState::default(); 2];
        let (bodies, movers) = corridor(&mut states, &at);
        let grids = (vec![grid.clone()], 0);
        let (planned, input) = crowd.prepare(&bodies, movers, grids, Movement::FourWay, 0.0);
        let moves = crowd.finish(planned, input.run(), &standing(&at), &[&walled], 0.0);
        let next: Vec<Point> = moves.iter().map(|m| m.0).collect();
        assert_eq!(next, at);
        // A body moved by the game meanwhile holds too, and one that came since gets no mover.
        let mut crowd = CrowdRuntime::new(1);
        let mut states = vec![BodyState::default(); 2];
        let (bodies, movers) = corridor(&mut states, &at);
        let grids = (vec![grid.clone()], 0);
        let (planned, input) = crowd.prepare(&bodies, movers, grids, Movement::FourWay, 0.0);
        let now = [Point::new(3, 0), Point::new(0, 0), Point::new(4, 0)];
        let moves = crowd.finish(planned, input.run(), &standing(&now), &[&grid], 0.0);
        assert_eq!(moves[0].0, Point::new(3, 0));
        assert!(moves[2].1.is_none() && moves[2].0 == Point::new(4, 0));
    }

    #[test]
    fn a_body_waiting_behind_one_jostled_about_its_own_cell_is_deadlocked() {
        // A corridor; a body stands on its own cell in it and never moves on, but passers-by
        // jostle it about that cell, so it never counts as arrived. Another is bound past it
        // and gets no nearer: it is not in a queue that moves, so it is deadlocked.
        let grid = Arc::new(Grid::new(6, 1).expect("a grid"));
        let crowd = CrowdRuntime::new(1);
        let mut states = vec![BodyState::default(); 2];
        let body = |key, at: Point, target: Point, left, aim| FrameBody {
            key,
            at,
            size: 1,
            movement: Movement::FourWay,
            target: Some(target),
            left,
            home: at == target,
            arrived: false,
            aim,
        };
        let (still, bound) = (Point::new(3, 0), Point::new(2, 0));
        let route = RouteLeft::Cells(3, (Point::new(0, 0), 0));
        let frames = [
            body(1, still, still, RouteLeft::None, None),
            body(2, bound, Point::new(5, 0), route, Some(still)),
        ];
        let counted = (0..400).find_map(|frame| {
            let now = frame as f32 * 0.05;
            let mut refs: Vec<&mut BodyState> = states.iter_mut().collect();
            let deadlocked = crowd.note_frame(&frames, &mut refs, &mut |_| grid.clone(), now);
            (deadlocked > 0).then_some(now)
        });
        assert!(
            counted.is_some_and(|now| now >= DEADLOCK_SECONDS),
            "{counted:?}"
        );
        assert!(states[1].deadlocked() && !states[0].deadlocked());
    }
}
