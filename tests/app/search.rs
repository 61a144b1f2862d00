//! Seeing the search: algorithm settings, step mode, the comparison table, optimality.

use super::*;
use bevy::prelude::*;
use gridpath::jump_distances::Update;
use gridpath::{Algorithm, Heuristic, Search, SearchConfig, Step, TraceEvent};
use pathfinder_playground::planner::compare::{CompareCommand, Comparison};
use pathfinder_playground::planner::shown::{ShownSearch, ShownSource};
use pathfinder_playground::planner::stepping::{MAX_PER_FRAME, StepCommand, Stepper};
use pathfinder_playground::planner::{Optimality, PlannerMode};

const TRAP: [&str; 9] = [
    "............",
    "............",
    "...#####....",
    ".......#....",
    ".......#....",
    ".......#....",
    "...#####....",
    "............",
    "............",
];

fn settings(app: &mut App) -> Mut<'_, PlannerSettings> {
    app.world_mut().resource_mut::<PlannerSettings>()
}

fn step_command(app: &mut App, command: StepCommand) {
    app.world_mut().write_message(command);
    app.update();
}

#[test]
fn changing_the_algorithm_replans_with_it_at_once() {
    let mut app = app_on(&TRAP, (0, 4), (11, 4));
    let count = plan(&app).count;
    let astar_expanded = plan(&app).expanded;
    settings(&mut app).search.algorithm = Algorithm::Dijkstra;
    app.update();
    assert_eq!(
        plan(&app).count,
        count + 1,
        "a settings change must re-plan at once"
    );
    assert_eq!(plan(&app).algorithm, Algorithm::Dijkstra);
    assert!(plan(&app).expanded > astar_expanded);
    let shown = app.world().resource::<ShownSearch>();
    assert_eq!(shown.source, ShownSource::Live);
    assert_eq!(shown.explored.len(), plan(&app).expanded);
}

#[test]
fn a_non_optimal_path_is_called_out_against_dijkstra() {
    let mut app = app_on(&TRAP, (0, 4), (11, 4));
    assert_eq!(plan(&app).optimality, Optimality::Guaranteed);
    settings(&mut app).search.algorithm = Algorithm::GreedyBestFirst;
    app.update();
    assert!(
        matches!(plan(&app).optimality, Optimality::Worse { optimal } if optimal < plan(&app).cost)
    );
    // A* with Manhattan in 8-way is not guaranteed: it is checked.
    settings(&mut app).search.algorithm = Algorithm::AStar;
    settings(&mut app).search.heuristic = Heuristic::Manhattan;
    app.update();
    assert!(matches!(
        plan(&app).optimality,
        Optimality::Confirmed | Optimality::Worse { .. }
    ));
}

#[test]
fn stepping_n_times_expands_exactly_n_cells_in_the_cores_order() {
    let mut app = app_on(&TRAP, (0, 4), (11, 4));
    let before = plan(&app).count;
    step_command(&mut app, StepCommand::Enter);
    assert_eq!(
        *app.world().resource::<State<PlannerMode>>().get(),
        PlannerMode::Stepping
    );
    step_command(&mut app, StepCommand::Step(1));
    step_command(&mut app, StepCommand::Step(7));
    assert_eq!(app.world().resource::<Stepper>().search.expanded(), 8);
    // The same query, stepped directly in the core, expands the same cells in the same order.
    let grid = Grid::from_ascii(&TRAP).expect("grid");
    let mut reference = Search::new();
    let config = SearchConfig {
        record_trace: true,
        ..SearchConfig::default()
    };
    reference
        .begin(&grid, Point::new(0, 4), Point::new(11, 4), &config)
        .expect("valid");
    let order: Vec<Point> = (0..8)
        .map(|_| match reference.step(&grid) {
            Step::Expanded(p) => p,
            Step::Finished(s) => panic!("finished early: {s:?}"),
        })
        .collect();
    let shown = app.world().resource::<ShownSearch>();
    let shown_order: Vec<Point> = shown.explored.iter().map(|(p, _)| *p).collect();
    assert_eq!(shown_order, order);
    assert_eq!(shown.current, order.last().copied());
    let open_in_core = reference
        .trace()
        .iter()
        .filter(|e| matches!(e, TraceEvent::Opened(_)))
        .count();
    assert_eq!(
        shown.frontier.len() + shown.explored.len(),
        open_in_core,
        "every opened cell is open or closed"
    );
    // The live planner is paused meanwhile.
    run_for(&mut app, 2.0);
    assert_eq!(plan(&app).count, before);
    assert_eq!(app.world().resource::<Stepper>().search.expanded(), 8);
    // Back to live: it plans again.
    step_command(&mut app, StepCommand::Exit);
    assert!(plan(&app).count > before);
}

