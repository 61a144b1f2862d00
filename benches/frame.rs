//! `cargo bench --bench frame`: one frame's update of the playground on a 512×512 map, headless.
//!
//! The real systems run (input, editing, the planner, the nav grid, and the overlays collecting
//! their gizmos for a camera that frames the whole map beside the panel); rendering does not, as
//! there is no GPU here.
//!
//! Criterion times two cases: an ordinary frame, and a frame that also asks for a re-plan across
//! the map (A* from corner to corner). Then a plain loop times each frame of three longer runs and
//! prints the main thread's median and 99th percentile, which a frame budget is about: ordinary
//! frames; frames while a corner-to-corner re-plan is in flight; 500 wandering agents with a
//! wall stroke painted every second; and 1,000 chasers re-planning as the goal jumps every half
//! second, with the routes answered per second of wall time. Nothing here asserts: the figures go
//! in the README.
//!
//! `BODIES_ONLY=1000,5000 cargo bench --profile dev --bench frame` runs only the bodies' runs
//! (`SLOWEST=1` lists their slowest frames, and how long after a wall stroke each came;
//! `STROKE_EVERY=4` paints a stroke every fourth frame, for a profiler to see strokes' frames).
//! `LIVENESS=120` runs only the liveness run: the soak's crowd (1,000 mixed wanderers on the
//! 160 × 120 terrain, a wall stroke a second) headless, printing the deadlocked count every
//! five seconds; add `LIVENESS_DUMP=1` to draw the neighbourhood of a few deadlocked bodies,
//! and `LIVENESS_GOAL=chase` to send them all to the goal instead. `WAREHOUSE=1000` runs only the
//! sorting centre's 800 robots through the plugin for 1,000 ticks, counting the tasks they finish
//! (`WAREHOUSE_WAYS=GoalTables` or `Routes` for their other ways; `frame/warehouse.rs`).

use bevy::asset::AssetPlugin;
use bevy::gizmos::GizmoPlugin;
use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridpath::{Crowd, CrowdWays};
use criterion::{Criterion, criterion_group};
use gridpath::Point;
use pathfinder_playground::agents::{AgentGoal, AgentSettings, AgentStats};
use pathfinder_playground::editing::agents::AgentCommand;
use pathfinder_playground::planner::{Plan, ReplanNow};
use pathfinder_playground::world::agents::{Agent, AgentSeed, hue_for, random_place};
use pathfinder_playground::world::generators::rng::Rng;
use pathfinder_playground::world::generators::{GeneratorKind, GeneratorSettings, generate};
use pathfinder_playground::world::layout::MapLayout;
use pathfinder_playground::world::map_load::{InitialMap, LoadMap};
use pathfinder_playground::world::markers::{Goal, MarkerCell};
use pathfinder_playground::world::nav::{CellPos, NavGrid, Obstacle};
use std::time::{Duration, Instant};

#[path = "frame/warehouse.rs"]
mod warehouse;

/// The app's clock advances this much per frame: 60 frames a second.
const FRAME: Duration = Duration::from_millis(16);

/// A 1280×800 window with the 300-pixel panel, framing the whole map.
fn fitted_camera(layout: &MapLayout) -> (Camera2d, Projection, GlobalTransform) {
    let (window, panel) = (Vec2::new(1280.0, 800.0), 300.0);
    let map = layout.world_size();
    let scale = (map.x / (window.x - panel - 32.0)).max(map.y / (window.y - 32.0));
    let projection = Projection::Orthographic(OrthographicProjection {
        scale,
        area: Rect::from_center_size(Vec2::ZERO, window * scale),
        ..OrthographicProjection::default_2d()
    });
    (
        Camera2d,
        projection,
        GlobalTransform::from_xyz(-panel / 2.0 * scale, 0.0, 0.0),
    )
}

fn app_on_512() -> App {
    app_on_terrain(512, 512)
}

