//! A flow field: one search from the goals, then every cell knows its way.
//!
//! `cargo run -p gridpath --example flow_field`
//!
//! Prints each cell's cost to the nearest of two goals (`G`), then the arrow a unit standing there
//! would follow. Mud (`5`) is dear to enter, so the arrows go round it where that is cheaper.

use gridpath::{FlowField, Grid, Movement, Point};

fn main() {
    let rows = [
        "..........",
        "..####....",
        "..#55#..#.",
        "..#55...#.",
        "......###.",
        "..........",
    ];
    let grid = Grid::from_ascii(&rows).expect("every row has the same width");
    let goals = [Point::new(0, 0), Point::new(9, 5)];
    let mut field = FlowField::new();
    field.compute(&grid, &goals, Movement::default());

    println!("cost to the nearest goal:");
    for_each_row(&grid, |p| match field.cost(p) {
        Some(0.0) => "    G".to_string(),
        Some(cost) => format!("{cost:5.1}"),
        None => "    #".to_string(),
    });
    println!("\nthe way to go:");
    for_each_row(&grid, |p| {
        let arrow = match (field.cost(p), field.next_step(&grid, p)) {
            (None, _) => "#",
            (Some(_), None) => "G",
            (Some(_), Some(next)) => arrow(next.x - p.x, next.y - p.y),
        };
        format!("{arrow:>2}")
    });
}

/// Prints the grid row by row, each cell as `cell(p)` says.
fn for_each_row(grid: &Grid, cell: impl Fn(Point) -> String) {
    for y in 0..grid.height() as i32 {
        let line: String = (0..grid.width() as i32)
            .map(|x| cell(Point::new(x, y)))
            .collect();
        println!("{line}");
    }
}

fn arrow(dx: i32, dy: i32) -> &'static str {
    match (dx, dy) {
        (0, -1) => "↑",
        (1, -1) => "↗",
        (1, 0) => "→",
        (1, 1) => "↘",
        (0, 1) => "↓",
        (-1, 1) => "↙",
        (-1, 0) => "←",
        _ => "↖",
    }
}
