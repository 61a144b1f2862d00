//! The `.map` grid format: parsing it within limits, and writing it back.

use super::error::FormatError;
use super::text::{quote, quote_char, whole_number, without_bom};
use crate::grid::{Cell, Grid, Point};
use crate::hex::HexLayout;
use crate::terrain::Terrain;

/// The largest base-36 cost the extension can store.
pub const MAX_STORED_COST: u32 = 35;

/// The shape of a map's cells, kept in its `type` line: Moving AI's `octile` (squares), or an
/// extension for the maps a tilemap draws otherwise. The rows and columns of the text are the
/// cells' `(x, y)` either way; the shape says which cells touch.
///
/// | `type` | cells |
/// |---|---|
/// | `octile` | squares (the benchmarks' own) |
/// | `isometric` | squares, drawn turned 45° (a diamond isometric map) |
/// | `hex-row-odd`, `hex-row-even` | pointy-top hexagons in rows, odd (even) rows shifted half a cell right |
/// | `hex-column-odd`, `hex-column-even` | flat-top hexagons in columns, odd (even) columns shifted half a cell |
/// | `hex-row`, `hex-column` | hexagons in axial coordinates (the map is a rhombus) |
///
/// See [`HexLayout`] for the hexagons' neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MapShape {
    /// Squares.
    #[default]
    Octile,
    /// Squares drawn turned: the same neighbours, another picture.
    Isometric,
    /// Hexagons.
    Hex(HexLayout),
}

impl MapShape {
    /// Every shape, in the order of a menu.
    pub const ALL: [MapShape; 8] = [
        MapShape::Octile,
        MapShape::Isometric,
        MapShape::Hex(HexLayout::RowOdd),
        MapShape::Hex(HexLayout::RowEven),
        MapShape::Hex(HexLayout::ColumnOdd),
        MapShape::Hex(HexLayout::ColumnEven),
        MapShape::Hex(HexLayout::Row),
        MapShape::Hex(HexLayout::Column),
    ];

    /// The word of the `type` line.
    pub fn word(self) -> &'static str {
        match self {
            MapShape::Octile => "octile",
            MapShape::Isometric => "isometric",
            MapShape::Hex(HexLayout::RowOdd) => "hex-row-odd",
            MapShape::Hex(HexLayout::RowEven) => "hex-row-even",
            MapShape::Hex(HexLayout::ColumnOdd) => "hex-column-odd",
            MapShape::Hex(HexLayout::ColumnEven) => "hex-column-even",
            MapShape::Hex(HexLayout::Row) => "hex-row",
            MapShape::Hex(HexLayout::Column) => "hex-column",
        }
    }

    /// The shape a `type` line's word names.
    pub fn from_word(word: &str) -> Option<MapShape> {
        MapShape::ALL.into_iter().find(|s| s.word() == word)
    }

    /// The hex layout of a hexagon map.
    pub fn hex(self) -> Option<HexLayout> {
        match self {
            MapShape::Hex(h) => Some(h),
            _ => None,
        }
    }
}

/// What a map may claim, so that a hostile file costs nothing: a header may declare any size,
/// but a map of more than `max_cells` cells is refused at its header, before anything is
/// allocated, and a file is read only up to `max_bytes`.
///
/// Below the cell limit, memory still follows the text rather than the header: the grid is
/// allocated only once every row the header promised has been read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapLimits {
    /// The most cells a map may have.
    pub max_cells: u64,
    /// The most bytes a file may have.
    pub max_bytes: u64,
}

impl MapLimits {
    /// The default: 16,777,216 cells (4096 × 4096, four times the largest benchmark maps) in a
    /// file of at most 96 MiB and a bit.
    pub const DEFAULT: MapLimits = MapLimits::cells(1 << 24);

    /// A limit of `max_cells`, with room for the largest file such a map can be: one character
    /// per cell in the map rows and in the costs block, at most two line-ending characters per row
    /// (a row holds at least one cell), and 64 KiB for the header and blank lines.
    pub const fn cells(max_cells: u64) -> Self {
        Self {
            max_cells,
            max_bytes: max_cells.saturating_mul(6).saturating_add(64 << 10),
        }
    }
}

impl Default for MapLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Parses a `.map` text (with or without the `costs` block), within [`MapLimits::DEFAULT`].
pub fn parse_map(text: &str) -> Result<Grid, FormatError> {
    parse_map_with_limits(text, &MapLimits::DEFAULT)
}

