//! The traffic: which way bodies have lately stepped out of each cell, so that others stop
//! meeting them head-on.
//!
//! The contraflow part of Chen et al.'s guide paths ("Traffic Flow Optimisation for Lifelong
//! Multi-Agent Path Finding", AAAI 2024), without the paths: [`Traffic`] remembers, per cell and
//! direction, how many agents recently stepped out of that cell that way (each step's moves
//! added, the past fading by [`Traffic::FADE`] a step). Choosing among its moves, an agent pays
//! for stepping against that flow: going from `u` to `v` costs the flow seen from `v` to `u`,
//! times `weight`. Among moves that bring it equally near its goal, it takes the one with the
//! traffic (lanes form, as pedestrians' do); and a move against a strong flow can be worth
//! less than a step aside. Nothing is planned ahead, so agents joining, leaving or walls
//! changing cost nothing, and a step's guidance is one table read per move considered.

use crate::grid::{Grid, Point};
use crate::movement::Movement;

/// The direction of a step between two neighbouring cells (indices) of a grid `width` cells
/// wide, if they are neighbours: up, left, right or down, as in [`crate::mapf`]'s neighbour order.
pub(crate) fn direction(width: usize, from: usize, to: usize) -> Option<usize> {
    if to + width == from {
        Some(0)
    } else if to + 1 == from && !from.is_multiple_of(width) {
        Some(1)
    } else if from + 1 == to && !to.is_multiple_of(width) {
        Some(2)
    } else if from + width == to {
        Some(3)
    } else {
        None
    }
}

/// Recent flow out of each cell in each direction a move may take (see the module docs): the
/// four sides on squares with 4-way moves, eight directions with 8-way moves or on hexagons (a
/// hex map's six steps are six of the eight offsets round a cell, which six depending on the
/// row or column), and a staggered map's own four or eight.
#[derive(Clone, Debug, Default)]
pub struct Traffic {
    /// `slots` numbers per cell, one per direction: for 4-way moves up, left, right, down, as
    /// in [`crate::mapf`]'s neighbour order.
    flow: Vec<f32>,
    width: usize,
    slots: usize,
    /// The slot of each step `(dx, dy)`, at `(dx + 1) + 3 · (dy + 2)` (`dy` reaches ±2 on a
    /// staggered map); [`NO_SLOT`] for a step the moves never make.
    slot_of: [u8; 15],
    four_way: bool,
    movement: Movement,
}

/// [`Traffic::slot_of`]'s mark for a step no move makes.
const NO_SLOT: u8 = u8::MAX;

impl Traffic {
    /// How much of the flow is left after a step: a memory of some ten steps.
    pub const FADE: f32 = 0.9;

    /// No flow yet on any cell of `grid`, for 4-way moves (the lifelong benchmark's).
    pub fn new(grid: &Grid) -> Self {
        Self::for_moves(grid, Movement::FourWay)
    }

    /// No flow yet on any cell of `grid`, for the moves of `movement`.
    pub fn for_moves(grid: &Grid, movement: Movement) -> Self {
        let mut slot_of = [NO_SLOT; 15];
        let mut slots = 0;
        // Every step the moves make from a cell of each parity of row and column, in order (on
        // squares, the order of `STEPS`: up, left, right, down first).
        let open = Grid::new(6, 6).expect("a 6 × 6 grid is valid");
        for at in [(2, 2), (3, 2), (2, 3), (3, 3)] {
            let from = Point::new(at.0, at.1);
            for to in movement.moves(&open, from) {
                let key = step_key(to.x - from.x, to.y - from.y);
                if let Some(k) = key.filter(|&k| slot_of[k] == NO_SLOT) {
                    slot_of[k] = slots;
                    slots += 1;
                }
            }
        }
        let slots = usize::from(slots).max(1);
        Self {
            flow: vec![0.0; grid.len() * slots],
            width: grid.width() as usize,
            slots,
            slot_of,
            four_way: movement == Movement::FourWay,
            movement,
        }
    }

    /// Was it made for a grid of `grid`'s size and for `movement`'s moves? (A crowd keeps its
    /// traffic between steps, and starts it afresh when the map or the moves change.)
    pub fn is_for(&self, grid: &Grid, movement: Movement) -> bool {
        self.movement == movement
            && self.width == grid.width() as usize
            && self.flow.len() == grid.len() * self.slots
    }

    /// The slot of the step from cell `from` to cell `to` (indices), if the moves make it.
    /// Forced inline: a crowd's step asks it for each cell a body weighs, and called out of
    /// line it was a sixth of the lifelong planner's step outside PIBT itself (callgrind).
    #[inline(always)]
    fn slot(&self, from: usize, to: usize) -> Option<usize> {
        if self.four_way {
            return direction(self.width, from, to);
        }
        self.slot_of_step(from, to)
    }

