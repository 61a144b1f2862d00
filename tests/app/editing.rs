//! Painting walls and ground with the mouse, undo and redo, clearing.

use super::*;
use bevy::input::ButtonState;
use bevy::prelude::*;
use gridpath::Cell;
use pathfinder_playground::editing::{EditCommand, EditTool, Tool};
use pathfinder_playground::input::pointer::{LeftButtonPoints, PointerWorld};
use pathfinder_playground::world::markers::{Goal, Start};
use pathfinder_playground::world::terrain::{Ground, GroundMap};

const CTRL: KeyCode = KeyCode::ControlLeft;
const SHIFT: KeyCode = KeyCode::ShiftLeft;

fn set_tool(app: &mut App, tool: Tool, brush: u32) {
    *app.world_mut().resource_mut::<EditTool>() = EditTool { tool, brush };
}

fn walls_in_row(app: &App, y: i32) -> Vec<i32> {
    (0..10).filter(|&x| is_wall(app, (x, y))).collect()
}

#[test]
fn a_drag_from_a_free_cell_paints_walls_and_one_from_a_wall_erases() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    stroke(&mut app, &[(2, 2), (3, 2), (5, 2)]); // (4,2) is skipped by the cursor: no gap allowed
    assert_eq!(walls_in_row(&app, 2), [2, 3, 4, 5]);
    assert!(matches!(nav_cell(&app, (4, 2)), Some(Cell::Blocked)));
    stroke(&mut app, &[(3, 2), (4, 2)]);
    assert_eq!(walls_in_row(&app, 2), [2, 5]);
    // The planner sees the edit at its next tick.
    run_for(&mut app, 1.0);
    assert!(!plan(&app).path.contains(&Point::new(2, 2)));
}

#[test]
fn the_brush_paints_a_square() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    set_tool(&mut app, Tool::Walls, 3);
    stroke(&mut app, &[(5, 2)]);
    let walls: usize = (0..5).map(|y| walls_in_row(&app, y).len()).sum();
    assert_eq!(walls, 9);
    assert!(is_wall(&app, (4, 1)) && is_wall(&app, (6, 3)));
}

#[test]
fn painting_ground_sets_costs_the_planner_uses() {
    let mut app = app_on(&OPEN, (0, 2), (9, 2));
    assert_eq!(plan(&app).cost, 9.0);
    set_tool(&mut app, Tool::Ground(Ground::Mud), 5);
    stroke(&mut app, &[(4, 2)]); // a 5×5 patch of mud across the straight line, rows 0-4
    let ground = app.world().resource::<GroundMap>();
    assert_eq!(ground.cost(Point::new(4, 2)), Some(5));
    assert_eq!(ground.cost(Point::new(2, 0)), Some(5));
    assert_eq!(ground.cost(Point::new(1, 2)), Some(1));
    assert_eq!(nav_cell(&app, (6, 4)), Some(Cell::Passable(5)));
    run_for(&mut app, 1.0);
    // The mud covers the whole height: five cells of it must be crossed, at 5 each.
    assert_eq!(plan(&app).cost, 4.0 + 5.0 * 5.0);
    // Ground under a wall survives the wall.
    set_tool(&mut app, Tool::Walls, 1);
    stroke(&mut app, &[(4, 0)]);
    stroke(&mut app, &[(4, 0)]);
    assert_eq!(nav_cell(&app, (4, 0)), Some(Cell::Passable(5)));
}

#[test]
fn walls_never_go_on_a_marker() {
    let mut app = app_on(&OPEN, (3, 2), (9, 4));
    stroke(&mut app, &[(1, 2), (5, 2)]);
    assert_eq!(walls_in_row(&app, 2), [1, 2, 4, 5]);
    assert!(
        latest_notice(&app).contains("start or the goal"),
        "{}",
        latest_notice(&app)
    );
    assert_eq!(marker::<Start>(&mut app), Point::new(3, 2));
}

#[test]
fn a_press_on_the_panel_paints_nothing() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    app.world_mut().resource_mut::<PointerOverUi>().0 = true;
    stroke(&mut app, &[(2, 2), (6, 2)]);
    assert!(walls_in_row(&app, 2).is_empty());
}

