//! Loading a map into the world: obstacle entities, the navigation grid and the markers.
//!
//! Everything that replaces the map (the default at start-up, a file, later a generator) sends a
//! [`LoadMap`] message. One system turns it into world state, so a map always arrives the same way.

use crate::AppSystems;
use crate::layout::MapLayout;
use crate::markers::{Marker, MarkerCell};
use crate::nav::{CellPos, NavGrid, Obstacle};
use crate::planner::ReplanNow;
use bevy::prelude::*;
use gridpath::{Cell, Grid, Movement, Point};
use std::collections::VecDeque;

/// The map the app ships with and opens when given none.
pub const DEFAULT_MAP_NAME: &str = "rooms.map";
pub const DEFAULT_MAP: &str = include_str!("../assets/maps/rooms.map");

/// Replace the world with this map.
#[derive(Message, Clone, Debug)]
pub struct LoadMap {
    pub name: String,
    pub grid: Grid,
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

/// The built-in default map, parsed. It is part of the binary, so the app always has a map.
pub fn default_map() -> LoadMap {
    let grid = gridpath::movingai::parse_map(DEFAULT_MAP).unwrap_or_else(|e| {
        // Only a broken build could get here; an open floor keeps the app usable.
        error!("the built-in map does not parse ({e}); using an open floor");
        Grid::new(40, 28).unwrap_or_else(|_| unreachable!("40×28 is a valid size"))
    });
    LoadMap {
        name: DEFAULT_MAP_NAME.into(),
        grid,
    }
}

fn request_initial_map(initial: Option<Res<InitialMap>>, mut out: MessageWriter<LoadMap>) {
    out.write(initial.map_or_else(default_map, |m| m.0.clone()));
}

/// Swaps the world's map for the newest requested one.
fn load_map(
    mut requests: MessageReader<LoadMap>,
    mut commands: Commands,
    obstacles: Query<Entity, With<Obstacle>>,
    mut markers: Query<(&Marker, &mut MarkerCell)>,
    mut current: ResMut<CurrentMap>,
    mut replan: MessageWriter<ReplanNow>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    let grid = &request.grid;
    for e in &obstacles {
        commands.entity(e).despawn();
    }
    let mut nav = match NavGrid::new(grid.width(), grid.height()) {
        Ok(nav) => nav,
        Err(e) => {
            error!("cannot make a navigation grid: {e}");
            return;
        }
    };
    let cells = || {
        (0..grid.len())
            .map(|i| grid.point_of(i))
            .map(|p| (p, grid.cell(p)))
    };
    for (p, cell) in cells() {
        if let Some(Cell::Passable(cost)) = cell {
            nav.set_ground_cost(p, cost);
        }
    }
    // Commands apply in order: the new grid must be in place before the obstacles' observers
    // run, or they would block cells of the old one.
    commands.insert_resource(nav);
    for (p, cell) in cells() {
        if cell == Some(Cell::Blocked) {
            commands.spawn((Obstacle, CellPos(p)));
        }
    }
    commands.insert_resource(MapLayout::new(grid.width(), grid.height()));
    let (start, goal) = far_apart_cells(grid);
    for (marker, mut cell) in &mut markers {
        cell.0 = if *marker == Marker::Start {
            start
        } else {
            goal
        };
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
    fn default_map_parses_and_markers_are_connected() {
        let map = default_map();
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
