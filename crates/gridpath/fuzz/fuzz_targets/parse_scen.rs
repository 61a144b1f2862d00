//! Any bytes as a `.scen` file: scenarios inside the maps they declare, or a short, printable
//! error on a line of the text; never a panic.
#![no_main]

use gridpath::movingai::{parse_scen, text::decode};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/clean_error.rs"]
mod clean_error;
use clean_error::assert_clean_error;

fuzz_target!(|bytes: &[u8]| {
    match decode(bytes).and_then(parse_scen) {
        Ok(scenarios) => {
            for s in scenarios {
                for p in [s.start, s.goal] {
                    assert!(p.x >= 0 && (p.x as u32) < s.map_width, "{s:?}");
                    assert!(p.y >= 0 && (p.y as u32) < s.map_height, "{s:?}");
                }
                assert!(s.optimal.is_finite() && s.optimal >= 0.0, "{s:?}");
            }
        }
        Err(e) => assert_clean_error(bytes, &e),
    }
});
