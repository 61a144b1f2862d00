//! Unit classes through the plugin, headless: terrain from entities, requests and agents of
//! several classes on one grid, routes that keep to what each may enter, and an edit of the
//! terrain that re-routes a walking agent, checked at every frame.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridpath::prelude::*;
use bevy_gridpath::{AgentProgress, UnknownClass};
use gridpath::QueryError;
use std::time::Duration;

const WATER: Terrain = Terrain::WATER;
const MUD: Terrain = Terrain(3);

/// A 12 × 8 grid with a lake in the middle (columns 4-7, rows 2-5) and the classes registered.
fn app() -> (App, ClassId, ClassId, ClassId) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, GridPathPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )))
        .insert_resource(NavGrid::new(12, 8).expect("a grid"));
    for y in 2..6 {
        for x in 4..8 {
            app.world_mut()
                .spawn((CellTerrain(WATER), CellPos(Point::new(x, y))));
        }
    }
    let mut classes = app.world_mut().resource_mut::<UnitClasses>();
    let soldier = classes.add("soldier", UnitClass::new().without(WATER).with_cost(MUD, 5));
    let boat = classes.add("boat", UnitClass::closed().with_cost(WATER, 1));
    let tank = classes.add("tank", UnitClass::new().without(WATER).without(MUD));
    app.update();
    (app, soldier, boat, tank)
}

fn until(app: &mut App, mut done: impl FnMut(&mut App) -> bool) {
    for _ in 0..3000 {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("not done after 3000 frames");
}

fn answer(app: &mut App, request: PathRequest) -> Result<Route, PathFailed> {
    let asker = app.world_mut().spawn(request).id();
    until(app, |app| {
        app.world().get::<Route>(asker).is_some() || app.world().get::<PathFailed>(asker).is_some()
    });
    match app.world().get::<Route>(asker) {
        Some(route) => Ok(route.clone()),
        None => Err(app
            .world()
            .get::<PathFailed>(asker)
            .cloned()
            .expect("failed")),
    }
}

fn terrain(app: &App, p: Point) -> Option<Terrain> {
    app.world().resource::<NavGrid>().terrain(p)
}

#[test]
fn each_class_keeps_to_what_it_may_enter() {
    let (mut app, soldier, boat, tank) = app();
    let (west, east) = (Point::new(0, 3), Point::new(11, 3));
    let walked =
        answer(&mut app, PathRequest::new(west, east).with_class(soldier)).expect("round the lake");
    assert!(
        walked
            .cells
            .iter()
            .all(|&p| terrain(&app, p) != Some(WATER))
    );
    let plain = answer(&mut app, PathRequest::new(west, east)).expect("across the lake");
    assert!(
        plain.cost() < walked.cost(),
        "the default class wades straight across"
    );
    let sailed = answer(
        &mut app,
        PathRequest::new(Point::new(4, 2), Point::new(7, 5)).with_class(boat),
    )
    .expect("on the lake");
    assert!(
        sailed
            .cells
            .iter()
            .all(|&p| terrain(&app, p) == Some(WATER))
    );
    assert!((sailed.cost() - 3.0 * std::f64::consts::SQRT_2).abs() < 1e-9);
    // The boat on land: refused with its reason.
    let ashore = answer(&mut app, PathRequest::new(west, east).with_class(boat)).unwrap_err();
    assert_eq!(ashore.refusal(), Some(QueryError::StartClosed(west)));
    let nobody = answer(
        &mut app,
        PathRequest::new(west, east).with_class(ClassId(9)),
    )
    .unwrap_err();
    assert_eq!(nobody.reason, PathFailure::UnknownClass);
    assert_eq!(
        app.world().resource::<UnitClasses>().get(ClassId(9)),
        Err(UnknownClass(ClassId(9)))
    );
    // A tank two cells across: round the lake where it fits, never on water.
    let rolled = answer(
        &mut app,
        PathRequest::new(west, Point::new(10, 3))
            .with_class(tank)
            .with_size(2),
    )
    .expect("a route");
    for &p in &rolled.cells {
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let under = terrain(&app, Point::new(p.x + dx, p.y + dy));
            assert!(under.is_some() && under != Some(WATER), "{p:?}");
        }
    }
}

