//! Loading a map into the world: obstacle entities, the navigation grid and the markers.
//!
//! Everything that replaces the map (the default at start-up, a file, later a generator) sends a
//! [`LoadMap`] message. One system turns it into world state, so a map always arrives the same way.

use crate::AppSystems;
use crate::editing::history::{Edit, History, MapSnapshot};
use crate::layout::MapLayout;
use crate::markers::{Marker, MarkerCell};
use crate::nav::{CellPos, NavGrid, Obstacle};
use crate::notice::Notices;
use crate::planner::ReplanNow;
use crate::terrain::GroundMap;
use bevy::prelude::*;
use gridpath::{Cell, Grid, Movement, Point};
use std::collections::VecDeque;

/// The most cells a map may have here. The core handles more, but the tilemap gives each cell an
/// entity, and beyond this the app stops being interactive.
pub const MAX_CELLS: u64 = 1024 * 1024;

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
        }
    }
}

/// The map to load at start-up. Without one, the default map loads.
#[derive(Resource, Clone, Debug)]
pub struct InitialMap(pub LoadMap);

/// The name of the map in the world now.
#[derive(Resource, Clone, Debug, Default)]
pub struct CurrentMap {
    pub name: String,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<LoadMap>()
        .init_resource::<CurrentMap>()
        .add_systems(Startup, request_initial_map)
        .add_systems(Update, load_map.in_set(AppSystems::LoadMap));
}

/// The built-in default map (the first shipped one). It is part of the binary, so the app
/// always has a map.
pub fn default_map() -> LoadMap {
    crate::catalog::SHIPPED[0].load().unwrap_or_else(|e| {
        // Only a broken build could get here; an open floor keeps the app usable.
        error!("the built-in map does not parse ({e}); using an open floor");
        LoadMap::new(
            "open floor",
            Grid::new(40, 28).unwrap_or_else(|_| unreachable!("40×28 is a valid size")),
        )
    })
}

fn request_initial_map(initial: Option<Res<InitialMap>>, mut out: MessageWriter<LoadMap>) {
    out.write(initial.map_or_else(default_map, |m| m.0.clone()));
}

/// Swaps the world's map for the newest requested one, and records the swap for undo.
fn load_map(
    mut requests: MessageReader<LoadMap>,
    mut commands: Commands,
    obstacles: Query<Entity, With<Obstacle>>,
    mut markers: Query<(&Marker, &mut MarkerCell)>,
    mut current: ResMut<CurrentMap>,
    old: Option<(Res<NavGrid>, Res<GroundMap>)>,
    mut history: ResMut<History>,
    mut notices: ResMut<Notices>,
    mut replan: MessageWriter<ReplanNow>,
) {
    let Some(mut request) = requests.read().last().cloned() else {
        return;
    };
    let cells = u64::from(request.grid.width()) * u64::from(request.grid.height());
    if cells > MAX_CELLS {
        // Refused. Keep the map on screen, or, at start-up when there is none, open the default.
        let first = old.is_none();
        notices.error(format!(
            "{} is {}×{}: too big for the playground, which shows up to {MAX_CELLS} cells \
             (1024×1024). {}",
            request.name,
            request.grid.width(),
            request.grid.height(),
            if first {
                "Showing the built-in map instead."
            } else {
                "The current map stays."
            }
        ));
        if !first {
            return;
        }
        request = default_map();
    }
    let request = &request;
    let grid = &request.grid;
    let ground = match &request.ground {
        Some(g) if (g.width(), g.height()) == (grid.width(), grid.height()) => g.clone(),
        _ => GroundMap::from_grid(grid),
    };
    let nav = match NavGrid::from_ground(&ground) {
        Ok(nav) => nav,
        Err(e) => {
            error!("cannot make a navigation grid: {e}");
            return;
        }
    };
    let (start, goal) = request.markers.unwrap_or_else(|| far_apart_cells(grid));
    let marker_at = |m: &Marker| if *m == Marker::Start { start } else { goal };
    if request.undoable
        && let Some((old_nav, old_ground)) = old
    {
        let cell_of = |which: Marker| {
            markers
                .iter()
                .find(|(m, _)| **m == which)
                .map_or_else(Point::default, |(_, c)| c.0)
        };
        let before = MapSnapshot {
            name: current.name.clone(),
            grid: old_nav.grid().clone(),
            ground: old_ground.clone(),
            start: cell_of(Marker::Start),
            goal: cell_of(Marker::Goal),
        };
        let after = MapSnapshot {
            name: request.name.clone(),
            grid: grid.clone(),
            ground: ground.clone(),
            start,
            goal,
        };
        history.record(Edit::Map {
            before: Box::new(before),
            after: Box::new(after),
        });
    }

    for e in &obstacles {
        commands.entity(e).despawn();
    }
    // Commands apply in order: the new grid must be in place before the obstacles' observers
    // run, or they would block cells of the old one.
    commands.insert_resource(nav);
    commands.insert_resource(ground);
    for i in 0..grid.len() {
        let p = grid.point_of(i);
        if grid.cell(p) == Some(Cell::Blocked) {
            commands.spawn((Obstacle, CellPos(p)));
        }
    }
    commands.insert_resource(MapLayout::new(grid.width(), grid.height()));
    for (marker, mut cell) in &mut markers {
        cell.0 = marker_at(marker);
    }
    current.name = request.name.clone();
    replan.write(ReplanNow);
    info!(
        "loaded map {} ({}×{})",
        request.name,
        grid.width(),
        grid.height()
    );
}

/// Where to put the markers on a fresh map: the start on the free cell nearest the top-left
/// corner, the goal on the cell farthest from it by walking (so they are connected and far
/// apart). A map without free cells gets both at (0, 0), and the planner reports the wall.
pub fn far_apart_cells(grid: &Grid) -> (Point, Point) {
    let start = (0..grid.len())
        .map(|i| grid.point_of(i))
        .filter(|&p| grid.is_passable(p))
        .min_by_key(|p| (p.x + p.y, p.y, p.x));
    let Some(start) = start else {
        return (Point::new(0, 0), Point::new(0, 0));
    };
    // Breadth-first flood: the last cell dequeued is (one of) the farthest in steps.
    let movement = Movement::FourWay;
    let mut seen = vec![false; grid.len()];
    let mut queue = VecDeque::from([start]);
    let index = |p: Point| grid.index_of(p).unwrap_or(0);
    seen[index(start)] = true;
    let mut farthest = start;
    while let Some(p) = queue.pop_front() {
        farthest = p;
        for (q, _) in movement.neighbors(grid, p) {
            if !seen[index(q)] {
                seen[index(q)] = true;
                queue.push_back(q);
            }
        }
    }
    (start, farthest)
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

    #[test]
    fn tiny_and_full_maps() {
        let one = Grid::new(1, 1).unwrap();
        assert_eq!(far_apart_cells(&one), (Point::new(0, 0), Point::new(0, 0)));
        let walls = Grid::from_ascii(&["##", "##"]).unwrap();
        assert_eq!(
            far_apart_cells(&walls),
            (Point::new(0, 0), Point::new(0, 0))
        );
    }
}
