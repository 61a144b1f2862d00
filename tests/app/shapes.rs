//! Maps of hexagons and isometric diamonds: switching the cells' shape, planning, dragging a
//! marker, saving and opening, and undo, with the app's real systems.

use super::*;
use gridpath::Movement;
use gridpath::hex::HexLayout;
use gridpath::movingai::MapShape;
use pathfinder_playground::world::generators::{GenerateMap, GeneratorKind, GeneratorSettings};
use pathfinder_playground::world::map_files::{OpenMapFile, SaveMapFile};
use pathfinder_playground::world::map_load::ReshapeMap;

const HEX: MapShape = MapShape::Hex(HexLayout::RowOdd);

fn shape(app: &App) -> MapShape {
    app.world().resource::<MapLayout>().shape
}

fn movement(app: &App) -> Movement {
    app.world().resource::<PlannerSettings>().search.movement
}

fn reshape(app: &mut App, to: MapShape) {
    app.world_mut().write_message(ReshapeMap(to));
    app.update();
    app.update();
}

/// Every step of the path is to a touching hexagon.
fn path_steps_between_touching_hexagons(app: &App) {
    let path = &plan(app).path;
    assert!(path.len() > 1, "a path");
    for pair in path.windows(2) {
        let touch = HexLayout::RowOdd.neighbours(pair[0]).contains(&pair[1]);
        assert!(touch, "{} → {} do not touch", pair[0], pair[1]);
    }
}

#[test]
fn a_map_turned_to_hexagons_is_planned_with_hex_moves_and_undo_turns_it_back() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let before = (
        app.world().resource::<NavGrid>().grid().clone(),
        movement(&app),
    );
    reshape(&mut app, HEX);
    assert_eq!(shape(&app), HEX);
    assert_eq!(movement(&app), Movement::Hex(HexLayout::RowOdd));
    let nav = app.world().resource::<NavGrid>();
    assert_eq!(nav.layout().hex_layout(), Some(HexLayout::RowOdd));
    assert_eq!(nav.grid(), &before.0, "the same cells and walls");
    replan_now(&mut app);
    assert_eq!(plan(&app).status, PlanStatus::Found);
    path_steps_between_touching_hexagons(&app);
    // The markers stay where they were, and the world puts them on their hexagons' centres.
    assert_eq!(marker::<Goal>(&mut app), Point::new(9, 4));
    let layout = *app.world().resource::<MapLayout>();
    assert_eq!(layout.cell_at(world_pos(&app, (9, 4))), Point::new(9, 4));
    key_chord(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyZ);
    app.update();
    assert_eq!(shape(&app), MapShape::Octile);
    assert_eq!(movement(&app), before.1, "the square moves come back");
}

#[test]
fn on_hexagons_a_dragged_goal_lands_on_the_hexagon_under_the_pointer() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    reshape(&mut app, HEX);
    let (from, to) = (world_pos(&app, (9, 4)), world_pos(&app, (5, 3)));
    // Dropped off the centre, inside the hexagon: it snaps to it.
    drag(&mut app, from, to + Vec2::new(3.0, -2.0));
    assert_eq!(marker::<Goal>(&mut app), Point::new(5, 3));
    replan_now(&mut app);
    assert_eq!(plan(&app).path.last(), Some(&Point::new(5, 3)));
    path_steps_between_touching_hexagons(&app);
}

#[test]
fn a_hex_map_saved_opens_as_hexagons_and_a_generated_map_keeps_the_shape() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    reshape(&mut app, HEX);
    let file = std::env::temp_dir().join(format!("pathfinder-hex-{}.map", std::process::id()));
    app.world_mut().write_message(SaveMapFile(file.clone()));
    app.update();
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(text.starts_with("type hex-row-odd\n"), "{text}");
    reshape(&mut app, MapShape::Isometric);
    assert_eq!(shape(&app), MapShape::Isometric);
    assert!(matches!(movement(&app), Movement::EightWay(_)));
    app.world_mut().write_message(OpenMapFile(file.clone()));
    app.update();
    app.update();
    assert_eq!(shape(&app), HEX);
    let maze = GeneratorSettings {
        kind: GeneratorKind::Maze,
        seed: 5,
        width: 21,
        height: 15,
        ..Default::default()
    };
    app.world_mut().write_message(GenerateMap(maze));
    app.update();
    app.update();
    assert_eq!(shape(&app), HEX, "a maze generated on hexagons");
    assert_eq!(plan(&app).status, PlanStatus::Found);
    let _ = std::fs::remove_file(file);
}

#[test]
fn a_rhombus_of_hexagons_is_refused_in_one_line_and_the_map_stays() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let file = std::env::temp_dir().join(format!("pathfinder-axial-{}.map", std::process::id()));
    std::fs::write(&file, "type hex-row\nheight 2\nwidth 3\nmap\n...\n...\n").expect("written");
    app.world_mut().write_message(OpenMapFile(file.clone()));
    app.update();
    app.update();
    let notice = latest_notice(&app);
    assert!(
        notice.contains("hex-row") && !notice.contains('\n'),
        "{notice}"
    );
    assert_eq!(shape(&app), MapShape::Octile);
    assert_eq!(
        app.world().resource::<NavGrid>().width(),
        10,
        "the map stays"
    );
    let _ = std::fs::remove_file(file);
}

#[test]
fn on_hexagons_a_fast_diagonal_stroke_paints_a_wall_without_gaps() {
    let rows = ["............"; 10];
    let mut app = app_on(&rows, (0, 9), (11, 0));
    reshape(&mut app, HEX);
    // One frame from (1, 1) to (9, 7): the stroke fills in the line between.
    stroke(&mut app, &[(1, 1), (9, 7)]);
    let walls: Vec<Point> = (0..10)
        .flat_map(|y| (0..12).map(move |x| Point::new(x, y)))
        .filter(|p| is_wall(&app, (p.x, p.y)))
        .collect();
    let hex = HexLayout::RowOdd;
    assert_eq!(
        walls.len() as u32,
        hex.distance(Point::new(1, 1), Point::new(9, 7)) + 1
    );
    // Walk the wall from one end: every wall cell is reached through touching hexagons.
    let mut reached = vec![Point::new(1, 1)];
    let mut k = 0;
    while k < reached.len() {
        for n in hex.neighbours(reached[k]) {
            if walls.contains(&n) && !reached.contains(&n) {
                reached.push(n);
            }
        }
        k += 1;
    }
    assert_eq!(reached.len(), walls.len(), "{walls:?}");
}
