//! Random grids, movements and end points for the property tests, shared by the test files.

#![allow(dead_code)] // each test file uses its own subset

pub mod class_case;
pub mod clean_error;
pub mod lifelong_case;
pub mod map_case;
pub mod oracle;
pub mod result_case;
pub mod scen_case;
pub mod search_case;

use gridpath::{Cell, CornerRule, Grid, Movement, Point};
use proptest::prelude::*;

/// A random grid with walls and, optionally, terrain costs 1–9.
pub fn arb_grid(max_side: u32, weighted: bool) -> impl Strategy<Value = Grid> {
    arb_grid_sized(1..=max_side, 1..=max_side, 0..=45, weighted)
}

pub fn arb_grid_sized(
    widths: std::ops::RangeInclusive<u32>,
    heights: std::ops::RangeInclusive<u32>,
    wall_pcts: std::ops::RangeInclusive<u32>,
    weighted: bool,
) -> impl Strategy<Value = Grid> {
    (widths, heights, wall_pcts).prop_flat_map(move |(w, h, wall_pct)| {
        let cells = (w * h) as usize;
        prop::collection::vec((0u32..100, 1u32..=9), cells).prop_map(move |cells| {
            let mut grid = Grid::new(w, h).expect("small grid");
            for (i, (roll, cost)) in cells.into_iter().enumerate() {
                let cell = if roll < wall_pct {
                    Cell::Blocked
                } else if weighted {
                    Cell::Passable(cost)
                } else {
                    Cell::FLOOR
                };
                grid.set(grid.point_of(i), cell).expect("inside");
            }
            grid
        })
    })
}

pub fn arb_movement() -> impl Strategy<Value = Movement> {
    prop_oneof![
        Just(Movement::FourWay),
        Just(Movement::EightWay(CornerRule::NeverCut)),
        Just(Movement::EightWay(CornerRule::CutOneCorner)),
        Just(Movement::EightWay(CornerRule::CutAlways)),
    ]
}

/// Any movement of a square grid, of a staggered isometric map, or any of the six hex layouts.
pub fn arb_shape() -> impl Strategy<Value = Movement> {
    prop_oneof![
        arb_movement(),
        arb_movement().prop_map(Movement::staggered),
        prop::sample::select(gridpath::hex::HexLayout::ALL.to_vec()).prop_map(Movement::Hex),
    ]
}

/// Two passable cells picked by the two random numbers (or `None` if the grid has none).
pub fn endpoints(grid: &Grid, a: usize, b: usize) -> Option<(Point, Point)> {
    let free: Vec<Point> = (0..grid.len())
        .map(|i| grid.point_of(i))
        .filter(|&p| grid.is_passable(p))
        .collect();
    (!free.is_empty()).then(|| (free[a % free.len()], free[b % free.len()]))
}
