//! Any bytes as a `.map` file: a grid or an error, never a panic. An error is short, printable
//! and names a line of the text; a grid that parses writes back to a text that parses the same.
//! The check is in `tests/common/map_case.rs`, which `cargo test` shares to replay what this
//! target found.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/clean_error.rs"]
mod clean_error;
#[path = "../../tests/common/map_case.rs"]
mod map_case;

fuzz_target!(|bytes: &[u8]| map_case::check_map_bytes(bytes));
