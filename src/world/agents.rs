//! Agents: units that live on the map and walk to a target. Here is only what an agent *is* (its
//! identity, colour, speed and position); how it finds and walks its way is the `agents` layer's,
//! and spawning and clearing them, as undoable edits, is the editing layer's.
//!
//! An agent's position is in cells, not pixels: `(3.0, 4.0)` is the centre of cell (3, 4), and
//! `(3.5, 4.0)` is halfway to its east neighbour. The cell it stands on is the nearest centre.

use crate::world::generators::rng::Rng;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::Point;

/// The most agents the panel spawns at once, and the most there may be.
pub const MAX_AGENTS: usize = 1000;

/// An agent's speed when it is spawned, in cells per second on cost-1 ground.
pub const DEFAULT_SPEED: f32 = 4.0;

/// Who an agent is, and how it moves.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(AgentPos)]
pub struct Agent {
    /// Stable across undo and redo, unlike the entity.
    pub id: u32,
    /// Its colour's hue, in degrees: its sprite and its path share it.
    pub hue: f32,
    /// Cells per second on cost-1 ground; a cell of cost c is crossed c times slower.
    pub speed: f32,
    /// Its side in cells (1 to [`MAX_SIZE`]): it covers `size × size` cells from its cell, right
    /// and down, and goes only where it fits.
    pub size: u8,
}

/// The biggest agent the panel offers, in cells across.
pub const MAX_SIZE: u8 = 3;

/// A place of the agent's own, where it goes when the agents' goal is "their own places" (a
/// scene gives each agent one).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnPlace(pub Point);

/// Where an agent is, in cell units (see the module comment).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct AgentPos(pub Vec2);

impl AgentPos {
    pub fn at(cell: Point) -> Self {
        Self(Vec2::new(cell.x as f32, cell.y as f32))
    }

    /// The cell it stands on: the nearest cell centre.
    pub fn cell(self) -> Point {
        Point::new(self.0.x.round() as i32, self.0.y.round() as i32)
    }
}

/// Everything needed to bring an agent back (undo of a clear, redo of a spawn).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentSeed {
    pub agent: Agent,
    pub cell: Point,
}

impl AgentSeed {
    pub fn spawn(self, commands: &mut Commands) -> Entity {
        commands
            .spawn((
                Name::new(format!("Agent {}", self.agent.id)),
                self.agent,
                AgentPos::at(self.cell),
            ))
            .id()
    }
}

/// A hue for the n-th agent: successive agents get well-separated colours (the golden angle).
pub fn hue_for(id: u32) -> f32 {
    (id as f32 * 137.508) % 360.0
}

/// A random passable cell of the grid, or `None` after many misses (a map of walls).
pub fn random_free_cell(rng: &mut Rng, nav: &NavGrid) -> Option<Point> {
    random_place(rng, nav, 1)
}

/// A random cell where an agent `size` cells across fits, or `None` after many misses.
pub fn random_place(rng: &mut Rng, nav: &NavGrid, size: u8) -> Option<Point> {
    let fits = nav.grid_for(size);
    (0..1000).find_map(|_| {
        let p = Point::new(
            rng.below(nav.width()) as i32,
            rng.below(nav.height()) as i32,
        );
        fits.is_passable(p).then_some(p)
    })
}

/// How far a wanderer's next stop may be, in cells along x and along y.
pub const WANDER_RADIUS: i32 = 40;

/// A random passable cell other than `around`, at most [`WANDER_RADIUS`] cells from it along
/// each axis; anywhere on the map if a few tries find none. Wanderers pick their next stop this
/// way: a crowd then mills about the whole map, and each search stays short. (Stops anywhere on
/// a 512×512 map cost a search of about 10 ms each, and a crowd of 500 would mostly stand
/// waiting for its routes.)
pub fn random_free_cell_near(rng: &mut Rng, nav: &NavGrid, around: Point) -> Option<Point> {
    random_place_near(rng, nav, around, 1)
}

/// A random cell near `around` where an agent `size` cells across fits, as
/// [`random_free_cell_near`] picks one for one cell.
pub fn random_place_near(rng: &mut Rng, nav: &NavGrid, around: Point, size: u8) -> Option<Point> {
    let fits = nav.grid_for(size);
    let (width, height) = (nav.width() as i32, nav.height() as i32);
    let span = |c: i32, len: i32| ((c - WANDER_RADIUS).max(0), (c + WANDER_RADIUS).min(len - 1));
    let ((x0, x1), (y0, y1)) = (span(around.x, width), span(around.y, height));
    if x1 < x0 || y1 < y0 {
        return random_free_cell(rng, nav); // `around` is off the map
    }
    (0..64)
        .find_map(|_| {
            let p = Point::new(
                x0 + rng.below((x1 - x0 + 1) as u32) as i32,
                y0 + rng.below((y1 - y0 + 1) as u32) as i32,
            );
            (p != around && fits.is_passable(p)).then_some(p)
        })
        .or_else(|| random_place(rng, nav, size))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A distinct entity for each wall (one entity walls one cell).
    fn a_wall(i: u32) -> Entity {
        Entity::from_raw_u32(i).expect("a small index")
    }

    #[test]
    fn a_wanderers_next_stop_is_near_it_and_free() {
        let mut nav = NavGrid::new(200, 200).expect("a grid");
        let around = Point::new(100, 100);
        for x in 90..=110 {
            nav.block(Point::new(x, 95), a_wall(x as u32));
        }
        let mut rng = Rng::new(5);
        for _ in 0..500 {
            let p = random_free_cell_near(&mut rng, &nav, around).expect("a free cell");
            assert!(nav.is_passable(p) && p != around);
            assert!((p.x - around.x).abs() <= WANDER_RADIUS);
            assert!((p.y - around.y).abs() <= WANDER_RADIUS);
        }
    }

    #[test]
    fn with_no_free_cell_near_it_a_wanderer_looks_anywhere() {
        let mut nav = NavGrid::new(100, 100).expect("a grid");
        for y in 0..100 {
            for x in 0..=60 {
                nav.block(Point::new(x, y), a_wall((y * 100 + x) as u32));
            }
        }
        let mut rng = Rng::new(5);
        let p = random_free_cell_near(&mut rng, &nav, Point::new(0, 0)).expect("a free cell");
        assert!(p.x > 60);
    }
}
