//! Your first path: a small map, A* from one corner to the other, and the path drawn on the map.
//!
//! `cargo run -p gridpath --example first_path`

use gridpath::{Grid, Point, SearchConfig, find_path};

fn main() {
    // `.` is floor, `#` is a wall. (0, 0) is the top-left cell; y grows downwards.
    let rows = [
        "..........",
        ".######...",
        "......#...",
        "..##..#.#.",
        "..#...#.#.",
        "..#.....#.",
    ];
    let grid = Grid::from_ascii(&rows).expect("every row has the same width");
    let (start, goal) = (Point::new(0, 5), Point::new(9, 0));

    // The default: A* on 8-way moves that never cut a wall's corner, with the octile heuristic.
    let config = SearchConfig::default();
    let result = find_path(&grid, start, goal, &config).expect("both ends are free cells");
    let Some(path) = result.path else {
        println!("no path from {start} to {goal}");
        return;
    };

    println!(
        "A* from {start} to {goal}: {} cells, cost {:.3}, {} cells expanded\n",
        path.cells.len(),
        path.cost,
        result.expanded
    );
    for (y, row) in rows.iter().enumerate() {
        let line: String = row
            .chars()
            .enumerate()
            .map(|(x, c)| {
                let p = Point::new(x as i32, y as i32);
                match () {
                    _ if p == start => 'S',
                    _ if p == goal => 'G',
                    _ if path.cells.contains(&p) => '*',
                    _ => c,
                }
            })
            .collect();
        println!("{line}");
    }
}