#[test]
fn one_drag_is_one_undo_step_and_redo_brings_it_back() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    stroke(&mut app, &[(1, 1), (8, 1)]);
    stroke(&mut app, &[(1, 3), (2, 3)]);
    assert_eq!(walls_in_row(&app, 1).len(), 8);
    key_chord(&mut app, &[CTRL], KeyCode::KeyZ);
    assert!(
        walls_in_row(&app, 3).is_empty(),
        "the second stroke is undone"
    );
    assert_eq!(walls_in_row(&app, 1).len(), 8, "the first is not");
    key_chord(&mut app, &[CTRL], KeyCode::KeyZ);
    assert!(walls_in_row(&app, 1).is_empty());
    key_chord(&mut app, &[CTRL, SHIFT], KeyCode::KeyZ);
    assert_eq!(walls_in_row(&app, 1).len(), 8);
    key_chord(&mut app, &[CTRL], KeyCode::KeyY);
    assert_eq!(walls_in_row(&app, 3), [1, 2]);
    // A new edit clears what could be redone.
    key_chord(&mut app, &[CTRL], KeyCode::KeyZ);
    stroke(&mut app, &[(5, 4)]);
    key_chord(&mut app, &[CTRL], KeyCode::KeyY);
    assert!(walls_in_row(&app, 3).is_empty());
    assert!(latest_notice(&app).contains("Nothing to redo"));
}

#[test]
fn a_chord_pressed_and_released_within_one_frame_still_counts() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    stroke(&mut app, &[(1, 1), (8, 1)]);
    key_chord_in_one_frame(&mut app, &[CTRL], KeyCode::KeyZ);
    assert!(walls_in_row(&app, 1).is_empty());
    key_chord_in_one_frame(&mut app, &[CTRL, SHIFT], KeyCode::KeyZ);
    assert_eq!(walls_in_row(&app, 1).len(), 8);
}

#[test]
fn undo_restores_painted_ground_and_the_grid_follows() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    set_tool(&mut app, Tool::Ground(Ground::Water), 1);
    stroke(&mut app, &[(4, 1), (4, 3)]);
    assert_eq!(nav_cell(&app, (4, 2)), Some(Cell::Passable(10)));
    key_chord(&mut app, &[CTRL], KeyCode::KeyZ);
    assert_eq!(nav_cell(&app, (4, 2)), Some(Cell::Passable(1)));
    assert_eq!(
        app.world().resource::<GroundMap>().cost(Point::new(4, 2)),
        Some(1)
    );
}

#[test]
fn clearing_walls_and_terrain_can_be_undone() {
    let rows = [
        "..#.......",
        "..#..5....",
        "..#..5....",
        "..#.......",
        "..........",
    ];
    let mut app = app_on(&rows, (0, 0), (9, 4));
    app.world_mut().write_message(EditCommand::ClearWalls);
    app.update();
    assert!((0..4).all(|y| !is_wall(&app, (2, y))));
    assert_eq!(
        nav_cell(&app, (5, 1)),
        Some(Cell::Passable(5)),
        "terrain stays"
    );
    app.world_mut().write_message(EditCommand::ClearTerrain);
    app.update();
    assert_eq!(nav_cell(&app, (5, 1)), Some(Cell::Passable(1)));
    key_chord(&mut app, &[CTRL], KeyCode::KeyZ);
    assert_eq!(nav_cell(&app, (5, 1)), Some(Cell::Passable(5)));
    key_chord(&mut app, &[CTRL], KeyCode::KeyZ);
    assert!((0..4).all(|y| is_wall(&app, (2, y))));
}

#[test]
fn a_marker_move_can_be_undone() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let (from, to) = (world_pos(&app, (9, 4)), world_pos(&app, (5, 1)));
    drag(&mut app, from, to);
    assert_eq!(marker::<Goal>(&mut app), Point::new(5, 1));
    key_chord(&mut app, &[CTRL], KeyCode::KeyZ);
    assert_eq!(marker::<Goal>(&mut app), Point::new(9, 4));
    key_chord(&mut app, &[CTRL, SHIFT], KeyCode::KeyZ);
    assert_eq!(marker::<Goal>(&mut app), Point::new(5, 1));
}

