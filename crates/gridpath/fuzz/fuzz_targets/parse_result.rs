//! Any bytes as a MAPF result file: a plan, or a short, printable error on a line of the text;
//! never a panic. What a parsed result writes reads back the same.
#![no_main]

use gridpath::mapf::{parse_result, write_result};
use gridpath::movingai::text::decode;
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/clean_error.rs"]
mod clean_error;
use clean_error::assert_clean_error;

fuzz_target!(|bytes: &[u8]| {
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
});
