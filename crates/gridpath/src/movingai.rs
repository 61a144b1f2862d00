//! The Moving AI Lab's benchmark formats: `.map` grids and `.scen` query lists.
//!
//! Format (N. Sturtevant, "Benchmarks for Grid-Based Pathfinding", 2012):
//!
//! ```text
//! type octile
//! height 3
//! width 4
//! map
//! ..@.
//! .T..
//! ....
//! ```
//!
//! `.` and `G` are passable; `@`, `O` and `T` are blocked. `S` (swamp) and `W` (water) have
//! entry rules that depend on the cell you come *from*, which a grid of entry costs cannot
//! express, so they are refused with a clear error rather than guessed at. Line endings may be
//! LF or CRLF and the last newline may be missing.
//!
//! **Terrain-cost extension.** A standard reader stops after `height` rows, so gridpath stores
//! entry costs in an optional block *after* the map, which such readers never see:
//!
//! ```text
//! costs
//! 11@1
//! 1@25
//! 11a1
//! ```
//!
//! One character per cell: `@` where the map is blocked, otherwise the cost as a base-36 digit,
//! `1`–`9` then `a` (10) to `z` (35). Cells the block does not mention cost 1.

use crate::grid::{Cell, Grid, Point};
use std::fmt;
use std::path::{Path, PathBuf};

/// A problem in a `.map` or `.scen` text, with the 1-based line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub line: usize,
    pub message: String,
}

impl FormatError {
    fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for FormatError {}

/// A file that could not be read or parsed. Its message names the file, and the line if any.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    pub kind: FileErrorKind,
}

#[derive(Debug)]
pub enum FileErrorKind {
    Io(std::io::Error),
    Format(FormatError),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            FileErrorKind::Io(e) => write!(f, "{path}: {e}"),
            FileErrorKind::Format(e) => write!(f, "{path}:{}: {}", e.line, e.message),
        }
    }
}

impl std::error::Error for FileError {}

/// The largest base-36 cost the extension can store.
pub const MAX_STORED_COST: u32 = 35;

/// Parses a `.map` text (with or without the `costs` block).
pub fn parse_map(text: &str) -> Result<Grid, FormatError> {
    let mut lines = NumberedLines::new(text);
    let (width, height, n) = read_header(&mut lines)?;
    let mut grid = Grid::new(width, height).map_err(|e| FormatError::new(n, e.to_string()))?;
    for y in 0..height {
        let (n, row) = lines.expect(&format!("map row {} of {height}", y + 1))?;
        check_row_width(n, row, width)?;
        for (x, ch) in row.chars().enumerate() {
            set(&mut grid, x, y, map_cell(n, x + 1, ch)?);
        }
    }
    read_after_map(&mut grid, &mut lines)?;
    Ok(grid)
}

/// The lines of a text, numbered from 1, with a "found the end of the file" error for a line
/// that is missing.
struct NumberedLines<'a> {
    text: &'a str,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
}

impl<'a> NumberedLines<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            lines: text.lines().enumerate(),
        }
    }

    /// The next line and its number, or an error saying `what` was expected.
    fn expect(&mut self, what: &str) -> Result<(usize, &'a str), FormatError> {
        self.next().ok_or_else(|| {
            FormatError::new(
                self.text.lines().count() + 1,
                format!("expected {what}, found the end of the file"),
            )
        })
    }
}

impl<'a> Iterator for NumberedLines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        self.lines.next().map(|(i, l)| (i + 1, l))
    }
}

/// `type octile`, `height N` and `width N` (in either order), `map`. Returns the width, the
/// height and the number of the `map` line.
fn read_header(lines: &mut NumberedLines) -> Result<(u32, u32, usize), FormatError> {
    let (n, line) = lines.expect("'type octile'")?;
    match line.split_whitespace().collect::<Vec<_>>()[..] {
        ["type", "octile"] => {}
        ["type", other] => {
            let why = format!("only 'type octile' maps are supported, not '{other}'");
            return Err(FormatError::new(n, why));
        }
        _ => {
            let why = format!("expected 'type octile', found '{line}'");
            return Err(FormatError::new(n, why));
        }
    }
    let (mut width, mut height) = (None, None);
    for _ in 0..2 {
        let (n, line) = lines.expect("'height N' and 'width N'")?;
        match line.split_whitespace().collect::<Vec<_>>()[..] {
            ["height", v] => height = Some(parse_dimension(n, "height", v)?),
            ["width", v] => width = Some(parse_dimension(n, "width", v)?),
            _ => {
                let why = format!("expected 'height N' or 'width N', found '{line}'");
                return Err(FormatError::new(n, why));
            }
        }
    }
    let (n, line) = lines.expect("'map'")?;
    let (Some(width), Some(height)) = (width, height) else {
        let why = "the header needs both a 'height' and a 'width' line";
        return Err(FormatError::new(n, why));
    };
    if line.trim() != "map" {
        return Err(FormatError::new(
            n,
            format!("expected 'map', found '{line}'"),
        ));
    }
    Ok((width, height, n))
}

