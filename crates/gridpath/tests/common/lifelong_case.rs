//! What the `lifelong_files` fuzz target checks on any bytes, shared by path with
//! `tests/fuzz_findings.rs`, which replays what it found: the same text read as a lifelong
//! configuration, as a League of Robot Runners map and as a file of cells on a small map either
//! reads, with every cell on that map, or is refused in one short, printable line; never a panic.

use gridpath::Grid;
use gridpath::lifelong::{parse_cells, parse_config, parse_lifelong_map};

fn assert_one_clean_line(e: &str) {
    assert!(e.len() < 300, "{} bytes: {e}", e.len());
    assert!(!e.chars().any(char::is_control), "{e:?}");
}

pub fn check_lifelong_bytes(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    match parse_config(&text) {
        Ok(config) => assert!(config.team_size.is_none_or(|n| n >= 1), "{config:?}"),
        Err(e) => assert_one_clean_line(&e),
    }
    if let Err(e) = parse_lifelong_map(&text) {
        assert_one_clean_line(&e);
    }
    let grid = Grid::new(8, 4).expect("a grid");
    match parse_cells(&text, &grid, 64) {
        Ok(cells) => assert!(cells.iter().all(|&p| grid.contains(p)), "{cells:?}"),
        Err(e) => assert_one_clean_line(&e),
    }
}
