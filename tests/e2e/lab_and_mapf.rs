//! The graph lab and the multi-agent player, in the real window.

use crate::harness::App;
use std::time::Duration;

const A_FEW_SECONDS: Duration = Duration::from_secs(20);

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn the_graph_lab_runs_romania_to_the_end_where_a_star_expands_bucharest_at_418() {
    let (mut app, state) = App::launch_with_path("graph-lab");
    assert!(!state.lab_open);
    app.click(state.widget("lab_toggle"));
    let state = app.wait_until("the graph lab's window", A_FEW_SECONDS, |s| {
        s.lab_open && s.widgets.contains_key("lab_run")
    });
    app.click(state.widget("lab_romania"));
    app.click(state.widget("lab_astar"));
    app.settle();
    let state = app.state().expect("the hook");
    app.click(state.widget("lab_run"));
    let state = app.wait_until("the trace to its end", A_FEW_SECONDS, |s| s.lab_rows > 0);
    app.screenshot("romania-run");
    // The textbook's last step: Bucharest expanded with g = 418 (not the 450 it first had).
    let last = &state.lab_last;
    assert!(last.contains("Bucharest") && last.contains("418"), "{last}");
    assert!(!last.contains("450"), "{last}");
    // By hand: "the search stops" before anything is expanded is marked wrong.
    app.click(state.widget("lab_by_hand"));
    let state = app.wait_until("the by-hand questions", A_FEW_SECONDS, |s| {
        s.hand == Some((0, 0)) && s.widgets.contains_key("lab_stop")
    });
    app.click(state.widget("lab_stop"));
    app.wait_until("the answer marked", A_FEW_SECONDS, |s| {
        s.hand == Some((0, 1))
    });
    app.screenshot("by-hand");
}

#[test]
#[ignore = "needs an X display: run under xvfb-run (see tests/e2e/main.rs)"]
fn a_multi_agent_plan_plays_and_pauses() {
    let mut app = App::launch(
        "mapf-play",
        &["--map", "random-32-32-10", "--mapf", "100:scen"],
    );
    // The first plan plays at once while LaCAM goes on improving it (10 s at most); with the
    // solver on one of two cores and the frames drawn in software, the frames are slow until
    // it ends, so the time-line is tried after.
    let state = app.wait_until("the plan to play, improved", Duration::from_secs(60), |s| {
        s.mapf.is_some_and(|(_, time, _)| time > 1.0)
            && !s.mapf_solving
            && s.widgets.contains_key("mapf_play")
    });
    let (agents, _, last) = state.mapf.unwrap_or_default();
    assert_eq!(agents, 100);
    assert!(
        last >= 53,
        "the benchmark's lower bound is 53 steps: {last}"
    );
    // The panel scrolls the section into view as the plan arrives: click where the button
    // has come to rest.
    let mut at = state.widget("mapf_play");
    for _ in 0..20 {
        app.settle();
        let now = app.state().map_or(at, |s| s.widget("mapf_play"));
        if now == at {
            break;
        }
        at = now;
    }
    app.click(at);
    app.settle();
    let paused = app.state().and_then(|s| s.mapf).unwrap_or_default().1;
    std::thread::sleep(Duration::from_millis(800));
    app.settle();
    let later = app.state().and_then(|s| s.mapf).unwrap_or_default().1;
    assert_eq!(paused, later, "the time-line kept running after Pause");
    app.screenshot("paused");
}
