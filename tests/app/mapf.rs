//! Multi-agent plans in the app: solved off the frame, checked, played on the time-line; plan
//! files from anywhere refused in one line when they are not valid here; a wall painted where a
//! plan goes closes it.

use super::*;
use gridpath::mapf::check_plan;
use pathfinder_playground::mapf::files::OpenPlanText;
use pathfinder_playground::mapf::{
    AgentSource, MapfSettings, MapfSolver, Playback, ShownPlan, SolveMapf,
};

const ROOM: [&str; 6] = [
    "........", "..#..#..", "........", "...##...", "........", "#......#",
];

fn room() -> App {
    let grid = Grid::from_ascii(&ROOM).expect("test map");
    let mut app = headless_app(Some(LoadMap::new("room", grid)));
    app.update();
    app
}

fn solve(app: &mut App, source: AgentSource, agents: usize, solver: MapfSolver) {
    let settings = MapfSettings {
        agents,
        solver,
        seed: 7,
        ..MapfSettings::default()
    };
    app.world_mut()
        .write_message(SolveMapf { source, settings });
    // The solve runs on the task pool; a small instance is back within a few frames on an idle
    // machine. The bound only guards against a hang: a loaded one may take many more.
    for _ in 0..2000 {
        app.update();
        if shown_title(app).is_some() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Updates `app` until no solve is running (the bound only guards against a hang).
fn wait_for_the_solve_to_end(app: &mut App) {
    use pathfinder_playground::mapf::Solving;
    for _ in 0..4000 {
        if app.world().resource::<Solving>().running_for().is_none() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
        app.update();
    }
    // A few frames more: on a loaded machine the solve's last notice came a frame after it
    // ended, on top of the next request's answer (seen twice in full runs, never alone).
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(5));
        app.update();
    }
}

fn shown_title(app: &App) -> Option<String> {
    let shown = app.world().resource::<ShownPlan>();
    shown.0.as_ref().map(|p| p.title.clone())
}

fn grid(app: &App) -> Grid {
    app.world().resource::<NavGrid>().grid().clone()
}

#[test]
fn random_agents_are_solved_checked_and_played_to_the_end() {
    for solver in [MapfSolver::Lacam, MapfSolver::Pibt] {
        let mut app = room();
        solve(&mut app, AgentSource::Random, 12, solver);
        let plan = app
            .world()
            .resource::<ShownPlan>()
            .0
            .clone()
            .expect("a plan");
        assert_eq!(plan.agents(), 12);
        let costs = check_plan(&grid(&app), &plan.starts, &plan.goals, &plan.plan);
        assert_eq!(costs.ok(), Some(plan.costs), "{solver:?}");
        assert!(
            latest_notice(&app).contains("12 agents: soc"),
            "{}",
            latest_notice(&app)
        );
        // The time-line runs on its own, never backwards, and stops at the last step.
        let mut time = 0.0;
        for _ in 0..(plan.last_step() * 10 + 50) {
            app.update();
            let now = app.world().resource::<Playback>().time;
            assert!(now >= time && now <= plan.last_step() as f32);
            time = now;
        }
        let playback = app.world().resource::<Playback>();
        assert_eq!(playback.time, plan.last_step() as f32);
        assert!(!playback.playing);
        // Between two steps, every agent is on its way between its two cells.
        let t = plan.last_step() as f32 / 2.0 + 0.25;
        for agent in 0..plan.agents() {
            let (from, to, f) = plan.leg(agent, t);
            let (a, b) = (
                plan.plan[t as usize][agent],
                plan.plan[t as usize + 1][agent],
            );
            assert_eq!((from, to), (a, b), "agent {agent}");
            assert!(f > 0.0 && f < 1.0, "agent {agent}: {f}");
        }
    }
}

