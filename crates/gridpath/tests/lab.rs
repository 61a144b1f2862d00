//! The graph lab's core: the textbook's Romania trace, the presets' lessons, the heuristic
//! checks, and every search against an independent oracle on thousands of random graphs.

use gridpath::lab::presets::{self, Preset};
use gridpath::lab::{Change, LabAlgorithm, LabGraph, LabSearch, check_heuristic};

fn run(preset: &Preset, algorithm: LabAlgorithm) -> LabSearch {
    let (graph, start, goal) = preset.load();
    let mut search = LabSearch::new(graph, algorithm, start, goal);
    search.run();
    search
}

fn names(search: &LabSearch, nodes: &[usize]) -> Vec<String> {
    nodes
        .iter()
        .map(|&n| search.graph().name(n).to_string())
        .collect()
}

#[test]
fn every_preset_reads() {
    for preset in presets::ALL {
        let graph = LabGraph::parse(preset.text).expect(preset.name);
        assert!(graph.index(preset.start).is_some() && graph.index(preset.goal).is_some());
    }
}

#[test]
fn romania_a_star_is_the_textbooks_trace() {
    let search = run(&presets::ROMANIA, LabAlgorithm::AStar);
    let expanded: Vec<usize> = search.steps().iter().map(|s| s.expanded).collect();
    assert_eq!(
        names(&search, &expanded),
        [
            "Arad",
            "Sibiu",
            "Rimnicu_Vilcea",
            "Fagaras",
            "Pitesti",
            "Bucharest"
        ]
    );
    // The book's open lists, f values in order, after each of the first steps.
    let f_after = |k: usize| -> Vec<(String, f64)> {
        let step = &search.steps()[k];
        let open = step
            .open
            .iter()
            .map(|e| (search.graph().name(e.node).to_string(), e.f));
        open.collect()
    };
    let s = |name: &str, f: f64| (name.to_string(), f);
    assert_eq!(
        f_after(0),
        [s("Sibiu", 393.0), s("Timisoara", 447.0), s("Zerind", 449.0)]
    );
    assert_eq!(
        f_after(3),
        [
            s("Pitesti", 417.0),
            s("Timisoara", 447.0),
            s("Zerind", 449.0),
            s("Bucharest", 450.0),
            s("Craiova", 526.0),
            s("Oradea", 671.0)
        ]
    );
    // Fagaras reached Bucharest at 450; Pitesti lowers it to 418 before it is expanded.
    let graph = search.graph();
    let bucharest = graph.index("Bucharest").expect("a town");
    let pitesti = &search.steps()[4];
    let change = pitesti
        .changes
        .iter()
        .find(|c| c.node() == bucharest)
        .expect("Bucharest offered a way");
    assert!(matches!(
        change,
        Change::Improved {
            before: 450.0,
            g: 418.0,
            ..
        }
    ));
    assert_eq!(
        change.describe(graph, pitesti.g),
        "Bucharest: 450 > 317 + 101 → 418"
    );
    let (path, cost) = search.path().expect("found");
    assert_eq!(
        names(&search, &path),
        ["Arad", "Sibiu", "Rimnicu_Vilcea", "Pitesti", "Bucharest"]
    );
    assert_eq!(cost, 418.0);
    assert!(search.steps().last().is_some_and(|s| s.goal));
}

#[test]
fn the_presets_show_what_they_say() {
    let cost = |preset: &Preset, a| run(preset, a).path().expect("a path").1;
    assert_eq!(cost(&presets::WARM_UP, LabAlgorithm::AStar), 4.0);
    assert_eq!(cost(&presets::GREEDY_TRAP, LabAlgorithm::Greedy), 11.0);
    assert_eq!(cost(&presets::GREEDY_TRAP, LabAlgorithm::AStar), 6.0);
    assert_eq!(cost(&presets::INADMISSIBLE, LabAlgorithm::AStar), 5.0);
    assert_eq!(cost(&presets::INADMISSIBLE, LabAlgorithm::Dijkstra), 2.0);

    let (graph, _, goal) = presets::INADMISSIBLE.load();
    let check = check_heuristic(&graph, goal);
    assert_eq!(
        check.inadmissible.as_deref(),
        Some("h(B) = 10 is more than the true cost to the goal, 1")
    );
    assert!(
        check
            .inconsistent
            .is_some_and(|s| s.starts_with("h(B) = 10 > 1 + h(G)"))
    );
    for preset in [presets::WARM_UP, presets::ROMANIA, presets::GREEDY_TRAP] {
        let (graph, _, goal) = preset.load();
        let check = check_heuristic(&graph, goal);
        assert_eq!(check.inadmissible, None, "{}", preset.name);
        assert_eq!(check.inconsistent, None, "{}", preset.name);
    }
}

