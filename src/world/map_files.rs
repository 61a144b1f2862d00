//! Opening and saving `.map` files, from the panel and from the command line alike.
//!
//! Files use the Moving AI format, with the ground costs in a `costs` block after the map rows
//! (see `gridpath::movingai`): standard tools read the walls and skip the block. A file that is
//! missing or malformed leaves the current map as it is (or, at start-up, the built-in one), and
//! the panel shows the error with its line number. A map's links (stairs, teleporters) are saved
//! beside it, in `NAME.map.links` (`gridpath route --links`'s format), and read back from there. A hostile file costs nothing: a header that
//! claims more than the playground's [`MAX_CELLS`] is refused before the map is read.

use crate::frame::AppSystems;
use crate::notices::Notices;
use crate::world::layout::{MapLayout, drawable};
use crate::world::map_load::{CurrentMap, LoadMap, MAX_CELLS};
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::movingai::{
    MapLimits, MapShape, parse_shaped_map_with_limits, read_links_file,
    read_shaped_map_file_with_limits,
};
use std::path::{Path, PathBuf};

#[derive(Message, Clone, Debug)]
pub struct OpenMapFile(pub PathBuf);

#[derive(Message, Clone, Debug)]
pub struct SaveMapFile(pub PathBuf);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<OpenMapFile>()
        .add_message::<SaveMapFile>()
        .add_systems(
            Update,
            (open_files, open_page_maps, save_files)
                .in_set(AppSystems::Maps)
                .before(super::map_load::load_map),
        );
}

/// The name a map file is shown by: its file name, or the whole path when it has none.
pub fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn open_files(
    mut requests: MessageReader<OpenMapFile>,
    nav: Option<Res<NavGrid>>,
    mut load: MessageWriter<LoadMap>,
    mut notices: ResMut<Notices>,
) {
    for OpenMapFile(path) in requests.read() {
        // The playground's own cell limit goes to the reader, so a file that claims a bigger map
        // is refused at its header, before anything is allocated or much is read.
        let limits = MapLimits::cells(MAX_CELLS);
        let mut read = read_shaped_map_file_with_limits(path, &limits);
        if let Ok((grid, _)) = &mut read {
            add_saved_links(path, grid, &mut notices);
        }
        open_or_say_why(
            file_name(path),
            read,
            nav.is_some(),
            &mut load,
            &mut notices,
        );
    }
}

/// Where a map's links are saved: beside it, `NAME.map.links`.
fn links_path(map: &Path) -> PathBuf {
    let mut name = map.as_os_str().to_owned();
    name.push(".links");
    PathBuf::from(name)
}

/// Adds the links saved beside the map at `path`, if there are any; a bad file is said, and the
/// map opens without them.
fn add_saved_links(path: &Path, grid: &mut gridpath::Grid, notices: &mut Notices) {
    let links = links_path(path);
    if !links.is_file() {
        return;
    }
    let before = grid.clone();
    if let Err(e) = read_links_file(&links, grid) {
        *grid = before;
        notices.warn(format!("The map opens without its links: {e}"));
    }
}

/// Loads a map the web page handed over (chosen in its file picker or dropped on it).
fn open_page_maps(
    nav: Option<Res<NavGrid>>,
    mut load: MessageWriter<LoadMap>,
    mut notices: ResMut<Notices>,
) {
    for (name, text) in crate::browser::take_opened_maps() {
        let read = parse_shaped_map_with_limits(&text, &MapLimits::cells(MAX_CELLS));
        open_or_say_why(name, read, nav.is_some(), &mut load, &mut notices);
    }
}

/// Sends a map that was read to the loader, or says why it was not, and what stays on screen.
fn open_or_say_why<E: std::fmt::Display>(
    name: String,
    read: Result<(gridpath::Grid, MapShape), E>,
    has_map: bool,
    load: &mut MessageWriter<LoadMap>,
    notices: &mut Notices,
) {
    let why = match read {
        Ok((grid, shape)) if drawable(shape) => {
            load.write(LoadMap::new(name, grid).with_shape(shape));
            return;
        }
        Ok((_, shape)) => format!(
            "its cells are {}, a rhombus of hexagons the playground does not draw (it draws \
             hex-row-odd, hex-row-even, hex-column-odd and hex-column-even).",
            shape.word()
        ),
        Err(e) => e.to_string(),
    };
    notices.error(if has_map {
        format!("Could not open {name}; the current map stays. {why}")
    } else {
        format!("Could not open {name}, showing the built-in map instead. {why}")
    });
}

fn save_files(
    mut requests: MessageReader<SaveMapFile>,
    nav: Option<Res<NavGrid>>,
    layout: Option<Res<MapLayout>>,
    mut current: ResMut<CurrentMap>,
    mut notices: ResMut<Notices>,
) {
    let shape = layout.map_or(MapShape::Octile, |l| l.shape);
    for SaveMapFile(path) in requests.read() {
        let Some(nav) = &nav else {
            notices.error("There is no map to save yet.");
            continue;
        };
        // The navigation grid is the world as a grid: walls, and each open cell's ground cost;
        // the type line keeps the cells' shape.
        let text = gridpath::movingai::write_shaped_map(nav.grid(), shape);
        // A browser has no files to write: the map leaves as a download.
        #[cfg(target_arch = "wasm32")]
        let written = crate::browser::download(&file_name(path), &text);
        #[cfg(not(target_arch = "wasm32"))]
        let written = std::fs::write(path, text).and_then(|()| save_links(path, nav.grid()));
        match written {
            Ok(()) => {
                current.name = file_name(path);
                notices.info(format!("Saved the map to {}.", path.display()));
            }
            Err(e) => notices.error(format!("Could not save to {}: {e}", path.display())),
        }
    }
}

/// Writes the grid's links beside the map, if it has any (a browser has no files to write).
#[cfg(not(target_arch = "wasm32"))]
fn save_links(path: &Path, grid: &gridpath::Grid) -> std::io::Result<()> {
    if grid.links().next().is_none() {
        return Ok(());
    }
    std::fs::write(links_path(path), gridpath::movingai::write_links(grid))
}
