//! Loading a map into the world: obstacle entities, the ground, the navigation grid, the layout
//! and the markers.
//!
//! Everything that replaces the map (a shipped map, a file, a generator, an undo) sends a
//! [`LoadMap`] request, so a map always arrives the same way. Three systems, one job each, in
//! order: `load_map` accepts the newest request and announces it with [`MapLoaded`];
//! `swap_world` puts the new walls, ground and layout in; `place_new_markers` puts the markers down.
//! The undo history and the planner read [`MapLoaded`] too, so this module needs neither of them.

use crate::frame::AppSystems;
use crate::notices::Notices;
use crate::world::catalog;
use crate::world::layout::MapLayout;
use crate::world::markers::{Marker, Markers, far_apart_cells};
use crate::world::nav::{CellPos, NavGrid, NavLink, Obstacle};
use crate::world::terrain::GroundMap;
use bevy::prelude::*;
use gridpath::movingai::MapShape;
use gridpath::{Cell, Grid, Point};

/// The most cells a map may have here. The core handles more, but the tilemap gives each cell an
/// entity, and beyond this the app stops being interactive.
pub const MAX_CELLS: u64 = 1024 * 1024;

/// Everything needed to put a whole map back.
#[derive(Clone, Debug, PartialEq)]
pub struct MapSnapshot {
    pub name: String,
    pub grid: Grid,
    /// The ground under the walls too.
    pub ground: GroundMap,
    pub start: Point,
    pub goal: Point,
    /// The shape of its cells.
    pub shape: MapShape,
}

/// Replace the world with this map.
#[derive(Message, Clone, Debug)]
pub struct LoadMap {
    pub name: String,
    /// Walls, and the ground of the open cells.
    pub grid: Grid,
    /// The ground under the walls too (a restored snapshot has it; a file does not).
    pub ground: Option<GroundMap>,
    /// Where the markers go; by default, far apart ([`far_apart_cells`]).
    pub markers: Option<(Point, Point)>,
    /// Record the switch in the undo history.
    pub undoable: bool,
    /// The shape of its cells (squares unless a file or the panel says otherwise).
    pub shape: MapShape,
}

impl LoadMap {
    /// An ordinary, undoable load.
    pub fn new(name: impl Into<String>, grid: Grid) -> Self {
        Self {
            name: name.into(),
            grid,
            ground: None,
            markers: None,
            undoable: true,
            shape: MapShape::Octile,
        }
    }

    /// The same map with cells of another shape.
    pub fn with_shape(self, shape: MapShape) -> Self {
        Self { shape, ..self }
    }

    /// A shipped map, to put on screen; `None`, with an error in the log, if it does not parse
    /// (the tests parse every shipped map: only a broken build gets there).
    pub fn shipped(map: &catalog::ShippedMap) -> Option<Self> {
        match map.load_shaped() {
            Ok((grid, shape)) => Some(Self::new(map.file, grid).with_shape(shape)),
            Err(e) => {
                error!("shipped map {} does not parse: {e}", map.file);
                None
            }
        }
    }

    /// Puts back a snapshot exactly, without recording it again (undo and redo do this).
    pub fn restore(snapshot: &MapSnapshot) -> Self {
        Self {
            name: snapshot.name.clone(),
            grid: snapshot.grid.clone(),
            ground: Some(snapshot.ground.clone()),
            markers: Some((snapshot.start, snapshot.goal)),
            undoable: false,
            shape: snapshot.shape,
        }
    }
}

/// Show the map with cells of another shape: the same cells, walls, ground and markers (an
/// undoable load).
#[derive(Message, Clone, Copy, Debug)]
pub struct ReshapeMap(pub MapShape);

/// A map was loaded. `before` is the map it replaced, when the load is to be undoable.
#[derive(Message, Clone, Debug)]
pub struct MapLoaded {
    pub before: Option<Box<MapSnapshot>>,
    pub after: Box<MapSnapshot>,
}

/// The map to load at start-up. Without one (or when it fails to load), the default map loads.
#[derive(Resource, Clone, Debug)]
pub struct InitialMap(pub LoadMap);

/// The name of the map in the world now.
#[derive(Resource, Clone, Debug, Default)]
pub struct CurrentMap {
    pub name: String,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<LoadMap>()
        .add_message::<ReshapeMap>()
        .add_message::<MapLoaded>()
        .init_resource::<CurrentMap>()
        .add_systems(Startup, request_initial_map)
        .add_systems(
            Update,
            (reshape_map, load_map, swap_world, place_new_markers)
                .chain()
                .in_set(AppSystems::Maps),
        );
}

/// The built-in default map (the first shipped one). It is part of the binary, so the app
/// always has a map.
pub fn default_map() -> LoadMap {
    LoadMap::shipped(&catalog::SHIPPED[0]).unwrap_or_else(|| {
        // Only a broken build could get here; an open floor keeps the app usable.
        let floor = Grid::new(40, 28).unwrap_or_else(|_| unreachable!("40×28 is a valid size"));
        LoadMap::new("open floor", floor)
    })
}

fn request_initial_map(initial: Option<Res<InitialMap>>, mut out: MessageWriter<LoadMap>) {
    if let Some(initial) = initial {
        out.write(initial.0.clone());
    }
}

