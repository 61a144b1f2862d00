//! Bidirectional searches in the app: live, stepped, and drawn with two frontiers.

use super::*;
use bevy::prelude::*;
use gridpath::bidirectional::Direction;
use gridpath::{Algorithm, NodeState};
use pathfinder_playground::planner::live::Planner;
use pathfinder_playground::planner::shown::ShownSearch;
use pathfinder_playground::planner::stepping::{StepCommand, Stepper};

const OPEN: [&str; 7] = [
    "....................",
    "....................",
    ".........#..........",
    ".........#..........",
    ".........#..........",
    "....................",
    "....................",
];

fn use_algorithm(app: &mut App, algorithm: Algorithm) {
    app.world_mut()
        .resource_mut::<PlannerSettings>()
        .search
        .algorithm = algorithm;
    app.update();
}

#[test]
fn bidirectional_astar_plans_live_at_the_optimal_cost_with_two_frontiers() {
    let mut app = app_on(&OPEN, (0, 3), (19, 3));
    let astar_cost = plan(&app).cost;
    use_algorithm(&mut app, Algorithm::BidirectionalAStar);
    assert_eq!(plan(&app).algorithm, Algorithm::BidirectionalAStar);
    assert!((plan(&app).cost - astar_cost).abs() < 1e-9);
    let planner = app.world().resource::<Planner>();
    let both = planner
        .shown()
        .and_then(|s| s.bidirectional())
        .expect("a bidirectional search on screen");
    let meeting = both.meeting().expect("they met");
    assert!(plan(&app).path.contains(&meeting));
    assert!(both.expanded_by(Direction::Forward) > 0 && both.expanded_by(Direction::Backward) > 0);
    // What is drawn: the explored cells of both sides, and frontier cells of each.
    let shown = app.world().resource::<ShownSearch>();
    assert_eq!(shown.explored.len(), plan(&app).expanded);
    let from_goal = shown
        .frontier
        .iter()
        .filter(|p| both.state(Direction::Backward, **p) == NodeState::Open)
        .count();
    assert!(from_goal > 0 && from_goal < shown.frontier.len());
}

#[test]
fn bidirectional_bfs_steps_one_cell_at_a_time() {
    let mut app = app_on(&OPEN, (0, 3), (19, 3));
    use_algorithm(&mut app, Algorithm::BidirectionalBreadthFirst);
    let moves = plan(&app).path.len() - 1;
    app.world_mut().write_message(StepCommand::Enter);
    app.update();
    app.world_mut().write_message(StepCommand::Step(6));
    app.update();
    let stepper = app.world().resource::<Stepper>();
    assert_eq!(stepper.search.expanded(), 6);
    let both = stepper.search.bidirectional().expect("bidirectional");
    // Cardinality rule: the two sides take turns while their frontiers are alike.
    assert!(both.expanded_by(Direction::Forward) >= 2);
    assert!(both.expanded_by(Direction::Backward) >= 2);
    assert_eq!(app.world().resource::<ShownSearch>().explored.len(), 6);
    app.world_mut().write_message(StepCommand::RunToEnd);
    app.update();
    let stepper = app.world().resource::<Stepper>();
    assert_eq!(
        stepper.search.path().len() - 1,
        moves,
        "fewest moves, as live"
    );
}
