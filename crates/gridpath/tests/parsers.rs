//! Property tests of the Moving AI parsers: no input makes them panic, every error is short and
//! printable and names a line that exists, and what `write_map` writes reads back the same.
//! (The fuzz targets in `fuzz/` push the same properties much further, on a nightly toolchain.)

use gridpath::Point;
use gridpath::mapf::{MapfResult, parse_result, write_result};
use gridpath::movingai::{parse_map, write_map};
use proptest::prelude::*;

mod common;
use common::arb_grid;
use common::map_case::check_map_bytes;
use common::result_case::check_result_bytes;
use common::scen_case::check_scen_bytes;

/// A valid map or scenario text with a few bytes replaced, inserted or deleted: random bytes
/// alone rarely get past the first line.
fn mutated(seed: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let edits = prop::collection::vec((any::<u16>(), 0u8..3, any::<u8>()), 0..6);
    edits.prop_map(move |edits| {
        let mut bytes = seed.as_bytes().to_vec();
        for (at, kind, byte) in edits {
            let at = usize::from(at) % (bytes.len() + 1);
            match kind {
                0 if at < bytes.len() => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => {}
            }
        }
        bytes
    })
}

const MAP: &str =
    "type octile\nheight 3\nwidth 4\nmap\n..@.\n.T..\nG..O\ncosts\n1a@1\n1@25\n11z@\n";
const SCEN: &str =
    "version 1\n0\tm.map\t4\t3\t0\t0\t3\t1\t3.41421356\n1\tm.map\t4\t3\t1\t0\t0\t2\t2.0\n";
const RESULT: &str = "agents=2\nmap_file=m.map\nsolver=x\nsolved=1\nsoc=3\nsoc_lb=3\n\
    makespan=2\nmakespan_lb=2\ncomp_time=1\nstarts=(0,0),(3,1),\ngoals=(1,1),(3,0),\n\
    solution=\n0:(0,0),(3,1),\n1:(1,0),(3,0),\n2:(1,1),(3,0),\n";

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_give_a_map_or_a_clean_error(
        bytes in prop_oneof![prop::collection::vec(any::<u8>(), 0..200), mutated(MAP)],
    ) {
        check_map_bytes(&bytes);
    }

    #[test]
    fn any_bytes_give_scenarios_or_a_clean_error(
        bytes in prop_oneof![prop::collection::vec(any::<u8>(), 0..200), mutated(SCEN)],
    ) {
        check_scen_bytes(&bytes);
    }

    /// A MAPF result file is hostile input too: a plan that writes back the same, or a clean
    /// one-line error (the fuzz target's own check).
    #[test]
    fn any_bytes_give_a_result_or_a_clean_error(
        bytes in prop_oneof![prop::collection::vec(any::<u8>(), 0..200), mutated(RESULT)],
    ) {
        check_result_bytes(&bytes);
    }

    #[test]
    fn a_written_result_reads_back(
        cells in prop::collection::vec(prop::collection::vec((0i32..500, 0i32..500), 3), 1..6),
        solved in any::<bool>(),
        soc in prop::option::of(0u64..1_000_000),
    ) {
        let points = |step: &Vec<(i32, i32)>| -> Vec<Point> {
            step.iter().map(|&(x, y)| Point::new(x, y)).collect()
        };
        let plan: Vec<Vec<Point>> = cells.iter().map(points).collect();
        let result = MapfResult {
            map_file: "m.map".into(),
            solver: "s".into(),
            solved,
            soc,
            comp_time: Some(12.0),
            starts: plan[0].clone(),
            goals: plan[plan.len() - 1].clone(),
            plan,
            ..MapfResult::default()
        };
        prop_assert_eq!(parse_result(&write_result(&result)), Ok(result));
    }

    #[test]
    fn what_is_written_reads_back(grid in arb_grid(20, true)) {
        prop_assert_eq!(parse_map(&write_map(&grid)), Ok(grid));
    }
}
