//! What the fuzz targets found, each input kept as a file in `tests/fuzz_findings/<target>/` and
//! replayed here on the stable compiler with the same check the target makes. CI's fuzzing step
//! also starts every target from these files (`.ci/fuzz`), so a finding is never lost.
//!
//! - `parse_map`, `parse_scen`: against the parsers before issue 14 (commit eb7ab8b), both failed
//!   within 100 executions: control characters went into messages raw (`cargo fuzz tmin` cut the
//!   map case to one byte, 0x01). Against the escaping parsers, `parse_scen` failed after 4.8
//!   million executions: a length of 40 combining marks, each escaped as `\u{303}`, made a
//!   302-byte message. Excerpts are now bounded once escaped too.
//! - `parse_result` (issue 29), in its first 10-minute run, after 2,957 executions: a key with a
//!   carriage return before it (`\rsoc_lb=a`) was matched once trimmed, but the message quoted
//!   the raw key, control character and all. Messages now name the trimmed key. Then, in CI's
//!   first minute of it, a name with a control character before a space (`map_file=\x01 p`) read
//!   back without the space: control characters are now dropped before the trim.
//! - `parse_scen`, in CI's minute of it during issue 29, after 1.9 million executions: an optimal
//!   length of 332 digits read as an infinite float, which the target's check refuses. Lengths
//!   must now be finite.
//! - `search` (issue 27): bidirectional BFS answered "no path" where closest-reachable mode must
//!   head for the nearest reachable cell, on a free goal cut off from the start (found after about
//!   8,800 executions). D* Lite and bidirectional A* shared the fault through the regions'
//!   shortcut, and all three refused a blocked goal in that mode. Now every engine is aimed
//!   before it starts ([`gridpath::Search::begin`]). The second file is written by hand: the
//!   nearest reachable cell is the start itself.
//! - `lifelong_files` (issue 47): one written by hand, a team size of 1e400 (an infinite float).

use std::path::PathBuf;

mod common;
use common::lifelong_case::check_lifelong_bytes;
use common::map_case::check_map_bytes;
use common::result_case::check_result_bytes;
use common::scen_case::check_scen_bytes;
use common::search_case::Case;

/// Every file in one target's findings folder, with its name.
fn findings(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let folder =
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into());
    let dir = std::path::Path::new(&folder)
        .join("tests/fuzz_findings")
        .join(target);
    let mut found: Vec<_> = std::fs::read_dir(&dir)
        .expect("the findings folder")
        .map(|entry| {
            let path = entry.expect("a finding").path();
            let bytes = std::fs::read(&path).expect("a finding's bytes");
            (path, bytes)
        })
        .collect();
    found.sort();
    found
}

/// Every parser finding passes its target's check now: a map reads back the same; scenarios lie
/// inside their maps with a finite length; otherwise a clean error.
#[test]
fn what_the_parser_fuzzers_found() {
    let maps = findings("parse_map");
    for (path, bytes) in &maps {
        eprintln!("{}", path.display());
        check_map_bytes(bytes);
    }
    let scens = findings("parse_scen");
    for (path, bytes) in &scens {
        eprintln!("{}", path.display());
        check_scen_bytes(bytes);
    }
    assert!(maps.len() + scens.len() >= 4, "too few findings");
}

/// Every result-file finding passes the target's own check (a round trip, or a clean error).
#[test]
fn what_the_result_fuzzer_found() {
    let found = findings("parse_result");
    assert!(found.len() >= 2, "{} findings", found.len());
    for (path, bytes) in found {
        eprintln!("{}", path.display());
        check_result_bytes(&bytes);
    }
}

/// Every lifelong-files finding passes its check: read, or refused in one clean line.
#[test]
fn what_the_lifelong_files_fuzzer_found() {
    let found = findings("lifelong_files");
    assert!(!found.is_empty(), "no findings");
    for (path, bytes) in found {
        eprintln!("{}", path.display());
        check_lifelong_bytes(&bytes);
    }
}

/// Every search finding passes the differential check: every algorithm, run whole and stepped.
#[test]
fn what_the_search_fuzzer_found() {
    let found = findings("search");
    assert!(found.len() >= 2, "{} findings", found.len());
    for (path, bytes) in found {
        let case = Case::decode(&bytes);
        eprintln!("{}: {case:?}", path.display());
        case.check_every_algorithm();
    }
}

/// The case, spelled out: the goal is free but walled off from the start, and in
/// closest-reachable mode every algorithm reaches the cell nearest it instead, at the same cost.
#[test]
fn a_cut_off_goal_is_partial_for_every_algorithm() {
    use gridpath::{Algorithm, GoalMode, Movement, Point, Search, SearchConfig, SearchStatus};
    let case = Case::decode(&findings("search")[0].1);
    assert_eq!(case.goal_mode, GoalMode::ClosestReachable);
    assert_eq!(
        (case.start, case.goal),
        (Point::new(0, 0), Point::new(0, 4))
    );
    let mut search = Search::new();
    for algorithm in Algorithm::ALL {
        let config = SearchConfig {
            goal_mode: GoalMode::ClosestReachable,
            ..SearchConfig::astar(Movement::default()).with_algorithm(algorithm)
        };
        let found = search
            .find_path(&case.grid, case.start, case.goal, &config)
            .expect("a valid query");
        let path = found.path.expect("a partial path");
        assert!(path.partial, "{algorithm:?}");
        assert_eq!(search.status(), SearchStatus::Partial, "{algorithm:?}");
        // (0, 0) is nearer the goal than (1, 0): the nearest reachable cell is the start itself.
        assert_eq!(path.cells, vec![Point::new(0, 0)], "{algorithm:?}");
    }
}
