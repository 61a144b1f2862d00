//! The plugin's real systems in a headless app: `MinimalPlugins` (with its task pools, so the
//! searches really run off the frame) and a manual clock of 50 ms a frame. Waiting for a search
//! is a bounded loop of frames, never a timing assertion.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_ecs_tilemap::tiles::TilePos;
use bevy_gridpath::gridpath::Algorithm;
use bevy_gridpath::prelude::*;
use bevy_gridpath::{AgentProgress, ObstacleIgnored, PathStats};
use std::time::Duration;

fn app(width: u32, height: u32) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, GridPathPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )))
        .insert_resource(NavGrid::new(width, height).expect("a grid"));
    app.update();
    app
}

fn p(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

fn wall(app: &mut App, at: Point) -> Entity {
    app.world_mut().spawn((Obstacle, CellPos(at))).id()
}

fn stats(app: &App) -> PathStats {
    app.world().resource::<PathService>().stats()
}

/// Runs frames until `done`. The bound is a guard against a hang, not a speed check: a search
/// on these small grids takes microseconds, but a loaded machine may keep one off the frame for
/// many frames, and the slowest walk here is a few hundred frames long.
fn until(app: &mut App, mut done: impl FnMut(&mut App) -> bool) {
    for _ in 0..FRAMES {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("not done after {FRAMES} frames");
}

const FRAMES: usize = 3000;

fn nav(app: &App) -> &NavGrid {
    app.world().resource::<NavGrid>()
}

/// A walking agent at `at` (the layout is one world unit a cell) heading for `to`.
fn walker(app: &mut App, speed: f32, at: Point, to: Point) -> Entity {
    let place = Transform::from_xyz(at.x as f32, at.y as f32, 0.0);
    let agent = (GridAgent::new(speed), place, Destination(to));
    app.world_mut().spawn(agent).id()
}

fn route_of(app: &App, e: Entity) -> Option<Route> {
    app.world().get::<Route>(e).cloned()
}

#[test]
fn a_request_is_answered_with_a_route() {
    let mut app = app(10, 10);
    let asker = app
        .world_mut()
        .spawn(PathRequest::new(p(0, 0), p(9, 9)))
        .id();
    until(&mut app, |app| route_of(app, asker).is_some());
    let route = route_of(&app, asker).expect("a route");
    assert_eq!(route.cells.first(), Some(&p(0, 0)));
    assert_eq!(route.cells.last(), Some(&p(9, 9)));
    assert!((route.cost() - 9.0 * std::f64::consts::SQRT_2).abs() < 1e-9);
    assert!(
        app.world().get::<PathRequest>(asker).is_none(),
        "answered, so removed"
    );
    assert_eq!(stats(&app).answered, 1);
}

/// With the searches in the frame ([`SearchThread::Frame`]), a request is answered at the frame
/// after the one that searched it, however busy the machine: no loop waits for it. So is a
/// shared flow field.
#[test]
fn searches_in_the_frame_land_at_the_next_frame() {
    let mut app = app(10, 10);
    app.insert_resource(SearchThread::Frame);
    let asker = app
        .world_mut()
        .spawn(PathRequest::new(p(0, 0), p(9, 9)))
        .id();
    let flow = walker(&mut app, 4.0, p(0, 9), p(9, 0));
    app.world_mut().entity_mut(flow).insert(SharedFlow);
    // With every thread of the task pool held busy: nothing of these frames may wait on it.
    with_task_pool_held(|| {
        app.update();
        assert!(route_of(&app, asker).is_none(), "searched in this frame");
        app.update();
    });
    let route = route_of(&app, asker).expect("answered at the next frame");
    assert_eq!(route.cells.last(), Some(&p(9, 9)));
    let fields = app.world().resource::<FlowFields>();
    assert_eq!(fields.computed(), 1, "the flow field too");
}

/// Runs `run` while every thread of the async task pool is held by a task that waits for it to
/// end: work sent to the pool meanwhile cannot finish. (For a few frames only: the other tests of
/// this file share the pool, and merely wait.)
fn with_task_pool_held(run: impl FnOnce()) {
    use bevy::tasks::{AsyncComputeTaskPool, block_on};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let pool = AsyncComputeTaskPool::get();
    let (held, done) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicBool::new(false)),
    );
    let holds: Vec<_> = (0..pool.thread_num())
        .map(|_| {
            let (held, done) = (held.clone(), done.clone());
            pool.spawn(async move {
                held.fetch_add(1, Ordering::SeqCst);
                while !done.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
        })
        .collect();
    while held.load(Ordering::SeqCst) < pool.thread_num() {
        std::thread::sleep(Duration::from_millis(1));
    }
    // Let go even if `run` panics: a failed assertion must not hold up the other tests.
    struct LetGo(Arc<AtomicBool>);
    impl Drop for LetGo {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let let_go = LetGo(done);
    run();
    drop(let_go);
    holds.into_iter().for_each(block_on);
}

#[test]
fn a_wall_dropped_on_a_route_being_searched_discards_it_and_the_answer_avoids_the_wall() {
    let mut app = app(12, 5);
    let asker = app
        .world_mut()
        .spawn(PathRequest::new(p(0, 2), p(11, 2)))
        .id();
    app.update(); // the search starts on the grid without the wall
    assert_eq!(stats(&app).started, 1);
    for y in 0..4 {
        wall(&mut app, p(6, y)); // across the straight line, leaving a gap at the bottom
    }
    until(&mut app, |app| route_of(app, asker).is_some());
    let route = route_of(&app, asker).expect("a route");
    let nav = app.world().resource::<NavGrid>();
    assert!(
        route.cells.iter().all(|&c| nav.is_passable(c)),
        "{:?}",
        route.cells
    );
    assert_eq!(route.revision, nav.revision());
    assert!(stats(&app).discarded >= 1, "{:?}", stats(&app));
}

#[test]
fn an_unreachable_goal_fails_at_once_with_its_reason_and_no_search() {
    let mut app = app(8, 8);
    for y in 0..8 {
        wall(&mut app, p(4, y));
    }
    let cut_off = app
        .world_mut()
        .spawn(PathRequest::new(p(0, 0), p(7, 7)))
        .id();
    let on_wall = app
        .world_mut()
        .spawn(PathRequest::new(p(0, 0), p(4, 3)))
        .id();
    let outside = app
        .world_mut()
        .spawn(PathRequest::new(p(-1, 0), p(1, 1)))
        .id();
    app.update();
    let reason = |e| app.world().get::<PathFailed>(e).map(|f| f.reason);
    assert_eq!(reason(cut_off), Some(PathFailure::Unreachable));
    assert_eq!(reason(on_wall), Some(PathFailure::GoalBlocked));
    assert_eq!(reason(outside), Some(PathFailure::StartOutside));
    assert_eq!(stats(&app).started, 0);
    let mut service = app
        .world_mut()
        .remove_resource::<PathService>()
        .expect("service");
    let nav = app.world().resource::<NavGrid>();
    assert!(!service.reachable(nav, p(0, 0), p(7, 7), Movement::default()));
    assert!(service.reachable(nav, p(0, 0), p(3, 7), Movement::default()));
}

#[test]
fn a_waiting_request_whose_goal_an_edit_cuts_off_fails_when_its_turn_comes() {
    // One search at a time: the second request waits, found answerable as it came, while a
    // wall cuts its goal off. It is checked again at its turn, not searched as if reachable.
    let mut app = app(8, 8);
    {
        let mut service = app.world_mut().resource_mut::<PathService>();
        service.budget = 1;
        service.max_in_flight = 1;
    }
    let first = app
        .world_mut()
        .spawn(PathRequest::new(p(0, 0), p(3, 0)))
        .id();
    let second = app
        .world_mut()
        .spawn(PathRequest::new(p(0, 7), p(7, 7)))
        .id();
    app.update();
    assert_eq!(stats(&app).started, 1);
    for y in 0..8 {
        wall(&mut app, p(5, y));
    }
    until(&mut app, |app| {
        app.world().get::<PathFailed>(second).is_some()
            && app.world().get::<PathRequest>(first).is_none()
    });
    let failed = app.world().get::<PathFailed>(second).expect("told");
    assert_eq!(failed.reason, PathFailure::Unreachable);
    assert_eq!(stats(&app).started, 1, "the second was never searched");
}

#[test]
fn a_request_removed_while_searched_is_cancelled() {
    let mut app = app(30, 30);
    let asker = app
        .world_mut()
        .spawn(PathRequest::new(p(0, 0), p(29, 29)))
        .id();
    app.update();
    app.world_mut().entity_mut(asker).remove::<PathRequest>();
    app.update();
    let failed = app.world().get::<PathFailed>(asker).expect("told");
    assert_eq!(failed.reason, PathFailure::Cancelled);
    assert!(route_of(&app, asker).is_none());
}

#[test]
fn a_thousand_requests_in_one_frame_start_no_more_than_the_budget() {
    let mut app = app(64, 64);
    app.world_mut().resource_mut::<PathService>().budget = 50;
    for i in 0..1000 {
        let from = p(i % 64, (i / 64) % 64);
        app.world_mut()
            .spawn(PathRequest::new(from, p(63 - i % 64, 63)));
    }
    let mut last = 0;
    for _ in 0..5 {
        app.update();
        let started = stats(&app).started;
        assert!(
            started - last <= 50,
            "{} started in one frame",
            started - last
        );
        last = started;
    }
    until(&mut app, |app| {
        stats(app).answered + stats(app).failed == 1000
    });
}

#[test]
fn no_more_searches_run_at_once_than_the_service_allows() {
    // A thousand requests in one frame wait as requests, not as searches queued on the task
    // pool (each holding memory the size of the grid): at most 4 run at any frame.
    let mut app = app(64, 64);
    {
        let mut service = app.world_mut().resource_mut::<PathService>();
        service.budget = 50;
        service.max_in_flight = 4;
    }
    for i in 0..1000 {
        let from = p(i % 64, (i / 64) % 64);
        app.world_mut()
            .spawn(PathRequest::new(from, p(63 - i % 64, 63)));
    }
    until(&mut app, |app| {
        let s = stats(app);
        let done = s.answered + s.failed + s.discarded;
        assert!(s.started <= done + 4, "{} running", s.started - done);
        s.answered + s.failed == 1000
    });
}

#[test]
fn the_grid_follows_walls_and_costs_added_changed_and_removed() {
    let mut app = app(6, 6);
    let w = wall(&mut app, p(1, 1));
    let nav = |app: &App| app.world().resource::<NavGrid>().grid().clone();
    assert!(!nav(&app).is_passable(p(1, 1)));
    // Moved.
    app.world_mut().entity_mut(w).insert(CellPos(p(2, 1)));
    app.update();
    assert!(nav(&app).is_passable(p(1, 1)));
    assert!(!nav(&app).is_passable(p(2, 1)));
    // A second wall on the same cell walls nothing, and says so.
    let doubled = wall(&mut app, p(2, 1));
    assert_eq!(
        app.world().resource::<NavGrid>().obstacle_at(p(2, 1)),
        Some(w)
    );
    app.world_mut().despawn(doubled);
    assert!(!nav(&app).is_passable(p(2, 1)), "the first wall stays");
    // Removed.
    app.world_mut().entity_mut(w).remove::<Obstacle>();
    assert!(nav(&app).is_passable(p(2, 1)));
    // Costs: set, changed, removed.
    let mud = app.world_mut().spawn((CellCost(3), CellPos(p(4, 4)))).id();
    assert_eq!(nav(&app).cell(p(4, 4)), Some(gridpath::Cell::Passable(3)));
    app.world_mut().get_mut::<CellCost>(mud).expect("cost").0 = 5;
    app.update();
    assert_eq!(nav(&app).cell(p(4, 4)), Some(gridpath::Cell::Passable(5)));
    app.world_mut().despawn(mud);
    assert_eq!(nav(&app).cell(p(4, 4)), Some(gridpath::Cell::Passable(1)));
    // Tiles: their TilePos is their cell.
    let tile = app
        .world_mut()
        .spawn((Obstacle, TilePos { x: 5, y: 0 }))
        .id();
    assert!(!nav(&app).is_passable(p(5, 0)));
    app.world_mut().despawn(tile);
    assert!(nav(&app).is_passable(p(5, 0)));
}

/// The obstacles [`ObstacleIgnored`] named, in the order it named them.
#[derive(Resource, Default)]
struct Ignored(Vec<Entity>);

/// A headless app with the plugin and no grid yet, recording ignored obstacles.
fn app_without_a_grid() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, GridPathPlugin))
        .init_resource::<Ignored>()
        .add_observer(|ignored: On<ObstacleIgnored>, mut seen: ResMut<Ignored>| {
            seen.0.push(ignored.entity);
        });
    app
}