/// The playground headless on a random terrain map (seed 7) of `width × height`.
fn app_on_terrain(width: u32, height: u32) -> App {
    let settings = GeneratorSettings {
        kind: GeneratorKind::RandomTerrain,
        seed: 7,
        width,
        height,
        ..default()
    };
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, AssetPlugin::default()))
        // GizmoPlugin's skinned-mesh gizmos expect these asset types.
        .init_asset::<Mesh>()
        .init_asset::<bevy::mesh::skinning::SkinnedMeshInverseBindposes>()
        .add_plugins(GizmoPlugin)
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME))
        .insert_resource(InitialMap(LoadMap::new(
            settings.map_name(),
            generate(&settings),
        )))
        .add_plugins((
            pathfinder_playground::headless_plugin,
            pathfinder_playground::overlays_plugin,
        ));
    // The first plan runs off the frame (a big map): wait for it.
    for _ in 0..5000 {
        app.update();
        if app.world().resource::<Plan>().has_path() {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let layout = *app.world().resource::<MapLayout>();
    app.world_mut().spawn(fitted_camera(&layout));
    assert!(
        app.world().resource::<Plan>().has_path(),
        "the benchmark map must have a path"
    );
    app
}

fn frame(c: &mut Criterion) {
    let mut app = app_on_512();
    let mut group = c.benchmark_group("frame_512x512");
    group.sample_size(30);
    group.bench_function("update", |b| b.iter(|| app.update()));
    group.bench_function("update_with_replan", |b| {
        b.iter(|| {
            app.world_mut().write_message(ReplanNow);
            app.update();
        })
    });
    group.finish();
    let plan = app.world().resource::<Plan>();
    println!(
        "plan: {} cells, {} nodes expanded, {:.0} µs",
        plan.path.len(),
        plan.expanded,
        plan.micros
    );
}

/// Times `frames` updates, calling `before` ahead of each (untimed), and prints the median and
/// 99th percentile.
fn frame_times(name: &str, app: &mut App, frames: usize, mut before: impl FnMut(&mut App, usize)) {
    let times: Vec<Duration> = (0..frames)
        .map(|i| {
            before(app, i);
            let began = Instant::now();
            app.update();
            began.elapsed()
        })
        .collect();
    print_times(name, times);
}

/// Prints the median, 99th percentile and worst of frame times.
fn print_times(name: &str, mut times: Vec<Duration>) {
    let frames = times.len();
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name:<34} median {:>6.2} ms   p99 {:>6.2} ms   worst {:>6.2} ms   ({frames} frames)",
        ms(at(0.5)),
        ms(at(0.99)),
        ms(at(1.0))
    );
}

/// A horizontal wall of 48 cells at a different row each time, so that it crosses some
/// agents' ways; the previous stroke is taken away (as an undo would).
fn paint_stroke(app: &mut App, stroke: usize, walls: &mut Vec<Entity>) {
    for wall in walls.drain(..) {
        app.world_mut().despawn(wall);
    }
    let y = 40 + (stroke as i32 * 97) % 430;
    let x0 = 30 + (stroke as i32 * 61) % 420;
    walls.extend((x0..x0 + 48).map(|x| {
        app.world_mut()
            .spawn((Obstacle, CellPos((x, y).into())))
            .id()
    }));
}

fn frame_percentiles() {
    println!("\nThe main thread's frame time, 512×512:");
    let mut app = app_on_512();
    frame_times("ordinary frames", &mut app, 300, |_, _| {});
    frame_times(
        "a corner-to-corner re-plan asked for each frame",
        &mut app,
        300,
        |app, _| {
            app.world_mut().write_message(ReplanNow);
        },
    );
    println!(
        "last plan: {:.1} ms",
        app.world().resource::<Plan>().micros / 1e3
    );

    let mut app = app_on_512();
    app.world_mut().resource_mut::<AgentSettings>().goal = AgentGoal::Wander;
    app.world_mut().write_message(AgentCommand::Spawn(500));
    for _ in 0..30 {
        app.update(); // spawned, first routes asked for
    }
    let per_second = (1.0 / FRAME.as_secs_f64()).round() as usize;
    let mut walls = Vec::new();
    frame_times(
        "500 wanderers, a wall stroke a second",
        &mut app,
        600,
        |app, i| {
            if i % per_second == 0 {
                paint_stroke(app, i / per_second, &mut walls);
            }
        },
    );
    let stats = app.world().resource::<AgentStats>();
    println!(
        "agents: {} ({} walking, {} stuck); {:.0} re-plans/s, mean {:.0} µs, worst {:.1} ms, {} stale",
        stats.agents,
        stats.walking,
        stats.stuck,
        stats.replans_per_second,
        stats.mean_micros,
        stats.worst_micros / 1e3,
        stats.discarded
    );
    let service = app.world().resource::<bevy_gridpath::PathService>().stats();
    println!(
        "service: {} searches started, {} answered, {} failed, {} discarded",
        service.started, service.answered, service.failed, service.discarded
    );
}