/// A soldier walks round the lake; mud painted across its way (dear to it, not closed) and a
/// flood (water, closed) make it plan again. At every frame it stands on no water.
#[test]
fn a_terrain_edit_re_routes_a_walking_agent() {
    let (mut app, soldier, _, _) = app();
    let place = Transform::from_xyz(0.0, 0.0, 0.0);
    let agent = (
        GridAgent::new(6.0).with_class(soldier),
        place,
        Destination(Point::new(11, 0)),
    );
    let walker = app.world_mut().spawn(agent).id();
    let here = |app: &App| app.world().get::<AgentProgress>(walker).map(|p| p.cell());
    for frame in 0..400 {
        if frame == 3 {
            // Flood row 0 and row 1 in columns 5 and 6: the way along the top is gone.
            for y in 0..2 {
                for x in 5..7 {
                    app.world_mut()
                        .spawn((CellTerrain(WATER), CellPos(Point::new(x, y))));
                }
            }
        }
        app.update();
        std::thread::sleep(Duration::from_millis(1));
        if let Some(p) = here(&app) {
            assert_ne!(
                terrain(&app, p),
                Some(WATER),
                "frame {frame}: on water at {p:?}"
            );
        }
        if app.world().get::<AgentStatus>(walker) == Some(&AgentStatus::Arrived) {
            break;
        }
    }
    assert_eq!(
        here(&app),
        Some(Point::new(11, 0)),
        "it went round by the south"
    );
}

/// A terrain edit re-plans exactly the agents whose class it changes: painting under a soldier's
/// way a terrain it reads as ground keeps its route; mud, five times dearer to it, does not.
#[test]
fn a_terrain_edit_re_plans_only_the_classes_it_changes() {
    let (mut app, soldier, _, _) = app();
    let place = Transform::from_xyz(0.0, 7.0, 0.0);
    let agent = (
        GridAgent::new(0.5).with_class(soldier),
        place,
        Destination(Point::new(11, 7)),
    );
    let walker = app.world_mut().spawn(agent).id();
    until(&mut app, |app| app.world().get::<Route>(walker).is_some());
    let planned = app.world().get::<Route>(walker).map(|r| r.revision);
    let started = app.world().resource::<PathService>().stats().started;
    // Terrain 9, which the soldier's class leaves at factor 1 as it does ground, along its row.
    for x in 3..9 {
        app.world_mut()
            .spawn((CellTerrain(Terrain(9)), CellPos(Point::new(x, 7))));
    }
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(
        app.world().get::<Route>(walker).map(|r| r.revision),
        planned,
        "kept"
    );
    assert_eq!(
        app.world().resource::<PathService>().stats().started,
        started
    );
    // Mud on the same cells: dearer to the soldier, so it plans again.
    for x in 3..9 {
        app.world_mut()
            .spawn((CellTerrain(MUD), CellPos(Point::new(x, 7))));
    }
    until(&mut app, |app| {
        app.world().resource::<PathService>().stats().started > started
    });
}

/// Terrain from entities: changed through `&mut CellTerrain`, then despawned, its cell goes back
/// to ground.
#[test]
fn a_terrain_entity_changed_and_despawned_is_followed() {
    let (mut app, ..) = app();
    let at = Point::new(10, 7);
    let tile = app.world_mut().spawn((CellTerrain(MUD), CellPos(at))).id();
    app.update();
    assert_eq!(terrain(&app, at), Some(MUD));
    app.world_mut()
        .get_mut::<CellTerrain>(tile)
        .expect("the tile")
        .0 = WATER;
    app.update();
    assert_eq!(terrain(&app, at), Some(WATER));
    app.world_mut().despawn(tile);
    app.update();
    assert_eq!(terrain(&app, at), Some(Terrain::GROUND));
}
