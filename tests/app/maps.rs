//! Maps: opening, saving, generating, undoing a map switch, and bad files.

use super::*;
use bevy::prelude::*;
use gridpath::Cell;
use pathfinder_playground::editing::{EditTool, Tool};
use pathfinder_playground::world::generators::{
    GenerateMap, GeneratorKind, GeneratorSettings, generate,
};
use pathfinder_playground::world::map_files::{OpenMapFile, SaveMapFile};
use pathfinder_playground::world::map_load::CurrentMap;
use pathfinder_playground::world::markers::{Goal, Start};
use pathfinder_playground::world::terrain::Ground;
use std::path::PathBuf;

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pathfinder-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn maze(seed: u64, width: u32, height: u32) -> GeneratorSettings {
    GeneratorSettings {
        kind: GeneratorKind::Maze,
        seed,
        width,
        height,
        ..Default::default()
    }
}

fn grid_of(app: &App) -> Grid {
    app.world().resource::<NavGrid>().grid().clone()
}

#[test]
fn save_then_open_gives_the_same_map() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    stroke(&mut app, &[(2, 1), (2, 3)]);
    *app.world_mut().resource_mut::<EditTool>() = EditTool {
        tool: Tool::Ground(Ground::Mud),
        brush: 1,
    };
    stroke(&mut app, &[(6, 0), (6, 4)]);
    let saved = grid_of(&app);
    let path = temp_file("round-trip.map");
    app.world_mut().write_message(SaveMapFile(path.clone()));
    app.update();
    assert!(
        latest_notice(&app).starts_with("Saved"),
        "{}",
        latest_notice(&app)
    );
    // Change the world, then open the file again.
    app.world_mut()
        .write_message(pathfinder_playground::editing::EditCommand::ClearWalls);
    app.update();
    assert_ne!(grid_of(&app), saved);
    app.world_mut().write_message(OpenMapFile(path.clone()));
    app.update();
    app.update();
    assert_eq!(grid_of(&app), saved);
    assert_eq!(app.world().resource::<CurrentMap>().name, "round-trip.map");
    // And the text on disk is a standard map followed by the costs block.
    let text = std::fs::read_to_string(&path).expect("saved file");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..6],
        [
            "type octile",
            "height 5",
            "width 10",
            "map",
            "..........",
            "..@......."
        ]
    );
    assert_eq!(lines[9], "costs");
    assert_eq!(lines[11], "11@1115111");
}

#[test]
fn a_malformed_or_missing_file_leaves_the_map_alone() {
    let rows = ["....", ".#..", "...."];
    let mut app = app_on(&rows, (0, 0), (3, 2));
    let before = grid_of(&app);
    let bad = temp_file("bad.map");
    std::fs::write(&bad, "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n").expect("write");
    app.world_mut().write_message(OpenMapFile(bad));
    app.update();
    app.update();
    assert_eq!(grid_of(&app), before);
    let notice = latest_notice(&app);
    assert!(
        notice.contains("bad.map:6") && notice.contains("unknown terrain 'x'"),
        "{notice}"
    );
    app.world_mut()
        .write_message(OpenMapFile(temp_file("does-not-exist.map")));
    app.update();
    assert_eq!(grid_of(&app), before);
    assert!(latest_notice(&app).contains("does-not-exist.map"));
    assert_eq!(plan(&app).status, PlanStatus::Found);
}

/// Opens a file holding `text` and returns the notice it gave.
fn open_text(app: &mut App, name: &str, text: &str) -> String {
    let path = temp_file(name);
    std::fs::write(&path, text).expect("write");
    app.world_mut().write_message(OpenMapFile(path));
    app.update();
    app.update();
    latest_notice(app)
}

#[test]
fn a_hostile_file_is_refused_at_its_header_and_the_map_stays() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let before = grid_of(&app);
    // 44 bytes that claim a 67-million-cell map: the app's own limit refuses it at line 4.
    let huge = "type octile\r\nheight 1\r\nwidth 67108864\r\nmap\r\n";
    let notice = open_text(&mut app, "hostile.map", huge);
    assert!(
        notice.contains("hostile.map:4:") && notice.contains("more than the 1048576 allowed"),
        "{notice}"
    );
    assert_eq!(grid_of(&app), before);
    // Terminal escapes and NUL bytes reach the panel escaped.
    let escapes = "type octile\nheight 1\nwidth 2\nmap\n\u{1b}[2J\0\n";
    let notice = open_text(&mut app, "escapes.map", escapes);
    assert!(notice.contains(r"'\u{1b}[2J\0'"), "{notice}");
    assert!(!notice.chars().any(char::is_control), "{notice:?}");
    assert_eq!(grid_of(&app), before);
}

