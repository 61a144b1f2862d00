use super::*;
use bevy::prelude::*;
use gridpath::{Grid, Point};
use pathfinder_playground::input::pointer::{LeftButtonPoints, PointerOverUi, PointerWorld};
use pathfinder_playground::planner::{PlanStatus, PlannerSettings};
use pathfinder_playground::world::map_load::LoadMap;
use pathfinder_playground::world::markers::{Goal, Start};
use pathfinder_playground::world::nav::NavGrid;

#[test]
fn replans_only_when_the_interval_has_passed() {
    let mut app = app_on(&OPEN, (0, 2), (9, 2));
    assert_eq!(replan_interval(&app), 1.0);
    let count = plan(&app).count;
    assert_eq!(plan(&app).status, PlanStatus::Found);
    run_for(&mut app, 0.9);
    assert_eq!(plan(&app).count, count, "re-planned before the interval");
    run_for(&mut app, 0.1);
    assert_eq!(
        plan(&app).count,
        count + 1,
        "did not re-plan after the interval"
    );
    run_for(&mut app, 1.0);
    assert_eq!(plan(&app).count, count + 2);
}

#[test]
fn a_shorter_interval_replans_more_often() {
    let mut app = app_on(&OPEN, (0, 2), (9, 2));
    app.world_mut().resource_mut::<PlannerSettings>().interval = 0.2;
    app.update(); // the settings change itself re-plans once
    let count = plan(&app).count;
    run_for(&mut app, 1.0);
    assert_eq!(plan(&app).count, count + 5);
}

#[test]
fn moving_the_goal_changes_the_path_at_the_next_tick() {
    let mut app = app_on(&OPEN, (0, 2), (9, 2));
    assert_eq!(plan(&app).path.last(), Some(&Point::new(9, 2)));
    set_marker::<Goal>(&mut app, (5, 4));
    app.update();
    assert_eq!(
        plan(&app).path.last(),
        Some(&Point::new(9, 2)),
        "re-planned before the tick"
    );
    run_for(&mut app, 1.0);
    assert_eq!(plan(&app).path.last(), Some(&Point::new(5, 4)));
    assert_eq!(plan(&app).path.first(), Some(&Point::new(0, 2)));
}

#[test]
fn an_obstacle_across_the_path_forces_a_detour_and_its_removal_undoes_it() {
    // A wall with one gap at the bottom; the straight line along row 1 is open until we block it.
    let rows = ["....#....", ".........", "....#....", "....#...."];
    let mut app = app_on(&rows, (0, 1), (8, 1));
    let short = plan(&app).cost;
    assert_eq!(short, 8.0);
    let wall = spawn_wall(&mut app, (4, 1));
    assert!(
        !app.world()
            .resource::<NavGrid>()
            .is_passable(Point::new(4, 1))
    );
    run_for(&mut app, 1.0);
    assert_eq!(
        plan(&app).status,
        PlanStatus::NoPath,
        "the only gap is closed"
    );
    app.world_mut().despawn(wall);
    assert!(
        app.world()
            .resource::<NavGrid>()
            .is_passable(Point::new(4, 1))
    );
    run_for(&mut app, 1.0);
    assert_eq!(plan(&app).cost, short);

    // Now a detour exists: open the bottom of the wall and block the gap again.
    let rows = ["....#....", ".........", "....#....", "........."];
    let mut app = app_on(&rows, (0, 1), (8, 1));
    assert_eq!(plan(&app).cost, 8.0);
    spawn_wall(&mut app, (4, 1));
    run_for(&mut app, 1.0);
    let detour = plan(&app);
    assert_eq!(detour.status, PlanStatus::Found);
    assert!(detour.cost > 8.0, "cost {}", detour.cost);
    assert!(!detour.path.contains(&Point::new(4, 1)));
}

#[test]
fn walling_the_goal_in_gives_no_path() {
    let mut app = app_on(&OPEN, (0, 0), (5, 2));
    for cell in [
        (4, 1),
        (5, 1),
        (6, 1),
        (4, 2),
        (6, 2),
        (4, 3),
        (5, 3),
        (6, 3),
    ] {
        spawn_wall(&mut app, cell);
    }
    run_for(&mut app, 1.0);
    assert_eq!(plan(&app).status, PlanStatus::NoPath);
    assert!(plan(&app).path.is_empty());
    // Known from the map's regions: no cell is expanded to find it out.
    assert_eq!(plan(&app).expanded, 0);
}

