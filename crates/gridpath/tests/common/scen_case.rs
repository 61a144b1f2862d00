//! What the `parse_scen` fuzz target checks on any bytes, shared by path with the property tests
//! and `tests/fuzz_findings.rs`, which replays what it found: scenarios whose starts and goals lie
//! inside the maps they declare, with a finite length, or a short, printable error on a line of
//! the text; never a panic.

use super::clean_error::assert_clean_error;
use gridpath::movingai::{parse_scen, text::decode};

pub fn check_scen_bytes(bytes: &[u8]) {
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
}
