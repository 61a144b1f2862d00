//! Any bytes as a `.scen` file: scenarios inside the maps they declare, or a short, printable
//! error on a line of the text; never a panic.
//! The check is in `tests/common/scen_case.rs`, which `cargo test` shares to replay what this
//! target found.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/clean_error.rs"]
mod clean_error;
#[path = "../../tests/common/scen_case.rs"]
mod scen_case;

fuzz_target!(|bytes: &[u8]| scen_case::check_scen_bytes(bytes));
