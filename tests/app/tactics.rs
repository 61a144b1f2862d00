//! The tactics view through the real systems: the tactics scene puts the unit's requests on the
//! start marker, the plugin answers them off the frame, and the lesson cuts the way to the goal
//! into turns and finds the enemies' zones of control; moving the goal and switching the view
//! off follow.

use super::*;
use bevy_gridpath::{Answer, RangeRequest, SightRequest};
use pathfinder_playground::editing::{LoadScene, Scene};
use pathfinder_playground::planner::tactics::{TacticsLesson, TacticsSettings};
use pathfinder_playground::world::agents::AgentPos;

fn lesson(app: &App) -> TacticsLesson {
    app.world().resource::<TacticsLesson>().clone()
}

/// Runs frames until `done`, for at most ten seconds of app time (the answers come off the
/// frame, on the task pool).
fn until(app: &mut App, mut done: impl FnMut(&mut App) -> bool) {
    for _ in 0..100 {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("not done in 100 frames");
}

#[test]
fn the_tactics_scene_shows_a_units_range_turns_zones_and_sight() {
    let mut app = app_on(&["..."], (0, 0), (2, 0));
    app.world_mut().write_message(LoadScene(Scene::Tactics));
    until(&mut app, |app| lesson(app).route.is_some());
    let settings = *app.world().resource::<TacticsSettings>();
    assert!(settings.enabled, "the scene switches the view on");
    let start = marker::<Start>(&mut app);
    let world = app.world_mut();
    let enemies: Vec<Point> = world
        .query::<&AgentPos>()
        .iter(world)
        .map(|a| a.cell())
        .collect();
    let mut q =
        world.query_filtered::<(&Answer<RangeRequest>, &Answer<SightRequest>), With<Start>>();
    let (range, sight) = q.single(world).expect("both answers on the start marker");
    assert_eq!(range.request.from, start);
    assert!(sight.answer.is_visible(start));
    assert_eq!(enemies.len(), 4);
    assert_eq!(range.request.enemies.len(), 4);
    for enemy in &enemies {
        assert_eq!(range.answer.cost(*enemy), None, "an enemy's cell is closed");
    }

    // The scene's goal is two turns of six points away; each turn spends at most six.
    let shown = lesson(&app);
    let route = shown.route.as_ref().expect("the goal is in range");
    assert_eq!(shown.turns.len(), 2);
    assert!(shown.turns.iter().all(|t| t.spent <= 6.0 + 1e-9));
    assert_eq!(
        shown.turns.last().map(|t| t.at),
        Some(route.cells.len() - 1)
    );
    assert!(
        !shown.zones.is_empty(),
        "the range reaches a zone of control"
    );
    let touches = |p: Point| {
        enemies
            .iter()
            .any(|e| (e.x - p.x).abs() <= 1 && (e.y - p.y).abs() <= 1)
    };
    assert!(shown.zones.iter().all(|&z| touches(z)), "{:?}", shown.zones);
    assert!(shown.astar_expanded.is_some_and(|n| n < shown.range_cells));

    // The goal next to the unit: one turn.
    set_marker::<Goal>(&mut app, (start.x + 1, start.y));
    until(&mut app, |app| lesson(app).turns.len() == 1);

    // The pointer over an enemy: its one-turn range, the unit closed to it; away, gone again.
    let enemy = enemies[0];
    let enemy_range = |app: &mut App| {
        let world = app.world_mut();
        let mut q = world.query::<(&AgentPos, &Answer<RangeRequest>)>();
        q.iter(world)
            .find(|(a, _)| a.cell() == enemy)
            .map(|(_, r)| r.clone())
    };
    app.world_mut().resource_mut::<PointerWorld>().0 = Some(world_pos(&app, (enemy.x, enemy.y)));
    until(&mut app, |app| enemy_range(app).is_some());
    let range = enemy_range(&mut app).expect("the hovered enemy's range");
    assert_eq!(range.request.budget, 6.0);
    assert_eq!(range.answer.cost(start), None, "the unit is its enemy");
    app.world_mut().resource_mut::<PointerWorld>().0 = None;
    until(&mut app, |app| enemy_range(app).is_none());

    // Switched off: the requests and answers leave the marker.
    app.world_mut().resource_mut::<TacticsSettings>().enabled = false;
    run_for(&mut app, 0.3);
    let world = app.world_mut();
    let mut q = world.query_filtered::<(), (With<Start>, With<RangeRequest>)>();
    assert_eq!(q.iter(world).count(), 0);
}
