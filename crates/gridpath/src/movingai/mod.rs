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
//! `.` and `G` are passable ground; `@`, `O` and `T` are blocked. `S` (swamp) and `W` (water)
//! are passable cells of terrain [`crate::Terrain::SWAMP`] and [`crate::Terrain::WATER`]: the
//! benchmark's unit crosses swamp like ground and enters water only from water, which
//! [`crate::UnitClass::moving_ai_for`] gives as a class (searched without one, both are ground
//! to every unit). Writing a map gives them back. Line endings may be
//! LF or CRLF and the last newline may be missing; a UTF-8 byte-order mark at the start is
//! skipped. Numbers are plain digits: `height +3` is refused.
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
//! `1`–`9` then lowercase `a` (10) to `z` (35). Cells the block does not mention cost 1.
//!
//! **Shape extension.** `type octile` maps are squares. A map of hexagons, or of squares drawn
//! as an isometric diamond, names its shape in the same line (`type hex-row-odd`, `type
//! isometric`: [`MapShape`]); everything else is as above. A standard reader refuses such a file
//! at its first line rather than reading hexagons as squares.
//!
//! **Hostile files.** Parsing costs memory and time in proportion to the text read, whatever a
//! header claims ([`MapLimits`]); files are read up to a limit; and an error quotes at most a
//! short excerpt of the text, with control and invisible characters escaped ([`text::quote`]).

mod class;
mod error;
mod files;
mod links;
mod map;
mod quote;
mod scen;
pub mod text;

pub use class::parse_class;
pub use error::{FileError, FileErrorKind, FormatError};
pub use files::{
    MAX_SCEN_BYTES, read_class_file, read_links_file, read_map_file, read_map_file_with_limits,
    read_scen_file, read_shaped_map_file_with_limits, read_text_file,
};
pub use links::{MAX_LINKS, add_links, write_links};
pub use map::{
    MAX_STORED_COST, MapLimits, MapShape, parse_map, parse_map_with_limits,
    parse_shaped_map_with_limits, write_map, write_shaped_map,
};
pub use scen::{Scenario, parse_scen};