fn walled(app: &App) -> Vec<Point> {
    let mut cells: Vec<Point> = nav(app).obstacles().collect();
    cells.sort_by_key(|c| (c.y, c.x));
    cells
}

#[test]
fn walls_and_costs_spawned_before_the_grid_are_read_when_it_comes() {
    let mut app = app_without_a_grid();
    wall(&mut app, p(1, 1));
    app.world_mut().spawn((Obstacle, TilePos { x: 2, y: 1 }));
    app.world_mut().spawn((CellCost(4), CellPos(p(3, 3))));
    let outside = wall(&mut app, p(9, 9));
    app.update(); // frames with no grid lose nothing
    app.world_mut()
        .insert_resource(NavGrid::new(6, 6).expect("a grid"));
    assert_eq!(walled(&app), vec![p(1, 1), p(2, 1)]);
    assert_eq!(
        nav(&app).grid().cell(p(3, 3)),
        Some(gridpath::Cell::Passable(4))
    );
    assert_eq!(app.world().resource::<Ignored>().0, vec![outside]);
    // And after it, as before.
    wall(&mut app, p(4, 4));
    assert_eq!(walled(&app), vec![p(1, 1), p(2, 1), p(4, 4)]);
}

#[test]
fn a_grid_spawned_with_its_walls_in_one_batch_of_commands_has_them_whatever_the_order() {
    for grid_first in [true, false] {
        let mut app = app_without_a_grid();
        app.add_systems(Startup, move |mut commands: Commands| {
            let grid = NavGrid::new(6, 6).expect("a grid");
            if grid_first {
                commands.insert_resource(grid);
                commands.spawn((Obstacle, CellPos(p(2, 2))));
            } else {
                commands.spawn((Obstacle, CellPos(p(2, 2))));
                commands.insert_resource(grid);
            }
        });
        app.update();
        assert_eq!(walled(&app), vec![p(2, 2)], "grid first: {grid_first}");
        assert!(app.world().resource::<Ignored>().0.is_empty());
    }
}