#[test]
fn dragging_the_goal_to_a_free_cell_moves_it() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let (from, to) = (world_pos(&app, (9, 4)), world_pos(&app, (3, 3)));
    // Grab a little off-centre, drop a little off-centre: it snaps to the cell.
    drag(
        &mut app,
        from + Vec2::new(3.0, -2.0),
        to + Vec2::new(-5.0, 4.0),
    );
    assert_eq!(marker::<Goal>(&mut app), Point::new(3, 3));
    assert_eq!(
        goal_position(&mut app),
        to,
        "not snapped to the cell centre"
    );
    run_for(&mut app, 1.0);
    assert_eq!(plan(&app).path.last(), Some(&Point::new(3, 3)));
}

#[test]
fn a_marker_dropped_on_a_wall_goes_back() {
    let rows = ["....", ".#..", "...."];
    let mut app = app_on(&rows, (0, 0), (3, 2));
    let (from, wall) = (world_pos(&app, (3, 2)), world_pos(&app, (1, 1)));
    drag(&mut app, from, wall);
    assert_eq!(marker::<Goal>(&mut app), Point::new(3, 2));
    assert!(
        latest_notice(&app).contains("wall"),
        "notice: {}",
        latest_notice(&app)
    );
    assert_eq!(
        goal_position(&mut app),
        from,
        "the marker did not return to its cell"
    );
}

/// Where the goal marker is drawn.
fn goal_position(app: &mut App) -> Vec2 {
    let world = app.world_mut();
    let mut q = world.query_filtered::<&Transform, With<Goal>>();
    q.single(world).expect("one goal").translation.truncate()
}

#[test]
fn a_marker_dropped_off_the_map_or_on_the_other_marker_goes_back() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let from = world_pos(&app, (9, 4));
    drag(&mut app, from, Vec2::new(5000.0, 0.0));
    assert_eq!(marker::<Goal>(&mut app), Point::new(9, 4));
    assert!(latest_notice(&app).contains("can't leave the map"));
    let start = world_pos(&app, (0, 0));
    drag(&mut app, from, start);
    assert_eq!(marker::<Goal>(&mut app), Point::new(9, 4));
    assert!(latest_notice(&app).contains("share a cell"));
}

#[test]
fn a_press_over_the_panel_moves_no_marker() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    app.world_mut().resource_mut::<PointerOverUi>().0 = true;
    let (from, to) = (world_pos(&app, (9, 4)), world_pos(&app, (2, 2)));
    drag(&mut app, from, to);
    assert_eq!(marker::<Goal>(&mut app), Point::new(9, 4));
}

#[test]
fn the_start_can_be_dragged_too() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let (from, to) = (world_pos(&app, (0, 0)), world_pos(&app, (1, 4)));
    drag(&mut app, from, to);
    assert_eq!(marker::<Start>(&mut app), Point::new(1, 4));
}

#[test]
fn tiny_and_hopeless_maps_are_safe() {
    // 1×1: both markers on the one cell, a zero-length plan.
    let app = app_on(&["."], (0, 0), (0, 0));
    assert_eq!(plan(&app).status, PlanStatus::Found);
    assert_eq!(plan(&app).path, vec![Point::new(0, 0)]);
    // No free cell at all: the plan is refused with a reason, nothing panics.
    let mut app = app_on(&["##", "##"], (0, 0), (1, 1));
    run_for(&mut app, 1.0);
    assert!(matches!(&plan(&app).status, PlanStatus::Refused(why) if why.contains("wall")));
}

#[test]
fn a_new_map_places_the_markers_far_apart_on_free_cells() {
    let mut app = app_on(&OPEN, (0, 0), (1, 0));
    let grid = Grid::from_ascii(&["#....", "#.##.", "#...."]).expect("map");
    app.world_mut().write_message(LoadMap::new("second", grid));
    app.update();
    app.update();
    let (s, g) = (marker::<Start>(&mut app), marker::<Goal>(&mut app));
    let nav = app.world().resource::<NavGrid>();
    assert_eq!((nav.width(), nav.height()), (5, 3));
    assert_eq!(nav.obstacle_count(), 5);
    assert!(nav.is_passable(s) && nav.is_passable(g));
    assert_eq!(s, Point::new(1, 0));
    assert_eq!(plan(&app).status, PlanStatus::Found);
    assert!(plan(&app).path.len() >= 5);
}

/// A slow frame can bring the release and later moves together: the marker lands where the
/// button came up.
#[test]
fn a_marker_lands_where_the_button_came_up() {
    let mut app = app_on(&OPEN, (0, 2), (9, 2));
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(world_pos(&app, (9, 2)));
    mouse(&mut app, bevy::input::ButtonState::Pressed);
    app.update();
    app.world_mut().resource_mut::<LeftButtonPoints>().up = Some(world_pos(&app, (5, 1)));
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(world_pos(&app, (8, 4)));
    mouse(&mut app, bevy::input::ButtonState::Released);
    app.update();
    assert_eq!(marker::<Goal>(&mut app), Point::new(5, 1));
}
