//! The graph lab's by-hand mode: a right run scores full marks, each habit is named on a graph
//! built to provoke it, ties are judged by the chosen policy, and "another graph" keeps h sound.

use gridpath::lab::presets::{self, Preset};
use gridpath::lab::{
    ByHand, Change, Habit, LabAlgorithm, LabGraph, LabSearch, NeighbourAnswer, NextAnswer,
    Question, TiePolicy, check_heuristic, redraw,
};

fn hand_run(preset: &Preset, algorithm: LabAlgorithm, policy: TiePolicy) -> ByHand {
    let (graph, start, goal) = preset.load();
    ByHand::new(LabSearch::new(graph, algorithm, start, goal), policy)
}

/// The right answer to the question asked now, read from a copy of the learner's search.
fn right_answer(run: &ByHand) -> Result<NextAnswer, NeighbourAnswer> {
    match run.question() {
        Question::Next => Ok(run
            .search()
            .next_choice()
            .map_or(NextAnswer::Stop, NextAnswer::Node)),
        Question::Neighbour { neighbour, .. } => {
            let last = run.search().steps().last().expect("an expansion");
            let change = last.changes.iter().find(|c| c.node() == neighbour);
            Err(match change {
                Some(Change::Opened { g, .. } | Change::Improved { g, .. }) => {
                    NeighbourAnswer::NewG(*g)
                }
                _ => NeighbourAnswer::NoChange,
            })
        }
        Question::Done => Ok(NextAnswer::Stop),
    }
}

#[test]
fn a_right_run_scores_full_marks_on_every_preset_and_algorithm() {
    for preset in presets::ALL {
        for algorithm in LabAlgorithm::ALL {
            let mut run = hand_run(&preset, algorithm, TiePolicy::Alphabetical);
            let mut guard = 0;
            while run.question() != Question::Done {
                let verdict = match right_answer(&run) {
                    Ok(next) => run.answer_next(next),
                    Err(neighbour) => run.answer_neighbour(neighbour),
                };
                assert!(verdict.right, "{} {algorithm:?}: {verdict:?}", preset.name);
                guard += 1;
                assert!(guard < 500, "never done");
            }
            let (right, asked) = run.score();
            assert_eq!(right, asked);
            assert!(asked > 1);
            // The learner's run is the stepper's run.
            let (graph, start, goal) = preset.load();
            let mut alone = LabSearch::new(graph, algorithm, start, goal);
            alone.run();
            assert_eq!(run.search().path(), alone.path(), "{}", preset.name);
        }
    }
}

/// After S is expanded, the five open nodes each win under one rule:
///
/// | node | g | h | f | |
/// |---|---|---|---|---|
/// | A | 5 | 9 | 14 | first in |
/// | B | 1 | 9 | 10 | lowest g |
/// | C | 2 | 4 | 6 | lowest f: A*'s choice |
/// | D | 8 | 1 | 9 | lowest h |
/// | E | 6 | 8 | 14 | last in |
const FIVE_RULES: &str = "S A 5\nS B 1\nS C 2\nS D 8\nS E 6\nC G 1\n\
                          h S 0\nh A 9\nh B 9\nh C 4\nh D 1\nh E 8\nh G 0\n";

fn five_rules(algorithm: LabAlgorithm) -> (ByHand, impl Fn(&str) -> usize) {
    let graph = LabGraph::parse(FIVE_RULES).expect("reads");
    let node = {
        let graph = graph.clone();
        move |name: &str| graph.index(name).expect("a node")
    };
    let (s, g) = (node("S"), node("G"));
    let mut run = ByHand::new(
        LabSearch::new(graph, algorithm, s, g),
        TiePolicy::Alphabetical,
    );
    assert!(run.answer_next(NextAnswer::Node(s)).right);
    while let Question::Neighbour { .. } = run.question() {
        let Err(answer) = right_answer(&run) else {
            panic!("a neighbour question")
        };
        assert!(run.answer_neighbour(answer).right);
    }
    (run, node)
}

#[test]
fn each_wrong_choice_is_named_by_the_rule_it_follows() {
    let (run, node) = five_rules(LabAlgorithm::AStar);
    let arrival: Vec<usize> = run.search().open_by_arrival();
    assert_eq!(arrival, ["A", "B", "C", "D", "E"].map(&node));
    for (name, habit) in [
        ("D", Habit::LowestH),
        ("B", Habit::LowestG),
        ("A", Habit::FirstIn),
        ("E", Habit::LastIn),
        ("S", Habit::StaleEntry),
    ] {
        let mut attempt = run.clone();
        let verdict = attempt.answer_next(NextAnswer::Node(node(name)));
        assert!(!verdict.right, "{name}");
        assert_eq!(verdict.habit, Some(habit), "{name}: {verdict:?}");
        assert_eq!(verdict.expected, "expand C");
        // The right step is taken instead, and the run goes on from it.
        assert_eq!(attempt.search().closed().last(), Some(&node("C")));
        assert_eq!(attempt.score(), (6, 7));
    }
    // Under another algorithm, A*'s own choice is named as A*'s.
    let (run, node) = five_rules(LabAlgorithm::Greedy);
    let mut attempt = run.clone();
    let verdict = attempt.answer_next(NextAnswer::Node(node("C")));
    assert_eq!(verdict.habit, Some(Habit::LowestF));
    assert_eq!(verdict.expected, "expand D");
}

