//! Agents: they reach the goal, go around walls painted across their way without ever standing
//! in one, wait when walled in and go on when freed, drop routes that an edit overtook, follow
//! the goal, and come and go with undo.

use super::*;
use bevy_gridpath::{AgentStatus, Body, PathRequest};
use pathfinder_playground::agents::{AgentGoal, AgentSettings, AgentStats, Steering};
use pathfinder_playground::editing::{AgentCommand, EditCommand};
use pathfinder_playground::world::agents::{Agent, AgentPos};

const ROOM: [&str; 5] = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
];

/// Drops an agent with the agent tool's command, and returns it.
fn drop_agent(app: &mut App, cell: (i32, i32)) -> Entity {
    app.world_mut()
        .write_message(AgentCommand::DropAt(cell.into()));
    app.update();
    let world = app.world_mut();
    let mut q = world.query_filtered::<(Entity, &AgentPos), With<Agent>>();
    q.iter(world)
        .find(|(_, p)| p.cell() == Point::from(cell))
        .map(|(e, _)| e)
        .expect("the agent was dropped")
}

fn cell_of(app: &App, agent: Entity) -> Point {
    app.world().get::<AgentPos>(agent).expect("an agent").cell()
}

/// What the plugin says the agent is doing.
fn status(app: &App, agent: Entity) -> AgentStatus {
    *app.world().get::<AgentStatus>(agent).expect("an agent")
}

/// Is a route being searched for it?
fn in_flight(app: &App, agent: Entity) -> bool {
    app.world().get::<PathRequest>(agent).is_some()
}

fn stats(app: &App) -> &AgentStats {
    app.world().resource::<AgentStats>()
}

fn agent_count(app: &mut App) -> usize {
    let world = app.world_mut();
    world.query::<&Agent>().iter(world).count()
}

/// Runs frames until `done`, at most `seconds` of app time, checking after every frame that no
/// agent stands on a wall. Returns the cells `agent` stood on, in order.
fn walk_until(
    app: &mut App,
    agent: Entity,
    seconds: f32,
    done: impl Fn(&App) -> bool,
) -> Vec<Point> {
    let mut cells = vec![cell_of(app, agent)];
    for _ in 0..(seconds / STEP.as_secs_f32()) as u32 {
        app.update();
        let world = app.world_mut();
        let nav = world.resource::<NavGrid>().grid().clone();
        for pos in world.query::<&AgentPos>().iter(world) {
            assert!(
                nav.is_passable(pos.cell()),
                "an agent stands in a wall at {}",
                pos.cell()
            );
        }
        let here = cell_of(app, agent);
        if cells.last() != Some(&here) {
            cells.push(here);
        }
        if done(app) {
            return cells;
        }
        // Searches run on another thread: give it a moment, as a real frame would.
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("not done after {seconds} s; the agent walked {cells:?}");
}

fn arrived_at(agent: Entity, cell: (i32, i32)) -> impl Fn(&App) -> bool {
    move |app| {
        cell_of(app, agent) == Point::from(cell) && status(app, agent) == AgentStatus::Arrived
    }
}

#[test]
fn an_agent_walks_to_the_goal() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    let agent = drop_agent(&mut app, (0, 2));
    let walked = walk_until(&mut app, agent, 10.0, arrived_at(agent, (9, 2)));
    assert_eq!(walked.len(), 10, "straight along row 2: {walked:?}");
    assert!(stats(&app).planned >= 1);
}

#[test]
fn a_wall_painted_across_its_way_sends_it_around() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    let agent = drop_agent(&mut app, (0, 2));
    // Its route comes from another thread: wait for it (on a busy machine a fixed number of
    // frames was not always enough), then let it start out.
    walk_until(&mut app, agent, 5.0, |app| {
        status(app, agent) == AgentStatus::Walking
    });
    assert!(cell_of(&app, agent).x < 5, "still before the wall's column");
    // A wall across rows 0 to 3, painted as a user does, leaving row 4 open.
    stroke(&mut app, &[(5, 0), (5, 1), (5, 2), (5, 3)]);
    assert!(is_wall(&app, (5, 2)));
    let walked = walk_until(&mut app, agent, 20.0, arrived_at(agent, (9, 2)));
    assert!(
        walked.contains(&Point::new(5, 4)),
        "through the gap: {walked:?}"
    );
}

#[test]
fn a_walled_in_agent_is_stuck_until_a_wall_goes() {
    let mut app = app_on(&ROOM, (9, 0), (9, 4));
    let walls = [(1, 0), (1, 1), (0, 1)].map(|c| spawn_wall(&mut app, c));
    let agent = drop_agent(&mut app, (0, 0));
    walk_until(&mut app, agent, 5.0, |app| {
        status(app, agent) == AgentStatus::Stuck
    });
    assert_eq!(stats(&app).stuck, 1);
    app.world_mut().entity_mut(walls[0]).despawn();
    walk_until(&mut app, agent, 20.0, arrived_at(agent, (9, 4)));
}

