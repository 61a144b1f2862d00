//! The `.scen` query format: `version 1`, then one benchmark query per line.
//!
//! Each query line has nine fields: bucket, map file, map width, map height, start x, start y,
//! goal x, goal y, optimal length. **Strict** about numbers: whole numbers are plain digits (no
//! sign), the length is digits with an optional decimal fraction (`54.04163055`), and a point
//! must lie inside the map the line declares. **Lenient** about spacing, on purpose: fields are
//! separated by tabs, or by any white space if the line does not have nine tab-separated fields,
//! and ASCII spaces around a field are ignored. Blank lines are skipped.

use super::error::FormatError;
use super::text::{decimal, quote, whole_number, without_bom};
use crate::grid::{Grid, Point};

/// One benchmark query from a `.scen` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The bucket: scenarios of similar length share one.
    pub bucket: u32,
    /// The map's file name.
    pub map: String,
    /// The map's width, as the scenario says.
    pub map_width: u32,
    /// The map's height, as the scenario says.
    pub map_height: u32,
    /// The start cell.
    pub start: Point,
    /// The goal cell.
    pub goal: Point,
    /// The published optimal cost (8-way, √2 diagonals, no corner cutting).
    pub optimal: f64,
}

/// Parses a `.scen` text: `version 1`, then one scenario per line in nine tab-separated fields.
pub fn parse_scen(text: &str) -> Result<Vec<Scenario>, FormatError> {
    let mut lines = without_bom(text)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l));
    match lines.next() {
        Some((_, l)) if is_version_line(l) => {}
        Some((n, l)) => {
            let why = format!("expected 'version 1', found {}", quote(l));
            return Err(FormatError::new(n, why));
        }
        None => {
            let why = "expected 'version 1', found an empty file";
            return Err(FormatError::new(1, why));
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

fn is_version_line(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some("version")
        && matches!(words.next(), Some("1" | "1.0"))
        && words.next().is_none()
}

/// Copies the first ten fields of a line into `buffer` (one more than a scenario has, to tell
/// "too many") and returns them, without allocating: a file has thousands of lines.
fn first_ten<'a, 'b>(
    fields: impl Iterator<Item = &'a str>,
    buffer: &'b mut [&'a str; 10],
) -> &'b [&'a str] {
    let mut len = 0;
    for (slot, field) in buffer.iter_mut().zip(fields) {
        *slot = field;
        len += 1;
    }
    &buffer[..len]
}

/// One scenario line: nine fields, tab-separated (or, leniently, by any white space).
fn parse_scenario_line(n: usize, line: &str) -> Result<Scenario, FormatError> {
    let mut buffer = [""; 10];
    // A set of one character, `['\t']`, not the character itself: `split('\t')` sets up a
    // `memchr` for every field, which for fields of a few characters was a quarter of the cost
    // of a line; the set is checked character by character.
    let mut fields = first_ten(line.split(['\t']), &mut buffer);
    if fields.len() != 9 {
        fields = first_ten(line.split_whitespace(), &mut buffer);
    }
    let [bucket, map, w, h, sx, sy, gx, gy, optimal] = *fields else {
        let why = format!(
            "expected 9 tab-separated fields (bucket, map, width, height, start x, start y, goal \
             x, goal y, optimal length), found {}",
            if fields.len() > 9 {
                "more".to_owned()
            } else {
                fields.len().to_string()
            }
        );
        return Err(FormatError::new(n, why));
    };
    let fail = |why: String| FormatError::new(n, why);
    let int = |name: &str, v: &str| {
        whole_number(v.trim_ascii())
            .ok_or_else(|| fail(format!("{name} must be a whole number, not {}", quote(v))))
    };
    let (map_width, map_height) = (int("map width", w)?, int("map height", h)?);
    if map_width == 0
        || map_height == 0
        || u64::from(map_width) * u64::from(map_height) > Grid::MAX_CELLS
    {
        return Err(fail(format!(
            "a {map_width}×{map_height} map cannot be a grid"
        )));
    }
    // Inside the declared map, so the coordinates fit an `i32` (a grid is at most 2²⁶ wide).
    let point = |what: &str, x: &str, y: &str| {
        // The field's name made into text only for the message: a file has thousands of lines.
        let coordinate = |axis: &str, v: &str| {
            whole_number(v.trim_ascii()).ok_or_else(|| {
                fail(format!(
                    "{what} {axis} must be a whole number, not {}",
                    quote(v)
                ))
            })
        };
        let (x, y) = (coordinate("x", x)?, coordinate("y", y)?);
        if x >= map_width || y >= map_height {
            let why = format!("the {what} ({x}, {y}) is outside the {map_width}×{map_height} map");
            return Err(fail(why));
        }
        Ok(Point::new(x as i32, y as i32))
    };
    let optimal = decimal(optimal.trim_ascii()).ok_or_else(|| {
        fail(format!(
            "optimal length must be a number like 54.04163055, not {}",
            quote(optimal)
        ))
    })?;
    Ok(Scenario {
        bucket: int("bucket", bucket)?,
        map: map.to_owned(),
        map_width,
        map_height,
        start: point("start", sx, sy)?,
        goal: point("goal", gx, gy)?,
        optimal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let long = "version 1\n0\ta.map\t1\t1\t0\t0\t0\t0\t1\t9\t9\t9\n";
        assert!(parse_scen(long).unwrap_err().message.contains("found more"));
        let bad = parse_scen("version 1\n0\ta.map\t1\t1\t0\t-3\t0\t0\t1\n").unwrap_err();
        assert!(bad.message.contains("start y"));
    }

    #[test]
    fn numbers_are_checked_not_wrapped() {
        let line = |sx: &str| format!("version 1\n0\ta.map\t49\t49\t{sx}\t0\t1\t1\t1.0\n");
        let wrap = parse_scen(&line("4294967295")).unwrap_err();
        assert_eq!(wrap.line, 2);
        assert!(
            wrap.message
                .contains("(4294967295, 0) is outside the 49×49 map"),
            "{}",
            wrap.message
        );
        let past = parse_scen(&line("49")).unwrap_err();
        assert!(past.message.contains("outside"), "{}", past.message);
        assert!(
            parse_scen(&line("4294967296"))
                .unwrap_err()
                .message
                .contains("whole number")
        );
        assert!(
            parse_scen(&line("+1"))
                .unwrap_err()
                .message
                .contains("'+1'")
        );
        assert!(parse_scen(&line("48")).is_ok());
        let huge = "version 1\n0\ta.map\t100000\t100000\t0\t0\t1\t1\t1.0\n";
        assert!(
            parse_scen(huge)
                .unwrap_err()
                .message
                .contains("cannot be a grid")
        );
        let nan = "version 1\n0\ta.map\t4\t4\t0\t0\t1\t1\tNaN\n";
        assert!(parse_scen(nan).unwrap_err().message.contains("'NaN'"));
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_versions_are_quoted() {
        assert_eq!(parse_scen("\u{feff}version 1\n"), Ok(vec![]));
        let bad = parse_scen("\u{1b}[2J\n").unwrap_err();
        assert_eq!(bad.message, r"expected 'version 1', found '\u{1b}[2J'");
    }
}