#[test]
fn a_grid_replaced_by_a_new_one_keeps_the_walls_and_costs_of_the_world() {
    let mut app = app(6, 6);
    app.init_resource::<Ignored>().add_observer(
        |ignored: On<ObstacleIgnored>, mut seen: ResMut<Ignored>| {
            seen.0.push(ignored.entity);
        },
    );
    let kept = wall(&mut app, p(1, 1));
    let moved = wall(&mut app, p(5, 5));
    app.world_mut().spawn((CellCost(2), CellPos(p(0, 3))));
    // A smaller level: the wall at (5, 5) no longer fits, and says so.
    app.world_mut()
        .insert_resource(NavGrid::new(4, 4).expect("a grid"));
    assert_eq!(walled(&app), vec![p(1, 1)]);
    assert_eq!(nav(&app).obstacle_at(p(1, 1)), Some(kept));
    assert_eq!(
        nav(&app).grid().cell(p(0, 3)),
        Some(gridpath::Cell::Passable(2))
    );
    assert_eq!(app.world().resource::<Ignored>().0, vec![moved]);
    // Moved back onto the grid, it walls its cell; removed, the cell is floor again.
    app.world_mut().entity_mut(moved).insert(CellPos(p(3, 3)));
    app.update();
    assert_eq!(walled(&app), vec![p(1, 1), p(3, 3)]);
    app.world_mut().despawn(kept);
    assert_eq!(walled(&app), vec![p(3, 3)]);
    assert!(nav(&app).is_passable(p(1, 1)));
}

