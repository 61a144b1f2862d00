//! What the `parse_result` fuzz target checks on any bytes, shared by path with
//! `tests/fuzz_findings.rs`, which replays what it found: a plan whose text writes back and reads
//! the same, or a short, printable error on a line of the text; never a panic.

use super::clean_error::assert_clean_error;
use gridpath::mapf::{parse_result, write_result};
use gridpath::movingai::text::decode;

pub fn check_result_bytes(bytes: &[u8]) {
    match decode(bytes).and_then(parse_result) {
        Ok(mut result) => {
            // The text keeps a whole number of milliseconds.
            result.comp_time = result.comp_time.map(f64::round).filter(|t| t.is_finite());
            result.comp_time.get_or_insert(0.0);
            let again = parse_result(&write_result(&result));
            assert_eq!(again.as_ref(), Ok(&result), "{result:?}");
        }
        Err(e) => assert_clean_error(bytes, &e),
    }
}
