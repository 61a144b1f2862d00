//! Links through the real systems: the two-floor scene's path takes the stairs; the Links tool
//! draws a link with two clicks (the path takes it), removes it with a click on an end, and
//! undo and redo bring it back and take it away; a click on a wall draws nothing.

use super::*;
use gridpath::Link;
use pathfinder_playground::editing::{EditCommand, EditTool, LoadScene, Scene, Tool};
use pathfinder_playground::world::nav::NavLink;

/// Two rooms with no way between them: a wall down column 4.
const ROOMS: [&str; 3] = ["....#....", "....#....", "....#...."];

fn links(app: &mut App) -> Vec<Link> {
    let world = app.world_mut();
    world.query::<&NavLink>().iter(world).map(|l| l.0).collect()
}

fn click(app: &mut App, cell: (i32, i32)) {
    stroke(app, &[cell]);
}

#[test]
fn the_floors_scene_takes_the_stairs() {
    let mut app = app_on(&["..."], (0, 0), (2, 0));
    app.world_mut().write_message(LoadScene(Scene::Floors));
    for _ in 0..5 {
        app.update();
    }
    replan_now(&mut app);
    let path = plan(&app).path.clone();
    let grid = app.world().resource::<NavGrid>().grid().clone();
    let climbs = path
        .windows(2)
        .filter(|w| grid.link_cost(w[0], w[1], None).is_some())
        .count();
    assert_eq!(climbs, 1, "{path:?}");
    assert_eq!(
        links(&mut app).len(),
        2,
        "the stairs and the lift, as entities"
    );
    assert_eq!(path.last(), Some(&marker::<Goal>(&mut app)));
}

#[test]
fn the_links_tool_draws_removes_and_undoes_a_link() {
    let mut app = app_on(&ROOMS, (0, 1), (8, 1));
    assert!(plan(&app).path.is_empty(), "no way yet");
    *app.world_mut().resource_mut::<EditTool>() = EditTool {
        tool: Tool::Links,
        brush: 1,
    };
    click(&mut app, (4, 0)); // a wall: no link starts there
    assert!(
        latest_notice(&app).contains("free cell"),
        "{}",
        latest_notice(&app)
    );
    click(&mut app, (2, 1));
    click(&mut app, (6, 1));
    let drawn = Link::new(Point::new(2, 1), Point::new(6, 1), 2);
    assert_eq!(links(&mut app), [drawn]);
    replan_now(&mut app);
    let path = plan(&app).path.clone();
    let at = path.iter().position(|&p| p == Point::new(2, 1));
    assert_eq!(at.map(|i| path[i + 1]), Some(Point::new(6, 1)), "{path:?}");

    click(&mut app, (6, 1)); // an end: removed
    assert_eq!(links(&mut app), []);
    app.world_mut().write_message(EditCommand::Undo);
    app.update();
    assert_eq!(links(&mut app), [drawn], "undo brings it back");
    app.world_mut().write_message(EditCommand::Undo);
    app.update();
    assert_eq!(links(&mut app), [], "and undoes its drawing");
    app.world_mut().write_message(EditCommand::Redo);
    app.update();
    assert_eq!(links(&mut app), [drawn]);
    replan_now(&mut app);
    assert!(!plan(&app).path.is_empty());
}

/// A map saved with links keeps them beside it (`NAME.map.links`), and opening it brings them
/// back; a broken links file is said, and the map opens without them.
#[test]
fn links_are_saved_beside_the_map_and_opened_again() {
    use pathfinder_playground::world::map_files::{OpenMapFile, SaveMapFile};
    let mut app = app_on(&ROOMS, (0, 1), (8, 1));
    let stairs = Link::new(Point::new(1, 2), Point::new(7, 2), 3).one_way();
    app.world_mut().spawn(NavLink(stairs));
    app.update();
    let dir = std::env::temp_dir().join(format!("pathfinder-links-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let path = dir.join("floors.map");
    app.world_mut().write_message(SaveMapFile(path.clone()));
    app.update();
    let saved = std::fs::read_to_string(dir.join("floors.map.links")).expect("saved beside it");
    assert_eq!(saved, "1,2 7,2 3 oneway\n");
    app.world_mut().write_message(OpenMapFile(path.clone()));
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(links(&mut app), [stairs]);
    std::fs::write(dir.join("floors.map.links"), "1,2 70,2 3\n").expect("written");
    app.world_mut().write_message(OpenMapFile(path));
    for _ in 0..3 {
        app.update();
    }
    assert!(
        latest_notice(&app).contains("without its links"),
        "{}",
        latest_notice(&app)
    );
    assert_eq!(links(&mut app), []);
}