/// One map character as a cell (`column` counts from 1, for the message).
fn map_cell(n: usize, column: usize, ch: char) -> Result<Cell, FormatError> {
    match ch {
        '.' | 'G' => Ok(Cell::FLOOR),
        '@' | 'O' | 'T' => Ok(Cell::Blocked),
        'S' | 'W' => Err(FormatError::new(
            n,
            format!(
                "column {column}: '{ch}' ({}) can only be entered from some cells, which gridpath \
                 does not model",
                if ch == 'S' { "swamp" } else { "water" }
            ),
        )),
        other => Err(FormatError::new(
            n,
            format!("column {column}: unknown terrain '{other}' (expected . G @ O T)"),
        )),
    }
}

/// After the map: nothing but blank lines, or the costs block (and blank lines after it).
fn read_after_map(grid: &mut Grid, lines: &mut NumberedLines) -> Result<(), FormatError> {
    while let Some((n, line)) = lines.next() {
        match line.trim() {
            "" => continue,
            "costs" => {
                read_costs(grid, lines, n)?;
                break;
            }
            _ => {
                let why = format!("unexpected text after the map: '{line}'");
                return Err(FormatError::new(n, why));
            }
        }
    }
    if let Some((n, line)) = lines.find(|(_, l)| !l.trim().is_empty()) {
        let why = format!("unexpected text after the costs: '{line}'");
        return Err(FormatError::new(n, why));
    }
    Ok(())
}

fn read_costs<'a>(
    grid: &mut Grid,
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    header_line: usize,
) -> Result<(), FormatError> {
    let (width, height) = (grid.width(), grid.height());
    for y in 0..height {
        let (n, row) = lines.next().ok_or_else(|| {
            FormatError::new(
                header_line + y as usize + 1,
                format!("expected cost row {} of {height}", y + 1),
            )
        })?;
        check_row_width(n, row, width)?;
        for (x, ch) in row.chars().enumerate() {
            let blocked = grid.cell(Point::new(x as i32, y as i32)) == Some(Cell::Blocked);
            let column = x + 1;
            match (ch, blocked) {
                ('@', true) => {}
                ('@', false) => {
                    return Err(FormatError::new(
                        n,
                        format!("column {column}: '@' in the costs, but the map cell is passable"),
                    ));
                }
                (_, true) => {
                    return Err(FormatError::new(
                        n,
                        format!("column {column}: a cost for a blocked map cell (expected '@')"),
                    ));
                }
                (ch, false) => match ch.to_digit(36) {
                    Some(cost) if cost >= 1 => set(grid, x, y, Cell::Passable(cost)),
                    _ => {
                        return Err(FormatError::new(
                            n,
                            format!("column {column}: '{ch}' is not a cost (1-9, a-z)"),
                        ));
                    }
                },
            }
        }
    }
    Ok(())
}

fn check_row_width(n: usize, row: &str, width: u32) -> Result<(), FormatError> {
    let found = row.chars().count();
    if found != width as usize {
        return Err(FormatError::new(
            n,
            format!("expected {width} cells in this row, found {found}"),
        ));
    }
    Ok(())
}

fn parse_dimension(n: usize, name: &str, value: &str) -> Result<u32, FormatError> {
    match value.parse::<u32>() {
        Ok(v) if v > 0 => Ok(v),
        _ => Err(FormatError::new(
            n,
            format!("{name} must be a whole number above 0, not '{value}'"),
        )),
    }
}

fn set(grid: &mut Grid, x: usize, y: u32, cell: Cell) {
    // Dimensions were checked against the header, and costs are ≥ 1, so this cannot fail.
    let _ = grid.set(Point::new(x as i32, y as i32), cell);
}

