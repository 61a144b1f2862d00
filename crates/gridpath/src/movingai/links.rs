//! The links file: doors, ladders, stairs and teleporters to add to a map.
//!
//! ```text
//! # the stairs between the two floors, and a drop
//! 12,3 40,3 4
//! 20,17 20,30 1 oneway
//! ```
//!
//! One link a line: its two cells as `x,y` (0,0 is the top left), its cost (a whole number from
//! 1), and `oneway` for a link taken from the first cell to the second only. Blank lines and
//! lines starting with `#` are skipped.

use super::error::FormatError;
use super::text::{quote, whole_number, without_bom};
use crate::grid::{Grid, Point};
use crate::links::Link;

/// The largest number of links a file may hold: each change to a grid's links lays them all out
/// again, so a file of millions would take a long time to load (and to search among).
pub const MAX_LINKS: usize = 100_000;

/// Adds the links of a links file to `grid` (`x1,y1 x2,y2 cost [oneway]` a line, `#` comments);
/// returns how many. A line
/// that is not a link, or names a cell off the map, is an error naming the line; the grid then
/// keeps the links of the lines before it.
///
/// ```
/// use gridpath::movingai::add_links;
/// use gridpath::{Grid, Point};
///
/// let mut grid = Grid::new(8, 4).unwrap();
/// assert_eq!(add_links(&mut grid, "# stairs\n1,1 6,1 4\n0,3 7,3 1 oneway\n"), Ok(2));
/// let (_, stairs) = grid.links().next().unwrap();
/// assert_eq!((stairs.from, stairs.to, stairs.cost, stairs.two_way), (Point::new(1, 1), Point::new(6, 1), 4, true));
/// let error = add_links(&mut grid, "1,1 9,1 2\n").unwrap_err();
/// assert_eq!(error.to_string(), "line 1: (9, 1) is off the 8×4 map");
/// ```
pub fn add_links(grid: &mut Grid, text: &str) -> Result<usize, FormatError> {
    let mut added = 0;
    for (i, line) in without_bom(text).lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let link = parse_link(line).map_err(|why| FormatError::new(n, why))?;
        if added == MAX_LINKS {
            let why = format!("more than {MAX_LINKS} links");
            return Err(FormatError::new(n, why));
        }
        grid.add_link(link).map_err(|_| {
            let off = [link.from, link.to]
                .into_iter()
                .find(|&p| !grid.contains(p));
            let (w, h) = (grid.width(), grid.height());
            let why = format!("{} is off the {w}×{h} map", off.unwrap_or(link.from));
            FormatError::new(n, why)
        })?;
        added += 1;
    }
    Ok(added)
}

/// The links file of `grid`'s links, one a line, in the order of their ids;
/// [`add_links`] reads it back. A link's kind and whether it is shut are not in the format: a
/// shut link is written as a comment, a kind is left out.
///
/// ```
/// use gridpath::movingai::{add_links, write_links};
/// use gridpath::{Grid, Link, Point};
///
/// let mut grid = Grid::new(8, 4).unwrap();
/// grid.add_link(Link::new(Point::new(1, 1), Point::new(6, 1), 4)).unwrap();
/// grid.add_link(Link::new(Point::new(0, 3), Point::new(7, 3), 1).one_way()).unwrap();
/// let text = write_links(&grid);
/// assert_eq!(text, "1,1 6,1 4\n0,3 7,3 1 oneway\n");
/// let mut again = Grid::new(8, 4).unwrap();
/// add_links(&mut again, &text).unwrap();
/// assert_eq!(again, grid);
/// ```
pub fn write_links(grid: &Grid) -> String {
    let mut text = String::new();
    for (_, link) in grid.links() {
        let (a, b) = (link.from, link.to);
        let shut = if link.open { "" } else { "# shut: " };
        let way = if link.two_way { "" } else { " oneway" };
        text += &format!("{shut}{},{} {},{} {}{way}\n", a.x, a.y, b.x, b.y, link.cost);
    }
    text
}

/// One line: `x1,y1 x2,y2 cost [oneway]`.
fn parse_link(line: &str) -> Result<Link, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (from, to, cost, one_way) = match words[..] {
        [from, to, cost] => (from, to, cost, false),
        [from, to, cost, "oneway"] => (from, to, cost, true),
        _ => {
            return Err(format!(
                "expected two cells and a cost, as '3,4 10,4 5' or '3,4 10,4 5 oneway', found {}",
                quote(line)
            ));
        }
    };
    let (from, to) = (cell(from)?, cell(to)?);
    let cost = whole_number(cost)
        .filter(|&c| c >= 1)
        .ok_or_else(|| format!("{} is not a cost (a whole number from 1)", quote(cost)))?;
    let link = Link::new(from, to, cost);
    Ok(if one_way { link.one_way() } else { link })
}

/// `x,y`, both whole numbers.
fn cell(word: &str) -> Result<Point, String> {
    let not_a_cell = || format!("{} is not a cell (x,y)", quote(word));
    let (x, y) = word.split_once(',').ok_or_else(not_a_cell)?;
    let number = |s: &str| whole_number(s).and_then(|n| i32::try_from(n).ok());
    match (number(x), number(y)) {
        (Some(x), Some(y)) => Ok(Point::new(x, y)),
        _ => Err(not_a_cell()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_named() {
        let mut grid = Grid::new(4, 4).unwrap();
        let mut err = |text: &str| add_links(&mut grid, text).unwrap_err().to_string();
        assert_eq!(
            err("\n# x\n1,1 2,2\n"),
            "line 3: expected two cells and a cost, as '3,4 10,4 5' or '3,4 10,4 5 oneway', \
             found '1,1 2,2'"
        );
        assert_eq!(err("1;1 2,2 3\n"), "line 1: '1;1' is not a cell (x,y)");
        assert_eq!(err("1,1 2,-2 3\n"), "line 1: '2,-2' is not a cell (x,y)");
        assert_eq!(
            err("1,1 2,2 0\n"),
            "line 1: '0' is not a cost (a whole number from 1)"
        );
        assert!(err("1,1 2,2 3 twoway\n").starts_with("line 1: expected two cells"));
        assert_eq!(
            err("0,0 1,1 1\n4,0 1,1 1\n"),
            "line 2: (4, 0) is off the 4×4 map"
        );
        let links: Vec<_> = grid.links().map(|(_, l)| *l).collect();
        assert_eq!(
            links,
            [Link::new(Point::new(0, 0), Point::new(1, 1), 1)],
            "line 1 kept"
        );
    }

    #[test]
    fn one_way_links_are_read() {
        let mut grid = Grid::new(4, 4).unwrap();
        assert_eq!(add_links(&mut grid, "\u{feff}0,0 3,3 7 oneway\r\n"), Ok(1));
        let (_, link) = grid.links().next().unwrap();
        assert_eq!(
            *link,
            Link::new(Point::new(0, 0), Point::new(3, 3), 7).one_way()
        );
    }
}
