//! A route's cost split into turns of so many movement points.

use super::blockers::Blockers;
use crate::grid::{Grid, Point};
use crate::movement::Movement;
use std::fmt;

/// Where one turn of a route ends ([`split_into_turns`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnEnd {
    /// The index in the route's cells of the cell the turn ends on.
    pub at: usize,
    /// The movement points the turn spent.
    pub spent: f64,
}

/// Why a route cannot be split into turns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TurnError {
    /// The cells at `at − 1` and `at` are not one legal move apart.
    NotAStep(usize),
    /// The step into cell `at` costs more than a whole turn's points: no turn can make it.
    TooDear {
        /// The step's index, as in [`TurnError::NotAStep`].
        at: usize,
        /// What the step costs.
        cost: f64,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::NotAStep(at) => {
                write!(f, "cells {} and {at} are not one move apart", at - 1)
            }
            TurnError::TooDear { at, cost } => {
                write!(
                    f,
                    "the step into cell {at} costs {cost}, more than a turn's points"
                )
            }
        }
    }
}

impl std::error::Error for TurnError {}

/// Splits a route into turns of `points` movement points each, as a turn-based game moves a unit:
/// a turn takes steps while its points last; a step that costs more than what is left waits for
/// the next turn (the points left are lost, as in most such games); and a step into an enemy's
/// zone of control ([`Blockers::enemy`]) ends the turn. One [`TurnEnd`] a turn, the last on the
/// route's last cell; none for a route of one cell.
///
/// The cheapest route is not always the one of fewest turns (points lost at the end of a turn
/// can make a dearer route quicker); this splits the route it is given.
///
/// ```
/// use gridpath::tactics::{Blockers, split_into_turns};
/// use gridpath::{Cell, Grid, Movement, Point};
///
/// let mut grid = Grid::new(5, 1).unwrap();
/// grid.set(Point::new(2, 0), Cell::Passable(3)).unwrap(); // mud
/// let route: Vec<Point> = (0..5).map(|x| Point::new(x, 0)).collect();
/// let turns = split_into_turns(&grid, Movement::FourWay, &route, 3.0, &Blockers::new()).unwrap();
/// // Turn 1 stops short of the mud (1 point left, the mud costs 3), turn 2 crosses it.
/// assert_eq!(turns.iter().map(|t| t.at).collect::<Vec<_>>(), [1, 2, 4]);
/// ```
pub fn split_into_turns(
    grid: &Grid,
    movement: Movement,
    cells: &[Point],
    points: f64,
    blockers: &Blockers,
) -> Result<Vec<TurnEnd>, TurnError> {
    const SLACK: f64 = 1e-9;
    let mut turns = Vec::new();
    let mut spent = 0.0;
    for (at, pair) in cells.windows(2).enumerate().map(|(k, w)| (k + 1, w)) {
        let cost = movement
            .step_cost(grid, pair[0], pair[1])
            .ok_or(TurnError::NotAStep(at))?;
        if cost > points + SLACK {
            return Err(TurnError::TooDear { at, cost });
        }
        if spent + cost > points + SLACK {
            turns.push(TurnEnd { at: at - 1, spent });
            spent = 0.0;
        }
        spent += cost;
        if blockers.in_zone(grid, pair[1]) && at + 1 < cells.len() {
            turns.push(TurnEnd { at, spent });
            spent = 0.0;
        }
    }
    if cells.len() > 1 {
        turns.push(TurnEnd {
            at: cells.len() - 1,
            spent,
        });
    }
    Ok(turns)
}
