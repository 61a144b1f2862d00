//! The `gridpath scen` command on hostile and mismatched files: exit 2 with one short, escaped,
//! line-numbered message for bad input, exit 1 only for a real mismatch.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A file in a folder of its own: the tests run in parallel.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("gridpath-cli-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}

const OK_MAP: &[u8] = b"type octile\nheight 1\nwidth 3\nmap\n..@\n";
const OK_SCEN: &[u8] = b"version 1\n0\tok.map\t3\t1\t0\t0\t1\t0\t1.00000000\n";

/// Runs `gridpath scen MAP SCEN`: the exit code and what it printed, both streams.
fn scen(map: &[u8], scen: &[u8]) -> (i32, String) {
    let (map, scen) = (temp_file("m.map", map), temp_file("s.scen", scen));
    let out = Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .arg("scen")
        .args([&map, &scen])
        .output()
        .expect("run gridpath");
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text.into_owned())
}

/// Bad input: exit 2, and one short printable line that names `where_` and says `what`.
fn refused(map: &[u8], scen_text: &[u8], where_: &str, what: &str) {
    let (code, text) = scen(map, scen_text);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains(where_) && text.contains(what), "{text}");
    assert_eq!(text.trim_end().lines().count(), 1, "{text}");
    assert!(text.len() < 200, "{text}");
    assert!(!text.trim_end().chars().any(char::is_control), "{text:?}");
}

#[test]
fn hostile_maps_are_bad_input() {
    let huge = b"type octile\r\nheight 1\r\nwidth 67108864\r\nmap\r\n";
    refused(huge, OK_SCEN, "m.map:4:", "67108864 cells");
    let mut long = b"type ".to_vec();
    long.extend(std::iter::repeat_n(b'x', 1_000_000));
    refused(&long, OK_SCEN, "m.map:1:", "(1000000 characters)");
    refused(b"type octile\rheight 1\r", OK_SCEN, "m.map:1:", "bare CR");
    let ansi = b"type octile\nheight 1\nwidth 2\nmap\n.\x1b[31m\x00\n";
    refused(ansi, OK_SCEN, "m.map:5:", r"'.\u{1b}[31m\0'");
    refused(
        b"type octile\nheight 1\nwid\xffth 3\n",
        OK_SCEN,
        "m.map:3:4:",
        "0xff",
    );
    refused(b"type octile\nheight +1\n", OK_SCEN, "m.map:2:", "'+1'");
    let upper = b"type octile\nheight 1\nwidth 3\nmap\n..@\ncosts\nZ1@\n";
    refused(upper, OK_SCEN, "m.map:7:1:", "'Z' is not a cost");
}

#[test]
fn hostile_scenarios_are_bad_input() {
    let wrap = b"version 1\n0\tok.map\t3\t1\t4294967295\t0\t1\t0\t1.0\n";
    refused(
        OK_MAP,
        wrap,
        "s.scen:2:",
        "(4294967295, 0) is outside the 3×1 map",
    );
    let other_map = b"version 1\n0\tok.map\t9\t9\t0\t0\t1\t0\t1.0\n";
    refused(OK_MAP, other_map, "s.scen", "9×9 map");
    let wall = b"version 1\n0\tok.map\t3\t1\t0\t0\t2\t0\t2.0\n";
    refused(OK_MAP, wall, "scenario 1", "the goal (2, 0) is a wall");
    refused(
        OK_MAP,
        b"version 1\n0\tok.map\t3\t1\t+1\t0\t0\t0\t1\n",
        "s.scen:2:",
        "'+1'",
    );
}

#[test]
fn good_files_pass_and_a_real_mismatch_exits_1() {
    let bom = [b"\xef\xbb\xbf".as_slice(), OK_MAP].concat();
    let (code, text) = scen(&bom, OK_SCEN);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.starts_with("scenarios: 1, optimal: 1, mismatched: 0"),
        "{text}"
    );
    let (code, text) = scen(OK_MAP, b"version 1\n");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("total_ms: 0.000,"), "{text}");
    let wrong = b"version 1\n0\tok.map\t3\t1\t0\t0\t1\t0\t5.0\n";
    let (code, text) = scen(OK_MAP, wrong);
    assert_eq!(code, 1, "{text}");
    assert!(text.starts_with("mismatch: scenario 1"), "{text}");
}