#[test]
fn stopping_when_the_goal_is_reached_but_not_expanded_is_named() {
    // Romania: Bucharest is reached (450, through Fagaras) before it is expanded (418).
    let mut run = hand_run(
        &presets::ROMANIA,
        LabAlgorithm::AStar,
        TiePolicy::Alphabetical,
    );
    let goal = run.search().goal();
    let mut caught = false;
    while run.question() != Question::Done {
        let goal_open = run.search().open_list().iter().any(|e| e.node == goal);
        if run.question() == Question::Next && goal_open && !run.search().is_done() && !caught {
            let verdict = run.clone().answer_next(NextAnswer::Stop);
            assert!(!verdict.right);
            assert_eq!(verdict.habit, Some(Habit::StoppedAtGeneration));
            caught = true;
        }
        match right_answer(&run) {
            Ok(next) => run.answer_next(next),
            Err(neighbour) => run.answer_neighbour(neighbour),
        };
    }
    assert!(caught);
    assert_eq!(run.search().path().map(|(_, cost)| cost), Some(418.0));
}

#[test]
fn a_wrong_g_is_named_when_it_is_the_edge_alone_or_adds_h() {
    // Romania from Arad: Sibiu (140 away) has h 253; expanding Sibiu offers Fagaras 140 + 99.
    let mut run = hand_run(
        &presets::ROMANIA,
        LabAlgorithm::AStar,
        TiePolicy::Alphabetical,
    );
    let arad = run.search().graph().index("Arad").expect("Arad");
    let sibiu = run.search().graph().index("Sibiu").expect("Sibiu");
    run.answer_next(NextAnswer::Node(arad));
    while run.question() != Question::Next {
        let Err(answer) = right_answer(&run) else {
            panic!("neighbours first")
        };
        run.answer_neighbour(answer);
    }
    run.answer_next(NextAnswer::Node(sibiu));
    let mut seen = Vec::new();
    while let Question::Neighbour {
        neighbour, weight, ..
    } = run.question()
    {
        let name = run.search().graph().name(neighbour).to_string();
        let h = run.search().graph().h(neighbour);
        let Err(right) = right_answer(&run) else {
            panic!("a neighbour")
        };
        let verdict = match (name.as_str(), right) {
            ("Fagaras", NeighbourAnswer::NewG(_)) => {
                run.answer_neighbour(NeighbourAnswer::NewG(weight))
            }
            ("Rimnicu_Vilcea", NeighbourAnswer::NewG(g)) => {
                run.answer_neighbour(NeighbourAnswer::NewG(g + h))
            }
            _ => run.answer_neighbour(right),
        };
        seen.push((name, verdict.habit));
    }
    assert!(
        seen.contains(&("Fagaras".into(), Some(Habit::EdgeOnly))),
        "{seen:?}"
    );
    assert!(
        seen.contains(&("Rimnicu_Vilcea".into(), Some(Habit::AddedH))),
        "{seen:?}"
    );
}

#[test]
fn ties_are_judged_by_the_policy() {
    let (graph, start, goal) = presets::TIES.load();
    let search = LabSearch::new(graph, LabAlgorithm::AStar, start, goal);
    for policy in [TiePolicy::Alphabetical, TiePolicy::AnyValid] {
        let mut run = ByHand::new(search.clone(), policy);
        run.answer_next(NextAnswer::Node(start));
        while run.question() != Question::Next {
            let Err(answer) = right_answer(&run) else {
                panic!("neighbours")
            };
            run.answer_neighbour(answer);
        }
        let tied = run.search().equally_good();
        assert!(tied.len() > 1, "the Ties preset ties after its start");
        let second = tied[1];
        let verdict = run.answer_next(NextAnswer::Node(second));
        match policy {
            TiePolicy::Alphabetical => {
                assert!(!verdict.right);
                assert_eq!(verdict.habit, Some(Habit::TieOrder));
            }
            TiePolicy::AnyValid => {
                assert!(verdict.right, "{verdict:?}");
                // The learner's choice is the one expanded.
                assert_eq!(run.search().closed().last(), Some(&second));
            }
        }
    }
}

#[test]
fn another_graph_keeps_the_edges_and_gives_a_sound_h() {
    let (graph, _, goal) = presets::ROMANIA.load();
    for seed in 0..200 {
        let new = redraw(&graph, goal, seed);
        assert_eq!(new.len(), graph.len());
        for a in 0..graph.len() {
            let before: Vec<usize> = graph.neighbours(a).iter().map(|e| e.0).collect();
            let after: Vec<usize> = new.neighbours(a).iter().map(|e| e.0).collect();
            assert_eq!(before, after);
            assert!(new.neighbours(a).iter().all(|e| (1.0..=9.0).contains(&e.1)));
        }
        let check = check_heuristic(&new, goal);
        assert_eq!(
            (check.inadmissible, check.inconsistent),
            (None, None),
            "{seed}"
        );
    }
    assert_ne!(
        redraw(&graph, goal, 1).to_text(),
        redraw(&graph, goal, 2).to_text()
    );
}
