//! `gridpath range` and `gridpath fov`: a unit's movement range and field of view, printed one
//! cell a line so that any tool can check them.

use crate::scen::moves;
use clap::Args;
use gridpath::movingai::text::visible_path;
use gridpath::movingai::{MapLimits, MapShape, read_shaped_map_file_with_limits};
use gridpath::tactics::{Blockers, FieldOfView, MovementRange};
use gridpath::{Grid, Movement, Point};
use std::path::PathBuf;

/// Every cell a unit at FROM can reach within BUDGET, one `x,y cost` a line, sorted by row, then
/// column.
///
/// Costs are the searches': a step costs the entry cost of the cell it enters, times √2 on a
/// diagonal. Each --enemy closes its cell and ends a move in the cells next to it (its zone of
/// control). Exits 2 on bad input: a map that cannot be read, FROM off the map or on a wall, a
/// budget that is not a number of zero or more.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct RangeArgs {
    /// The map, a Moving AI .map file (hex maps by their type word).
    map: PathBuf,
    /// The unit's cell, as x,y (0,0 is the top left).
    #[arg(value_parser = parse_point)]
    from: Point,
    /// Its movement points.
    budget: f64,
    /// The moves (default: the map's hexagons, or octile on squares).
    #[arg(long, value_parser = moves())]
    moves: Option<Movement>,
    /// An enemy's cell, x,y: closed, and the cells next to it end a move. May be repeated.
    #[arg(long, value_parser = parse_point)]
    enemy: Vec<Point>,
}

/// Every cell a unit at FROM sees within RADIUS, one `x,y` a line, sorted by row, then column.
///
/// On squares, symmetric shadowcasting (a floor cell is seen when the line between the centres
/// crosses no wall, each wall a diamond inscribed in its cell: a sees b exactly when b sees a),
/// within a round radius; on hexagons, hex lines, within the hex distance. Exits 2 on bad input.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct FovArgs {
    /// The map, a Moving AI .map file (hex maps by their type word).
    map: PathBuf,
    /// The unit's cell, as x,y.
    #[arg(value_parser = parse_point)]
    from: Point,
    /// How far it sees, in cells.
    radius: u32,
    /// The moves, for the map's shape (default: the map's hexagons, or squares).
    #[arg(long, value_parser = moves())]
    moves: Option<Movement>,
}

/// `x,y` as a point.
pub(crate) fn parse_point(text: &str) -> Result<Point, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("{text:?} is not x,y"))?;
    let coordinate = |c: &str| {
        c.trim()
            .parse::<i32>()
            .map_err(|_| format!("{text:?} is not x,y"))
    };
    Ok(Point::new(coordinate(x)?, coordinate(y)?))
}

/// The map, its moves (given, or the map's own), and FROM checked to be an open cell of it.
fn map_and_unit(
    map: &PathBuf,
    moves: Option<Movement>,
    from: Point,
) -> Result<(Grid, Movement), String> {
    let (grid, shape) =
        read_shaped_map_file_with_limits(map, &MapLimits::default()).map_err(|e| e.to_string())?;
    let movement = moves.unwrap_or(match shape {
        MapShape::Hex(layout) => Movement::Hex(layout),
        _ => Movement::default(),
    });
    let path = visible_path(map);
    if !grid.contains(from) {
        return Err(format!(
            "{path}: {from} is off the {}×{} map",
            grid.width(),
            grid.height()
        ));
    }
    if !grid.is_passable(from) {
        return Err(format!("{path}: {from} is a wall"));
    }
    Ok((grid, movement))
}

/// Row by row, then column by column.
fn reading_order(p: &Point) -> (i32, i32) {
    (p.y, p.x)
}

/// Ok(true): the range is printed.
pub fn range(args: RangeArgs) -> Result<bool, String> {
    if !(args.budget >= 0.0 && args.budget.is_finite()) {
        return Err(format!(
            "the budget {} is not a number of zero or more",
            args.budget
        ));
    }
    let (grid, movement) = map_and_unit(&args.map, args.moves, args.from)?;
    let mut blockers = Blockers::new();
    for &enemy in &args.enemy {
        if !grid.contains(enemy) {
            return Err(format!("the enemy at {enemy} is off the map"));
        }
        blockers.enemy(&grid, movement, enemy);
    }
    let mut range = MovementRange::new();
    range.compute(&grid, movement, args.from, args.budget, &blockers);
    let mut cells: Vec<(Point, f64)> = range.cells().collect();
    cells.sort_by_key(|(p, _)| reading_order(p));
    for (p, cost) in cells {
        outln!("{},{} {cost}", p.x, p.y);
    }
    Ok(true)
}

/// Ok(true): the field of view is printed.
pub fn fov(args: FovArgs) -> Result<bool, String> {
    let (grid, movement) = map_and_unit(&args.map, args.moves, args.from)?;
    let mut fov = FieldOfView::new();
    fov.compute(&grid, movement, args.from, args.radius);
    let mut cells: Vec<Point> = fov.cells().collect();
    cells.sort_by_key(reading_order);
    for p in cells {
        outln!("{},{}", p.x, p.y);
    }
    Ok(true)
}
