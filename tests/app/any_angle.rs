//! Any-angle paths in the app: Theta* as the live algorithm, and "Straighten the path".

use super::*;
use bevy::prelude::*;
use gridpath::line_of_sight::polyline_length;
use gridpath::{Algorithm, line_of_sight};
use pathfinder_playground::planner::Optimality;
use pathfinder_playground::planner::compare::{CompareCommand, Comparison};
use pathfinder_playground::planner::shown::ShownSearch;
use pathfinder_playground::planner::straighten::Straightened;

/// A room with a pillar: the grid path zig-zags past it, a straight line does not.
const ROOM: [&str; 8] = [
    "..............",
    "..............",
    "......##......",
    "......##......",
    "......##......",
    "..............",
    "..............",
    "..............",
];

fn settings(app: &mut App) -> Mut<'_, PlannerSettings> {
    app.world_mut().resource_mut::<PlannerSettings>()
}

fn grid_of(rows: &[&str]) -> gridpath::Grid {
    gridpath::Grid::from_ascii(rows).expect("grid")
}

#[test]
fn theta_star_draws_straight_segments_shorter_than_the_grid_optimum() {
    let mut app = app_on(&ROOM, (0, 1), (13, 6));
    let grid_cost = plan(&app).cost;
    settings(&mut app).search.algorithm = Algorithm::ThetaStar;
    app.update();
    let plan = plan(&app).clone();
    assert_eq!(plan.algorithm, Algorithm::ThetaStar);
    assert!(plan.path.len() <= 4, "a few corners: {:?}", plan.path);
    let grid = grid_of(&ROOM);
    for w in plan.path.windows(2) {
        assert!(line_of_sight(&grid, w[0], w[1]), "{} {}", w[0], w[1]);
    }
    assert!(plan.cost < grid_cost - 0.5, "{} vs {grid_cost}", plan.cost);
    assert!(
        matches!(plan.optimality, Optimality::AnyAngle { grid_optimal } if (grid_optimal - grid_cost).abs() < 1e-9),
        "{:?}",
        plan.optimality
    );
    // What is drawn is the corners.
    assert_eq!(app.world().resource::<ShownSearch>().path, plan.path);
}

#[test]
fn theta_star_joins_the_comparison_as_any_angle() {
    let mut app = app_on(&ROOM, (0, 1), (13, 6));
    app.world_mut().write_message(CompareCommand::Run);
    app.update();
    let comparison = app.world().resource::<Comparison>();
    let row = |a: Algorithm| {
        let row = comparison
            .rows
            .iter()
            .find(|r| r.algorithm == a)
            .expect("row");
        row.result.as_ref().expect("applies").clone()
    };
    let (theta, dijkstra) = (row(Algorithm::ThetaStar), row(Algorithm::Dijkstra));
    assert!(theta.cost.expect("path") < dijkstra.cost.expect("path"));
    assert!(theta.optimal, "never longer than the grid optimum");
}

#[test]
fn straightening_draws_a_shorter_line_and_says_when_it_cannot() {
    let mut app = app_on(&ROOM, (0, 1), (13, 6));
    assert!(
        app.world().resource::<Straightened>().corners.is_empty(),
        "off by default"
    );
    settings(&mut app).straighten = true;
    app.update();
    let straightened = app.world().resource::<Straightened>();
    let shown = app.world().resource::<ShownSearch>();
    let corners = straightened.corners.clone();
    assert_eq!(corners.first(), shown.path.first());
    assert_eq!(corners.last(), shown.path.last());
    assert!(corners.len() < shown.path.len());
    assert!(straightened.length < straightened.grid_length);
    assert!((straightened.grid_length - polyline_length(&shown.path)).abs() < 1e-9);
    let grid = grid_of(&ROOM);
    for w in corners.windows(2) {
        assert!(line_of_sight(&grid, w[0], w[1]));
    }

    // Terrain: refused, with the reason, and nothing drawn.
    set_ground(&mut app, (0, 7), 5);
    app.update();
    let straightened = app.world().resource::<Straightened>();
    assert!(straightened.corners.is_empty());
    assert!(
        straightened
            .refused
            .is_some_and(|why| why.contains("terrain"))
    );
}