/// Moves the goal marker to the `k`th of a fixed walk of free cells across the map.
fn move_goal(app: &mut App, k: usize) {
    let world = app.world_mut();
    let nav = world.resource::<NavGrid>();
    let free = (0..).map(|i: i32| {
        let n = k as i32 * 7919 + i;
        Point::new(20 + (n * 131) % 470, 20 + (n * 337) % 470)
    });
    let Some(cell) = free.take(1000).find(|&p| nav.is_passable(p)) else {
        return;
    };
    let mut goal = world.query_filtered::<&mut MarkerCell, With<Goal>>();
    if let Ok(mut marker) = goal.single_mut(world) {
        marker.0 = cell;
    }
}

/// 1,000 chasers, all re-planning each time the goal jumps (every 30 frames), for ten seconds
/// at 60 frames a second (each frame sleeps out the rest of its 16 ms, as a game's would): the
/// main thread's frame, and how many routes the searches answer per second.
fn replanning_throughput() {
    let mut app = app_on_512();
    app.world_mut().write_message(AgentCommand::Spawn(1000));
    for _ in 0..30 {
        app.update();
    }
    let planned = app.world().resource::<AgentStats>().planned;
    let began = Instant::now();
    let mut times = Vec::new();
    while began.elapsed() < Duration::from_secs(10) {
        if times.len() % 30 == 0 {
            move_goal(&mut app, times.len() / 30);
        }
        let frame_began = Instant::now();
        app.update();
        let took = frame_began.elapsed();
        times.push(took);
        std::thread::sleep(FRAME.saturating_sub(took));
    }
    let seconds = began.elapsed().as_secs_f64();
    let answered = app.world().resource::<AgentStats>().planned - planned;
    print_times("1,000 chasers, the goal jumps each 0.5 s", times);
    println!(
        "routes answered: {answered} in {seconds:.1} s, {:.0} a second",
        answered as f64 / seconds
    );
}