/// Parses a `.map` text, refusing a map larger than `limits.max_cells` at its header. The
/// shape of its cells ([`parse_shaped_map_with_limits`]) is dropped.
pub fn parse_map_with_limits(text: &str, limits: &MapLimits) -> Result<Grid, FormatError> {
    parse_shaped_map_with_limits(text, limits).map(|(grid, _)| grid)
}

/// Parses a `.map` text and the shape of its cells (its `type` line), refusing a map larger
/// than `limits.max_cells` at its header.
///
/// Two passes over the rows: the first checks that each row the header promised is there, has
/// the right width and only known characters; only then is the grid allocated and the second
/// pass fills it. So a header that claims 67 million cells over an empty file costs nothing.
pub fn parse_shaped_map_with_limits(
    text: &str,
    limits: &MapLimits,
) -> Result<(Grid, MapShape), FormatError> {
    let mut lines = NumberedLines::new(without_bom(text));
    let (width, height, shape, n) = read_header(&mut lines, limits)?;
    let rows = lines.clone().take(height as usize);
    for y in 0..height {
        let (n, row) = lines.expect(format_args!("map row {} of {height}", y + 1))?;
        check_map_row(n, row, width)?;
    }
    let mut grid = Grid::new(width, height).map_err(|e| FormatError::new(n, e.to_string()))?;
    let walls = rows.clone().enumerate().flat_map(|(y, (_, row))| {
        let walls = row.chars().enumerate().filter(|&(_, ch)| is_wall(ch));
        walls.map(move |(x, _)| (Point::new(x as i32, y as i32), Cell::Blocked))
    });
    // Dimensions were checked against the header, so this cannot fail.
    let _ = grid.set_many(walls);
    for (y, (_, row)) in rows.enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if let Some(terrain) = terrain_of(ch) {
                let _ = grid.set_terrain(Point::new(x as i32, y as i32), terrain);
            }
        }
    }
    read_after_map(&mut grid, &mut lines)?;
    Ok((grid, shape))
}

/// The lines of a text, numbered from 1, with a "found the end of the file" error for a line
/// that is missing.
#[derive(Clone)]
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

    /// The next line and its number, or an error saying `what` was expected. (`what` is only
    /// written out for the error: a map row asks with `format_args!`, which allocates nothing.)
    fn expect(&mut self, what: impl std::fmt::Display) -> Result<(usize, &'a str), FormatError> {
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

/// The first two words of a line, and whether there are more.
fn two_words(line: &str) -> (Option<&str>, Option<&str>, bool) {
    let mut words = line.split_whitespace();
    (words.next(), words.next(), words.next().is_some())
}

/// `type octile` (or another [`MapShape`]), `height N` and `width N` (in either order), `map`.
/// Returns the width, the height, the shape and the number of the `map` line.
fn read_header(
    lines: &mut NumberedLines,
    limits: &MapLimits,
) -> Result<(u32, u32, MapShape, usize), FormatError> {
    let (n, line) = lines.expect("'type octile'")?;
    if line.contains('\r') {
        let why = "the lines end in a bare CR (old Mac line endings): save the file with LF or \
                   CRLF line endings";
        return Err(FormatError::new(n, why));
    }
    let shape = match two_words(line) {
        (Some("type"), Some(word), false) => match MapShape::from_word(word) {
            Some(shape) => shape,
            None => {
                let why = format!(
                    "unknown map type {} (expected octile, isometric or hex-row-odd and the like)",
                    quote(word)
                );
                return Err(FormatError::new(n, why));
            }
        },
        _ => {
            let why = format!("expected 'type octile', found {}", quote(line));
            return Err(FormatError::new(n, why));
        }
    };
    let (mut width, mut height) = (None, None);
    for _ in 0..2 {
        let (n, line) = lines.expect("'height N' and 'width N'")?;
        match two_words(line) {
            (Some("height"), Some(v), false) => height = Some(parse_dimension(n, "height", v)?),
            (Some("width"), Some(v), false) => width = Some(parse_dimension(n, "width", v)?),
            _ => {
                let why = format!("expected 'height N' or 'width N', found {}", quote(line));
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
        let why = format!("expected 'map', found {}", quote(line));
        return Err(FormatError::new(n, why));
    }
    let cells = u64::from(width) * u64::from(height);
    if cells > limits.max_cells {
        let why = format!(
            "a {width}×{height} map has {cells} cells, more than the {} allowed here",
            limits.max_cells
        );
        return Err(FormatError::new(n, why));
    }
    Ok((width, height, shape, n))
}

/// A map row has exactly `width` known characters (`column`s count from 1, for the message).
fn check_map_row(n: usize, row: &str, width: u32) -> Result<(), FormatError> {
    check_row_width(n, row, width)?;
    for (x, ch) in row.chars().enumerate() {
        let column = x + 1;
        match ch {
            '.' | 'G' | '@' | 'O' | 'T' | 'S' | 'W' => {}
            other => {
                let why = format!(
                    "unknown terrain {} (expected . G S W @ O T)",
                    quote_char(other)
                );
                return Err(FormatError::new(n, why).at_column(column));
            }
        }
    }
    Ok(())
}

/// `@`, `O` (out of bounds) and `T` (trees) are walls; `.` and `G` are ground, `S` swamp and
/// `W` water (see [`crate::UnitClass::moving_ai_for`] for who may enter them).
fn is_wall(ch: char) -> bool {
    matches!(ch, '@' | 'O' | 'T')
}

/// The terrain of a map character that is not ground or a wall.
fn terrain_of(ch: char) -> Option<Terrain> {
    match ch {
        'S' => Some(Terrain::SWAMP),
        'W' => Some(Terrain::WATER),
        _ => None,
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
                let why = format!("unexpected text after the map: {}", quote(line));
                return Err(FormatError::new(n, why));
            }
        }
    }
    if let Some((n, line)) = lines.find(|(_, l)| !l.trim().is_empty()) {
        let why = format!("unexpected text after the costs: {}", quote(line));
        return Err(FormatError::new(n, why));
    }
    Ok(())
}

fn read_costs(
    grid: &mut Grid,
    lines: &mut NumberedLines,
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
            let fail = |why: String| Err(FormatError::new(n, why).at_column(x + 1));
            match (ch, blocked) {
                ('@', true) => {}
                ('@', false) => {
                    return fail("'@' in the costs, but the map cell is passable".into());
                }
                (_, true) => return fail("a cost for a blocked map cell (expected '@')".into()),
                (ch, false) => match cost_digit(ch) {
                    Some(cost) => set(grid, x, y, Cell::Passable(cost)),
                    None => return fail(format!("{} is not a cost (1-9, a-z)", quote_char(ch))),
                },
            }
        }
    }
    Ok(())
}

