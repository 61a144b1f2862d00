//! Reading `.map` and `.scen` files from disk, never more than a limit.
//!
//! `std::fs::read_to_string` reads whatever it is given: `/dev/zero` until memory runs out. These
//! readers stop one byte past their limit, and refuse a regular file that is larger before
//! reading any of it.

use super::class::parse_class;
use super::error::{FileError, FileErrorKind, FormatError};
use super::links::add_links;
use super::map::{MapLimits, MapShape, parse_shaped_map_with_limits};
use super::scen::{Scenario, parse_scen};
use super::text::decode;
use crate::grid::Grid;
use crate::unit_class::UnitClass;
use std::io::Read;
use std::path::Path;

/// The largest `.scen` file read: 64 MiB, over a hundred times the largest benchmark's.
pub const MAX_SCEN_BYTES: u64 = 64 << 20;

/// Reads and parses a `.map` file with the default [`MapLimits`].
pub fn read_map_file(path: impl AsRef<Path>) -> Result<Grid, FileError> {
    read_map_file_with_limits(path, &MapLimits::default())
}

/// Reads and parses a `.map` file, refusing one larger than `limits.max_bytes` or a map of more
/// than `limits.max_cells` cells before allocating the grid.
pub fn read_map_file_with_limits(
    path: impl AsRef<Path>,
    limits: &MapLimits,
) -> Result<Grid, FileError> {
    read_shaped_map_file_with_limits(path, limits).map(|(grid, _)| grid)
}

/// [`read_map_file_with_limits`], with the shape of the map's cells (its `type` line).
pub fn read_shaped_map_file_with_limits(
    path: impl AsRef<Path>,
    limits: &MapLimits,
) -> Result<(Grid, MapShape), FileError> {
    let path = path.as_ref();
    let bytes = read_at_most(path, limits.max_bytes)?;
    let text = decode(&bytes).map_err(|e| format_error(path, e))?;
    parse_shaped_map_with_limits(text, limits).map_err(|e| format_error(path, e))
}

/// Reads and parses a `.scen` file of at most [`MAX_SCEN_BYTES`].
pub fn read_scen_file(path: impl AsRef<Path>) -> Result<Vec<Scenario>, FileError> {
    let path = path.as_ref();
    let bytes = read_at_most(path, MAX_SCEN_BYTES)?;
    let text = decode(&bytes).map_err(|e| format_error(path, e))?;
    parse_scen(text).map_err(|e| format_error(path, e))
}

/// Reads and parses a unit class file ([`parse_class`]) of at most 64 KiB.
pub fn read_class_file(path: impl AsRef<Path>) -> Result<UnitClass, FileError> {
    let path = path.as_ref();
    let text = read_text_file(path, 64 << 10)?;
    parse_class(&text).map_err(|e| format_error(path, e))
}

/// Reads a links file and adds its links to `grid` ([`add_links`]); returns how many. At most
/// 4 MiB.
pub fn read_links_file(path: impl AsRef<Path>, grid: &mut Grid) -> Result<usize, FileError> {
    let path = path.as_ref();
    let text = read_text_file(path, 4 << 20)?;
    add_links(grid, &text).map_err(|e| format_error(path, e))
}

/// Reads a text file (a MAPF result file, say) of at most `limit` bytes, refusing a larger one
/// or one that is not UTF-8, as the map reader does.
pub fn read_text_file(path: impl AsRef<Path>, limit: u64) -> Result<String, FileError> {
    let path = path.as_ref();
    let bytes = read_at_most(path, limit)?;
    let text = decode(&bytes).map_err(|e| format_error(path, e))?;
    Ok(text.to_owned())
}

fn format_error(path: &Path, e: FormatError) -> FileError {
    FileError {
        path: path.to_owned(),
        kind: FileErrorKind::Format(e),
    }
}

/// The file's bytes, if there are at most `limit` of them. A regular file's size is known
/// before reading; a pipe or a device (`/dev/zero`) is read up to one byte past the limit.
fn read_at_most(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let error = |kind| FileError {
        path: path.to_owned(),
        kind,
    };
    let too_large = || error(FileErrorKind::TooLarge { limit });
    let file = std::fs::File::open(path).map_err(|e| error(FileErrorKind::Io(e)))?;
    let known_size = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    if known_size.is_some_and(|size| size > limit) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| error(FileErrorKind::Io(e)))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}