/// `n` wandering bodies of mixed sizes (7 : 2 : 1 of 1 × 1, 2 × 2 and 3 × 3) on the 512 × 512
/// map, with a wall stroke a second, for ten seconds of the app's clock: the main thread's frame,
/// and the crowd's step in it ([`Crowd::step_micros`]). Above the panel's 1,000 agents, the
/// bodies are spawned straight into the world, as the panel's Spawn would.
fn bodies(n: usize) {
    let mut app = app_on_512();
    app.world_mut().resource_mut::<AgentSettings>().goal = AgentGoal::Wander;
    let mut rng = Rng::new(0xB0D7);
    let placed = {
        let world = app.world_mut();
        let nav = world.resource::<NavGrid>();
        let sizes = (0..n).map(|i| match i % 10 {
            0 => 3,
            1 | 2 => 2,
            _ => 1,
        });
        let seeds: Vec<AgentSeed> = sizes
            .enumerate()
            .filter_map(|(i, size)| {
                let cell = random_place(&mut rng, nav, size)?;
                let agent = Agent {
                    id: 100_000 + i as u32,
                    hue: hue_for(i as u32),
                    speed: 4.0,
                    size,
                };
                Some(AgentSeed { agent, cell })
            })
            .collect();
        let mut commands = world.commands();
        for seed in &seeds {
            seed.spawn(&mut commands);
        }
        seeds.len()
    };
    app.world_mut().flush();
    for _ in 0..60 {
        app.update(); // placed, settled apart, first routes asked for
    }
    let per_second = (1.0 / FRAME.as_secs_f64()).round() as usize;
    let mut walls = Vec::new();
    let (mut frames, mut steps) = (Vec::new(), Vec::new());
    let every: usize = std::env::var("STROKE_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(per_second);
    for i in 0..600 {
        if i % every == 0 {
            paint_stroke(&mut app, i / every, &mut walls);
        }
        let began = Instant::now();
        app.update();
        frames.push(began.elapsed());
        let crowd = app.world().resource::<Crowd>();
        steps.push(Duration::from_secs_f64(crowd.step_micros() / 1e6));
    }
    if std::env::var("SLOWEST").is_ok() {
        let mut idx: Vec<usize> = (0..frames.len()).collect();
        idx.sort_by_key(|&i| std::cmp::Reverse(frames[i]));
        for &i in idx.iter().take(12) {
            println!(
                "  slow frame {i} ({} after a stroke): {:?}",
                i % per_second,
                frames[i]
            );
        }
    }
    let strokes = frames.iter().step_by(per_second).copied().collect();
    print_times(&format!("{placed} bodies: the frame"), frames);
    print_times(&format!("{placed} bodies: a stroke's frame"), strokes);
    print_times(&format!("{placed} bodies: the crowd's step"), steps);
    let crowd = app.world().resource::<Crowd>();
    let s = crowd.stats();
    println!(
        "  {} ticks; now {} moving, {} waiting, {} arrived, {} stuck, {} deadlocked",
        crowd.ticks(),
        s.moving,
        s.waiting,
        s.arrived,
        s.stuck,
        s.deadlocked
    );
}

/// Liveness: `n` mixed wandering bodies on the soak's 160 × 120 terrain, a wall stroke every
/// second, for `seconds` of the app's clock. Prints the deadlocked count every five seconds.
fn liveness(n: usize, seconds: usize) {
    let mut app = app_on_terrain(160, 120);
    {
        let mut settings = app.world_mut().resource_mut::<AgentSettings>();
        settings.goal = match std::env::var("LIVENESS_GOAL").as_deref() {
            Ok("chase") => AgentGoal::Chase,
            _ => AgentGoal::Wander,
        };
        settings.bodies = true;
    }
    app.world_mut()
        .insert_resource(pathfinder_playground::editing::SpawnSize::Mixed);
    app.world_mut().write_message(AgentCommand::Spawn(n as u32));
    let per_second = (1.0 / FRAME.as_secs_f64()).round() as usize;
    let mut rng = Rng::new(0x50AC);
    let mut walls: Vec<Entity> = Vec::new();
    let (mut most, mut sum, mut looks) = (0, 0, 0);
    for i in 0..seconds * per_second {
        if i.is_multiple_of(per_second) && i > 0 {
            // A stroke of 3 to 12 cells of wall somewhere, and every fifth second an old one gone.
            if (i / per_second).is_multiple_of(5) && walls.len() > 40 {
                for w in walls.drain(..20) {
                    app.world_mut().despawn(w);
                }
            }
            let (x, y) = (rng.below(160) as i32, rng.below(120) as i32);
            let len = 3 + rng.below(10) as i32;
            let across = rng.below(2) == 0;
            for k in 0..len {
                let c = if across { (x + k, y) } else { (x, y + k) };
                if c.0 < 160 && c.1 < 120 {
                    walls.push(app.world_mut().spawn((Obstacle, CellPos(c.into()))).id());
                }
            }
        }
        app.update();
        if i.is_multiple_of(5 * per_second) {
            let s = app.world().resource::<Crowd>().stats();
            println!(
                "  {:>4} s: {} moving, {} waiting, {} arrived, {} stuck, {} deadlocked",
                i / per_second,
                s.moving,
                s.waiting,
                s.arrived,
                s.stuck,
                s.deadlocked
            );
            if i > 10 * per_second {
                most = most.max(s.deadlocked);
                sum += s.deadlocked;
                looks += 1;
            }
            if std::env::var("LIVENESS_DUMP").is_ok() && s.deadlocked > 0 {
                dump_deadlocked(&mut app);
            }
        }
    }
    println!(
        "liveness: {n} bodies, {seconds} s: deadlocked {:.1} on average, {most} at most",
        sum as f64 / looks.max(1) as f64
    );
}

/// Prints the neighbourhood of every deadlocked body: walls `#`, bodies by size (`a`, `b`,
/// `c`), the deadlocked one in capitals, its next route cell `+` and its target `*`.
fn dump_deadlocked(app: &mut App) {
    use bevy_gridpath::{AgentProgress, BodyMotion, Destination, GatherCell, GridAgent, Route};
    let mut q = app.world_mut().query::<(
        Entity,
        &GridAgent,
        &AgentProgress,
        &BodyMotion,
        Option<&Route>,
        Option<&Destination>,
        Option<&GatherCell>,
    )>();
    let all: Vec<_> = q
        .iter(app.world())
        .map(|(e, a, p, m, r, d, g)| {
            (
                e,
                a.size.max(1),
                p.cell(),
                m.deadlocked(),
                r.and_then(|r| p.remaining(r).first().copied()),
                g.map(|g| g.0).or(d.map(|d| d.0)),
            )
        })
        .collect();
    let nav = app.world().resource::<NavGrid>();
    for &(e, size, at, _, next, target) in all.iter().filter(|b| b.3).take(4) {
        println!("deadlocked {e} size {size} at {at:?} next {next:?} target {target:?}");
        if let Ok(ent) = app.world().get_entity(e) {
            println!(
                "    {:?}\n    {:?}\n    {:?} cost {:?}",
                ent.get::<BodyMotion>(),
                ent.get::<AgentProgress>(),
                ent.get::<bevy_gridpath::AgentStatus>(),
                app.world().resource::<NavGrid>().ground_cost(at),
            );
            if let Some(r) = ent.get::<Route>() {
                println!(
                    "    route {:?} len {} rev {}",
                    r.request,
                    r.cells.len(),
                    r.revision
                );
            }
        }
        for y in at.y - 6..at.y + 8 {
            let row: String = (at.x - 8..at.x + 10)
                .map(|x| {
                    let c = Point::new(x, y);
                    if let Some(b) = all.iter().find(|b| {
                        c.x >= b.2.x
                            && c.y >= b.2.y
                            && c.x < b.2.x + i32::from(b.1)
                            && c.y < b.2.y + i32::from(b.1)
                    }) {
                        let ch = (b'a' + b.1 - 1) as char;
                        if b.0 == e {
                            ch.to_ascii_uppercase()
                        } else if b.3 {
                            '!'
                        } else {
                            ch
                        }
                    } else if Some(c) == next {
                        '+'
                    } else if Some(c) == target {
                        '*'
                    } else if !nav.is_passable(c) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect();
            println!("    {row}");
        }
    }
}

criterion_group!(benches, frame);

/// The robots' ways `WAREHOUSE_WAYS` names (`GuidePaths` by default).
fn warehouse_ways() -> CrowdWays {
    match std::env::var("WAREHOUSE_WAYS").as_deref() {
        Ok("GoalTables") => CrowdWays::GoalTables,
        Ok("Routes") => CrowdWays::Routes,
        _ => CrowdWays::GuidePaths,
    }
}

fn main() {
    if let Ok(ticks) = std::env::var("WAREHOUSE") {
        println!("\nThe sorting centre through the plugin:");
        warehouse::warehouse(ticks.parse().unwrap_or(1000), warehouse_ways());
        return;
    }
    if let Ok(seconds) = std::env::var("LIVENESS") {
        liveness(1000, seconds.parse().unwrap_or(120));
        return;
    }
    if let Ok(only) = std::env::var("BODIES_ONLY") {
        println!("\nBodies on 512×512, a wall stroke a second:");
        let counts: Vec<usize> = only.split(',').filter_map(|n| n.parse().ok()).collect();
        for n in if counts.is_empty() {
            vec![1_000, 5_000, 10_000]
        } else {
            counts
        } {
            bodies(n);
        }
        return;
    }
    benches();
    frame_percentiles();
    replanning_throughput();
    println!("\nBodies on 512×512, a wall stroke a second:");
    for n in [1_000, 5_000, 10_000] {
        bodies(n);
    }
    println!("\nThe sorting centre through the plugin:");
    warehouse::warehouse(1000, CrowdWays::GuidePaths);
    Criterion::default().configure_from_args().final_summary();
}
