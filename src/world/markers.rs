//! The start and goal markers, and the one place their cells are written.
//!
//! A marker's [`MarkerCell`] is the cell the planner uses: always on the map and never on a wall.
//! Dragging (in `editing`), undo (in `editing`) and a new map (in `map_load`) all move markers
//! through [`Markers`], so the rules of where a marker may stand live here only.

use crate::world::nav::NavGrid;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridpath::{Grid, Movement, Point};
use std::collections::VecDeque;

/// Where the path starts.
#[derive(Component, Debug, Default)]
pub struct Start;

/// Where the path should end.
#[derive(Component, Debug, Default)]
pub struct Goal;

/// Which marker an entity is (for names in messages).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Start,
    Goal,
}

impl Marker {
    pub fn name(self) -> &'static str {
        match self {
            Marker::Start => "start",
            Marker::Goal => "goal",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Marker::Start => "The start",
            Marker::Goal => "The goal",
        }
    }
}

/// The marker's cell: the last valid place it was dropped.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarkerCell(pub Point);

/// Why a marker may not stand on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    OffMap,
    Wall(Point),
    Taken,
}

impl Refusal {
    /// The end of a sentence that begins with the marker's name.
    pub fn describe(self) -> String {
        match self {
            Refusal::OffMap => "can't leave the map".into(),
            Refusal::Wall(p) => format!("can't stand on a wall at {p}"),
            Refusal::Taken => "can't share a cell with the other marker".into(),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_markers);
}

fn spawn_markers(mut commands: Commands) {
    for (name, marker) in [("Start", Marker::Start), ("Goal", Marker::Goal)] {
        let mut entity = commands.spawn((
            Name::new(name),
            marker,
            MarkerCell::default(),
            Transform::from_xyz(0.0, 0.0, 10.0),
        ));
        match marker {
            Marker::Start => entity.insert(Start),
            Marker::Goal => entity.insert(Goal),
        };
    }
}

/// Reads the markers' cells, and writes them: the only writer.
#[derive(SystemParam)]
pub struct Markers<'w, 's> {
    cells: Query<'w, 's, (&'static Marker, &'static mut MarkerCell)>,
}

impl Markers<'_, '_> {
    /// The cell a marker stands on.
    pub fn cell(&self, marker: Marker) -> Option<Point> {
        self.cells
            .iter()
            .find(|(m, _)| **m == marker)
            .map(|(_, c)| c.0)
    }

    /// The marker standing on a cell, if any.
    pub fn on(&self, p: Point) -> Option<Marker> {
        self.cells.iter().find(|(_, c)| c.0 == p).map(|(m, _)| *m)
    }

    /// Whether `marker` may stand on `p`: on the map, not on a wall, not on the other marker.
    pub fn check(&self, marker: Marker, p: Point, nav: &NavGrid) -> Result<(), Refusal> {
        if !nav.grid().contains(p) {
            Err(Refusal::OffMap)
        } else if !nav.is_passable(p) {
            Err(Refusal::Wall(p))
        } else if self.on(p).is_some_and(|m| m != marker) {
            Err(Refusal::Taken)
        } else {
            Ok(())
        }
    }

    /// Moves a marker to `p` if it may stand there ([`Markers::check`]).
    pub fn move_to(&mut self, marker: Marker, p: Point, nav: &NavGrid) -> Result<(), Refusal> {
        self.check(marker, p, nav)?;
        self.set(marker, p);
        Ok(())
    }

    /// Puts both markers down on a new map, unchecked: the map loader chose the cells (see
    /// [`far_apart_cells`]), and on a map with no free cell the planner reports the wall.
    pub fn place_both(&mut self, start: Point, goal: Point) {
        self.set(Marker::Start, start);
        self.set(Marker::Goal, goal);
    }

    fn set(&mut self, marker: Marker, p: Point) {
        for (m, mut cell) in &mut self.cells {
            if *m == marker && cell.0 != p {
                cell.0 = p;
            }
        }
    }
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