/// Runs `gridpath` with these arguments: the exit code and both streams.
fn gridpath(args: &[&std::ffi::OsStr]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .args(args)
        .output()
        .expect("run gridpath");
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text.into_owned())
}

const ROOMS: &[u8] = b"type octile\nheight 4\nwidth 6\nmap\n......\n.@..@.\n......\n..@...\n";

/// `gridpath mapf` solves, writes the field's result format, and `mapf-check` agrees; a plan
/// with a planted swap, or a result file that is not one, is refused in one line.
#[test]
fn mapf_solves_and_mapf_check_judges() {
    let map = temp_file("rooms.map", ROOMS);
    let out = map.with_file_name("plan.txt");
    let (map_arg, out_arg) = (map.as_os_str(), out.as_os_str());
    for solver in ["lacam", "pibt"] {
        let (code, text) = gridpath(&[
            "mapf".as_ref(),
            map_arg,
            "--random".as_ref(),
            "6".as_ref(),
            "--seed".as_ref(),
            "3".as_ref(),
            "--solver".as_ref(),
            solver.as_ref(),
            "--output".as_ref(),
            out_arg,
        ]);
        assert_eq!(code, 0, "{text}");
        assert!(text.starts_with("solved=1 soc="), "{text}");
        let (code, text) = gridpath(&["mapf-check".as_ref(), map_arg, out_arg]);
        assert_eq!(code, 0, "{text}");
        assert!(text.starts_with("valid: agents=6"), "{text}");
    }
    // Two agents trade places: a valid-looking file, an invalid plan (exit 1).
    let swap = b"agents=2\nstarts=(0,0),(1,0),\ngoals=(1,0),(0,0),\nsolution=\n0:(0,0),(1,0),\n1:(1,0),(0,0),\n";
    let bad = temp_file("swap.txt", swap);
    let (code, text) = gridpath(&["mapf-check".as_ref(), map_arg, bad.as_os_str()]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("swap"), "{text}");
    // A claim the plan does not bear out.
    let claim = b"soc=5\nstarts=(0,0),\ngoals=(1,0),\nsolution=\n0:(0,0),\n1:(1,0),\n2:(1,0),\n";
    let (code, text) = gridpath(&[
        "mapf-check".as_ref(),
        map_arg,
        temp_file("c.txt", claim).as_os_str(),
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("soc=5, the plan costs 1"), "{text}");
    // Not a result file at all: bad input, one line naming the line.
    for (bytes, what) in [
        (&b"\x1b[31m\n"[..], ":1: expected key=value"),
        (
            b"starts=(0,0),\nsolution=\n0:(0,0),\n5:(1,0),\n",
            ":4: expected time step 1",
        ),
        (b"starts=(0,0),(9\n", ":1: expected (x,y)"),
        (b"agents=1\n", "no 'solution=' line"),
        (b"\xff\xfe", "not UTF-8"),
    ] {
        let (code, text) = gridpath(&[
            "mapf-check".as_ref(),
            map_arg,
            temp_file("r.txt", bytes).as_os_str(),
        ]);
        assert_eq!(code, 2, "{text}");
        assert!(text.contains(what), "{what}: {text}");
        assert_eq!(text.trim_end().lines().count(), 1, "{text}");
        assert!(!text.trim_end().chars().any(char::is_control), "{text:?}");
    }
    // More agents than the map has room for, and a bad solver: bad input.
    let (code, text) = gridpath(&["mapf".as_ref(), map_arg, "--random".as_ref(), "99".as_ref()]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("only 21 can be placed"), "{text}");
}

/// On a hex map (its type line says so) `gridpath mapf` plans the six hex moves, and
/// `mapf-check` judges them by the same map's neighbours: the same plan on the map read as
/// squares steps between cells that do not touch.
#[test]
fn mapf_on_a_hex_map_moves_to_the_six_neighbours() {
    let hex = b"type hex-row-odd\nheight 5\nwidth 8\nmap\n........\n.@@..@@.\n........\n..@@@...\n........\n";
    let map = temp_file("hexes.map", hex);
    let out = map.with_file_name("hex-plan.txt");
    let (map_arg, out_arg) = (map.as_os_str(), out.as_os_str());
    let (code, text) = gridpath(&[
        "mapf".as_ref(),
        map_arg,
        "--random".as_ref(),
        "12".as_ref(),
        "--time-limit".as_ref(),
        "5".as_ref(),
        "--first".as_ref(), // the same plan on every run
        "--output".as_ref(),
        out_arg,
    ]);
    assert_eq!(code, 0, "{text}");
    let (code, text) = gridpath(&["mapf-check".as_ref(), map_arg, out_arg]);
    assert_eq!(code, 0, "{text}");
    assert!(text.starts_with("valid: agents=12"), "{text}");
    let squares = String::from_utf8_lossy(hex).replace("hex-row-odd", "octile");
    let squares = temp_file("squares.map", squares.as_bytes());
    let (code, text) = gridpath(&["mapf-check".as_ref(), squares.as_os_str(), out_arg]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("not a move to a neighbour"), "{text}");
}

/// Every command answers `--help` (exit 0, its usage), and a bad argument gets one line that
/// names it (exit 2).
#[test]
fn every_command_answers_help_and_names_a_bad_argument() {
    for command in [
        "scen",
        "mapf",
        "mapf-check",
        "lifelong",
        "route",
        "range",
        "fov",
    ] {
        let (code, text) = gridpath(&[command.as_ref(), "--help".as_ref()]);
        assert_eq!(code, 0, "{text}");
        assert!(
            text.contains(&format!("Usage: gridpath {command} ")),
            "{text}"
        );
    }
    let map = temp_file("rooms.map", ROOMS);
    for (args, named) in [
        (
            &["mapf", "--random", "3", "--solver", "cbs"][..],
            "--solver",
        ),
        (&["mapf", "--random", "0"], "--random"),
        (&["mapf", "--random", "3", "--seed", "-1"], "--seed"),
        (
            &["mapf", "--random", "3", "--time-limit", "never"],
            "--time-limit",
        ),
        (&["mapf", "--random", "3", "--first"], "--time-limit"),
        (&["mapf"], "--agents"),
        (&["mapf", "s.scen"], "--agents"),
        (&["scen", "s.scen", "--algo", "a*"], "--algo"),
        (&["scen", "s.scen", "--moves", "six"], "--moves"),
        (&["mapf-check", "r.txt", "s.scen"], "<N>"),
        (&["lifelong", "--steps", "ten"], "--steps"),
        (&["route", "0,0", "9"], "<TO>"),
        (&["route", "0,0", "1,0", "--algo", "a*"], "--algo"),
        (&["range", "1;1", "3"], "<FROM>"),
        (&["range", "0,0", "three"], "<BUDGET>"),
        (&["range", "0,0", "3", "--enemy", "x"], "--enemy"),
        (&["fov", "0,0", "-1"], "-1"),
        (&["teleport"], "teleport"),
    ] {
        let mut all = vec![std::ffi::OsStr::new(args[0])];
        if args[0] != "teleport" {
            all.push(map.as_os_str());
        }
        all.extend(args[1..].iter().map(std::ffi::OsStr::new));
        let (code, text) = gridpath(&all);
        assert_eq!(code, 2, "{args:?}: {text}");
        assert!(text.contains(named), "{args:?}: {text}");
        assert_eq!(text.trim_end().lines().count(), 1, "{args:?}: {text}");
    }
}

/// `gridpath range` prints every cell within the budget with its cost, sorted, a wall's zone of
/// control ends moves; `gridpath fov` prints what is seen; a unit on a wall or off the map, or a
/// negative budget, is bad input in one line.
#[test]
fn range_and_fov_print_one_cell_a_line() {
    let map = temp_file("rooms.map", ROOMS);
    let run = |args: &[&str]| {
        let mut all = vec![std::ffi::OsStr::new(args[0]), map.as_os_str()];
        all.extend(args[1..].iter().map(std::ffi::OsStr::new));
        gridpath(&all)
    };
    let (code, text) = run(&["range", "0,0", "2", "--moves", "four"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(text, "0,0 0\n1,0 1\n2,0 2\n0,1 1\n0,2 2\n");
    // An enemy at (3, 0): its cell is closed, and (2, 0) beside it ends the move.
    let (code, text) = run(&["range", "0,0", "4", "--moves", "four", "--enemy", "3,0"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("2,0 2\n") && !text.contains("3,0") && !text.contains("2,1 3"));
    // Row 1 is `.@..@.`: from (1, 0) the wall at (1, 1) is seen, and hides (1, 2) behind it.
    let (code, text) = run(&["fov", "1,0", "3"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("1,1\n") && !text.contains("1,2\n"), "{text}");
    for (args, what) in [
        (&["range", "1,1", "3"][..], "wall"),
        (&["fov", "9,0", "3"], "off the"),
        (&["range", "0,0", "--", "-2"], "budget"),
    ] {
        let (code, text) = run(args);
        assert_eq!(code, 2, "{args:?}: {text}");
        assert!(text.contains(what), "{args:?}: {text}");
        assert_eq!(text.trim_end().lines().count(), 1, "{args:?}: {text}");
    }
}

/// `gridpath route MAP ARGS...`.
fn route_on(map: &std::path::Path, args: &[&OsStr]) -> (i32, String) {
    let mut all = vec!["route".as_ref(), map.as_os_str()];
    all.extend(args);
    gridpath(&all)
}

/// A command-line word.
fn os(s: &'static str) -> &'static OsStr {
    OsStr::new(s)
}

/// The last lines of a bad-input run: exit 2, one line that says `said`.
fn refused_in_one_line((code, text): (i32, String), said: &str) {
    assert_eq!(code, 2, "{text}");
    assert!(text.contains(said), "{text}");
    assert_eq!(text.trim_end().lines().count(), 1, "{text}");
}

/// `gridpath route` prints the cost and length for a unit class, or `no_path` with the reason
/// (exit 1); a bad class file names its line, a point off the map is bad input (exit 2).
#[test]
fn route_for_a_unit_class() {
    // Water across the middle row but for one ford of swamp at the right.
    let map = temp_file(
        "river.map",
        b"type octile\nheight 4\nwidth 5\nmap\n.....\nWWWWS\n.....\n@....\n",
    );
    let soldier = temp_file("soldier.txt", b"# a soldier\n. 1\nS 3\nW no\n");
    let boat = temp_file("boat.txt", b"W 1\n. no\nS no\n");
    let bad = temp_file("bad.txt", b". 1\nS three\n");
    let output = std::env::temp_dir().join(format!("gridpath-route-{}.txt", std::process::id()));
    let run = |args: &[&OsStr]| route_on(&map, args);
    let (code, text) = run(&[
        os("0,0"),
        os("0,2"),
        os("--class"),
        soldier.as_os_str(),
        os("--moves"),
        os("four"),
        os("--output"),
        output.as_os_str(),
    ]);
    assert_eq!(
        (code, text.as_str()),
        (0, "cost=12 length=10\n"),
        "by the ford, which costs 3"
    );
    let written = std::fs::read_to_string(&output).expect("the route file");
    assert_eq!(written.lines().count(), 11);
    assert!(written.contains("4,1\n"), "{written}");
    // Without a class, the benchmark's unit: water only from water, so no way across.
    let (code, text) = run(&[os("0,0"), os("1,2"), os("--moves"), os("four")]);
    assert_eq!(
        (code, text.as_str()),
        (0, "cost=9 length=9\n"),
        "swamp is ground"
    );
    assert_eq!(
        run(&[os("0,1"), os("3,1"), os("--class"), boat.as_os_str()]).1,
        "cost=3 length=3\n"
    );
    for (args, said) in [
        (
            &[os("0,0"), os("0,1"), os("--class"), soldier.as_os_str()][..],
            "no_path reason=goal_closed\n",
        ),
        (
            &[os("0,1"), os("0,0"), os("--class"), soldier.as_os_str()],
            "no_path reason=start_closed\n",
        ),
        (&[os("0,0"), os("0,3")], "no_path reason=goal_on_wall\n"),
        (&[os("0,1"), os("0,0")], "no_path reason=goal_closed\n"),
    ] {
        let (code, text) = run(args);
        assert_eq!((code, text.as_str()), (1, said), "{args:?}");
    }
    for (args, said) in [
        (
            &[os("0,0"), os("0,2"), os("--class"), bad.as_os_str()][..],
            "bad.txt:2: 'three' is not a cost",
        ),
        (
            &[os("0,0"), os("9,9")],
            "the goal (9, 9) is off the 5×4 map",
        ),
    ] {
        refused_in_one_line(run(args), said);
    }
}

/// `gridpath route --links`: two floors side by side, joined by stairs; a one-way drop is
/// taken one way only; a bad links file names its line.
#[test]
fn route_with_links() {
    // Two floors of 3 × 3, a wall between them.
    let map = temp_file(
        "floors.map",
        b"type octile\nheight 3\nwidth 7\nmap\n...@...\n...@...\n...@...\n",
    );
    let stairs = temp_file("stairs.txt", b"# stairs up\n1,1 5,1 4\n");
    let drop = temp_file("drop.txt", b"2,2 4,2 1 oneway\n");
    let bad = temp_file("badlinks.txt", b"1,1 5,1 4\n1,1 9,9 1\n");
    let output = std::env::temp_dir().join(format!("gridpath-links-{}.txt", std::process::id()));
    let run = |args: &[&OsStr]| route_on(&map, args);
    let (code, text) = run(&[
        os("0,1"),
        os("6,1"),
        os("--links"),
        stairs.as_os_str(),
        os("--output"),
        output.as_os_str(),
    ]);
    assert_eq!((code, text.as_str()), (0, "cost=6 length=3\n"));
    let written = std::fs::read_to_string(&output).expect("the route file");
    assert_eq!(
        written, "0,1\n1,1\n5,1\n6,1\n",
        "the stairs' two cells one after the other"
    );
    let (code, text) = run(&[os("6,1"), os("0,1"), os("--links"), stairs.as_os_str()]);
    assert_eq!(
        (code, text.as_str()),
        (0, "cost=6 length=3\n"),
        "down the stairs"
    );
    assert_eq!(
        run(&[os("0,2"), os("6,2"), os("--links"), drop.as_os_str()]).1,
        "cost=5 length=5\n"
    );
    assert_eq!(
        run(&[os("6,2"), os("0,2"), os("--links"), drop.as_os_str()]),
        (1, "no_path reason=unreachable\n".to_owned()),
        "no way back up a drop"
    );
    assert_eq!(
        run(&[os("0,1"), os("6,1")]),
        (1, "no_path reason=unreachable\n".to_owned()),
        "without the stairs"
    );
    for (args, said) in [
        (
            &[os("0,1"), os("6,1"), os("--links"), bad.as_os_str()][..],
            "badlinks.txt:2: (9, 9) is off the 7×3 map",
        ),
        (
            &[
                os("0,1"),
                os("6,1"),
                os("--links"),
                stairs.as_os_str(),
                os("--algo"),
                os("jps"),
            ],
            "never take a link (use A*)",
        ),
    ] {
        refused_in_one_line(run(args), said);
    }
}

/// A reader that stops taking the output (`gridpath … | head`): the command ends with success
/// and without a panic's message. (If the command writes before the reader goes, this passes
/// without testing anything; it cannot fail for that reason.)
#[test]
fn a_closed_output_ends_the_command_quietly() {
    for args in [&["--help"][..], &["mapf", "--help"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridpath"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run gridpath");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("gridpath ends");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {said}", out.status);
        assert!(said.is_empty(), "{args:?}: {said}");
    }
}
