//! Map generators. Each takes a seed and a size and returns a grid; the same seed and size always
//! give the same map (see [`rng::Rng`]). A [`GenerateMap`] request, from the panel or the command
//! line, puts a generated map into the world through the map loader.

pub mod maze;
pub mod rng;
pub mod rooms;
pub mod roulette;
mod solid;

use crate::frame::AppSystems;
use crate::world::layout::MapLayout;
use crate::world::map_load::{LoadMap, load_map};
use bevy::prelude::*;
use gridpath::Grid;
use gridpath::movingai::MapShape;

/// Generate a map with these settings and load it.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct GenerateMap(pub GeneratorSettings);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<GenerateMap>().add_systems(
        Update,
        generate_requested.in_set(AppSystems::Maps).before(load_map),
    );
}

/// A generated map has no shape of its own: it keeps the shape of the cells on screen, so a
/// maze generated on hexagons is a maze of hexagons.
fn generate_requested(
    mut requests: MessageReader<GenerateMap>,
    layout: Option<Res<MapLayout>>,
    mut load: MessageWriter<LoadMap>,
) {
    let shape = layout.map_or(MapShape::Octile, |l| l.shape);
    for GenerateMap(settings) in requests.read() {
        load.write(LoadMap::new(settings.map_name(), generate(settings)).with_shape(shape));
    }
}

/// The smallest and largest side a generated map may have.
pub const SIZE_RANGE: std::ops::RangeInclusive<u32> = 8..=512;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GeneratorKind {
    /// Random terrain by roulette-wheel selection over weighted tile kinds.
    #[default]
    RandomTerrain,
    /// A maze carved by a recursive backtracker, with a few extra openings.
    Maze,
    /// Rooms joined by corridors.
    Rooms,
}

impl GeneratorKind {
    pub const ALL: [GeneratorKind; 3] = [Self::RandomTerrain, Self::Maze, Self::Rooms];

    pub fn name(self) -> &'static str {
        match self {
            GeneratorKind::RandomTerrain => "Random terrain",
            GeneratorKind::Maze => "Maze",
            GeneratorKind::Rooms => "Rooms and corridors",
        }
    }
}

/// Everything a generator needs.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratorSettings {
    pub kind: GeneratorKind,
    pub seed: u64,
    pub width: u32,
    pub height: u32,
    pub weights: roulette::Weights,
}

impl Default for GeneratorSettings {
    fn default() -> Self {
        Self {
            kind: GeneratorKind::default(),
            seed: 1,
            width: 64,
            height: 48,
            weights: roulette::Weights::default(),
        }
    }
}

impl GeneratorSettings {
    /// A short name for the map, e.g. "maze-64x48-seed7".
    pub fn map_name(&self) -> String {
        let kind = match self.kind {
            GeneratorKind::RandomTerrain => "terrain",
            GeneratorKind::Maze => "maze",
            GeneratorKind::Rooms => "rooms",
        };
        format!("{kind}-{}x{}-seed{}", self.width, self.height, self.seed)
    }
}

/// Makes the map. Sizes outside [`SIZE_RANGE`] are clamped into it.
pub fn generate(settings: &GeneratorSettings) -> Grid {
    let clamp = |v: u32| v.clamp(*SIZE_RANGE.start(), *SIZE_RANGE.end());
    let (w, h) = (clamp(settings.width), clamp(settings.height));
    let mut rng = rng::Rng::new(settings.seed);
    match settings.kind {
        GeneratorKind::RandomTerrain => roulette::random_terrain(w, h, &settings.weights, &mut rng),
        GeneratorKind::Maze => maze::maze(w, h, &mut rng),
        GeneratorKind::Rooms => rooms::rooms(w, h, &mut rng),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::markers::far_apart_cells;

    #[test]
    fn same_seed_same_map_and_markers_are_connected() {
        for kind in GeneratorKind::ALL {
            for (seed, w, h) in [(1, 8, 8), (42, 64, 48), (7, 31, 97), (9, 512, 512)] {
                let s = GeneratorSettings {
                    kind,
                    seed,
                    width: w,
                    height: h,
                    ..Default::default()
                };
                let a = generate(&s);
                assert_eq!(a, generate(&s), "{kind:?} seed {seed} is not reproducible");
                assert_eq!((a.width(), a.height()), (w, h));
                let other = generate(&GeneratorSettings {
                    seed: seed + 1,
                    ..s.clone()
                });
                assert_ne!(
                    a,
                    other,
                    "{kind:?}: seeds {seed} and {} gave the same map",
                    seed + 1
                );
                let (start, goal) = far_apart_cells(&a);
                assert!(
                    a.is_passable(start) && a.is_passable(goal),
                    "{kind:?} {w}x{h}"
                );
                let found =
                    gridpath::find_path(&a, start, goal, &Default::default()).expect("valid");
                assert!(
                    found.path.is_some(),
                    "{kind:?} {w}x{h} seed {seed}: markers not connected"
                );
                assert_ne!(start, goal, "{kind:?} {w}x{h}: markers not apart");
            }
        }
    }

    #[test]
    fn sizes_are_clamped() {
        let s = GeneratorSettings {
            width: 2,
            height: 4000,
            ..Default::default()
        };
        let g = generate(&s);
        assert_eq!((g.width(), g.height()), (8, 512));
    }
}
