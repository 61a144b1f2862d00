//! Lifelong runs in the app: the shipped sorting centre loads with its map and its robots step
//! by the rules at every frame, finishing tasks; a bad instance file is refused in one line and
//! leaves the world as it was; a wall painted on the run's map closes it.

use super::*;
use gridpath::lifelong::Guidance;
use pathfinder_playground::lifelong::{LifelongClock, LifelongScene, LifelongSource, OpenLifelong};
use pathfinder_playground::world::map_load::CurrentMap;
use std::collections::HashSet;

fn open(app: &mut App, source: LifelongSource) {
    let guidance = Guidance::GUIDED;
    app.world_mut()
        .write_message(OpenLifelong { source, guidance });
    app.update();
    app.update(); // the map loads
}

fn positions(app: &App) -> Option<Vec<Point>> {
    app.world()
        .resource::<LifelongScene>()
        .0
        .as_ref()
        .map(|run| run.now.clone())
}

#[test]
fn the_sorting_centre_runs_live_and_its_robots_keep_the_rules_at_every_frame() {
    let mut app = headless_app(None);
    app.update();
    app.world_mut().resource_mut::<LifelongClock>().speed = 20.0; // two steps a frame
    open(&mut app, LifelongSource::SortingCentre { robots: 150 });
    assert!(
        app.world()
            .resource::<CurrentMap>()
            .name
            .contains("sorting centre")
    );
    let grid = app.world().resource::<NavGrid>().grid().clone();
    assert_eq!((grid.width(), grid.height()), (57, 33));
    let mut before = positions(&app).expect("a run");
    assert_eq!(before.len(), 150);
    for frame in 0..100 {
        app.update();
        let now = positions(&app).expect("still running");
        let mut seen = HashSet::new();
        for (k, (a, b)) in before.iter().zip(&now).enumerate() {
            // Two steps a frame: at most two cells.
            assert!(
                (a.x - b.x).abs() + (a.y - b.y).abs() <= 2,
                "frame {frame}: robot {k}"
            );
            assert!(grid.is_passable(*b), "frame {frame}: robot {k} on a wall");
            assert!(seen.insert(*b), "frame {frame}: two robots on {b}");
        }
        before = now;
    }
    let scene = app.world().resource::<LifelongScene>();
    let run = scene.0.as_ref().expect("a run");
    assert!(run.step >= 190, "{}", run.step);
    assert!(run.tasks_finished > 100, "{}", run.tasks_finished);
}

#[test]
fn a_bad_instance_file_is_refused_in_one_line_and_the_map_stays() {
    let mut app = headless_app(None);
    app.update();
    let map = app.world().resource::<CurrentMap>().name.clone();
    let dir = std::env::temp_dir().join(format!("playground-lifelong-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"mapFile\": 3}").expect("written");
    for path in [bad, dir.join("missing.json")] {
        open(&mut app, LifelongSource::File(path));
        assert!(positions(&app).is_none());
        let notice = latest_notice(&app);
        assert!(
            notice.starts_with("Lifelong: ") && !notice.contains('\n'),
            "{notice}"
        );
        assert_eq!(app.world().resource::<CurrentMap>().name, map);
    }
}

#[test]
fn a_wall_painted_on_the_runs_map_closes_it() {
    let mut app = headless_app(None);
    app.update();
    open(&mut app, LifelongSource::SortingCentre { robots: 20 });
    assert!(positions(&app).is_some());
    let free = (0..57)
        .find(|&x| !is_wall(&app, (x, 16)))
        .expect("a free cell in the middle row");
    spawn_wall(&mut app, (free, 16));
    app.update();
    app.update();
    assert!(positions(&app).is_none(), "the run closed");
    assert!(
        latest_notice(&app).contains("map changed"),
        "{}",
        latest_notice(&app)
    );
}