/// Runs frames until the agent's status is `want`, checking at every frame that it stands on no
/// wall.
fn walk_until(app: &mut App, agent: Entity, want: AgentStatus) {
    until(app, |app| {
        let progress = app.world().get::<AgentProgress>(agent).expect("an agent");
        let nav = app.world().resource::<NavGrid>();
        if let Some(at) = progress.position() {
            let near = Point::new(at.x.round() as i32, at.y.round() as i32);
            assert!(
                nav.is_passable(near),
                "the agent stands on a wall at {near}"
            );
        }
        app.world().get::<AgentStatus>(agent) == Some(&want)
    });
}

#[test]
fn an_agent_has_no_placed_cell_until_the_plugin_places_it() {
    // `cell()` reads (0, 0) in the frame an agent is spawned; `placed_cell()` says so.
    let mut app = app(16, 9);
    let agent = walker(&mut app, 6.0, p(5, 3), p(14, 4));
    let placed = |app: &App| {
        app.world()
            .get::<AgentProgress>(agent)
            .and_then(AgentProgress::placed_cell)
    };
    assert_eq!(placed(&app), None);
    app.update();
    assert_eq!(placed(&app), Some(p(5, 3)));
}

#[test]
fn an_agent_walks_to_its_destination_round_walls_dropped_in_its_way() {
    let mut app = app(16, 9);
    let agent = walker(&mut app, 6.0, p(1, 4), p(14, 4));
    walk_until(&mut app, agent, AgentStatus::Walking);
    // A wall across its way, with a gap at the top, while it walks.
    for y in 1..9 {
        wall(&mut app, p(8, y));
    }
    walk_until(&mut app, agent, AgentStatus::Arrived);
    let progress = app.world().get::<AgentProgress>(agent).expect("an agent");
    assert_eq!(progress.cell(), p(14, 4));
    let at = app
        .world()
        .get::<Transform>(agent)
        .expect("placed")
        .translation;
    assert_eq!(
        (at.x, at.y),
        (14.0, 4.0),
        "the transform follows, in the grid's layout"
    );
}

#[test]
fn a_cut_off_agent_is_stuck_until_a_wall_goes() {
    let mut app = app(10, 5);
    let walls: Vec<Entity> = (0..5).map(|y| wall(&mut app, p(5, y))).collect();
    let agent = app
        .world_mut()
        .spawn((
            GridAgent::new(8.0),
            Transform::default(),
            Destination(p(9, 2)),
        ))
        .id();
    walk_until(&mut app, agent, AgentStatus::Stuck);
    app.world_mut().despawn(walls[2]);
    walk_until(&mut app, agent, AgentStatus::Arrived);
}

#[test]
fn an_agent_never_steps_into_a_wall_dropped_on_the_cell_it_is_heading_for() {
    let mut app = app(20, 9);
    let agent = walker(&mut app, 5.0, p(1, 4), p(18, 4));
    walk_until(&mut app, agent, AgentStatus::Walking);
    // Five times: a wall appears right in front of it, while it is on its way there but not yet
    // half-way (past that, the wall would land on it: then it steps off, another case).
    for _ in 0..5 {
        walk_until(&mut app, agent, AgentStatus::Walking);
        let world = app.world();
        let (Some(route), Some(progress)) =
            (world.get::<Route>(agent), world.get::<AgentProgress>(agent))
        else {
            continue;
        };
        let at = progress.position().expect("placed");
        if let Some(&ahead) = progress.remaining(route).get(1)
            && ahead != p(18, 4)
            && at.distance(Vec2::new(ahead.x as f32, ahead.y as f32)) > 0.6
        {
            wall(&mut app, ahead);
        }
        for _ in 0..6 {
            walk_until(&mut app, agent, AgentStatus::Walking);
            app.update();
        }
    }
    walk_until(&mut app, agent, AgentStatus::Arrived);
}

