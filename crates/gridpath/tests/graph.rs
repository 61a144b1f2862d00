//! A* on any graph: the textbook's Romania search, expansion by expansion, and the grid seen as a
//! graph giving the grid A*'s costs.

use gridpath::graph::{astar, astar_traced};
use gridpath::{Point, SearchConfig};
use proptest::prelude::*;

mod common;
use common::{arb_grid, arb_movement, endpoints};

#[path = "../examples/romania.rs"]
mod romania;

/// Russell and Norvig's figure: A* expands Arad, Sibiu, Rimnicu Vilcea, Fagaras, Pitesti and
/// Bucharest, with these f values, and finds the 418 km road through Pitesti.
#[test]
fn the_romania_search_matches_the_textbook() {
    let mut expanded = Vec::new();
    let mut open_after_sibiu = Vec::new();
    let path = astar_traced(
        "Arad",
        |town| romania::roads_from(town),
        |town| romania::straight_line_to_bucharest(town),
        |town| *town == "Bucharest",
        |step| {
            expanded.push((*step.node, step.f));
            if *step.node == "Sibiu" {
                open_after_sibiu = step
                    .open_list()
                    .into_iter()
                    .map(|(t, _, f)| (t, f))
                    .collect();
            }
        },
    )
    .expect("Bucharest is reachable");
    assert_eq!(
        expanded,
        [
            ("Arad", 366.0),
            ("Sibiu", 393.0),
            ("Rimnicu Vilcea", 413.0),
            ("Fagaras", 415.0),
            ("Pitesti", 417.0),
            ("Bucharest", 418.0),
        ]
    );
    assert_eq!(
        open_after_sibiu,
        [
            ("Rimnicu Vilcea", 413.0),
            ("Fagaras", 415.0),
            ("Timisoara", 447.0),
            ("Zerind", 449.0),
            ("Oradea", 671.0),
        ]
    );
    assert_eq!(
        path.nodes,
        ["Arad", "Sibiu", "Rimnicu Vilcea", "Pitesti", "Bucharest"]
    );
    assert_eq!(path.cost, 418.0);
    // Arad is in the open list again after Sibiu (f 646 through Sibiu) only if it were reopened:
    // it is closed, and a closed node is reopened only by a cheaper route.
    assert!(!open_after_sibiu.iter().any(|(t, _)| *t == "Arad"));
}

#[test]
fn an_unreachable_goal_gives_none() {
    let path = astar(
        "Arad",
        |town| romania::roads_from(town),
        |_| 0.0,
        |town| *town == "Atlantis",
    );
    assert_eq!(path, None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// The grid as a graph (a node per cell, an edge per legal move) gives the same costs as the
    /// grid A*, with the same heuristic.
    #[test]
    fn the_grid_as_a_graph_gives_the_grid_astars_costs(
        grid in arb_grid(12, true),
        movement in arb_movement(),
        a in any::<usize>(),
        b in any::<usize>(),
    ) {
        let Some((start, goal)) = endpoints(&grid, a, b) else { return Ok(()) };
        let config = SearchConfig::astar(movement);
        let on_grid = gridpath::find_path(&grid, start, goal, &config)
            .expect("valid query")
            .path
            .map(|p| p.cost);
        let scale = f64::from(grid.min_cost());
        let heuristic = |p: &Point| {
            let (dx, dy) = ((p.x - goal.x).abs() as f64, (p.y - goal.y).abs() as f64);
            scale * config.heuristic.estimate(dx, dy)
        };
        let neighbours = |p: &Point| movement.neighbors(&grid, *p).collect::<Vec<_>>();
        let on_graph = astar(start, neighbours, heuristic, |p| *p == goal).map(|p| p.cost);
        prop_assert_eq!(on_graph.map(|c| (c * 1e6).round()), on_grid.map(|c| (c * 1e6).round()),
            "from {} to {} on {:?}", start, goal, grid);
    }
}