/// A cost as the extension writes it: `1`–`9`, then lowercase `a` (10) to `z` (35). Uppercase
/// is refused: the documentation says lowercase, and one spelling keeps files comparable.
fn cost_digit(ch: char) -> Option<u32> {
    match ch {
        '1'..='9' | 'a'..='z' => ch.to_digit(36),
        _ => None,
    }
}

fn check_row_width(n: usize, row: &str, width: u32) -> Result<(), FormatError> {
    let found = row.chars().count();
    if found != width as usize {
        return Err(FormatError::new(
            n,
            format!(
                "expected {width} cells in this row, found {found}: {}",
                quote(row)
            ),
        ));
    }
    Ok(())
}

fn parse_dimension(n: usize, name: &str, value: &str) -> Result<u32, FormatError> {
    match whole_number(value) {
        Some(v) if v > 0 => Ok(v),
        _ => Err(FormatError::new(
            n,
            format!(
                "{name} must be a whole number above 0, not {}",
                quote(value)
            ),
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
    write_shaped_map(grid, MapShape::Octile)
}

/// [`write_map`] for a map of another shape: its `type` line says which.
pub fn write_shaped_map(grid: &Grid, shape: MapShape) -> String {
    let (w, h) = (grid.width(), grid.height());
    let mut out = format!("type {}\nheight {h}\nwidth {w}\nmap\n", shape.word());
    let cells = || (0..h).map(move |y| (0..w).map(move |x| (x, y, Point::new(x as i32, y as i32))));
    for row in cells() {
        for (_, _, p) in row {
            out.push(match (grid.is_passable(p), grid.terrain(p)) {
                (false, _) => '@',
                (true, Some(Terrain::SWAMP)) => 'S',
                (true, Some(Terrain::WATER)) => 'W',
                (true, _) => '.',
            });
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
    fn a_map_keeps_its_shape_through_a_file() {
        for shape in MapShape::ALL {
            let text = SMALL.replace("type octile", &format!("type {}", shape.word()));
            let (grid, read) = parse_shaped_map_with_limits(&text, &MapLimits::DEFAULT).unwrap();
            assert_eq!(read, shape);
            assert_eq!(grid, parse_map(SMALL).unwrap(), "{shape:?}: the same cells");
            let written = write_shaped_map(&grid, shape);
            let again = parse_shaped_map_with_limits(&written, &MapLimits::DEFAULT).unwrap();
            assert_eq!(again, (grid, shape));
        }
        let err = |text: &str| parse_map(text).unwrap_err().message;
        assert!(err("type hex-row-odd extra\n").contains("expected 'type octile'"));
        assert!(err("type Hex-Row-Odd\n").contains("unknown map type"));
    }

    #[test]
    fn errors_name_the_line() {
        let err = |text: &str| parse_map(text).unwrap_err();
        assert_eq!(err("").line, 1);
        assert_eq!(
            err("type hex\n").message,
            "unknown map type 'hex' (expected octile, isometric or hex-row-odd and the like)"
        );
        assert_eq!(err("type octile\nheight x\n").line, 2);
        assert_eq!(err("type octile\nheight 0\nwidth 2\nmap\n").line, 2);
        let short_row = err("type octile\nheight 2\nwidth 3\nmap\n...\n..\n");
        assert_eq!(
            short_row,
            FormatError::new(6, "expected 3 cells in this row, found 2: '..'")
        );
        let missing = err("type octile\nheight 3\nwidth 1\nmap\n.\n");
        assert_eq!(missing.line, 6);
        assert!(
            missing.message.contains("map row 2 of 3"),
            "{}",
            missing.message
        );
        let unknown = err("type octile\nheight 1\nwidth 2\nmap\n.X\n");
        assert_eq!(unknown.line, 5);
        assert_eq!(unknown.column, Some(2));
        assert!(unknown.message.contains("expected . G S W @ O T"));
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

    /// Swamp and water are passable cells of their terrain, written back as they were read.
    #[test]
    fn swamp_and_water_are_terrain() {
        let text = "type octile\nheight 2\nwidth 3\nmap\n.SW\nGT.\n";
        let grid = parse_map(text).unwrap();
        let at = |x, y| grid.terrain(Point::new(x, y));
        assert_eq!(at(1, 0), Some(Terrain::SWAMP));
        assert_eq!(at(2, 0), Some(Terrain::WATER));
        assert_eq!(at(0, 1), Some(Terrain::GROUND));
        assert!(grid.is_passable(Point::new(2, 0)));
        assert!(!grid.is_passable(Point::new(1, 1)));
        assert_eq!(write_map(&grid), text.replace('G', ".").replace('T', "@"));
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

    /// The hostile files of issue 14, each refused with a short, escaped, line-numbered message.
    #[test]
    fn hostile_texts_get_short_escaped_messages() {
        let err = |text: &str| parse_map(text).unwrap_err();
        let printable = |e: &FormatError| {
            let shown = e.to_string();
            assert!(shown.len() < 200, "{shown}");
            assert!(!shown.chars().any(char::is_control), "{shown:?}");
            shown
        };
        // A header that claims more cells than allowed is refused at the header.
        let huge = err("type octile\r\nheight 1\r\nwidth 67108864\r\nmap\r\n");
        assert_eq!(huge.line, 4);
        assert!(printable(&huge).contains("67108864 cells"));
        // Within the limit, an empty body is a missing row, not an allocation.
        let limits = MapLimits::cells(Grid::MAX_CELLS);
        let empty = parse_map_with_limits("type octile\nheight 1\nwidth 67108864\nmap\n", &limits);
        assert_eq!(empty.unwrap_err().line, 5);
        let long = err(&format!("type {}\n", "x".repeat(100_000)));
        assert!(printable(&long).contains("(100000 characters)"));
        let cr = err("type octile\rheight 2\rwidth 2\rmap\r..\r..\r");
        assert!(printable(&cr).contains("bare CR"));
        let ansi = err("type octile\nheight 1\nwidth 2\nmap\n\u{1b}\0\n");
        assert_eq!((ansi.line, ansi.column), (5, Some(1)));
        assert!(printable(&ansi).contains(r"'\u{1b}'"));
        let nul = err("type octile\0\n");
        assert!(printable(&nul).contains(r"octile\0"));
        let plus = err("type octile\nheight +3\nwidth 2\nmap\n");
        assert!(printable(&plus).contains("'+3'"));
        let upper = err("type octile\nheight 1\nwidth 2\nmap\n..\ncosts\n1Z\n");
        assert_eq!((upper.line, upper.column), (7, Some(2)));
        assert!(printable(&upper).contains("'Z' is not a cost"));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let with_bom = format!("\u{feff}{SMALL}");
        assert_eq!(parse_map(&with_bom), parse_map(SMALL));
    }
}
