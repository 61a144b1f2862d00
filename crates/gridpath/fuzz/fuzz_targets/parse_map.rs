//! Any bytes as a `.map` file: a grid or an error, never a panic. An error is short, printable
//! and names a line of the text; a grid that parses writes back to a text that parses the same.
#![no_main]

use gridpath::movingai::{parse_map, text::decode, write_map};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    match decode(bytes).and_then(parse_map) {
        Ok(grid) => assert_eq!(parse_map(&write_map(&grid)).as_ref(), Ok(&grid)),
        Err(e) => {
            let shown = e.to_string();
            assert!(shown.len() < 300, "{shown}");
            assert!(!shown.chars().any(char::is_control), "{shown:?}");
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
            assert!(
                e.line >= 1 && e.line <= lines + 1,
                "line {} of {lines}",
                e.line
            );
        }
    }
});
