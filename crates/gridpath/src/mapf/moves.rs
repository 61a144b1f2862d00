//! How an agent steps, and the neighbour lists every planner of the module shares: the cells a
//! move reaches on squares (4-way) or hexagons, and a step's way (a wait, or a move).

use super::random::SplitMix64;
use crate::grid::{Grid, Point};
use crate::hex::HexLayout;
use crate::movingai::MapShape;

/// How agents step: to a cell that shares a side with theirs. The field's benchmark moves on
/// squares, 4-way; on a hex map an agent steps to any of its six neighbours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Moves {
    /// Up, left, right or down.
    #[default]
    FourWay,
    /// The six neighbours of a hexagon, the map laid out as the [`HexLayout`] says.
    Hex(HexLayout),
}

impl Moves {
    /// The moves of a map of `shape`: a hex map's six, 4-way on squares (turned or not).
    pub fn of_shape(shape: MapShape) -> Moves {
        shape.hex().map_or(Moves::FourWay, Moves::Hex)
    }
}

/// A cell's free neighbours, by index: the moves of MAPF (waiting is not listed). The order is
/// fixed (4-way: up, left, right, down; hex: [`HexLayout::steps`]'s) so that runs repeat exactly.
#[inline]
pub(crate) fn neighbours(grid: &Grid, moves: Moves, i: usize) -> impl Iterator<Item = usize> + '_ {
    let cells = match moves {
        Moves::FourWay => four_way_cells(grid, i),
        Moves::Hex(layout) => hex_cells(grid, layout, i),
    };
    cells
        .into_iter()
        .flatten()
        .filter(move |&j| grid.raw_cost(j) != 0)
}

/// [`neighbours`] for the hot loops (the distance tables' breadth-first searches, PIBT's
/// choices): `visit` is called on each, the 4-way ones in straight-line code. Through
/// [`neighbours`], LaCAM's first plan on random-32-32-10 with 400 agents took 10 % more
/// instructions than when 4-way moves were all there was; this way, 3 %.
#[inline]
pub(crate) fn for_each_neighbour(
    grid: &Grid,
    moves: Moves,
    i: usize,
    mut visit: impl FnMut(usize),
) {
    let mut free = |j: usize| {
        if grid.raw_cost(j) != 0 {
            visit(j);
        }
    };
    match moves {
        Moves::FourWay => {
            let width = grid.width() as usize;
            let (x, y) = (i % width, i / width);
            if y > 0 {
                free(i - width);
            }
            if x > 0 {
                free(i - 1);
            }
            if x + 1 < width {
                free(i + 1);
            }
            if i + width < grid.len() {
                free(i + width);
            }
        }
        Moves::Hex(layout) => hex_cells(grid, layout, i)
            .into_iter()
            .flatten()
            .for_each(free),
    }
}

/// A square's four sides, by index: up, left, right, down; `None` off the map.
#[inline]
fn four_way_cells(grid: &Grid, i: usize) -> [Option<usize>; 6] {
    let width = grid.width() as usize;
    let (x, y) = (i % width, i / width);
    let up = (y > 0).then(|| i - width);
    let left = (x > 0).then(|| i - 1);
    let right = (x + 1 < width).then(|| i + 1);
    let down = (i + width < grid.len()).then(|| i + width);
    [up, left, right, down, None, None]
}

/// A hexagon's six neighbours, by index, in [`HexLayout::steps`]'s order: `None` off the map.
fn hex_cells(grid: &Grid, layout: HexLayout, i: usize) -> [Option<usize>; 6] {
    let width = grid.width() as usize;
    let height = grid.len() / width.max(1);
    let (x, y) = (i % width, i / width);
    layout
        .steps(Point::new(x as i32, y as i32))
        .map(|(dx, dy)| {
            let (tx, ty) = (
                x.wrapping_add_signed(dx as isize),
                y.wrapping_add_signed(dy as isize),
            );
            (tx < width && ty < height).then(|| ty * width + tx)
        })
}

/// What lies past a cell of a passage, coming from the cell `behind` it: a fork (two ways on or
/// more), a dead end, or the one way on. LaCAM\*'s emulated swap follows passages by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Way {
    Fork,
    DeadEnd,
    On(usize),
}

impl Way {
    /// The way on through `ways` (the cells out of a cell), leaving out `behind` and the cells
    /// `wall` says are as good as walls.
    pub(crate) fn past(
        behind: usize,
        ways: impl Iterator<Item = usize>,
        wall: impl Fn(usize) -> bool,
    ) -> Way {
        let mut on = None;
        for u in ways.filter(|&u| u != behind && !wall(u)) {
            if on.is_some() {
                return Way::Fork;
            }
            on = Some(u);
        }
        on.map_or(Way::DeadEnd, Way::On)
    }
}

/// An agent's choices for its next step, in random order: staying on `here`, or moving to one of
/// its free neighbours. Returns them in an array and how many there are.
pub(crate) fn choices_shuffled(
    grid: &Grid,
    moves: Moves,
    here: usize,
    rng: &mut SplitMix64,
) -> ([usize; 7], usize) {
    let mut cells = [here; 7];
    let mut n = 1;
    for next in neighbours(grid, moves, here) {
        cells[n] = next;
        n += 1;
    }
    for k in (1..n).rev() {
        cells.swap(k, (rng.next() % (k as u64 + 1)) as usize);
    }
    (cells, n)
}
