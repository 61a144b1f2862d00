//! What the `parse_map` fuzz target checks on any bytes, shared by path with the property tests
//! and `tests/fuzz_findings.rs`, which replays what it found: a grid whose text writes back and
//! reads the same (its shape too: squares, hexagons, isometric), or a short, printable error on
//! a line of the text; never a panic.

use super::clean_error::assert_clean_error;
use gridpath::movingai::{MapLimits, parse_shaped_map_with_limits, text::decode, write_shaped_map};

pub fn check_map_bytes(bytes: &[u8]) {
    let parse = |text: &str| parse_shaped_map_with_limits(text, &MapLimits::DEFAULT);
    match decode(bytes).and_then(parse) {
        Ok((grid, shape)) => {
            let written = write_shaped_map(&grid, shape);
            assert_eq!(parse(&written), Ok((grid, shape)));
        }
        Err(e) => assert_clean_error(bytes, &e),
    }
}
