//! Any bytes as a MAPF result file: a plan, which writes back and reads the same, or a short,
//! printable error on a line of the text; never a panic. The check is in
//! `tests/common/result_case.rs`, which `cargo test` shares to replay what this target found.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/clean_error.rs"]
mod clean_error;
#[path = "../../tests/common/result_case.rs"]
mod result_case;

fuzz_target!(|bytes: &[u8]| result_case::check_result_bytes(bytes));
