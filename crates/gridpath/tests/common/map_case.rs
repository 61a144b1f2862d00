//! What the `parse_map` fuzz target checks on any bytes, shared by path with the property tests
//! and `tests/fuzz_findings.rs`, which replays what it found: a grid whose text writes back and
//! reads the same, or a short, printable error on a line of the text; never a panic.

use super::clean_error::assert_clean_error;
use gridpath::movingai::{parse_map, text::decode, write_map};

pub fn check_map_bytes(bytes: &[u8]) {
    match decode(bytes).and_then(parse_map) {
        Ok(grid) => assert_eq!(parse_map(&write_map(&grid)).as_ref(), Ok(&grid)),
        Err(e) => assert_clean_error(bytes, &e),
    }
}
