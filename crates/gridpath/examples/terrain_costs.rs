//! Terrain costs: the cheapest path is not always the shortest.
//!
//! A river (`w`, cost 10 to enter) crosses the map, with one bridge (`1`) a few cells to the side.
//! Breadth-first search counts steps and wades straight across; Dijkstra and A* count cost and
//! walk round by the bridge.
//!
//! `cargo run -p gridpath --example terrain_costs`

use gridpath::{Algorithm, Cell, Grid, Point, SearchConfig, find_path};

fn main() {
    let rows = [
        "..............",
        "..............",
        "wwwwww1wwwwwww",
        "wwwwww1wwwwwww",
        "..............",
        "..............",
    ];
    let mut grid = Grid::new(14, 6).expect("a valid size");
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            // Entering a cell costs its number: floor and bridge 1, water 10.
            let cost = if c == 'w' { 10 } else { 1 };
            let p = Point::new(x as i32, y as i32);
            grid.set(p, Cell::Passable(cost)).expect("inside the grid");
        }
    }
    let (start, goal) = (Point::new(1, 0), Point::new(1, 5));

    for algorithm in [
        Algorithm::BreadthFirst,
        Algorithm::Dijkstra,
        Algorithm::AStar,
    ] {
        let config = SearchConfig::default().with_algorithm(algorithm);
        let result = find_path(&grid, start, goal, &config).expect("both ends are free cells");
        let path = result.path.expect("the map is connected");
        let wet = path
            .cells
            .iter()
            .filter(|&&p| grid.cell(p) == Some(Cell::Passable(10)))
            .count();
        println!(
            "{:<14} {:>2} cells, cost {:>6.2}, {wet} of them in the water, {:>3} expanded",
            algorithm.name(),
            path.cells.len(),
            path.cost,
            result.expanded
        );
    }
}
