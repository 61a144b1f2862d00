//! A tick's PIBT step planned one tick ahead, off the frame ([`crate::Crowd::plan_ahead`]).
//!
//! The bodies' cells change only at a tick. So the next tick's step can be planned before it is
//! due (a quarter of a tick before: `PLAN_LEAD` in `step.rs`), on a thread of its own, while the
//! bodies glide: the frame the tick falls in only takes the moves. What can change meanwhile is
//! what the game does between ticks: a wall painted, a body spawned, despawned or moved off a
//! wall, a new route. A route or destination that comes in that time is read at the next tick.
//! The rest is checked when the plan is taken ([`hold_what_no_longer_fits`](gridpath::mapf::crowd::hold_what_no_longer_fits)): a body moved
//! meanwhile, or one whose next cell is a wall now, holds, and so, in turn, does every body
//! that would step onto a held one.
//!
//! A plan is taken at its tick, waiting for it if it is not done: the moves are the same on a
//! quick machine or a busy one, and the same with [`SearchThread::Frame`], where it is planned in
//! the frame that starts it.
//!
//! [`SearchThread::Frame`]: crate::SearchThread::Frame

use super::guidance::{CrowdGuidance, CrowdWays, GoalTables, SCALE, against};
use crate::off_frame::{Pending, SearchThread, lock};
use bevy::prelude::*;
use gridpath::lifelong::Traffic;
use gridpath::mapf::crowd::Detours;
use gridpath::mapf::crowd::distance_fifths as distance;
use gridpath::mapf::{CrowdStep, Mover};
use gridpath::{Grid, Movement, Point};
use std::sync::{Arc, Mutex};

/// What the core step needs, owned, so that it can run anywhere.
pub(super) struct StepInput {
    /// The crowd's PIBT state, handed back with the moves.
    pub(super) step: CrowdStep,
    /// The grid for each size, from 1.
    pub(super) grids: Vec<Arc<Grid>>,
    pub(super) movement: Movement,
    pub(super) movers: Vec<Mover>,
    /// Each body's cell and the cell it heads for (none: it moves only when pushed).
    pub(super) aims: Vec<(Point, Option<Point>)>,
    /// The stalled bodies' ways round, searched before the step.
    pub(super) detours: Detours,
    /// How bodies are steered, and the recent flow (kept between steps).
    pub(super) guidance: CrowdGuidance,
    pub(super) traffic: Option<Traffic>,
    /// What orders each body's moves, the goal tables (kept between steps), and the grid's
    /// revision they must have been made on.
    pub(super) ways: CrowdWays,
    pub(super) tables: Option<GoalTables>,
    pub(super) revision: u64,
}

/// The core step's answer: its state back, the movers as it left them, and each mover's next
/// cell (the bodies' first, in their order, then the cells a jam's plan keeps).
pub(super) struct StepOutput {
    pub(super) step: CrowdStep,
    pub(super) movers: Vec<Mover>,
    pub(super) next: Vec<Point>,
    /// The detours' scratch, handed back to be used again.
    pub(super) detours: Detours,
    /// The recent flow, this step's moves added, and the goal tables.
    pub(super) traffic: Option<Traffic>,
    pub(super) tables: Option<GoalTables>,
}

impl StepInput {
    /// One PIBT step ([`CrowdStep::step`]), each body drawn to the cell it heads for: the
    /// stalled ones to their ways round.
    pub(super) fn run(self) -> StepOutput {
        let Self {
            mut step,
            grids,
            movement,
            mut movers,
            mut aims,
            mut detours,
            guidance,
            traffic,
            ways,
            tables,
            revision,
        } = self;
        let grids: Vec<&Grid> = grids.iter().map(|g| &**g).collect();
        detours.apply(&grids, movement, &mut aims);
        let grid = grids[0];
        let mut traffic = match guidance {
            CrowdGuidance::None => None,
            CrowdGuidance::Traffic => Some(
                traffic
                    .filter(|t| t.is_for(grid, movement))
                    .unwrap_or_else(|| Traffic::for_moves(grid, movement)),
            ),
        };
        let against = |i: usize, c: Point| match (traffic.as_ref(), aims.get(i)) {
            (Some(flow), Some(&(here, _))) => against(flow, grid, here, c),
            _ => 0,
        };
        let mut tables = match ways {
            CrowdWays::Routes => None,
            CrowdWays::GoalTables => GoalTables::for_step(tables, revision, movement),
        };
        // The goal whose table a one-cell body reads (where there is none, or the table cannot
        // reach the cell, it heads for its route's next cell).
        let goals: Vec<Option<Point>> = movers
            .iter()
            .map(|m| m.goal.filter(|_| m.size == 1 && tables.is_some()))
            .collect();
        let next = step
            .step(&grids, movement, &mut movers, |i, c| {
                let by_table = goals.get(i).copied().flatten().and_then(|goal| {
                    let tables = tables.as_mut()?;
                    tables.moves_to(grid, goal, c)
                });
                let to_go = by_table.unwrap_or_else(|| match aims.get(i) {
                    Some(&(_, Some(aim))) => distance(movement, c, aim) * SCALE,
                    Some(&(here, None)) => u32::from(c != here) * SCALE,
                    None => 0, // a cell the plan of a jam keeps
                });
                to_go.saturating_add(against(i, c))
            })
            .to_vec();
        if let Some(flow) = traffic.as_mut() {
            let index = |p: Point| grid.index_of(p);
            let moves = movers.iter().zip(&next).filter(|(m, to)| m.at != **to);
            flow.record(moves.filter_map(|(m, &to)| Some((index(m.at)?, index(to)?))));
        }
        StepOutput {
            step,
            movers,
            next,
            detours,
            traffic,
            tables,
        }
    }
}

/// A step planned ahead: what it was planned from, and the work. The input waits in a shared
/// slot that the task empties when it starts: a plan whose task has not started by its tick
/// (where no thread of its own can be had, the pool busy with long route searches) is taken
/// back and run in the frame instead of waited for behind them.
pub(crate) struct TickPlan {
    from: PlannedFrom,
    input: Arc<Mutex<Option<StepInput>>>,
    work: Pending<Option<StepOutput>>,
}

/// What a step was planned from: who stood where, and the jam's bodies it held (and whether
/// they may take their plan's next step). Its moves are checked against them when taken.
pub(super) struct PlannedFrom {
    pub(super) bodies: Vec<(Entity, Point)>,
    pub(super) held: Option<(Vec<Entity>, bool)>,
}

impl std::fmt::Debug for TickPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TickPlan")
            .field("bodies", &self.from.bodies.len())
            .field("work", &self.work)
            .finish()
    }
}

/// The slot's input, if no one has taken it yet.
fn take(slot: &Mutex<Option<StepInput>>) -> Option<StepInput> {
    lock(slot).take()
}

impl TickPlan {
    /// Starts planning `input` where `thread` says.
    pub(super) fn start(thread: SearchThread, from: PlannedFrom, input: StepInput) -> Self {
        let input = Arc::new(Mutex::new(Some(input)));
        let slot = Arc::clone(&input);
        let work = Pending::start_alone(thread, move || take(&slot).map(StepInput::run));
        Self { from, input, work }
    }

    /// The plan's answer: run here if its task has not started, else waited for (`None` only
    /// if its task was lost, as when the pool shuts down).
    pub(super) fn wait(self) -> Option<(PlannedFrom, StepOutput)> {
        let output = match take(&self.input) {
            Some(input) => Some(input.run()), // dropping `work` cancels the task
            None => self.work.wait().flatten(),
        }?;
        Some((self.from, output))
    }
}