#[test]
fn a_huge_map_is_refused_and_the_current_one_stays() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let before = grid_of(&app);
    app.world_mut()
        .write_message(LoadMap::new("huge", Grid::new(2048, 2048).expect("grid")));
    app.update();
    assert_eq!(grid_of(&app), before);
    assert!(
        latest_notice(&app).contains("2048×2048"),
        "{}",
        latest_notice(&app)
    );
}

#[test]
fn switching_maps_can_be_undone_exactly() {
    let rows = [
        "..........",
        "..#####...",
        "...5......",
        "..........",
        "..........",
    ];
    let mut app = app_on(&rows, (0, 0), (9, 4));
    // Ground under a wall, which a file could not store: undo must still bring it back.
    *app.world_mut().resource_mut::<EditTool>() = EditTool {
        tool: Tool::Ground(Ground::Water),
        brush: 1,
    };
    stroke(&mut app, &[(3, 1)]);
    let before = grid_of(&app);
    let generated = maze(3, 21, 15);
    app.world_mut()
        .write_message(LoadMap::new(generated.map_name(), generate(&generated)));
    app.update();
    app.update();
    assert_eq!(app.world().resource::<NavGrid>().width(), 21);
    key_chord(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyZ);
    app.update();
    assert_eq!(grid_of(&app), before);
    assert_eq!(marker::<Start>(&mut app), Point::new(0, 0));
    assert_eq!(marker::<Goal>(&mut app), Point::new(9, 4));
    *app.world_mut().resource_mut::<EditTool>() = EditTool::default();
    stroke(&mut app, &[(3, 1)]); // erase the wall: the water under it is back
    assert_eq!(nav_cell(&app, (3, 1)), Some(Cell::Passable(10)));
}

#[test]
fn every_generator_gives_connected_markers_in_the_app() {
    for kind in GeneratorKind::ALL {
        let mut app = app_on(&OPEN, (0, 0), (9, 4));
        let settings = GeneratorSettings {
            kind,
            seed: 11,
            width: 40,
            height: 30,
            ..Default::default()
        };
        app.world_mut()
            .write_message(LoadMap::new(settings.map_name(), generate(&settings)));
        app.update();
        app.update();
        assert_eq!(plan(&app).status, PlanStatus::Found, "{kind:?}");
        let start = marker::<Start>(&mut app);
        assert!(
            app.world().resource::<NavGrid>().is_passable(start),
            "{kind:?}"
        );
    }
}

#[test]
fn a_huge_map_at_start_up_falls_back_to_the_built_in_one() {
    let huge = Grid::new(2048, 2048).expect("grid");
    let mut app = headless_app(Some(LoadMap::new("huge.map", huge)));
    app.update();
    app.update();
    assert_eq!(app.world().resource::<CurrentMap>().name, "rooms.map");
    assert!(latest_notice(&app).contains("2048×2048"));
    assert_eq!(plan(&app).status, PlanStatus::Found);
}

#[test]
fn a_generate_request_loads_the_generated_map_and_undo_puts_the_old_one_back() {
    let mut app = app_on(&OPEN, (0, 0), (9, 4));
    let before = grid_of(&app);
    let settings = maze(7, 41, 31);
    app.world_mut().write_message(GenerateMap(settings.clone()));
    app.update();
    app.update();
    assert_eq!(grid_of(&app), generate(&settings));
    assert_eq!(
        app.world().resource::<CurrentMap>().name,
        "maze-41x31-seed7"
    );
    assert_eq!(plan(&app).status, PlanStatus::Found);
    key_chord(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyZ);
    app.update();
    assert_eq!(grid_of(&app), before);
    assert_eq!(app.world().resource::<CurrentMap>().name, "test");
    assert_eq!(marker::<Goal>(&mut app), Point::new(9, 4));
}

/// `--map` sends the same request as the panel's Open: at start-up there is no map to keep, so
/// a file that does not open leaves the built-in one, and says so.
#[test]
fn a_file_that_fails_to_open_at_start_up_leaves_the_built_in_map() {
    let mut app = headless_app(None);
    let missing = temp_file("no-such-file.map");
    app.world_mut().write_message(OpenMapFile(missing));
    app.update();
    app.update();
    assert_eq!(app.world().resource::<CurrentMap>().name, "rooms.map");
    assert!(
        latest_notice(&app).contains("showing the built-in map instead"),
        "{}",
        latest_notice(&app)
    );
    assert_eq!(plan(&app).status, PlanStatus::Found);
}