#[test]
fn a_scenario_gives_the_agents_and_one_for_another_map_is_refused() {
    let mut app = room();
    let line = |x0, y0, x1, y1| format!("0\troom.map\t8\t6\t{x0}\t{y0}\t{x1}\t{y1}\t9\n");
    let text = format!("version 1\n{}{}", line(0, 0, 7, 4), line(7, 0, 0, 4));
    let source = AgentSource::Scenario {
        name: "room.scen".into(),
        text: text.clone(),
    };
    solve(&mut app, source, 2, MapfSolver::Lacam);
    // The first plan is shown; its improving (LaCAM* proves two agents optimal in a moment)
    // ends with a notice of its own, which must not come between a bad request and its answer.
    wait_for_the_solve_to_end(&mut app);
    let plan = app
        .world()
        .resource::<ShownPlan>()
        .0
        .clone()
        .expect("a plan");
    assert_eq!(plan.starts, [Point::new(0, 0), Point::new(7, 0)]);
    assert_eq!(plan.goals, [Point::new(7, 4), Point::new(0, 4)]);

    for (text, agents, says) in [
        (text.replace("\t8\t6\t", "\t9\t6\t"), 2, "room.scen"),
        (text.clone(), 3, "room.scen"),
        ("version 1\n0\troom.map\t8".to_string(), 1, "room.scen"),
    ] {
        let source = AgentSource::Scenario {
            name: "room.scen".into(),
            text,
        };
        let settings = MapfSettings {
            agents,
            ..MapfSettings::default()
        };
        app.world_mut()
            .write_message(SolveMapf { source, settings });
        app.update();
        let notice = latest_notice(&app);
        assert!(
            notice.starts_with("Cannot solve: ") && notice.contains(says),
            "{notice}"
        );
        assert!(!notice.contains('\n'), "{notice}");
    }
    assert_eq!(
        app.world()
            .resource::<ShownPlan>()
            .0
            .as_ref()
            .map(|p| p.agents()),
        Some(2)
    );
}

/// A plan file's text: two agents on the room's top row.
fn plan_text(steps: &[&str]) -> String {
    let mut text = "agents=2\nsolver=hand\nsolved=1\nstarts=(0,0),(3,0),\ngoals=".to_string();
    let last = steps.last().copied().unwrap_or_default();
    text += last;
    text += "\nsolution=\n";
    for (t, cells) in steps.iter().enumerate() {
        text += &format!("{t}:{cells}\n");
    }
    text
}

#[test]
fn a_plan_file_is_played_only_when_valid_here_and_a_bad_one_is_said_in_one_line() {
    let mut app = room();
    let good = plan_text(&["(0,0),(3,0),", "(1,0),(4,0),", "(2,0),(4,0),"]);
    app.world_mut()
        .write_message(OpenPlanText("good.txt".into(), good));
    app.update();
    assert_eq!(shown_title(&app).as_deref(), Some("good.txt, by hand"));
    let cases = [
        ("\u{1b}[31m\n".to_string(), "line 1"),
        (plan_text(&["(0,0),(3,0),", "(1,0),(1,0),"]), "both at"),
        (plan_text(&["(0,0),(3,0),", "(2,0),(3,0),"]), "jumps"),
        (
            plan_text(&["(0,0),(3,0),", "(1,0),(2,0),", "(2,0),(1,0),"]),
            "swap",
        ),
        (plan_text(&["(0,0),(3,0),", "(0,0),(2,1),"]), "wall"),
        (plan_text(&["(0,0),(3,0),", "(0,0),(3,90),"]), "off the map"),
        (good_but_unsolved(), "solved=0"),
        (crowd(10_001), "at most 10000"),
        (String::new(), "solution"),
    ];
    for (text, says) in cases {
        app.world_mut()
            .write_message(OpenPlanText("bad.txt".into(), text));
        app.update();
        let notice = latest_notice(&app);
        assert!(
            notice.starts_with("Could not play bad.txt (the plan on screen stays)"),
            "{notice}"
        );
        assert!(notice.contains(says), "{says}: {notice}");
        assert!(!notice.contains('\n'), "{notice}");
        assert_eq!(shown_title(&app).as_deref(), Some("good.txt, by hand"));
    }
}

