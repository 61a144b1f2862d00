//! Differential search: on small random grids, every algorithm with every heuristic, movement,
//! corner rule and goal mode, run whole and stepped. The input and the check are in
//! `tests/common/search_case.rs`, which `cargo test` shares to replay what this target found.
#![no_main]

#[path = "../../tests/common/oracle.rs"]
mod oracle;
#[path = "../../tests/common/search_case.rs"]
mod search_case;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    search_case::Case::decode(bytes).check_every_algorithm();
});