#[test]
fn flow_agents_share_one_field_and_walk_round_a_wall_built_while_they_walk() {
    let mut app = app(24, 12);
    let goal = p(22, 6);
    let agents: Vec<Entity> = (0..40)
        .map(|i| {
            let at = Transform::from_xyz((i % 4) as f32, (i / 4) as f32 + 1.0, 0.0);
            let agent = (GridAgent::new(6.0), SharedFlow, Destination(goal));
            app.world_mut().spawn((agent, at)).id()
        })
        .collect();
    let all_walking = |app: &App| {
        agents
            .iter()
            .all(|&a| app.world().get::<AgentStatus>(a) == Some(&AgentStatus::Walking))
    };
    until(&mut app, |app| all_walking(app));
    assert_eq!(
        app.world().resource::<FlowFields>().iter().count(),
        1,
        "forty agents, one destination, one field"
    );
    assert_eq!(stats(&app).started, 0, "and no search");
    // A wall across the map with a gap at the top, while they walk.
    for y in 0..10 {
        wall(&mut app, p(12, y));
    }
    until(&mut app, |app| {
        let nav = app.world().resource::<NavGrid>();
        for &a in &agents {
            let at = app
                .world()
                .get::<AgentProgress>(a)
                .and_then(|p| p.position());
            let at = at.expect("placed");
            let near = Point::new(at.x.round() as i32, at.y.round() as i32);
            assert!(nav.is_passable(near), "an agent stands on a wall at {near}");
        }
        agents
            .iter()
            .all(|&a| app.world().get::<AgentStatus>(a) == Some(&AgentStatus::Arrived))
    });
    assert!(app.world().resource::<FlowFields>().computed() >= 2);
}

#[test]
fn a_flow_agent_cut_off_is_stuck_and_an_unused_field_is_dropped() {
    let mut app = app(10, 5);
    for y in 0..5 {
        wall(&mut app, p(5, y));
    }
    let agent = (GridAgent::new(8.0), SharedFlow, Destination(p(9, 2)));
    let agent = app.world_mut().spawn((agent, Transform::default())).id();
    walk_until(&mut app, agent, AgentStatus::Stuck);
    app.world_mut().entity_mut(agent).remove::<Destination>();
    app.update();
    assert_eq!(app.world().resource::<FlowFields>().iter().count(), 0);
}

#[test]
fn a_request_may_name_its_search() {
    let mut app = app(16, 8);
    for y in 1..8 {
        wall(&mut app, p(8, y));
    }
    let ask = |app: &mut App, algorithm| {
        let request = PathRequest::new(p(1, 6), p(14, 5)).with_algorithm(algorithm);
        let asker = app.world_mut().spawn(request).id();
        until(app, |app| route_of(app, asker).is_some());
        route_of(app, asker).expect("a route")
    };
    let astar = ask(&mut app, Algorithm::AStar);
    for algorithm in [
        Algorithm::Dijkstra,
        Algorithm::JumpPoint,
        Algorithm::JumpPointPlus,
    ] {
        let route = ask(&mut app, algorithm);
        assert!(
            (route.cost() - astar.cost()).abs() < 1e-9,
            "{algorithm:?} finds a shortest route too"
        );
        assert!(
            route
                .cells
                .windows(2)
                .all(|w| w[0].x.abs_diff(w[1].x) <= 1 && w[0].y.abs_diff(w[1].y) <= 1),
            "{algorithm:?} answers cell by cell"
        );
    }
    // Theta*: turning points in line of sight, shorter than any 8-way route.
    let theta = ask(&mut app, Algorithm::ThetaStar);
    assert!(theta.cells.len() < astar.cells.len());
    assert!(theta.cost() < astar.cost());
    assert!((theta.cost() - theta.costs[theta.costs.len() - 1]).abs() < 1e-12);
}

#[test]
fn a_request_with_its_own_search_gets_it_back_for_this_query() {
    use bevy_gridpath::OwnSearch;
    use bevy_gridpath::gridpath::{Search, SearchStatus};
    let mut app = app(12, 5);
    for y in 0..5 {
        wall(&mut app, p(6, y)); // a wall right across: no way
    }
    let asker = app
        .world_mut()
        .spawn((
            PathRequest::new(p(0, 2), p(11, 2)),
            OwnSearch(Some(Search::new())),
        ))
        .id();
    until(&mut app, |app| {
        app.world().get::<PathFailed>(asker).is_some()
    });
    let failed = app.world().get::<PathFailed>(asker).expect("no way");
    assert_eq!(failed.reason, PathFailure::Unreachable);
    let own = app.world().get::<OwnSearch>(asker).expect("still there");
    let search = own.0.as_ref().expect("the search came back");
    assert_eq!(
        search.status(),
        SearchStatus::NoPath,
        "handed to its search even though the regions already said so: it is of this query"
    );
    assert_eq!(stats(&app).started, 1);
    // Asked again where there is a way: the same search comes back with the way.
    app.world_mut()
        .entity_mut(asker)
        .insert(PathRequest::new(p(0, 2), p(5, 2)));
    until(&mut app, |app| route_of(app, asker).is_some());
    let own = app.world().get::<OwnSearch>(asker).expect("still there");
    let search = own.0.as_ref().expect("the search came back");
    assert_eq!(search.path().last(), Some(&p(5, 2)));
    assert!(search.expanded() > 0);
}

