//! Any grid (walls and costs 1 to 35, the most the format stores) written with `write_map`
//! reads back as the same grid.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use gridpath::movingai::{MAX_STORED_COST, parse_map, write_map};
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
    if let Ok(grid) = grid(&mut Unstructured::new(bytes)) {
        let text = write_map(&grid);
        assert_eq!(parse_map(&text).as_ref(), Ok(&grid), "{text}");
    }
});
