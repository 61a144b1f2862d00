//! A tick's PIBT step planned one tick ahead, off the frame ([`crate::Crowd::plan_ahead`]).
//!
//! The bodies' cells change only at a tick. So the next tick's step can be planned before it is
//! due (a quarter of a tick before: `PLAN_LEAD` in `step.rs`), on a thread of its own, while the
//! bodies glide: the frame the tick falls in only takes the moves. What can change meanwhile is
//! what the game does between ticks: a wall painted, a body spawned, despawned or moved off a
//! wall, a new route. A route or destination that comes in that time is read at the next tick.
//! The rest is checked when the plan is taken ([`hold_what_no_longer_fits`]): a body moved
//! meanwhile, or one whose next cell is a wall now, holds, and so, in turn, does every body
//! that would step onto a held one.
//!
//! A plan is taken at its tick, waiting for it if it is not done: the moves are the same on a
//! quick machine or a busy one, and the same with [`SearchThread::Frame`], where it is planned in
//! the frame that starts it.
//!
//! [`SearchThread::Frame`]: crate::SearchThread::Frame

use super::body::covers;
use super::detours::Detours;
use crate::off_frame::{Pending, SearchThread, lock};
use bevy::prelude::*;
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
}

/// The core step's answer: its state back, the movers as it left them, and each mover's next
/// cell (the bodies' first, in their order, then the cells a jam's plan keeps).
pub(super) struct StepOutput {
    pub(super) step: CrowdStep,
    pub(super) movers: Vec<Mover>,
    pub(super) next: Vec<Point>,
    /// The detours' scratch, handed back to be used again.
    pub(super) detours: Detours,
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
        } = self;
        let grids: Vec<&Grid> = grids.iter().map(|g| &**g).collect();
        detours.apply(&grids, movement, &mut aims);
        let next = step
            .step(&grids, movement, &mut movers, |i, c| match aims.get(i) {
                Some(&(_, Some(aim))) => distance(movement, c, aim),
                Some(&(here, None)) => u32::from(c != here),
                None => 0, // a cell the plan of a jam keeps
            })
            .to_vec();
        StepOutput {
            step,
            movers,
            next,
            detours,
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

/// Holds every move that no longer fits the world: into a wall of its body's size, or onto a
/// cell another body covers once the others have moved or held. `cells` and `sizes` are the
/// bodies' as they stand now, `next` where each would go; `sized` the grid for each size from 1
/// up. `counts` is scratch space.
/// Holding never makes two bodies swap or cross, so what is left is a valid step. `unchanged`:
/// every body stands where the plan found it, and no other came: then only the walls can
/// break PIBT's own valid step. Returns how many moves were held.
pub(super) fn hold_what_no_longer_fits(
    sized: &[Arc<Grid>],
    cells: &[Point],
    sizes: &[u8],
    next: &mut [Point],
    unchanged: bool,
    counts: &mut Vec<u16>,
) -> usize {
    let for_size = |size: u8| &sized[usize::from(size.max(1)) - 1];
    let grid = for_size(1);
    let mut held = 0;
    for i in 0..next.len() {
        if next[i] != cells[i] && !for_size(sizes[i]).is_passable(next[i]) {
            next[i] = cells[i];
            held += 1;
        }
    }
    if unchanged && held == 0 {
        return 0;
    }
    // A held body may block one that was to step onto its cell, and that one the next in
    // line: again until no move lands on a covered cell.
    loop {
        counts.clear();
        counts.resize(grid.len(), 0);
        for i in 0..next.len() {
            for c in covers(grid, next[i], sizes[i]) {
                counts[c] = counts[c].saturating_add(1);
            }
        }
        let mut more = 0;
        for i in 0..next.len() {
            if next[i] != cells[i] && covers(grid, next[i], sizes[i]).any(|c| counts[c] > 1) {
                next[i] = cells[i];
                more += 1;
            }
        }
        if more == 0 {
            return held;
        }
        held += more;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn a_move_into_a_new_wall_holds_and_so_does_the_body_behind_it() {
        // A queue of three going east along a row; a wall has dropped where the first steps.
        let mut grid = Grid::new(6, 1).expect("a grid");
        grid.set_blocked(p(3, 0), true).expect("on the map");
        let sized = [Arc::new(grid)];
        let cells = [p(2, 0), p(1, 0), p(0, 0)];
        let mut next = [p(3, 0), p(2, 0), p(1, 0)];
        let held = hold_what_no_longer_fits(&sized, &cells, &[1; 3], &mut next, true, &mut vec![]);
        assert_eq!((held, next), (3, cells));
    }

    #[test]
    fn a_move_onto_a_body_that_came_since_holds_and_the_others_go() {
        // Two bodies the plan knew, each moving on; a third came since onto where one steps.
        let sized = [Arc::new(Grid::new(6, 3).expect("a grid"))];
        let cells = [p(0, 0), p(0, 2), p(1, 2)];
        let mut next = [p(1, 0), p(1, 2), p(1, 2)];
        let held = hold_what_no_longer_fits(&sized, &cells, &[1; 3], &mut next, false, &mut vec![]);
        assert_eq!((held, next), (1, [p(1, 0), p(0, 2), p(1, 2)]));
    }

    #[test]
    fn a_big_body_holds_when_its_footprint_would_cover_another() {
        let sized = [
            Arc::new(Grid::new(5, 5).expect("a grid")),
            Arc::new(Grid::new(5, 5).expect("a grid")),
        ];
        // A 2 × 2 body at (0, 0) steps east onto (1..3, 0..2); a body of one cell holds at (2, 1).
        let cells = [p(0, 0), p(2, 1)];
        let mut next = [p(1, 0), p(2, 1)];
        let held = hold_what_no_longer_fits(&sized, &cells, &[2, 1], &mut next, false, &mut vec![]);
        assert_eq!((held, next), (1, cells));
    }

    #[test]
    fn a_plan_that_still_fits_is_taken_as_it_is() {
        let sized = [Arc::new(Grid::new(4, 1).expect("a grid"))];
        let cells = [p(1, 0), p(0, 0)];
        let mut next = [p(2, 0), p(1, 0)];
        let held = hold_what_no_longer_fits(&sized, &cells, &[1; 2], &mut next, false, &mut vec![]);
        assert_eq!((held, next), (0, [p(2, 0), p(1, 0)]));
    }
}
