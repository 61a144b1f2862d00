//! The unit class file: what each terrain character of a map costs one kind of unit.
//!
//! ```text
//! # a soldier: swamp is slow, water closed
//! . 1
//! S 3
//! W no
//! ```
//!
//! One terrain a line: a map character (`.` or `G` for ground, `S` swamp, `W` water) and a cost
//! factor from 1 to [`UnitClass::MAX_COST`], or `no` for "may not enter". A terrain the file
//! does not name costs 1. Blank lines and lines starting with `#` are skipped.

use super::error::FormatError;
use super::text::{quote, whole_number, without_bom};
use crate::terrain::Terrain;
use crate::unit_class::UnitClass;

/// Parses a unit class file: one terrain a line, a map character (`.` or `G` for ground, `S`
/// swamp, `W` water) and a cost factor from 1 to [`UnitClass::MAX_COST`], or `no`; a terrain not
/// named costs 1; blank lines and lines starting with `#` are skipped.
///
/// ```
/// use gridpath::movingai::parse_class;
/// use gridpath::{Terrain, UnitClass};
///
/// let soldier = parse_class("# soldier\n. 1\nS 3\nW no\n").unwrap();
/// assert_eq!(soldier.cost_of(Terrain::SWAMP), Some(3));
/// assert_eq!(soldier.cost_of(Terrain::WATER), None);
/// let error = parse_class("S 3\nS 4\n").unwrap_err();
/// assert_eq!(error.to_string(), "line 2: 'S' is named twice (first on line 1)");
/// ```
pub fn parse_class(text: &str) -> Result<UnitClass, FormatError> {
    let mut class = UnitClass::new();
    let mut named: Vec<(Terrain, usize)> = Vec::new();
    for (i, line) in without_bom(text).lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(character), Some(cost), None) = (words.next(), words.next(), words.next()) else {
            let why = format!(
                "expected a terrain and a cost, as 'S 3' or 'W no', found {}",
                quote(line)
            );
            return Err(FormatError::new(n, why));
        };
        let terrain = terrain_named(character).ok_or_else(|| {
            let why = format!("unknown terrain {} (expected . G S W)", quote(character));
            FormatError::new(n, why)
        })?;
        if let Some(&(_, first)) = named.iter().find(|(t, _)| *t == terrain) {
            let why = format!(
                "{} is named twice (first on line {first})",
                quote(character)
            );
            return Err(FormatError::new(n, why));
        }
        named.push((terrain, n));
        class = match cost {
            "no" => class.without(terrain),
            _ => match whole_number(cost) {
                Some(c) if (1..=UnitClass::MAX_COST).contains(&c) => class.with_cost(terrain, c),
                _ => {
                    let why = format!(
                        "{} is not a cost (a whole number from 1 to {}, or no)",
                        quote(cost),
                        UnitClass::MAX_COST
                    );
                    return Err(FormatError::new(n, why));
                }
            },
        };
    }
    Ok(class)
}

/// The terrain a map character stands for; `G` is ground, as `.` is.
fn terrain_named(word: &str) -> Option<Terrain> {
    let mut chars = word.chars();
    let (Some(ch), None) = (chars.next(), chars.next()) else {
        return None;
    };
    match ch {
        '.' | 'G' => Some(Terrain::GROUND),
        'S' => Some(Terrain::SWAMP),
        'W' => Some(Terrain::WATER),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_named() {
        let err = |text: &str| parse_class(text).unwrap_err().to_string();
        assert_eq!(
            err("\n# x\nS\n"),
            "line 3: expected a terrain and a cost, as 'S 3' or 'W no', found 'S'"
        );
        assert_eq!(
            err("X 2\n"),
            "line 1: unknown terrain 'X' (expected . G S W)"
        );
        assert_eq!(
            err(". 0\n"),
            "line 1: '0' is not a cost (a whole number from 1 to 65536, or no)"
        );
        assert!(err("W -1\n").contains("'-1' is not a cost"));
        assert!(err(". 1\nG 2\n").contains("'G' is named twice (first on line 1)"));
        let boat = parse_class("W 1\n. no\nS no\n").unwrap();
        assert_eq!(boat.cost_of(Terrain::WATER), Some(1));
        assert_eq!(boat.cost_of(Terrain::GROUND), None);
        assert_eq!(boat.cost_of(Terrain(9)), Some(1), "not named: 1");
    }
}