/// A plan file of `n` agents standing still (far more than the room holds).
fn crowd(n: usize) -> String {
    let cells: String = (0..n).map(|i| format!("({},{}),", i % 8, i / 8)).collect();
    format!("agents={n}\nsolved=1\nstarts={cells}\ngoals={cells}\nsolution=\n0:{cells}\n")
}

fn good_but_unsolved() -> String {
    plan_text(&["(0,0),(3,0),"]).replace("solved=1", "solved=0")
}

#[test]
fn a_wall_where_the_plan_goes_closes_it_and_one_elsewhere_does_not() {
    let mut app = room();
    let text = plan_text(&["(0,0),(3,0),", "(1,0),(4,0),", "(2,0),(4,0),"]);
    app.world_mut()
        .write_message(OpenPlanText("p.txt".into(), text));
    app.update();
    spawn_wall(&mut app, (6, 4));
    app.update();
    assert!(shown_title(&app).is_some(), "a wall off the plan's way");
    spawn_wall(&mut app, (1, 0));
    app.update();
    assert!(shown_title(&app).is_none(), "a wall on its way");
    assert!(
        latest_notice(&app).contains("wall"),
        "{}",
        latest_notice(&app)
    );
}

#[test]
fn a_lifelong_run_written_by_the_core_plays_here_though_its_agents_end_off_their_first_goals() {
    use gridpath::lifelong::{Guidance, LifelongInstance, run_lifelong, write_lifelong_result};
    let mut app = room();
    let grid = Grid::from_ascii(&ROOM).expect("test map");
    let p = Point::new;
    let tasks = vec![p(7, 0), p(0, 4), p(4, 2), p(6, 4), p(1, 0), p(3, 4)];
    let instance =
        LifelongInstance::new(grid, "room".into(), vec![p(0, 0), p(7, 4), p(2, 2)], tasks)
            .expect("valid");
    let run = run_lifelong(&instance, 30, 0, Guidance::GUIDED, true).expect("valid");
    assert!(run.tasks_finished > 0);
    let text = write_lifelong_result(&instance, &run);
    app.world_mut()
        .write_message(OpenPlanText("run.txt".into(), text));
    app.update();
    let title = shown_title(&app).unwrap_or_default();
    assert!(
        title.contains("tasks (lifelong)"),
        "{title}: {}",
        latest_notice(&app)
    );
}

