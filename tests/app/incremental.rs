//! D* Lite in the live planner: an edit is repaired by re-expanding a handful of cells, at the
//! cost a fresh search finds.

use super::*;
use bevy::prelude::*;
use gridpath::{Algorithm, Grid, Search, SearchConfig};
use pathfinder_playground::planner::shown::ShownSearch;

const HALL: [&str; 9] = [
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
];

fn fresh_cost(app: &App, start: (i32, i32), goal: (i32, i32)) -> f64 {
    let grid: &Grid = app.world().resource::<NavGrid>().grid();
    Search::new()
        .find_path(grid, start.into(), goal.into(), &SearchConfig::default())
        .expect("valid")
        .path
        .expect("reachable")
        .cost
}

#[test]
fn d_star_lite_repairs_an_edit_with_few_expansions() {
    let mut app = app_on(&HALL, (0, 4), (29, 4));
    app.world_mut()
        .resource_mut::<PlannerSettings>()
        .search
        .algorithm = Algorithm::DStarLite;
    app.update();
    let first = plan(&app).expanded;
    assert!(first > 0);
    assert_eq!(plan(&app).fresh_astar.map(|n| n > 0), Some(true));

    // The same query again: nothing to repair, and the last report stays on show.
    replan_now(&mut app);
    assert_eq!(plan(&app).expanded, first);

    // A wall beside the path, away from it: a small repair, the same cost as a fresh search.
    stroke(&mut app, &[(20, 0), (21, 0), (22, 0)]);
    replan_now(&mut app);
    let repair = plan(&app).expanded;
    let fresh = plan(&app).fresh_astar.expect("a fresh A* beside it");
    assert!(repair < fresh, "repair {repair} vs fresh A* {fresh}");
    assert!((plan(&app).cost - fresh_cost(&app, (0, 4), (29, 4))).abs() < 1e-9);
    // What is tinted is the repair: the cells it expanded.
    assert_eq!(app.world().resource::<ShownSearch>().explored.len(), repair);

    // A wall across the path: the route bends, at the fresh search's cost.
    stroke(&mut app, &[(15, 2), (15, 3), (15, 4), (15, 5), (15, 6)]);
    replan_now(&mut app);
    assert!(plan(&app).path.iter().all(|p| !is_wall(&app, (p.x, p.y))));
    assert!((plan(&app).cost - fresh_cost(&app, (0, 4), (29, 4))).abs() < 1e-9);

    // The start moves along: D* Lite keeps its work.
    set_marker::<pathfinder_playground::world::markers::Start>(&mut app, (3, 4));
    replan_now(&mut app);
    assert_eq!(plan(&app).path.first(), Some(&gridpath::Point::new(3, 4)));
    assert!((plan(&app).cost - fresh_cost(&app, (3, 4), (29, 4))).abs() < 1e-9);
}
