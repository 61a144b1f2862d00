//! Big maps are planned on the task pool: the frame that asks does not wait, the plan arrives in
//! a later frame, and a plan whose path an edit touched meanwhile is discarded.

use super::*;
use gridpath::{Search, SearchConfig, SearchStatus};
use pathfinder_playground::planner::PlanOffFrame;
use pathfinder_playground::world::markers::{Goal, Start};

const SIZE: i32 = 256;

/// A 256×256 map split by a wall at x = 128 with one gap, at (128, 200).
fn split_map() -> Grid {
    let mut grid = Grid::new(SIZE as u32, SIZE as u32).expect("a grid");
    for y in (0..SIZE).filter(|&y| y != 200) {
        grid.set_blocked(Point::new(128, y), true)
            .expect("in the grid");
    }
    grid
}

fn big_app() -> App {
    let mut app = headless_app(Some(LoadMap::new("split", split_map())));
    app.update(); // start-up and map load
    set_marker::<Start>(&mut app, (0, 0));
    set_marker::<Goal>(&mut app, (SIZE - 1, 0));
    settle(&mut app); // the first plan, on the markers' first cells
    app
}

#[test]
fn a_big_map_is_planned_off_the_frame_and_shown_when_it_comes_back() {
    let mut app = big_app();
    assert!(
        (SIZE * SIZE) as usize >= app.world().resource::<PlanOffFrame>().from_cells,
        "the map must be big enough to plan off the frame"
    );
    let count = plan(&app).count;
    replan_now(&mut app);
    assert!(plan(&app).in_flight, "the plan is searched off the frame");
    assert_eq!(plan(&app).count, count, "the frame did not wait for it");
    settle(&mut app);
    let shown = plan(&app);
    assert_eq!(shown.status, PlanStatus::Found);
    assert!(shown.off_frame);
    assert!(
        shown.path.contains(&Point::new(128, 200)),
        "through the gap"
    );

    let config = SearchConfig::default();
    let mut fresh = Search::new();
    let grid = split_map();
    fresh
        .begin(&grid, Point::new(0, 0), Point::new(SIZE - 1, 0), &config)
        .expect("a valid query");
    assert_eq!(fresh.run(&grid), SearchStatus::Found);
    assert_eq!(
        Some(shown.cost),
        fresh.cost(),
        "the same cost as a search here"
    );
}

#[test]
fn a_plan_whose_path_an_edit_touched_is_discarded_and_asked_for_again() {
    let mut app = big_app();
    replan_now(&mut app);
    assert!(plan(&app).in_flight);
    spawn_wall(&mut app, (128, 200)); // closes the gap the search is about to go through
    settle(&mut app);
    assert_eq!(
        plan(&app).discarded,
        1,
        "the plan through the gap was thrown away"
    );
    assert_eq!(plan(&app).status, PlanStatus::NoPath);
}

#[test]
fn an_edit_away_from_the_path_keeps_the_plan() {
    let mut app = big_app();
    replan_now(&mut app);
    spawn_wall(&mut app, (10, 250));
    settle(&mut app);
    assert_eq!(plan(&app).discarded, 0);
    assert_eq!(plan(&app).status, PlanStatus::Found);
}

#[test]
fn with_every_map_off_the_frame_a_small_one_plans_the_same() {
    let rows = ["....", ".##.", "...."];
    let mut app = headless_app(Some(LoadMap::new(
        "small",
        Grid::from_ascii(&rows).expect("map"),
    )));
    app.insert_resource(PlanOffFrame { from_cells: 0 });
    app.update();
    set_marker::<Start>(&mut app, (0, 1));
    set_marker::<Goal>(&mut app, (3, 1));
    app.world_mut().write_message(ReplanNow);
    settle(&mut app);
    assert!(plan(&app).off_frame);
    assert_eq!(plan(&app).status, PlanStatus::Found);
    assert_eq!(plan(&app).path.first(), Some(&Point::new(0, 1)));
    assert_eq!(plan(&app).path.last(), Some(&Point::new(3, 1)));
}

#[test]
fn a_plan_off_the_frame_is_checked_off_the_frame_too() {
    use gridpath::Algorithm;
    use pathfinder_playground::planner::Optimality;
    let mut app = big_app();
    assert_eq!(
        plan(&app).optimality,
        Optimality::Guaranteed,
        "A* needs no check"
    );
    app.world_mut()
        .resource_mut::<PlannerSettings>()
        .search
        .algorithm = Algorithm::GreedyBestFirst;
    settle(&mut app);
    assert!(plan(&app).off_frame);
    let greedy = plan(&app).clone();
    assert!(
        matches!(
            greedy.optimality,
            Optimality::Confirmed | Optimality::Worse { .. }
        ),
        "Dijkstra's check came back: {:?}",
        greedy.optimality
    );

    app.world_mut()
        .resource_mut::<PlannerSettings>()
        .search
        .algorithm = Algorithm::DStarLite;
    settle(&mut app);
    assert_eq!(plan(&app).status, PlanStatus::Found);
    assert!(
        plan(&app).fresh_astar.is_some_and(|n| n > 0),
        "a fresh A* was set beside the repair"
    );
}
