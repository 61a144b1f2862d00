//! A* by hand: the road map of Romania from Russell and Norvig's *Artificial Intelligence: A
//! Modern Approach*, from Arad to Bucharest, with the straight-line distance to Bucharest as the
//! heuristic. Prints every expansion with its g, h and f and the open list after it, so that a
//! student can check a search worked on paper, line by line.
//!
//! `cargo run -p gridpath --example romania`

use gridpath::graph::astar_traced;

/// The roads (both ways) and their lengths in km.
pub const ROADS: [(&str, &str, f64); 23] = [
    ("Arad", "Zerind", 75.0),
    ("Arad", "Sibiu", 140.0),
    ("Arad", "Timisoara", 118.0),
    ("Zerind", "Oradea", 71.0),
    ("Oradea", "Sibiu", 151.0),
    ("Timisoara", "Lugoj", 111.0),
    ("Lugoj", "Mehadia", 70.0),
    ("Mehadia", "Drobeta", 75.0),
    ("Drobeta", "Craiova", 120.0),
    ("Craiova", "Rimnicu Vilcea", 146.0),
    ("Craiova", "Pitesti", 138.0),
    ("Sibiu", "Fagaras", 99.0),
    ("Sibiu", "Rimnicu Vilcea", 80.0),
    ("Rimnicu Vilcea", "Pitesti", 97.0),
    ("Fagaras", "Bucharest", 211.0),
    ("Pitesti", "Bucharest", 101.0),
    ("Bucharest", "Giurgiu", 90.0),
    ("Bucharest", "Urziceni", 85.0),
    ("Urziceni", "Hirsova", 98.0),
    ("Hirsova", "Eforie", 86.0),
    ("Urziceni", "Vaslui", 142.0),
    ("Vaslui", "Iasi", 92.0),
    ("Iasi", "Neamt", 87.0),
];

/// The straight-line distance from each town to Bucharest, in km: never more than the road.
pub fn straight_line_to_bucharest(town: &str) -> f64 {
    match town {
        "Arad" => 366.0,
        "Bucharest" => 0.0,
        "Craiova" => 160.0,
        "Drobeta" => 242.0,
        "Eforie" => 161.0,
        "Fagaras" => 176.0,
        "Giurgiu" => 77.0,
        "Hirsova" => 151.0,
        "Iasi" => 226.0,
        "Lugoj" => 244.0,
        "Mehadia" => 241.0,
        "Neamt" => 234.0,
        "Oradea" => 380.0,
        "Pitesti" => 100.0,
        "Rimnicu Vilcea" => 193.0,
        "Sibiu" => 253.0,
        "Timisoara" => 329.0,
        "Urziceni" => 80.0,
        "Vaslui" => 199.0,
        "Zerind" => 374.0,
        _ => 0.0,
    }
}

/// The towns one road away from `town`, with the road's length.
pub fn roads_from(town: &str) -> Vec<(&'static str, f64)> {
    ROADS
        .iter()
        .filter_map(|&(a, b, km)| match town {
            t if t == a => Some((b, km)),
            t if t == b => Some((a, km)),
            _ => None,
        })
        .collect()
}

#[allow(dead_code)] // the tests include this file for its map, not for `main`
fn main() {
    println!(
        "A* from Arad to Bucharest (g: km so far, h: straight line to Bucharest, f = g + h)\n"
    );
    let path = astar_traced(
        "Arad",
        |town| roads_from(town),
        |town| straight_line_to_bucharest(town),
        |town| *town == "Bucharest",
        |step| {
            println!(
                "expand {:<15} g {:>3}  h {:>3}  f {:>3}",
                step.node, step.g, step.h, step.f
            );
            let open: Vec<String> = step
                .open_list()
                .iter()
                .map(|(town, _, f)| format!("{town} {f}"))
                .collect();
            println!("  open: {}", open.join(", "));
        },
    );
    match path {
        Some(path) => println!("\npath: {} ({} km)", path.nodes.join(" → "), path.cost),
        None => println!("\nno path"),
    }
}