#[test]
fn the_closest_reachable_goal_is_answered_with_a_partial_route() {
    use bevy_gridpath::gridpath::{GoalMode, SearchConfig};
    let mut app = app(12, 5);
    for y in 0..5 {
        wall(&mut app, p(6, y));
    }
    app.update();
    let config = SearchConfig {
        goal_mode: GoalMode::ClosestReachable,
        ..SearchConfig::default()
    };
    let asker = app
        .world_mut()
        .spawn(PathRequest::new(p(0, 2), p(11, 2)).with_config(config))
        .id();
    until(&mut app, |app| route_of(app, asker).is_some());
    let route = route_of(&app, asker).expect("a route");
    assert!(route.partial);
    assert_eq!(
        route.cells.last(),
        Some(&p(5, 2)),
        "as near as the wall lets it"
    );
}

#[test]
fn search_now_answers_in_the_frame_with_the_same_reasons() {
    use bevy_gridpath::gridpath::Search;
    let mut app = app(10, 10);
    wall(&mut app, p(5, 5));
    app.update();
    let world = app.world_mut();
    let mut search = Search::new();
    world.resource_scope(|world, mut service: Mut<PathService>| {
        let nav = world.resource::<NavGrid>();
        let route = service
            .search_now(nav, &PathRequest::new(p(0, 0), p(9, 9)), &mut search)
            .expect("a route");
        assert_eq!(route.cells.last(), Some(&p(9, 9)));
        assert_eq!(route.revision, nav.revision());
        let on_wall = service.search_now(nav, &PathRequest::new(p(0, 0), p(5, 5)), &mut search);
        let failed = on_wall.expect_err("the goal is a wall");
        assert_eq!(failed.reason, PathFailure::GoalBlocked);
        assert!(
            failed
                .refusal()
                .is_some_and(|e| e.to_string().contains("(5, 5)"))
        );
        // JPS cannot answer on terrain costs: the core's reason comes through.
        world.spawn((CellCost(3), CellPos(p(2, 2))));
    });
    app.update();
    app.world_mut()
        .resource_scope(|world, mut service: Mut<PathService>| {
            let nav = world.resource::<NavGrid>();
            let jps = PathRequest::new(p(0, 0), p(9, 9)).with_algorithm(Algorithm::JumpPoint);
            let failed = service
                .search_now(nav, &jps, &mut search)
                .expect_err("refused");
            assert!(
                matches!(failed.reason, PathFailure::Refused(_)),
                "{failed:?}"
            );
        });
}

#[test]
fn an_agent_under_a_block_of_walls_moves_to_the_nearest_free_cell_and_says_so() {
    use bevy_gridpath::AgentEscaped;
    let mut app = app(12, 9);
    let agent = app
        .world_mut()
        .spawn((GridAgent::new(4.0), Transform::from_xyz(5.0, 4.0, 0.0)))
        .id();
    app.update(); // placed, with no destination: it stands still
    // A 3×3 stroke under it: no neighbour of its cell is free.
    for y in 3..=5 {
        for x in 4..=6 {
            wall(&mut app, p(x, y));
        }
    }
    app.update();
    let progress = app.world().get::<AgentProgress>(agent).expect("an agent");
    let here = progress.cell();
    assert!(nav(&app).is_passable(here), "moved off the walls to {here}");
    assert_eq!(
        (here.x - 5).abs().max((here.y - 4).abs()),
        2,
        "to the nearest free ring"
    );
    let said: Vec<AgentEscaped> = app
        .world_mut()
        .resource_mut::<Messages<AgentEscaped>>()
        .drain()
        .collect();
    assert_eq!(
        said,
        [AgentEscaped {
            agent,
            from: p(5, 4),
            to: here
        }]
    );
}

/// Found by the end-to-end soak: a flow agent moved off a wall had its route index set to "none"
/// (the largest number), and its next step by the field added one to it.
#[test]
fn a_flow_agent_under_a_block_of_walls_moves_off_it_and_walks_on() {
    let mut app = app(12, 9);
    let goal = p(11, 4);
    let agent = (GridAgent::new(6.0), SharedFlow, Destination(goal));
    let agent = app
        .world_mut()
        .spawn((agent, Transform::from_xyz(5.0, 4.0, 0.0)))
        .id();
    app.update();
    for y in 3..=5 {
        for x in 4..=6 {
            wall(&mut app, p(x, y));
        }
    }
    app.update();
    until(&mut app, |app| {
        let progress = app.world().get::<AgentProgress>(agent).expect("an agent");
        assert!(nav(app).is_passable(progress.cell()), "on a wall");
        progress.cell() == goal
    });
}

