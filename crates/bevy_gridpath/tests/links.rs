//! Links through the plugin, headless: two floors side by side on one grid, a wall between,
//! joined by stairs ([`NavLink`] entities). An agent walks from one floor to the other, checked at
//! every frame; a door shut and opened at run time; a ladder of a kind one class may not take;
//! a link entity changed and despawned.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridpath::prelude::*;
use bevy_gridpath::{AgentProgress, NavLink, Obstacle};
use gridpath::Link;
use std::time::Duration;

const LADDER: Terrain = Terrain(20);
/// The wall between the two floors.
const WALL_X: i32 = 6;

/// A 13 × 5 grid: floor one in columns 0-5, floor two in columns 7-12.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, GridPathPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )))
        .insert_resource(NavGrid::new(13, 5).expect("a grid"));
    for y in 0..5 {
        app.world_mut()
            .spawn((Obstacle, CellPos(Point::new(WALL_X, y))));
    }
    app.update();
    app
}

fn stairs() -> NavLink {
    NavLink(Link::new(Point::new(2, 2), Point::new(10, 2), 3))
}

fn walker(app: &mut App, class: ClassId) -> Entity {
    let agent = (
        GridAgent::new(4.0).with_class(class),
        Transform::from_xyz(0.0, 2.0, 0.0),
        Destination(Point::new(12, 2)),
    );
    app.world_mut().spawn(agent).id()
}

/// Runs up to `frames` frames, checking at each that the agent stands on a floor, never in the
/// wall (nor half way into it); returns its status at the end.
fn walk(app: &mut App, agent: Entity, frames: usize) -> Option<AgentStatus> {
    for frame in 0..frames {
        app.update();
        std::thread::sleep(Duration::from_millis(1));
        let progress = app.world().get::<AgentProgress>(agent);
        if let Some(at) = progress.and_then(AgentProgress::position) {
            assert_ne!(
                at.x.round() as i32,
                WALL_X,
                "frame {frame}: in the wall at {at}"
            );
        }
        if app.world().get::<AgentStatus>(agent) == Some(&AgentStatus::Arrived) {
            break;
        }
    }
    app.world().get::<AgentStatus>(agent).copied()
}

fn cell(app: &App, agent: Entity) -> Option<Point> {
    app.world()
        .get::<AgentProgress>(agent)
        .map(AgentProgress::cell)
}

#[test]
fn an_agent_takes_the_stairs_to_the_other_floor() {
    let mut app = app();
    app.world_mut().spawn(stairs());
    let agent = walker(&mut app, ClassId::DEFAULT);
    assert_eq!(walk(&mut app, agent, 400), Some(AgentStatus::Arrived));
    assert_eq!(cell(&app, agent), Some(Point::new(12, 2)));
    let route = app.world().get::<Route>(agent).expect("its route");
    let stairs = route
        .cells
        .windows(2)
        .position(|w| w == [Point::new(2, 2), Point::new(10, 2)]);
    assert!(stairs.is_some(), "{:?}", route.cells);
    // Two steps, the stairs (3), two steps: the costs along the route count the link.
    assert!((route.cost() - 7.0).abs() < 1e-9, "{}", route.cost());
}

/// A door shut: no way, the agent is stuck. Opened through `&mut NavLink`: it plans again and
/// walks through.
#[test]
fn a_door_shut_and_opened_at_run_time() {
    let mut app = app();
    let door = app
        .world_mut()
        .spawn(NavLink(stairs().0.opened(false)))
        .id();
    let agent = walker(&mut app, ClassId::DEFAULT);
    assert_eq!(walk(&mut app, agent, 60), Some(AgentStatus::Stuck));
    assert_eq!(cell(&app, agent), Some(Point::new(0, 2)));
    app.world_mut()
        .get_mut::<NavLink>(door)
        .expect("the door")
        .0
        .open = true;
    assert_eq!(walk(&mut app, agent, 400), Some(AgentStatus::Arrived));
}

/// A ladder is a link of a kind: a soldier climbs it, a tank's class closes it.
#[test]
fn a_ladder_only_some_classes_may_take() {
    let mut app = app();
    let mut classes = app.world_mut().resource_mut::<UnitClasses>();
    let soldier = classes.add("soldier", UnitClass::new());
    let tank = classes.add("tank", UnitClass::new().without(LADDER));
    app.world_mut().spawn(NavLink(stairs().0.of_kind(LADDER)));
    let (climber, roller) = (walker(&mut app, soldier), walker(&mut app, tank));
    for _ in 0..400 {
        app.update();
        std::thread::sleep(Duration::from_millis(1));
        let status = |e| app.world().get::<AgentStatus>(e).copied();
        if status(climber) == Some(AgentStatus::Arrived)
            && status(roller) == Some(AgentStatus::Stuck)
        {
            break;
        }
    }
    assert_eq!(cell(&app, climber), Some(Point::new(12, 2)));
    assert_eq!(cell(&app, roller), Some(Point::new(0, 2)));
    assert_eq!(
        app.world().get::<AgentStatus>(roller),
        Some(&AgentStatus::Stuck)
    );
}

/// A link entity moved (its `Link` replaced) and despawned: the grid follows.
#[test]
fn a_link_entity_changed_and_despawned_is_followed() {
    let mut app = app();
    let link = app.world_mut().spawn(stairs()).id();
    app.update();
    let links = |app: &App| -> Vec<Link> {
        let nav = app.world().resource::<NavGrid>();
        nav.links().map(|(_, l)| *l).collect()
    };
    assert_eq!(links(&app), [stairs().0]);
    let moved = Link::new(Point::new(1, 1), Point::new(11, 1), 2).one_way();
    app.world_mut()
        .get_mut::<NavLink>(link)
        .expect("the link")
        .0 = moved;
    app.update();
    assert_eq!(links(&app), [moved]);
    app.world_mut().despawn(link);
    app.update();
    assert_eq!(links(&app), []);
    // An end off the grid: left out, and nothing breaks.
    app.world_mut()
        .spawn(NavLink(Link::new(Point::new(0, 0), Point::new(40, 0), 1)));
    app.update();
    assert_eq!(links(&app), []);
}
