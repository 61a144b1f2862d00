//! The goal's flow field: computed only while shown, again when the goal or the walls change,
//! and its costs are the planner's.

use super::*;
use pathfinder_playground::planner::flow::GoalField;

const ROOM: [&str; 5] = [
    "..........",
    "....#.....",
    "....#.....",
    "....#.....",
    "..........",
];

fn field(app: &App) -> &GoalField {
    app.world().resource::<GoalField>()
}

#[test]
fn the_flow_field_follows_the_goal_and_the_walls_while_it_is_shown() {
    let mut app = app_on(&ROOM, (0, 2), (9, 2));
    app.update();
    assert_eq!(field(&app).revision, 0, "nothing is computed while hidden");

    app.world_mut().resource_mut::<GoalField>().enabled = true;
    app.update();
    assert_eq!(field(&app).revision, 1);
    assert_eq!(field(&app).field.cost(Point::new(9, 2)), Some(0.0));
    // From the start, the field's cost is the cost of the plan to the goal.
    let from_start = field(&app).field.cost(Point::new(0, 2)).expect("reachable");
    assert!((from_start - plan(&app).cost).abs() < 1e-9);
    assert_eq!(field(&app).reachable, 47); // 50 cells, 3 walls

    run_for(&mut app, 0.5);
    assert_eq!(field(&app).revision, 1, "nothing changed: not recomputed");

    set_marker::<Goal>(&mut app, (9, 0));
    app.update();
    assert_eq!(field(&app).revision, 2);
    assert_eq!(field(&app).field.cost(Point::new(9, 0)), Some(0.0));

    // Wall the goal's corner in: the field says the rest of the map cannot reach it.
    spawn_wall(&mut app, (8, 0));
    spawn_wall(&mut app, (8, 1));
    spawn_wall(&mut app, (9, 1));
    app.update();
    assert_eq!(field(&app).revision, 3);
    assert_eq!(field(&app).field.cost(Point::new(0, 2)), None);
    assert_eq!(field(&app).reachable, 1);

    app.world_mut().resource_mut::<GoalField>().enabled = false;
    set_marker::<Goal>(&mut app, (5, 4));
    app.update();
    assert_eq!(field(&app).revision, 3, "hidden again: not computed");
}