#[test]
fn an_agent_past_halfway_into_a_cell_walled_since_goes_back() {
    let mut app = app(20, 5);
    let agent = walker(&mut app, 3.0, p(1, 2), p(18, 2));
    // Frames until it is well past halfway to the next cell (more than one frame's walk back).
    let (from, ahead) = loop {
        app.update();
        std::thread::sleep(Duration::from_millis(1));
        let progress = app.world().get::<AgentProgress>(agent).expect("an agent");
        let Some(at) = progress.position() else {
            continue;
        };
        let here = progress.cell();
        let ahead = Point::new(at.x.round() as i32, at.y.round() as i32);
        if at.distance(Vec2::new(here.x as f32, here.y as f32)) > 0.7 {
            break (here, ahead);
        }
    };
    wall(&mut app, ahead);
    app.update();
    let progress = app.world().get::<AgentProgress>(agent).expect("an agent");
    let at = progress.position().expect("placed");
    let inside = Point::new(at.x.round() as i32, at.y.round() as i32);
    assert!(nav(&app).is_passable(inside), "inside the wall at {inside}");
    assert_eq!(progress.cell(), from);
    walk_until(&mut app, agent, AgentStatus::Arrived);
}

#[test]
fn a_wall_taken_away_re_routes_an_agent_only_if_it_could_shorten_its_way() {
    let mut app = app(30, 12);
    // A wall across x = 10 with a gap at the bottom: the way from (2, 1) to (20, 1) dips to
    // y = 11 and back. Another wall, far off and out of the way, at (28, 11).
    let across: Vec<Entity> = (0..11).map(|y| wall(&mut app, p(10, y))).collect();
    let far = wall(&mut app, p(28, 11));
    let agent = walker(&mut app, 4.0, p(2, 1), p(20, 1));
    walk_until(&mut app, agent, AgentStatus::Walking);
    until(&mut app, |app| {
        app.world().get::<PathRequest>(agent).is_none()
    });
    let asked = |app: &mut App| {
        app.update();
        app.world().get::<PathRequest>(agent).is_some()
    };
    app.world_mut().despawn(far);
    assert!(!asked(&mut app), "no way through (28, 11) is shorter");
    app.world_mut().despawn(across[1]);
    assert!(asked(&mut app), "a gap at (10, 1) is a shortcut");
    walk_until(&mut app, agent, AgentStatus::Arrived);
}

#[test]
fn hex_layouts_touch_the_tiles_bevy_ecs_tilemap_says_touch() {
    // The core's hex layouts against bevy_ecs_tilemap's own neighbours, for every coordinate
    // system and every tile of a 9 × 7 map: the same tiles, edges and corners included.
    use bevy_ecs_tilemap::helpers::hex_grid::neighbors::HexNeighbors;
    use bevy_ecs_tilemap::map::{HexCoordSystem, TilemapSize};
    use bevy_gridpath::gridpath::hex::HexLayout;
    let systems = [
        (HexCoordSystem::RowEven, HexLayout::RowEven),
        (HexCoordSystem::RowOdd, HexLayout::RowOdd),
        (HexCoordSystem::ColumnEven, HexLayout::ColumnEven),
        (HexCoordSystem::ColumnOdd, HexLayout::ColumnOdd),
        (HexCoordSystem::Row, HexLayout::Row),
        (HexCoordSystem::Column, HexLayout::Column),
    ];
    let size = TilemapSize { x: 9, y: 7 };
    for (system, layout) in systems {
        for y in 0..size.y {
            for x in 0..size.x {
                let tile = TilePos { x, y };
                let mut theirs: Vec<(u32, u32)> =
                    HexNeighbors::get_neighboring_positions(&tile, &size, &system)
                        .iter()
                        .map(|t| (t.x, t.y))
                        .collect();
                let mut ours: Vec<(u32, u32)> = layout
                    .neighbours(Point::new(x as i32, y as i32))
                    .into_iter()
                    .filter(|p| (0..9).contains(&p.x) && (0..7).contains(&p.y))
                    .map(|p| (p.x as u32, p.y as u32))
                    .collect();
                theirs.sort_unstable();
                ours.sort_unstable();
                assert_eq!(ours, theirs, "{system:?} at ({x}, {y})");
            }
        }
    }
}