/// Writes a grid in the `.map` format, with a `costs` block only if some cell costs more than 1.
/// Costs above [`MAX_STORED_COST`] are stored as that maximum.
pub fn write_map(grid: &Grid) -> String {
    let (w, h) = (grid.width(), grid.height());
    let mut out = format!("type octile\nheight {h}\nwidth {w}\nmap\n");
    let cells = || (0..h).map(move |y| (0..w).map(move |x| (x, y, Point::new(x as i32, y as i32))));
    for row in cells() {
        for (_, _, p) in row {
            out.push(if grid.is_passable(p) { '.' } else { '@' });
        }
        out.push('\n');
    }
    let weighted = (0..grid.len())
        .any(|i| matches!(grid.cell(grid.point_of(i)), Some(Cell::Passable(c)) if c > 1));
    if weighted {
        out.push_str("costs\n");
        for row in cells() {
            for (_, _, p) in row {
                let ch = match grid.cell(p) {
                    Some(Cell::Passable(c)) => {
                        char::from_digit(c.min(MAX_STORED_COST), 36).unwrap_or('z')
                    }
                    _ => '@',
                };
                out.push(ch);
            }
            out.push('\n');
        }
    }
    out
}

/// Reads and parses a `.map` file.
pub fn read_map_file(path: impl AsRef<Path>) -> Result<Grid, FileError> {
    let path = path.as_ref();
    let text = read_text(path)?;
    parse_map(&text).map_err(|e| FileError {
        path: path.to_owned(),
        kind: FileErrorKind::Format(e),
    })
}

/// One benchmark query from a `.scen` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub bucket: u32,
    pub map: String,
    pub map_width: u32,
    pub map_height: u32,
    pub start: Point,
    pub goal: Point,
    /// The published optimal cost (8-way, √2 diagonals, no corner cutting).
    pub optimal: f64,
}

/// Parses a `.scen` text: `version 1`, then one scenario per line in nine tab-separated fields.
pub fn parse_scen(text: &str) -> Result<Vec<Scenario>, FormatError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    match lines.next() {
        Some((_, l))
            if matches!(
                l.split_whitespace().collect::<Vec<_>>()[..],
                ["version", "1" | "1.0"]
            ) => {}
        Some((n, l)) => {
            return Err(FormatError::new(
                n,
                format!("expected 'version 1', found '{l}'"),
            ));
        }
        None => {
            return Err(FormatError::new(
                1,
                "expected 'version 1', found an empty file",
            ));
        }
    }
    let mut out = Vec::new();
    for (n, line) in lines {
        if !line.trim().is_empty() {
            out.push(parse_scenario_line(n, line)?);
        }
    }
    Ok(out)
}

/// One scenario line: nine fields, tab-separated (or, leniently, by any white space).
fn parse_scenario_line(n: usize, line: &str) -> Result<Scenario, FormatError> {
    let mut fields: Vec<&str> = line.split('\t').collect();
    if fields.len() != 9 {
        fields = line.split_whitespace().collect();
    }
    let [bucket, map, w, h, sx, sy, gx, gy, optimal] = fields[..] else {
        return Err(FormatError::new(
            n,
            format!(
                "expected 9 tab-separated fields (bucket, map, width, height, start x, start y, \
                 goal x, goal y, optimal length), found {}",
                fields.len()
            ),
        ));
    };
    let int = |name: &str, v: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|_| FormatError::new(n, format!("{name} must be a whole number, not '{v}'")))
    };
    let coordinate = |name: &str, v: &str| int(name, v).map(|c| c as i32);
    let optimal = optimal
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| {
            let why = format!("optimal length must be a number ≥ 0, not '{optimal}'");
            FormatError::new(n, why)
        })?;
    Ok(Scenario {
        bucket: int("bucket", bucket)?,
        map: map.to_owned(),
        map_width: int("map width", w)?,
        map_height: int("map height", h)?,
        start: Point::new(coordinate("start x", sx)?, coordinate("start y", sy)?),
        goal: Point::new(coordinate("goal x", gx)?, coordinate("goal y", gy)?),
        optimal,
    })
}

/// Reads and parses a `.scen` file.
pub fn read_scen_file(path: impl AsRef<Path>) -> Result<Vec<Scenario>, FileError> {
    let path = path.as_ref();
    let text = read_text(path)?;
    parse_scen(&text).map_err(|e| FileError {
        path: path.to_owned(),
        kind: FileErrorKind::Format(e),
    })
}

