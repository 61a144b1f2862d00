//! `gridpath route`: one query, for one unit class, printed as a line a script can read.

use crate::scen::moves;
use crate::tactics::parse_point;
use clap::Args;
use gridpath::movingai::text::visible_path;
use gridpath::movingai::{
    MapLimits, MapShape, read_class_file, read_links_file, read_shaped_map_file_with_limits,
};
use gridpath::{
    Algorithm, Heuristic, Movement, Point, QueryError, Search, SearchConfig, UnitClass,
};
use std::path::PathBuf;

/// The cheapest route from FROM to TO, for a unit class.
///
/// Prints `cost=C length=N` (N moves) and exits 0, or `no_path reason=R` and exits 1, where R
/// is `unreachable`, `start_on_wall`, `goal_on_wall`, `start_closed` or `goal_closed` (the
/// class may not enter that cell's terrain). Without --class the unit is the Moving AI
/// benchmark's: swamp is ground, and water is entered only from water. Exits 2 on bad input: a
/// file that cannot be read (its line named), FROM or TO off the map.
///
/// The class file has one terrain a line, a map character and a cost factor or `no`:
///   . 1
///   S 3
///   W no
/// A terrain it does not name costs 1; # starts a comment.
///
/// The links file has one link a line (a door, stairs, a teleporter), its two cells, its cost,
/// and `oneway` for a link taken from the first cell only:
///   12,3 40,3 4
///   20,17 20,30 1 oneway
/// A route takes a link as one move; --output lists its two cells one after the other.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct RouteArgs {
    /// The map, a Moving AI .map file (hex maps by their type word).
    map: PathBuf,
    /// The start, as x,y (0,0 is the top left).
    #[arg(value_parser = parse_point)]
    from: Point,
    /// The goal, as x,y.
    #[arg(value_parser = parse_point)]
    to: Point,
    /// The unit class: a cost factor or `no` for each terrain character.
    #[arg(long, value_name = "FILE")]
    class: Option<PathBuf>,
    /// Links between cells: x1,y1 x2,y2 cost [oneway], one a line.
    #[arg(long, value_name = "FILE")]
    links: Option<PathBuf>,
    /// The search.
    #[arg(long, default_value = "astar", value_parser = crate::scen::algorithm())]
    algo: Algorithm,
    /// The moves (default: the map's hexagons, or octile on squares).
    #[arg(long, value_parser = moves())]
    moves: Option<Movement>,
    /// Also write the route to FILE, one x,y a line.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Ok(true): a route; Ok(false): `no_path`.
pub fn run(args: RouteArgs) -> Result<bool, String> {
    let (mut grid, shape) = read_shaped_map_file_with_limits(&args.map, &MapLimits::default())
        .map_err(|e| e.to_string())?;
    for (what, p) in [("start", args.from), ("goal", args.to)] {
        if !grid.contains(p) {
            let (w, h) = (grid.width(), grid.height());
            let map = visible_path(&args.map);
            return Err(format!("{map}: the {what} {p} is off the {w}×{h} map"));
        }
    }
    if let Some(path) = &args.links {
        read_links_file(path, &mut grid).map_err(|e| e.to_string())?;
    }
    let class = match &args.class {
        Some(path) => read_class_file(path).map_err(|e| e.to_string())?,
        None => UnitClass::moving_ai_for(&grid, args.from),
    };
    let movement = args.moves.unwrap_or(match shape {
        MapShape::Hex(layout) => Movement::Hex(layout),
        _ => Movement::default(),
    });
    let config = SearchConfig {
        movement,
        heuristic: Heuristic::best_for(movement),
        ..SearchConfig::default().with_algorithm(args.algo)
    };
    let mut search = Search::with_class(class);
    let reason = match search.find_path(&grid, args.from, args.to, &config) {
        Ok(result) => match result.path {
            Some(path) => {
                if let Some(file) = &args.output {
                    let text: String = path
                        .cells
                        .iter()
                        .map(|p| format!("{},{}\n", p.x, p.y))
                        .collect();
                    std::fs::write(file, text)
                        .map_err(|e| format!("{}: cannot write: {e}", visible_path(file)))?;
                }
                outln!("cost={} length={}", path.cost, path.cells.len() - 1);
                return Ok(true);
            }
            None => "unreachable",
        },
        Err(QueryError::StartBlocked(_)) => "start_on_wall",
        Err(QueryError::GoalBlocked(_)) => "goal_on_wall",
        Err(QueryError::StartClosed(_)) => "start_closed",
        Err(QueryError::GoalClosed(_)) => "goal_closed",
        Err(refused) => return Err(refused.to_string()),
    };
    outln!("no_path reason={reason}");
    Ok(false)
}
