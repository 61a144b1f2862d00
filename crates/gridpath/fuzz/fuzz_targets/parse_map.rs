//! Any bytes as a `.map` file: a grid or an error, never a panic. An error is short, printable
//! and names a line of the text; a grid that parses writes back to a text that parses the same.
#![no_main]

use gridpath::movingai::{parse_map, text::decode, write_map};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/clean_error.rs"]
mod clean_error;
use clean_error::assert_clean_error;

fuzz_target!(|bytes: &[u8]| {
    match decode(bytes).and_then(parse_map) {
        Ok(grid) => assert_eq!(parse_map(&write_map(&grid)).as_ref(), Ok(&grid)),
        Err(e) => assert_clean_error(bytes, &e),
    }
});