fn read_text(path: &Path) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|e| FileError {
        path: path.to_owned(),
        kind: FileErrorKind::Io(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "type octile\nheight 3\nwidth 4\nmap\n..@.\n.T..\nG..O\n";

    #[test]
    fn parses_lf_crlf_and_no_final_newline() {
        let lf = parse_map(SMALL).unwrap();
        let crlf = parse_map(&SMALL.replace('\n', "\r\n")).unwrap();
        let bare = parse_map(SMALL.trim_end()).unwrap();
        assert_eq!(lf, crlf);
        assert_eq!(lf, bare);
        assert_eq!((lf.width(), lf.height()), (4, 3));
        assert!(!lf.is_passable(Point::new(2, 0)));
        assert!(!lf.is_passable(Point::new(1, 1)));
        assert!(lf.is_passable(Point::new(0, 2)));
        assert!(!lf.is_passable(Point::new(3, 2)));
    }

    #[test]
    fn width_and_height_in_either_order() {
        let swapped = SMALL.replace("height 3\nwidth 4", "width 4\nheight 3");
        assert_eq!(parse_map(&swapped).unwrap(), parse_map(SMALL).unwrap());
    }

    #[test]
    fn errors_name_the_line() {
        let err = |text: &str| parse_map(text).unwrap_err();
        assert_eq!(err("").line, 1);
        assert_eq!(
            err("type hex\n").message,
            "only 'type octile' maps are supported, not 'hex'"
        );
        assert_eq!(err("type octile\nheight x\n").line, 2);
        assert_eq!(err("type octile\nheight 0\nwidth 2\nmap\n").line, 2);
        let short_row = err("type octile\nheight 2\nwidth 3\nmap\n...\n..\n");
        assert_eq!(
            short_row,
            FormatError::new(6, "expected 3 cells in this row, found 2")
        );
        let missing = err("type octile\nheight 3\nwidth 1\nmap\n.\n");
        assert_eq!(missing.line, 6);
        assert!(
            missing.message.contains("map row 2 of 3"),
            "{}",
            missing.message
        );
        let swamp = err("type octile\nheight 1\nwidth 2\nmap\n.S\n");
        assert_eq!(swamp.line, 5);
        assert!(swamp.message.contains("column 2") && swamp.message.contains("swamp"));
        assert_eq!(
            err("type octile\nheight 1\nwidth 1\nmap\n.\nextra\n").line,
            6
        );
        assert!(
            err("type octile\nheight 1\nwidth 1\nmap\nx\n")
                .message
                .contains("unknown terrain 'x'")
        );
        let huge = err("type octile\nheight 100000\nwidth 100000\nmap\n");
        assert_eq!(huge.line, 4);
    }

    #[test]
    fn costs_block_round_trips() {
        let mut grid = parse_map(SMALL).unwrap();
        grid.set(Point::new(0, 0), Cell::Passable(5)).unwrap();
        grid.set(Point::new(3, 1), Cell::Passable(10)).unwrap();
        let text = write_map(&grid);
        assert!(text.ends_with("costs\n51@1\n1@1a\n111@\n"), "{text}");
        assert_eq!(parse_map(&text).unwrap(), grid);
        // A reader that stops after the map rows sees a standard map.
        let standard: Vec<&str> = text.lines().take(7).collect();
        assert_eq!(standard[4..], ["..@.", ".@..", "...@"]);
    }

    #[test]
    fn costs_block_errors() {
        let base = "type octile\nheight 1\nwidth 2\nmap\n.@\ncosts\n";
        assert!(parse_map(&format!("{base}1@\n")).is_ok());
        assert_eq!(parse_map(&format!("{base}11\n")).unwrap_err().line, 7);
        assert_eq!(parse_map(&format!("{base}@@\n")).unwrap_err().line, 7);
        assert!(
            parse_map(&format!("{base}0@\n"))
                .unwrap_err()
                .message
                .contains("not a cost")
        );
        assert!(
            parse_map(base)
                .unwrap_err()
                .message
                .contains("cost row 1 of 1")
        );
    }

    #[test]
    fn parses_scenarios() {
        let text = "version 1\n0\tarena.map\t49\t49\t19\t26\t19\t29\t3.00000000\r\n\n1\tarena.map\t49\t49\t1\t2\t3\t4\t2.41421356";
        let s = parse_scen(text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].start, Point::new(19, 26));
        assert_eq!(s[1].goal, Point::new(3, 4));
        assert!((s[1].optimal - 2.41421356).abs() < 1e-12);
        assert_eq!(parse_scen("version 2\n").unwrap_err().line, 1);
        let bad = parse_scen("version 1\n0\ta.map\t1\t1\t0\t0\t0\n").unwrap_err();
        assert_eq!(bad.line, 2);
        assert!(bad.message.contains("found 7"));
        let bad = parse_scen("version 1\n0\ta.map\t1\t1\t0\t-3\t0\t0\t1\n").unwrap_err();
        assert!(bad.message.contains("start y"));
    }
}