/// Turns a [`ReshapeMap`] into a load of the map on screen with its new shape.
fn reshape_map(
    mut asks: MessageReader<ReshapeMap>,
    world: Option<(Res<NavGrid>, Res<GroundMap>, Res<MapLayout>)>,
    markers: Markers,
    current: Res<CurrentMap>,
    mut load: MessageWriter<LoadMap>,
) {
    let Some(&ReshapeMap(shape)) = asks.read().last() else {
        return;
    };
    let Some((nav, ground, layout)) = world else {
        return;
    };
    if layout.shape == shape {
        return;
    }
    let start = markers.cell(Marker::Start).unwrap_or_default();
    let goal = markers.cell(Marker::Goal).unwrap_or_default();
    load.write(LoadMap {
        ground: Some((*ground).clone()),
        markers: Some((start, goal)),
        ..LoadMap::new(current.name.clone(), nav.grid().clone()).with_shape(shape)
    });
}

/// Accepts the newest requested map and announces it. With no map yet and no request (none was
/// asked for, or the file asked for did not open), it loads the default map.
pub(crate) fn load_map(
    mut requests: MessageReader<LoadMap>,
    old: Option<(Res<NavGrid>, Res<GroundMap>)>,
    markers: Markers,
    current: Res<CurrentMap>,
    layout: Option<Res<MapLayout>>,
    mut notices: ResMut<Notices>,
    mut loaded: MessageWriter<MapLoaded>,
) {
    let first = old.is_none();
    let request = match requests.read().last() {
        Some(request) => request.clone(),
        None if first => default_map(),
        None => return,
    };
    let Some(request) = accept(request, first, &mut notices) else {
        return;
    };
    let before = match (&old, request.undoable) {
        (Some((nav, ground)), true) => Some(Box::new(MapSnapshot {
            name: current.name.clone(),
            grid: nav.grid().clone(),
            ground: (*ground).clone(),
            start: markers.cell(Marker::Start).unwrap_or_default(),
            goal: markers.cell(Marker::Goal).unwrap_or_default(),
            shape: layout.map_or(MapShape::Octile, |l| l.shape),
        })),
        _ => None,
    };
    let ground = match request.ground {
        Some(g) if (g.width(), g.height()) == (request.grid.width(), request.grid.height()) => g,
        _ => GroundMap::from_grid(&request.grid),
    };
    let (start, goal) = request
        .markers
        .unwrap_or_else(|| far_apart_cells(&request.grid));
    let after = Box::new(MapSnapshot {
        name: request.name,
        grid: request.grid,
        ground,
        start,
        goal,
        shape: request.shape,
    });
    loaded.write(MapLoaded { before, after });
}

/// Replaces the world's walls, links, ground, navigation grid and layout with the loaded map's:
/// despawns the old obstacle and link entities and spawns the new ones.
fn swap_world(
    mut loaded: MessageReader<MapLoaded>,
    obstacles: Query<Entity, Or<(With<Obstacle>, With<NavLink>)>>,
    mut current: ResMut<CurrentMap>,
    mut commands: Commands,
) {
    let Some(MapLoaded { after: map, .. }) = loaded.read().last() else {
        return;
    };
    let grid = &map.grid;
    let nav = match crate::world::nav::nav_from_ground(&map.ground, map.shape) {
        Ok(nav) => nav,
        Err(e) => {
            // Cannot happen: `load_map` made the ground from a valid grid, or checked its size.
            error!("cannot make a navigation grid for {}: {e}", map.name);
            return;
        }
    };
    for e in &obstacles {
        commands.entity(e).despawn();
    }
    // Commands apply in order: the new grid must be in place before the obstacles' observers
    // run, or they would block cells of the old one.
    commands.insert_resource(nav);
    commands.insert_resource(map.ground.clone());
    for i in 0..grid.len() {
        let p = grid.point_of(i);
        if grid.cell(p) == Some(Cell::Blocked) {
            commands.spawn((Obstacle, CellPos(p)));
        }
    }
    // Its links (a scene's stairs, or those of a map restored by undo), as entities too.
    for (_, &link) in grid.links() {
        commands.spawn(NavLink(link));
    }
    commands.insert_resource(MapLayout::shaped(grid.width(), grid.height(), map.shape));
    current.name.clone_from(&map.name);
    info!("loaded map {} ({})", map.name, size(grid));
}

/// Puts the markers where the loaded map wants them.
fn place_new_markers(mut loaded: MessageReader<MapLoaded>, mut markers: Markers) {
    if let Some(MapLoaded { after, .. }) = loaded.read().last() {
        markers.place_both(after.start, after.goal);
    }
}

fn size(grid: &Grid) -> String {
    format!("{}×{}", grid.width(), grid.height())
}

/// Refuses a map over [`MAX_CELLS`]: the map on screen stays, or at start-up, when there is
/// none, the default map loads instead.
fn accept(request: LoadMap, first: bool, notices: &mut Notices) -> Option<LoadMap> {
    let cells = u64::from(request.grid.width()) * u64::from(request.grid.height());
    if cells <= MAX_CELLS {
        return Some(request);
    }
    let instead = if first {
        "Showing the built-in map instead."
    } else {
        "The current map stays."
    };
    notices.error(format!(
        "{} is {}: too big for the playground, which shows up to {MAX_CELLS} cells \
         (1024×1024). {instead}",
        request.name,
        size(&request.grid),
    ));
    first.then(default_map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_map_is_rooms_and_markers_are_connected() {
        let map = default_map();
        assert_eq!(map.name, "rooms.map");
        assert_eq!((map.grid.width(), map.grid.height()), (40, 28));
        let (s, g) = far_apart_cells(&map.grid);
        assert!(map.grid.is_passable(s) && map.grid.is_passable(g));
        let path = gridpath::find_path(&map.grid, s, g, &Default::default()).unwrap();
        assert!(path.path.is_some());
        assert!(
            s.x.abs_diff(g.x) + s.y.abs_diff(g.y) > 30,
            "{s} and {g} are too close"
        );
    }
}
