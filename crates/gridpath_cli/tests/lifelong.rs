//! `gridpath lifelong` on the lifelong benchmark's format: gridpath's small real instance (see
//! `crates/gridpath/tests/fixtures/lifelong/README.md`), and good and bad files.

use gridpath::mapf::parse_result;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../gridpath/tests/fixtures/lifelong/sortation_small_0_100.json"
);

/// A copy of the fixture's folder with some files replaced, for the command to read.
fn fixture_with(changes: &[(&str, &str)]) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("gridpath-lifelong-{}-{n}", std::process::id()));
    let from = Path::new(FIXTURE).parent().expect("a folder");
    for sub in ["maps", "agents", "tasks"] {
        std::fs::create_dir_all(dir.join(sub)).expect("a folder");
        for entry in std::fs::read_dir(from.join(sub)).expect("the fixture") {
            let entry = entry.expect("a file");
            std::fs::copy(entry.path(), dir.join(sub).join(entry.file_name())).expect("copied");
        }
    }
    std::fs::copy(FIXTURE, dir.join("config.json")).expect("copied");
    for (name, text) in changes {
        std::fs::write(dir.join(name), text).expect("written");
    }
    dir.join("config.json")
}

fn gridpath(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .args(args)
        .output()
        .expect("run gridpath");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

#[test]
fn the_command_prints_one_line_and_writes_a_result_any_replayer_reads() {
    let config = fixture_with(&[]);
    let output = config.with_file_name("run.txt");
    let out_arg = output.to_string_lossy().into_owned();
    let config_arg = config.to_string_lossy().into_owned();
    let (code, stdout, stderr) = gridpath(&[
        "lifelong",
        &config_arg,
        "--steps",
        "40",
        "--output",
        &out_arg,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    for key in [
        "tasks_finished=",
        "ms_per_step_mean=",
        "ms_per_step_p99=",
        "starved=",
    ] {
        assert!(stdout.contains(key), "{stdout}");
    }
    let text = std::fs::read_to_string(&output).expect("the result file");
    assert!(text.contains("\ntasks_finished="));
    let result = parse_result(&text).expect("the field's format");
    assert_eq!(result.plan.len(), 41, "steps 0 to 40");
    assert_eq!(result.starts.len(), 100);
    assert_eq!(result.plan[0], result.starts);
    // Any validator replays it: ours checks its moves (its goals changed as they were reached).
    let map = Path::new(FIXTURE).with_file_name("maps/sortation_small.map");
    let (code, stdout, stderr) = gridpath(&["mapf-check", &map.to_string_lossy(), &out_arg]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.starts_with("valid: a lifelong run, agents=100 steps=40"),
        "{stdout}"
    );
}

#[test]
fn bad_files_get_one_line_that_says_what_is_wrong() {
    let one = r#"{"mapFile": "maps/sortation_small.map", "agentFile": "agents/one.agents",
        "teamSize": 1, "taskFile": "tasks/sortation_small_0.task"}"#;
    let cases: [(&[(&str, &str)], &str); 7] = [
        (&[("config.json", "{\"mapFile\": ")], "config.json"),
        (
            &[(
                "config.json",
                "{\"mapFile\": \"maps/nope.map\", \"agentFile\": \"a\", \"taskFile\": \"t\"}",
            )],
            "nope.map",
        ),
        (
            &[("config.json", one), ("agents/one.agents", "1\n0\n")],
            "starts on a wall",
        ),
        (
            &[("agents/sortation_small_0_100.agents", "1\n60\n")],
            "teamSize is 100",
        ),
        (
            &[("agents/sortation_small_0_100.agents", "2\n4\n")],
            "promises 2",
        ),
        (
            &[("tasks/sortation_small_0.task", "1\n99999\n")],
            "off the 57×33 map",
        ),
        (
            &[("tasks/sortation_small_0.task", "1\nseven\n")],
            "expected a cell number",
        ),
    ];
    for (changes, said) in cases {
        let config = fixture_with(changes);
        let (code, stdout, stderr) = gridpath(&["lifelong", &config.to_string_lossy()]);
        assert_eq!(code, 2, "{changes:?}: {stdout}{stderr}");
        assert!(stderr.contains(said), "{changes:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    }
    for (flag, value) in [
        ("--steps", "0"),
        ("--focal", "0.5"),
        ("--focal", "much"),
        ("--focal-slack", "-1"),
        ("--strays", "wander"),
    ] {
        let (code, _, stderr) = gridpath(&["lifelong", FIXTURE, flag, value]);
        assert_eq!(code, 2, "{flag} {value}");
        assert!(stderr.contains(flag), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    }
}