    /// [`Traffic::slot`] for moves other than 4-way ones.
    fn slot_of_step(&self, from: usize, to: usize) -> Option<usize> {
        let (w, dy) = (
            self.width as i64,
            to as i64 / self.width as i64 - from as i64 / self.width as i64,
        );
        let dx = to as i64 % w - from as i64 % w;
        let k = step_key(dx as i32, dy as i32)?;
        let slot = self.slot_of[k];
        (slot != NO_SLOT).then_some(usize::from(slot))
    }

    /// The flow seen against a step from `from` to `to`: agents that lately stepped from `to`
    /// to `from`. Nothing for a wait, or a step the moves do not make.
    #[inline]
    pub fn against(&self, from: usize, to: usize) -> f32 {
        match self.slot(to, from) {
            Some(d) => self.flow.get(to * self.slots + d).copied().unwrap_or(0.0),
            None => 0.0,
        }
    }

    /// [`Traffic::against`] between two cells given as points of the grid it was made for.
    pub fn against_at(&self, grid: &Grid, from: Point, to: Point) -> f32 {
        match (grid.index_of(from), grid.index_of(to)) {
            (Some(from), Some(to)) => self.against(from, to),
            _ => 0.0,
        }
    }

    /// The past fades, and this step's moves are added.
    pub fn record(&mut self, moves: impl Iterator<Item = (usize, usize)>) {
        for f in &mut self.flow {
            *f *= Self::FADE;
        }
        for (from, to) in moves {
            if let Some(d) = self.slot(from, to)
                && let Some(f) = self.flow.get_mut(from * self.slots + d)
            {
                *f += 1.0;
            }
        }
    }
}

/// Where step `(dx, dy)` is kept in [`Traffic::slot_of`], if it is a step of one cell (two
/// rows on a staggered map) and not a wait.
fn step_key(dx: i32, dy: i32) -> Option<usize> {
    let inside = (-1..=1).contains(&dx) && (-2..=2).contains(&dy) && (dx, dy) != (0, 0);
    inside.then(|| (dx + 1 + 3 * (dy + 2)) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_against_recent_moves_is_seen_and_fades() {
        let grid = Grid::new(3, 3).expect("a grid");
        let mut traffic = Traffic::new(&grid);
        // Two agents step right out of cell 3, into 4.
        traffic.record([(3, 4), (3, 4)].into_iter());
        assert_eq!(traffic.against(4, 3), 2.0, "going left from 4 meets them");
        assert_eq!(traffic.against(3, 4), 0.0, "going their way meets no one");
        assert_eq!(traffic.against(4, 4), 0.0, "a wait");
        assert_eq!(traffic.against(2, 3), 0.0, "not neighbours: 2 ends a row");
        traffic.record(std::iter::empty());
        assert!((traffic.against(4, 3) - 2.0 * Traffic::FADE).abs() < 1e-6);
    }

    #[test]
    fn a_step_is_seen_against_its_reverse_alone_on_every_shape() {
        use crate::hex::HexLayout;
        use crate::movement::CornerRule;
        let grid = Grid::new(9, 9).expect("a grid");
        let shapes = [
            Movement::FourWay,
            Movement::EightWay(CornerRule::NeverCut),
            Movement::Hex(HexLayout::RowOdd),
            Movement::Hex(HexLayout::ColumnEven),
            Movement::Hex(HexLayout::Row),
            Movement::StaggeredFourWay,
            Movement::StaggeredEightWay(CornerRule::NeverCut),
        ];
        for movement in shapes {
            let index = |p: Point| grid.index_of(p).expect("on the grid");
            let mut directions = 0;
            for y in 0..9 {
                for x in 0..9 {
                    let p = Point::new(x, y);
                    let moves: Vec<Point> = movement.moves(&grid, p).collect();
                    directions = directions.max(moves.len());
                    for &q in &moves {
                        // One agent steps from p to q: going back from q to p meets it, and
                        // nothing else does.
                        let mut traffic = Traffic::for_moves(&grid, movement);
                        traffic.record([(index(p), index(q))].into_iter());
                        assert_eq!(
                            traffic.against_at(&grid, q, p),
                            1.0,
                            "{movement}: {p} -> {q}"
                        );
                        assert_eq!(
                            traffic.against_at(&grid, p, q),
                            0.0,
                            "{movement}: {p} -> {q}"
                        );
                        for r in movement.moves(&grid, q).filter(|&r| r != p) {
                            assert_eq!(
                                traffic.against_at(&grid, q, r),
                                0.0,
                                "{movement}: {q} -> {r}"
                            );
                        }
                        for r in movement.moves(&grid, p).filter(|&r| r != q) {
                            assert_eq!(
                                traffic.against_at(&grid, r, p),
                                0.0,
                                "{movement}: {r} -> {p}"
                            );
                        }
                    }
                }
            }
            assert!(directions >= 4, "{movement}: the moves were tried");
        }
    }
}