/// A unit's range is answered off the frame, kept fresh after an edit (the old answer shown until
/// the new one lands), and refused in one component, not a panic, when the unit stands on a
/// wall; sight likewise.
#[test]
fn a_units_range_and_sight_are_answered_and_kept_fresh_after_edits() {
    use bevy_gridpath::{Answer, TacticFailed, TacticRequest};
    let mut app = app(9, 3);
    let movement = Movement::FourWay;
    let unit = app
        .world_mut()
        .spawn((
            RangeRequest::new(p(0, 1), 4.0, movement).with_enemies(vec![p(6, 1)]),
            SightRequest {
                from: p(0, 1),
                radius: 8,
                movement,
            },
        ))
        .id();
    let range_of = |app: &App| app.world().get::<Answer<RangeRequest>>(unit).cloned();
    until(&mut app, |app| range_of(app).is_some());
    let range = range_of(&app).expect("a range");
    assert_eq!(range.answer.cost(p(4, 1)), Some(4.0));
    assert_eq!(range.answer.cost(p(5, 1)), None, "past the budget");
    let turns = range
        .turns_to(nav(&app).grid(), p(4, 1), 2.0)
        .expect("in range");
    assert_eq!(turns.iter().map(|t| t.at).collect::<Vec<_>>(), [2, 4]);
    until(&mut app, |app| {
        app.world().get::<Answer<SightRequest>>(unit).is_some()
    });
    let sight = app
        .world()
        .get::<Answer<SightRequest>>(unit)
        .expect("sight");
    assert!(sight.answer.is_visible(p(5, 1)), "along the open row");

    // A wall across the row: the range is computed again on the new grid, and goes round it.
    let before = range.revision;
    wall(&mut app, p(2, 1));
    until(&mut app, |app| {
        range_of(app).is_some_and(|r| r.revision != before)
    });
    let range = range_of(&app).expect("a range");
    assert_eq!(range.answer.cost(p(2, 1)), None);
    assert_eq!(range.answer.cost(p(3, 0)), Some(4.0), "round the wall");
    assert_eq!(range.answer.cost(p(3, 1)), None, "five moves round it");
    until(&mut app, |app| {
        app.world()
            .get::<Answer<SightRequest>>(unit)
            .is_some_and(|s| s.revision == nav(app).revision())
    });
    let sight = app
        .world()
        .get::<Answer<SightRequest>>(unit)
        .expect("sight");
    assert!(!sight.answer.is_visible(p(5, 1)), "behind the new wall");

    // The unit on a wall: a failure that says why, and the same from answer_now.
    let request = RangeRequest::new(p(2, 1), 4.0, movement);
    app.world_mut().entity_mut(unit).insert(request.clone());
    until(&mut app, |app| {
        app.world()
            .get::<TacticFailed<RangeRequest>>(unit)
            .is_some()
    });
    let failed = app
        .world()
        .get::<TacticFailed<RangeRequest>>(unit)
        .expect("failed");
    assert_eq!(failed.reason, PathFailure::StartBlocked);
    assert_eq!(
        request.answer_now(nav(&app)).err(),
        Some(PathFailure::StartBlocked)
    );
}

/// The routes a tactic asks for, answered off the frame: to the nearest of several targets, to
/// where a goal is within range and in sight, and away from a threat.
#[test]
fn nearest_approach_and_flee_are_answered_with_their_routes() {
    use bevy_gridpath::gridpath::tactics::Within;
    use bevy_gridpath::{Answer, ApproachRequest, FleeRequest, NearestRequest};
    let mut app = app(9, 3);
    let movement = Movement::FourWay;
    wall(&mut app, p(4, 0));
    wall(&mut app, p(4, 1));
    let nearest = NearestRequest {
        from: p(0, 1),
        targets: vec![p(8, 1), p(2, 2)],
        movement,
        enemies: vec![],
    };
    let approach = ApproachRequest {
        from: p(0, 1),
        goal: p(8, 1),
        within: Within {
            steps: 3,
            sight: true,
        },
        movement,
        enemies: vec![],
    };
    let flee = FleeRequest {
        from: p(3, 1),
        threats: vec![p(2, 1)],
        budget: 2.0,
        movement,
    };
    let asker = app.world_mut().spawn((nearest, approach, flee)).id();
    let end = |route: Option<gridpath::Path>| route.and_then(|r| r.cells.last().copied());
    until(&mut app, |app| {
        let world = app.world();
        world.get::<Answer<NearestRequest>>(asker).is_some()
            && world.get::<Answer<ApproachRequest>>(asker).is_some()
            && world.get::<Answer<FleeRequest>>(asker).is_some()
    });
    let world = app.world();
    let nearest = world
        .get::<Answer<NearestRequest>>(asker)
        .expect("an answer");
    assert_eq!(end(nearest.answer.clone()), Some(p(2, 2)));
    // Round the wall's end at (4, 2): the first cell 3 steps from (8, 1) that sees it.
    let approach = world
        .get::<Answer<ApproachRequest>>(asker)
        .expect("an answer");
    let at = end(approach.answer.clone()).expect("a cell in range");
    assert!((at.x - 8).abs() + (at.y - 1).abs() <= 3, "{at:?}");
    // Two steps from the threat's side, the farthest it can get: behind it is the wall.
    let flee = world.get::<Answer<FleeRequest>>(asker).expect("an answer");
    let route = flee.answer.clone().expect("a route");
    assert!(route.cost <= 2.0);
    assert_eq!(route.cells.last(), Some(&p(4, 2)));
}