#[test]
fn a_route_planned_before_an_edit_it_crosses_is_discarded() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    let agent = drop_agent(&mut app, (0, 2));
    // Its search started at the end of the frame that dropped it, on a task pool thread...
    assert!(in_flight(&app, agent));
    assert_eq!(stats(&app).planned, 0);
    // ...then a wall lands on the only shortest way, before the result is taken.
    spawn_wall(&mut app, (5, 2));
    walk_until(&mut app, agent, 2.0, |app| stats(app).planned >= 1);
    assert_eq!(
        stats(&app).discarded,
        1,
        "planned on the grid without the wall"
    );
    let walked = walk_until(&mut app, agent, 20.0, arrived_at(agent, (9, 2)));
    assert!(!walked.contains(&Point::new(5, 2)));
}

#[test]
fn chasers_gather_round_the_goal_on_cells_of_their_own_and_follow_it() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    let agents = [drop_agent(&mut app, (0, 4)), drop_agent(&mut app, (2, 0))];
    for goal in [(9, 2), (3, 3)] {
        set_marker::<Goal>(&mut app, goal);
        let both = move |app: &App| {
            agents
                .iter()
                .all(|&a| status(app, a) == AgentStatus::Arrived)
        };
        walk_until(&mut app, agents[0], 10.0, both);
        let cells = agents.map(|a| cell_of(&app, a));
        assert_ne!(cells[0], cells[1], "bodies: one a cell");
        let goal = Point::from(goal);
        assert!(cells.contains(&goal), "one on the goal: {cells:?}");
        for c in cells {
            assert!(
                (c.x - goal.x).abs() <= 1 && (c.y - goal.y).abs() <= 1,
                "{c} is not next to it"
            );
        }
    }
}

#[test]
fn with_bodies_off_chasers_are_ghosts_that_share_the_goal_cell() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    let agents = [drop_agent(&mut app, (0, 4)), drop_agent(&mut app, (2, 0))];
    assert!(agents.iter().all(|&a| app.world().get::<Body>(a).is_some()));
    app.world_mut().resource_mut::<AgentSettings>().bodies = false;
    for a in agents {
        walk_until(&mut app, a, 10.0, arrived_at(a, (9, 2)));
    }
    assert!(agents.iter().all(|&a| app.world().get::<Body>(a).is_none()));
    // Switched back on: bodies again, and they spread to cells of their own.
    app.world_mut().resource_mut::<AgentSettings>().bodies = true;
    walk_until(&mut app, agents[0], 10.0, move |app| {
        cell_of(app, agents[0]) != cell_of(app, agents[1])
            && agents
                .iter()
                .all(|&a| status(app, a) == AgentStatus::Arrived)
    });
    assert!(agents.iter().all(|&a| app.world().get::<Body>(a).is_some()));
}

#[test]
fn flow_field_chasers_reach_the_goal_and_go_around_walls() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    app.world_mut().resource_mut::<AgentSettings>().steering = Steering::FlowField;
    let agent = drop_agent(&mut app, (0, 2));
    run_for(&mut app, 0.3);
    stroke(&mut app, &[(5, 0), (5, 1), (5, 2), (5, 3)]);
    let walked = walk_until(&mut app, agent, 20.0, arrived_at(agent, (9, 2)));
    assert!(
        walked.contains(&Point::new(5, 4)),
        "through the gap: {walked:?}"
    );
    assert_eq!(stats(&app).planned, 0, "no search: the field steers them");
}

#[test]
fn wanderers_keep_walking() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    app.world_mut().resource_mut::<AgentSettings>().goal = AgentGoal::Wander;
    let agent = drop_agent(&mut app, (0, 2));
    walk_until(&mut app, agent, 30.0, |app| stats(app).planned >= 3);
    assert_ne!(status(&app, agent), AgentStatus::Stuck);
}

#[test]
fn a_wanderers_first_stop_is_near_where_it_was_dropped() {
    // Its first stop is picked in the frame it is dropped in, before the plugin has placed it:
    // near where it stands, not near the map's corner, where an unplaced agent reads as being.
    let room = vec![".".repeat(120); 10];
    let room: Vec<&str> = room.iter().map(String::as_str).collect();
    let mut app = app_on(&room, (0, 0), (1, 0));
    app.world_mut().resource_mut::<AgentSettings>().goal = AgentGoal::Wander;
    let agent = drop_agent(&mut app, (110, 5));
    app.update();
    let stop = app
        .world()
        .get::<bevy_gridpath::Destination>(agent)
        .expect("a first stop")
        .0;
    let reach = pathfinder_playground::world::agents::WANDER_RADIUS;
    assert!(stop.x >= 110 - reach, "{stop} is far from (110, 5)");
}

