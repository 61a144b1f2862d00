//! Any bytes as a lifelong benchmark's files (its JSON configuration, its map, a file of cells):
//! read, or refused in one short, printable line; never a panic.
//! The check is in `tests/common/lifelong_case.rs`, which `cargo test` shares to replay what this
//! target found.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/lifelong_case.rs"]
mod lifelong_case;

fuzz_target!(|bytes: &[u8]| lifelong_case::check_lifelong_bytes(bytes));