#[test]
fn undoing_an_erase_never_walls_in_a_marker() {
    let rows = [
        "..........",
        "....#.....",
        "..........",
        "..........",
        "..........",
    ];
    let mut app = app_on(&rows, (0, 0), (9, 4));
    stroke(&mut app, &[(4, 1)]); // erase the wall
    set_marker::<Goal>(&mut app, (4, 1)); // the goal now stands where the wall was
    key_chord(&mut app, &[CTRL], KeyCode::KeyZ);
    assert!(!is_wall(&app, (4, 1)), "the wall came back on the goal");
    assert!(
        latest_notice(&app).contains("stays free"),
        "{}",
        latest_notice(&app)
    );
    assert_eq!(marker::<Goal>(&mut app), Point::new(4, 1));
}

/// A slow frame can bring the press and the moves after it at once: the stroke starts where the
/// button went down, not where the cursor is by the end of the frame.
#[test]
fn a_stroke_starts_where_the_button_went_down_even_in_a_slow_frame() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let down = Some(world_pos(&app, (1, 2)));
    app.world_mut().resource_mut::<LeftButtonPoints>().down = down;
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(world_pos(&app, (5, 2)));
    mouse(&mut app, ButtonState::Pressed);
    app.update();
    *app.world_mut().resource_mut::<LeftButtonPoints>() = LeftButtonPoints::default();
    mouse(&mut app, ButtonState::Released);
    app.update();
    for x in 1..=5 {
        assert!(is_wall(&app, (x, 2)), "({x}, 2) should be a wall");
    }
}

/// The same within one frame, release included: a flick from (1, 3) to (6, 3), after which the
/// cursor went on to (8, 1) with the button up. The stroke covers the flick, and stops there.
#[test]
fn a_drag_within_one_frame_paints_from_press_to_release() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    *app.world_mut().resource_mut::<LeftButtonPoints>() = LeftButtonPoints {
        down: Some(world_pos(&app, (1, 3))),
        up: Some(world_pos(&app, (6, 3))),
        moves: Vec::new(),
    };
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(world_pos(&app, (8, 1)));
    mouse(&mut app, ButtonState::Pressed);
    mouse(&mut app, ButtonState::Released);
    app.update();
    for x in 1..=6 {
        assert!(is_wall(&app, (x, 3)), "({x}, 3) should be a wall");
    }
    assert!(!is_wall(&app, (7, 2)) && !is_wall(&app, (8, 1)));
}

/// A whole stroke in one slow frame keeps its shape: from (2, 1) down to (2, 3), across to (4, 3),
/// up to (4, 1), released there. A straight cut from the press to the release would paint (3, 1)
/// and leave the rest of the U unpainted.
#[test]
fn a_stroke_within_one_frame_follows_every_move() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let at = |app: &App, cell| world_pos(app, cell);
    *app.world_mut().resource_mut::<LeftButtonPoints>() = LeftButtonPoints {
        down: Some(at(&app, (2, 1))),
        up: Some(at(&app, (4, 1))),
        moves: vec![at(&app, (2, 3)), at(&app, (4, 3)), at(&app, (4, 1))],
    };
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(at(&app, (4, 1)));
    mouse(&mut app, ButtonState::Pressed);
    mouse(&mut app, ButtonState::Released);
    app.update();
    for cell in [(2, 1), (2, 2), (2, 3), (3, 3), (4, 3), (4, 2), (4, 1)] {
        assert!(is_wall(&app, cell), "{cell:?} should be a wall");
    }
    assert!(!is_wall(&app, (3, 1)), "the stroke cut straight across");
}

/// A click whose press and release arrive in the same frame still paints its cell.
#[test]
fn a_click_within_one_frame_paints_its_cell() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(world_pos(&app, (7, 3)));
    mouse(&mut app, ButtonState::Pressed);
    mouse(&mut app, ButtonState::Released);
    app.update();
    assert!(is_wall(&app, (7, 3)));
}