#[test]
fn a_wall_painted_under_an_agent_moves_it_off() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    let agent = drop_agent(&mut app, (4, 4));
    app.world_mut().resource_mut::<AgentSettings>().goal = AgentGoal::Chase;
    let here = cell_of(&app, agent);
    spawn_wall(&mut app, (here.x, here.y));
    app.update();
    assert_ne!(cell_of(&app, agent), here);
    assert_eq!(stats(&app).pushed, 1);
    assert!(
        latest_notice(&app).contains("nearest free cell"),
        "{}",
        latest_notice(&app)
    );
}

#[test]
fn spawning_and_clearing_agents_are_undone_and_redone() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    app.world_mut().write_message(AgentCommand::Spawn(5));
    app.update();
    assert_eq!(agent_count(&mut app), 5);
    app.world_mut().write_message(AgentCommand::Clear);
    app.update();
    assert_eq!(agent_count(&mut app), 0);
    app.world_mut().write_message(EditCommand::Undo);
    app.update();
    assert_eq!(agent_count(&mut app), 5, "the clear undone");
    app.world_mut().write_message(EditCommand::Undo);
    app.update();
    assert_eq!(agent_count(&mut app), 0, "the spawn undone");
    app.world_mut().write_message(EditCommand::Redo);
    app.update();
    assert_eq!(agent_count(&mut app), 5, "the spawn redone");
    // No agent on a wall, even spawned at random.
    spawn_wall(&mut app, (3, 3));
    app.world_mut().write_message(AgentCommand::Spawn(2000));
    app.update();
    assert_eq!(agent_count(&mut app), 1000, "at most a thousand");
    assert!(
        latest_notice(&app).contains("1000"),
        "{}",
        latest_notice(&app)
    );
}

#[test]
fn an_agent_cannot_be_dropped_on_a_wall() {
    let mut app = app_on(&ROOM, (0, 0), (9, 2));
    spawn_wall(&mut app, (4, 4));
    app.world_mut()
        .write_message(AgentCommand::DropAt(Point::new(4, 4)));
    app.update();
    assert_eq!(agent_count(&mut app), 0);
    assert!(latest_notice(&app).contains("wall"));
}

/// Runs frames (50 ms of app time each, with a moment for searches off the frame) until `done`,
/// at most `frames` (a guard against a hang, not a speed check).
fn run_frames_until(app: &mut App, frames: usize, done: impl Fn(&App) -> bool) {
    for _ in 0..frames {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(done(app), "not done after {frames} frames");
}

#[test]
fn a_big_agent_that_no_gap_lets_through_is_counted_as_too_narrow_and_one_that_fits_walks() {
    // A wall down x = 5 with a gap of two cells: a 2 × 2 unit gets through, a 3 × 3 cannot.
    let rows = [
        ".....#......",
        ".....#......",
        "............",
        "............",
        ".....#......",
        ".....#......",
        ".....#......",
    ];
    let mut app = app_on(&rows, (0, 0), (10, 0));
    app.world_mut()
        .insert_resource(pathfinder_playground::editing::SpawnSize::Two);
    let two = drop_agent(&mut app, (0, 0));
    app.world_mut()
        .insert_resource(pathfinder_playground::editing::SpawnSize::Three);
    let three = drop_agent(&mut app, (0, 4));
    assert_eq!(app.world().get::<Agent>(two).map(|a| a.size), Some(2));
    assert_eq!(app.world().get::<Agent>(three).map(|a| a.size), Some(3));
    run_frames_until(&mut app, 3000, |app| {
        status(app, two) == AgentStatus::Arrived && stats(app).too_narrow == 1
    });
    assert_eq!(status(&app, three), AgentStatus::Stuck);
    // A unit 3 × 3 dropped where it does not fit (its cells run into the wall) is refused.
    let before = agent_count(&mut app);
    app.world_mut()
        .write_message(AgentCommand::DropAt(Point::new(3, 0)));
    app.update();
    assert_eq!(agent_count(&mut app), before);
    assert!(
        latest_notice(&app).contains("doesn't fit"),
        "{}",
        latest_notice(&app)
    );
}

#[test]
fn a_scene_brings_its_map_and_a_crowd_bound_for_places_of_their_own() {
    use pathfinder_playground::editing::{LoadScene, Scene};
    use pathfinder_playground::world::agents::OwnPlace;
    let mut app = app_on(&ROOM, (0, 0), (9, 4));
    app.world_mut().write_message(LoadScene(Scene::ThreeSizes));
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(agent_count(&mut app), 117);
    assert_eq!(app.world().resource::<AgentSettings>().goal, AgentGoal::Own);
    let world = app.world_mut();
    let mut q = world.query::<(&Agent, &OwnPlace)>();
    let sizes: Vec<u8> = q.iter(world).map(|(a, _)| a.size).collect();
    assert_eq!(sizes.iter().filter(|&&s| s == 3).count(), 5);
    assert_eq!(sizes.iter().filter(|&&s| s == 2).count(), 12);
    assert_eq!(stats(&app).agents, 117);
}