/// A small deterministic generator for the random graphs.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The oracle: every pair's least cost, by Floyd and Warshall, sharing nothing with the lab.
fn least_costs(n: usize, edges: &[(usize, usize, f64)]) -> Vec<Vec<f64>> {
    let mut d = vec![vec![f64::INFINITY; n]; n];
    for (i, row) in d.iter_mut().enumerate() {
        row[i] = 0.0;
    }
    for &(a, b, w) in edges {
        d[a][b] = d[a][b].min(w);
        d[b][a] = d[b][a].min(w);
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if d[i][k] + d[k][j] < d[i][j] {
                    d[i][j] = d[i][k] + d[k][j];
                }
            }
        }
    }
    d
}

#[test]
fn every_search_agrees_with_an_oracle_on_random_graphs() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..3000 {
        let n = 2 + rng.below(9) as usize;
        let mut text = String::new();
        let mut edges = Vec::new();
        for a in 0..n {
            text.push_str(&format!("N{a}\n"));
            for b in a + 1..n {
                if rng.below(3) == 0 {
                    let w = rng.below(10) as f64;
                    text.push_str(&format!("N{a} N{b} {w}\n"));
                    edges.push((a, b, w));
                }
            }
        }
        let d = least_costs(n, &edges);
        let (start, goal) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        // An admissible h, on some cases consistent (the true cost), on others a random share.
        for (a, row) in d.iter().enumerate() {
            let truth = row[goal];
            let h = if !truth.is_finite() {
                rng.below(20) as f64
            } else if case % 2 == 0 {
                truth
            } else {
                (truth * rng.below(11) as f64 / 10.0).floor()
            };
            text.push_str(&format!("h N{a} {h}\n"));
        }
        let graph = LabGraph::parse(&text).expect("a random graph");
        let index = |a: usize| graph.index(&format!("N{a}")).expect("a node");
        let (s, g) = (index(start), index(goal));
        let check = check_heuristic(&graph, g);
        assert_eq!(check.inadmissible, None, "case {case}: {text}");
        for algorithm in LabAlgorithm::ALL {
            let mut search = LabSearch::new(graph.clone(), algorithm, s, g);
            let mut next = search.next_choice();
            while let Some(step) = search.step() {
                // Legal: each step expands the node the open list had first.
                assert_eq!(Some(step.expanded), next, "case {case} {algorithm:?}");
                next = step.open.first().map(|e| e.node);
            }
            let truth = d[start][goal];
            match search.path() {
                Some((path, cost)) => {
                    assert!(truth.is_finite(), "case {case}: {algorithm:?} found no-way");
                    assert_eq!(path.first(), Some(&s));
                    assert_eq!(path.last(), Some(&g));
                    let along: f64 = path
                        .windows(2)
                        .map(|w| {
                            let edge = graph.neighbours(w[0]).iter().find(|e| e.0 == w[1]);
                            edge.expect("consecutive nodes share an edge").1
                        })
                        .sum();
                    assert!((along - cost).abs() < 1e-9, "case {case} {algorithm:?}");
                    if matches!(algorithm, LabAlgorithm::Dijkstra | LabAlgorithm::AStar) {
                        assert!(
                            (cost - truth).abs() < 1e-9,
                            "case {case} {algorithm:?}: {text}"
                        );
                    }
                }
                None => assert!(!truth.is_finite(), "case {case} {algorithm:?}: {text}"),
            }
        }
    }
}
