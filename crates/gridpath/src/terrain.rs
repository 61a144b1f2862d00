//! What a cell is made of, apart from what it costs: grass, mud, water, road. A grid keeps one
//! small [`Terrain`] id per cell beside its costs; a [`crate::UnitClass`] says what each terrain
//! means to one kind of unit (may it enter, at what cost). So a boat, a soldier and a tank share
//! one map, and nobody keeps a copy of it per kind of unit.
//!
//! A search without a class never reads the terrain: the layer stays out of its cache.

/// A kind of ground, a number from 0 to 255. What each number means is the game's to decide
/// (name them as constants); three are fixed by the Moving AI map format, which reads `.` and
/// `G` as [`Terrain::GROUND`], `S` as [`Terrain::SWAMP`] and `W` as [`Terrain::WATER`].
///
/// ```
/// use gridpath::{Grid, Point, Terrain};
///
/// const MUD: Terrain = Terrain(3);
/// let mut grid = Grid::new(4, 1).unwrap();
/// grid.set_terrain(Point::new(2, 0), MUD).unwrap();
/// assert_eq!(grid.terrain(Point::new(2, 0)), Some(MUD));
/// assert_eq!(grid.terrain(Point::new(0, 0)), Some(Terrain::GROUND));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Terrain(pub u8);

impl Terrain {
    /// What every cell of a new grid is.
    pub const GROUND: Terrain = Terrain(0);
    /// Moving AI's `S`: swamp, which the benchmark's units cross like ground.
    pub const SWAMP: Terrain = Terrain(1);
    /// Moving AI's `W`: water, which the benchmark's units enter only from water (see
    /// [`crate::UnitClass::moving_ai_for`]).
    pub const WATER: Terrain = Terrain(2);
    /// How many terrains there are: a class's table has one entry per terrain.
    pub const COUNT: usize = 256;
}

/// The grid's terrain ids, one per cell, and how many passable cells hold each (a class's
/// cheapest terrain on this map, and whether it costs the same everywhere, in 256 steps, not a
/// pass over the map).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct TerrainLayer {
    ids: Vec<u8>,
    counts: Box<[u32; Terrain::COUNT]>,
    /// A bit per terrain with a count above 0: a query lists the terrains present in a few
    /// instructions, not 256 (it asks on every query with a class).
    present: [u64; 4],
}

impl TerrainLayer {
    /// `len` cells of ground.
    pub(crate) fn ground(len: usize) -> Self {
        let mut counts = Box::new([0; Terrain::COUNT]);
        counts[0] = len as u32;
        Self {
            ids: vec![0; len],
            counts,
            present: [1, 0, 0, 0],
        }
    }

    pub(crate) fn get(&self, index: usize) -> Terrain {
        Terrain(self.ids[index])
    }

    /// Sets one cell's terrain (`passable`: whether the cell is, for the counts); returns
    /// whether it changed.
    pub(crate) fn set(&mut self, index: usize, terrain: Terrain, passable: bool) -> bool {
        let old = std::mem::replace(&mut self.ids[index], terrain.0);
        if old == terrain.0 {
            return false;
        }
        if passable {
            self.uncount(old);
            self.count_one(terrain.0);
        }
        true
    }

    /// A cell became a wall (`passable` false) or floor again: its terrain leaves or rejoins
    /// the counts.
    pub(crate) fn count(&mut self, index: usize, passable: bool) {
        let terrain = self.ids[index];
        if passable {
            self.count_one(terrain);
        } else {
            self.uncount(terrain);
        }
    }

    fn count_one(&mut self, terrain: u8) {
        self.counts[terrain as usize] += 1;
        self.present[terrain as usize / 64] |= 1 << (terrain % 64);
    }

    fn uncount(&mut self, terrain: u8) {
        let count = &mut self.counts[terrain as usize];
        *count -= 1;
        if *count == 0 {
            self.present[terrain as usize / 64] &= !(1 << (terrain % 64));
        }
    }

    /// The ids, row-major: what a class's search reads.
    pub(crate) fn ids(&self) -> &[u8] {
        &self.ids
    }

    /// The terrains some passable cell holds, in order.
    pub(crate) fn present(&self) -> impl Iterator<Item = Terrain> + '_ {
        self.present.iter().enumerate().flat_map(|(word, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let bit = bits.trailing_zeros();
                    bits &= bits - 1;
                    Terrain((word as u32 * 64 + bit) as u8)
                })
            })
        })
    }
}