#[test]
fn playing_advances_at_the_chosen_speed_and_stops_at_the_goal() {
    let mut app = app_on(&TRAP, (0, 4), (11, 4));
    step_command(&mut app, StepCommand::Enter);
    app.world_mut().resource_mut::<Stepper>().speed = 20.0;
    step_command(&mut app, StepCommand::Play);
    run_for(&mut app, 1.0); // 20 cells per second
    let expanded = app.world().resource::<Stepper>().search.expanded();
    assert!((19..=22).contains(&expanded), "{expanded}");
    step_command(&mut app, StepCommand::RunToEnd);
    run_for(&mut app, 0.5);
    let stepper = app.world().resource::<Stepper>();
    assert_eq!(stepper.status(), gridpath::SearchStatus::Found);
    assert!(!stepper.playing);
    assert_eq!(
        app.world().resource::<ShownSearch>().path.last(),
        Some(&Point::new(11, 4))
    );
}

#[test]
fn moving_a_marker_while_stepping_restarts_the_search() {
    let mut app = app_on(&TRAP, (0, 4), (11, 4));
    step_command(&mut app, StepCommand::Enter);
    step_command(&mut app, StepCommand::Step(5));
    let (from, to) = (world_pos(&app, (11, 4)), world_pos(&app, (10, 8)));
    drag(&mut app, from, to);
    let stepper = app.world().resource::<Stepper>();
    assert_eq!(
        stepper.search.expanded(),
        0,
        "a new query starts from nothing"
    );
    assert_eq!(stepper.search.target(), Some(Point::new(10, 8)));
    assert!(app.world().resource::<ShownSearch>().explored.is_empty());
}

#[test]
fn stepping_a_big_map_never_stalls_a_frame() {
    let rows: Vec<String> = (0..512).map(|_| ".".repeat(512)).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut app = app_on(&rows, (0, 0), (511, 511));
    settings(&mut app).search.algorithm = Algorithm::Dijkstra; // expands nearly every cell
    app.update();
    step_command(&mut app, StepCommand::Enter);
    app.world_mut().write_message(StepCommand::RunToEnd);
    let mut last = 0;
    for _ in 0..20 {
        app.update();
        let now = app.world().resource::<Stepper>().search.expanded();
        assert!(
            now - last <= MAX_PER_FRAME,
            "{} cells in one frame",
            now - last
        );
        last = now;
    }
    assert!(
        last >= 20 * MAX_PER_FRAME - MAX_PER_FRAME,
        "the run made progress: {last}"
    );
}

#[test]
fn the_comparison_has_one_row_per_algorithm_and_the_optimal_ones_agree() {
    let mut app = app_on(&TRAP, (0, 4), (11, 4));
    app.world_mut().write_message(CompareCommand::Run);
    app.update();
    let comparison = app.world().resource::<Comparison>();
    assert_eq!(comparison.rows.len(), Algorithm::ALL.len());
    let rows: Vec<_> = comparison.rows.iter().map(|r| r.algorithm).collect();
    assert_eq!(rows, Algorithm::ALL);
    let cost = |a: Algorithm| {
        comparison
            .rows
            .iter()
            .find(|r| r.algorithm == a)
            .and_then(|r| r.result.as_ref().ok())
            .and_then(|r| r.cost)
    };
    let best = cost(Algorithm::Dijkstra).expect("a path");
    for a in Algorithm::ALL.into_iter().filter(|a| a.is_optimal()) {
        assert!((cost(a).expect("a path") - best).abs() < 1e-9, "{a:?}");
    }
    let greedy = comparison
        .rows
        .iter()
        .find(|r| r.algorithm == Algorithm::GreedyBestFirst)
        .expect("row");
    assert!(
        !greedy.result.as_ref().expect("ran").optimal,
        "greedy walks into the trap"
    );
    // Selecting a row shows that algorithm's search.
    app.world_mut()
        .write_message(CompareCommand::Select(Some(3)));
    app.update();
    let shown = app.world().resource::<ShownSearch>();
    assert_eq!(
        shown.source,
        ShownSource::Compare(Algorithm::GreedyBestFirst)
    );
    assert!(!shown.explored.is_empty());
    // It stays on screen through live re-plans...
    run_for(&mut app, 1.0);
    assert_eq!(
        app.world().resource::<ShownSearch>().source,
        ShownSource::Compare(Algorithm::GreedyBestFirst)
    );
    // ...until the query changes, which clears the stale table.
    set_marker::<pathfinder_playground::world::markers::Goal>(&mut app, (11, 0));
    app.update();
    app.update();
    assert!(app.world().resource::<Comparison>().rows.is_empty());
    assert_eq!(
        app.world().resource::<ShownSearch>().source,
        ShownSource::Live
    );
}