#[test]
fn lacam_improving_shows_its_first_plan_at_once_and_its_best_at_the_end() {
    use pathfinder_playground::mapf::Solving;
    use pathfinder_playground::mapf::improve::Improving;
    let rows: Vec<String> = (0..16)
        .map(|y| {
            (0..16)
                .map(|x| if (x * 7 + y * 3) % 11 == 0 { '#' } else { '.' })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let map = Grid::from_ascii(&rows).expect("test map");
    let mut app = improving_lacam_on(LoadMap::new("dots", map), 90, 1.0, 3);
    // The first plan is on screen while the solver is still at work (its time limit is a
    // second; a loaded machine may take longer to find the first plan, never to improve it).
    let mut first = None;
    for _ in 0..4000 {
        app.update();
        let shown = app.world().resource::<ShownPlan>().0.clone();
        let running = app.world().resource::<Solving>().running_for().is_some();
        if let Some(plan) = shown {
            first.get_or_insert((plan.costs.soc, running));
        }
        if first.is_some() && !running {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let (first_soc, _) = first.expect("a first plan");
    let costs = app.world().resource::<Improving>().costs().to_vec();
    println!("(seconds, sum of costs) heard: {costs:?}");
    assert_eq!(costs.first().map(|c| c[1] as u64), Some(first_soc));
    assert!(costs.windows(2).all(|w| w[1][1] < w[0][1]), "{costs:?}");
    // At the end the best plan is the one on screen, and it is valid.
    let best = app
        .world()
        .resource::<ShownPlan>()
        .0
        .clone()
        .expect("a plan");
    assert_eq!(Some(best.costs.soc), costs.last().map(|c| c[1] as u64));
    let checked = check_plan(&grid(&app), &best.starts, &best.goals, &best.plan);
    assert_eq!(checked.ok(), Some(best.costs));
    assert!(
        latest_notice(&app).contains("90 agents: soc"),
        "{}",
        latest_notice(&app)
    );
}

/// On a small instance the improving ends long before its time limit: LaCAM\* proves the plan
/// optimal, and the panel's notice says so.
#[test]
fn a_small_instance_is_solved_to_a_proven_optimum_long_before_the_limit() {
    use pathfinder_playground::mapf::Solving;
    let map = Grid::from_ascii(&["......", ".#.##.", "......"]).expect("test map");
    let mut app = improving_lacam_on(LoadMap::new("small", map), 4, 60.0, 5);
    // Ten seconds at most, of the sixty allowed (it takes milliseconds).
    let began = std::time::Instant::now();
    app.update();
    while app.world().resource::<Solving>().running_for().is_some() {
        assert!(began.elapsed() < Duration::from_secs(10), "still improving");
        std::thread::sleep(Duration::from_millis(2));
        app.update();
    }
    let shown = app.world().resource::<ShownPlan>().0.clone();
    let best = shown.expect("a plan");
    // Above the lower bound: the proof is LaCAM*'s.
    assert!(best.costs.soc > best.costs.soc_lb, "{:?}", best.costs);
    assert!(best.optimal);
    assert!(
        latest_notice(&app).contains("optimal"),
        "{}",
        latest_notice(&app)
    );
}

/// An app on `map` asked to solve `agents` random agents with LaCAM, improving the plan for up
/// to `time_limit` seconds.
fn improving_lacam_on(map: LoadMap, agents: usize, time_limit: f32, seed: u64) -> App {
    let mut app = headless_app(Some(map));
    app.update();
    let settings = MapfSettings {
        agents,
        solver: MapfSolver::Lacam,
        improve: true,
        time_limit,
        seed,
        ..MapfSettings::default()
    };
    app.world_mut().write_message(SolveMapf {
        source: AgentSource::Random,
        settings,
    });
    app
}

/// On a map of hexagons the agents step to any of the six touching hexagons (the validator
/// judges the plan by them), some of them where a square's four moves could not go.
#[test]
fn on_a_hex_map_the_agents_step_between_touching_hexagons() {
    use gridpath::hex::HexLayout;
    use gridpath::mapf::Moves;
    use gridpath::movingai::MapShape;
    use pathfinder_playground::world::map_load::ReshapeMap;
    let layout = HexLayout::RowOdd;
    let mut app = room();
    app.world_mut()
        .write_message(ReshapeMap(MapShape::Hex(layout)));
    app.update();
    app.update();
    let settings = MapfSettings {
        agents: 14,
        solver: MapfSolver::Lacam,
        improve: false,
        seed: 7,
        ..MapfSettings::default()
    };
    app.world_mut().write_message(SolveMapf {
        source: AgentSource::Random,
        settings,
    });
    for _ in 0..2000 {
        app.update();
        if shown_title(&app).is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let shown = app.world().resource::<ShownPlan>().0.clone();
    let plan = shown.expect("a plan");
    assert_eq!(plan.moves, Moves::Hex(layout));
    let mut beyond_squares = 0;
    for pair in plan.plan.windows(2) {
        for (&a, &b) in pair[0].iter().zip(&pair[1]) {
            assert!(a == b || layout.neighbours(a).contains(&b), "{a} → {b}");
            beyond_squares += usize::from((a.x - b.x).abs() + (a.y - b.y).abs() > 1);
        }
    }
    assert!(beyond_squares > 0, "every step a square's");
}
