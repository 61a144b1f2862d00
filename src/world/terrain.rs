//! Kinds of ground and what they cost to enter: the "mud versus road" of the tutorials.
//!
//! The world stores each cell's ground as an entry cost (that is what the planner needs and what
//! map files hold); the kind is how the panel and the tiles name and show a cost (their colours
//! are in the view's palette).

use bevy::prelude::*;
use gridpath::Point;

/// A kind of ground, with its entry cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ground {
    #[default]
    Road,
    Grass,
    Mud,
    Water,
}

impl Ground {
    pub const ALL: [Ground; 4] = [Ground::Road, Ground::Grass, Ground::Mud, Ground::Water];

    /// What entering a cell of this ground costs.
    pub fn cost(self) -> u32 {
        match self {
            Ground::Road => 1,
            Ground::Grass => 2,
            Ground::Mud => 5,
            Ground::Water => 10,
        }
    }

    /// The cell's terrain, as a unit class reads it ([`gridpath::UnitClass`]): water and mud are
    /// the ones the playground's classes close or make dear.
    pub fn terrain(self) -> gridpath::Terrain {
        match self {
            Ground::Road => gridpath::Terrain::GROUND,
            Ground::Grass => gridpath::Terrain(4),
            Ground::Mud => gridpath::Terrain(3),
            Ground::Water => gridpath::Terrain::WATER,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Ground::Road => "Road",
            Ground::Grass => "Grass",
            Ground::Mud => "Mud",
            Ground::Water => "Water",
        }
    }

    /// The ground a cost looks like: costs from files need not be one of ours exactly.
    pub fn from_cost(cost: u32) -> Ground {
        match cost {
            0..=1 => Ground::Road,
            2..=3 => Ground::Grass,
            4..=7 => Ground::Mud,
            _ => Ground::Water,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ground_reads_back_from_its_cost() {
        for g in Ground::ALL {
            assert_eq!(Ground::from_cost(g.cost()), g);
        }
        assert_eq!(Ground::from_cost(35), Ground::Water);
    }
}

/// Each cell's ground, as its entry cost: the world state the terrain brush edits. A wall stands
/// on top of its cell's ground, which comes back when the wall goes.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct GroundMap {
    width: u32,
    height: u32,
    costs: Vec<u32>,
}

impl GroundMap {
    /// All road.
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            costs: vec![Ground::Road.cost(); width as usize * height as usize],
        }
    }

    /// The ground of a grid's passable cells (walled cells get road).
    pub fn from_grid(grid: &gridpath::Grid) -> Self {
        let mut ground = Self::new(grid.width(), grid.height());
        for (i, cost) in ground.costs.iter_mut().enumerate() {
            if let Some(gridpath::Cell::Passable(c)) = grid.cell(grid.point_of(i)) {
                *cost = c;
            }
        }
        ground
    }

    fn index(&self, p: Point) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height)
            .then(|| p.y as usize * self.width as usize + p.x as usize)
    }

    /// The entry cost of a cell's ground.
    pub fn cost(&self, p: Point) -> Option<u32> {
        self.index(p).map(|i| self.costs[i])
    }

    /// Sets a cell's ground cost (at least 1). Returns whether it changed.
    pub fn set_cost(&mut self, p: Point, cost: u32) -> bool {
        match self.index(p) {
            Some(i) if self.costs[i] != cost.max(1) => {
                self.costs[i] = cost.max(1);
                true
            }
            _ => false,
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }
}

/// A cell's ground changed: the navigation grid and the tiles follow it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroundChanged(pub Point);