#[test]
fn selecting_a_row_that_did_not_apply_shows_nothing_stale() {
    let mut app = app_on(&TRAP, (0, 4), (11, 4));
    app.world_mut().write_message(CompareCommand::Run);
    app.update();
    // Now terrain: jump point search no longer applies, and a new comparison says so.
    set_marker::<pathfinder_playground::world::markers::Goal>(&mut app, (11, 3));
    app.update();
    set_ground(&mut app, (0, 0), 5);
    app.world_mut().write_message(CompareCommand::Run);
    app.update();
    let comparison = app.world().resource::<Comparison>();
    let jps = comparison
        .rows
        .iter()
        .position(|r| r.algorithm == Algorithm::JumpPoint)
        .expect("row");
    assert!(comparison.rows[jps].result.is_err());
    app.world_mut()
        .write_message(CompareCommand::Select(Some(jps)));
    app.update();
    let shown = app.world().resource::<ShownSearch>();
    assert!(
        shown.explored.is_empty() && shown.path.is_empty(),
        "a stale search is on screen"
    );
}

#[test]
fn jump_point_search_on_terrain_says_why_it_does_not_apply() {
    let rows = [
        "....5.....",
        "..........",
        "..........",
        "..........",
        "..........",
    ];
    let mut app = app_on(&rows, (0, 0), (9, 4));
    settings(&mut app).search.algorithm = Algorithm::JumpPoint;
    app.update();
    assert!(
        matches!(&plan(&app).status, PlanStatus::Refused(why) if why.contains("terrain")),
        "{:?}",
        plan(&app).status
    );
    assert!(app.world().resource::<ShownSearch>().path.is_empty());
}

#[test]
fn the_shown_search_is_read_again_only_when_its_search_changes() {
    let mut app = app_on(&TRAP, (0, 4), (11, 4));
    let revision = |app: &App| app.world().resource::<ShownSearch>().revision;
    let before = revision(&app);
    run_for(&mut app, 0.5); // no re-plan due: nothing to read again
    assert_eq!(revision(&app), before);
    run_for(&mut app, 0.5); // the timer fires: one new plan, read once
    assert_eq!(revision(&app), before + 1);
}

/// JPS+ makes its table once, repairs it after a wall is painted, and says so beside the plan;
/// its path is still the optimal one.
#[test]
fn jps_plus_repairs_its_table_after_an_edit() {
    let mut app = app_on(&TRAP, (0, 4), (11, 4));
    settings(&mut app).search.algorithm = Algorithm::JumpPointPlus;
    app.update();
    let first = plan(&app).clone();
    assert_eq!(first.status, PlanStatus::Found);
    let table = first.table.expect("JPS+ reports its table");
    assert_eq!(table.update, Update::Rebuilt);
    // A re-plan on the same walls has nothing to do, and keeps showing how the table was made.
    replan_now(&mut app);
    assert_eq!(plan(&app).table.map(|t| t.update), Some(Update::Rebuilt));

    spawn_wall(&mut app, (0, 0));
    replan_now(&mut app);
    let after = plan(&app);
    assert!(
        matches!(
            after.table.map(|t| t.update),
            Some(Update::Repaired { changes: 1, .. })
        ),
        "{:?}",
        after.table
    );
    let said = after.table.map(|t| t.to_string()).unwrap_or_default();
    assert!(said.starts_with("repaired after 1 wall change ("), "{said}");
    // The same cost as A* on the edited map.
    settings(&mut app).search.algorithm = Algorithm::AStar;
    app.update();
    assert!((plan(&app).cost - first.cost).abs() < 1e-9);
}
