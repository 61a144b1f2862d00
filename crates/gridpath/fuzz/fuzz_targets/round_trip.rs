//! Any grid (walls and costs 1 to 35, the most the format stores) of any shape, written with
//! `write_shaped_map`, reads back as the same grid and shape.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use gridpath::movingai::{
    MAX_STORED_COST, MapLimits, MapShape, parse_shaped_map_with_limits, write_shaped_map,
};
use gridpath::{Cell, Grid};
use libfuzzer_sys::fuzz_target;

fn grid(u: &mut Unstructured) -> arbitrary::Result<Grid> {
    let (width, height) = (u.int_in_range(1..=40)?, u.int_in_range(1..=40)?);
    let mut grid = Grid::new(width, height).map_err(|_| arbitrary::Error::IncorrectFormat)?;
    for i in 0..grid.len() {
        let cell = match u8::arbitrary(u)? % 4 {
            0 => Cell::Blocked,
            1 => Cell::Passable(u.int_in_range(1..=MAX_STORED_COST)?),
            _ => Cell::FLOOR,
        };
        grid.set(grid.point_of(i), cell)
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
    }
    Ok(grid)
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    let Ok(shape) = u.choose(&MapShape::ALL).copied() else {
        return;
    };
    if let Ok(grid) = grid(&mut u) {
        let text = write_shaped_map(&grid, shape);
        let read = parse_shaped_map_with_limits(&text, &MapLimits::DEFAULT);
        assert_eq!(read, Ok((grid, shape)), "{text}");
    }
});
