//! Random terrain by roulette-wheel selection.
//!
//! Give each tile kind a weight, and picture a wheel whose slices are as wide as the weights.
//! Spin it once per cell: a kind with weight 6 comes up twice as often as one with weight 3. That
//! is roulette-wheel selection, a staple of procedural content. One smoothing pass then lets each
//! cell take the most common kind around it, which turns speckle into fields and ponds while
//! keeping the rarer kinds.

use super::rng::Rng;
use super::solid::solid;
use crate::world::terrain::Ground;
use gridpath::{Cell, Grid, Point};

/// How often each kind of tile comes up. Zero removes a kind; all zero gives open road.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub wall: u32,
    pub road: u32,
    pub grass: u32,
    pub mud: u32,
    pub water: u32,
}

impl Default for Weights {
    fn default() -> Self {
        Self {
            wall: 18,
            road: 40,
            grass: 25,
            mud: 10,
            water: 7,
        }
    }
}

/// What a cell can become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tile {
    Wall,
    Ground(Ground),
}

impl Tile {
    fn cell(self) -> Cell {
        match self {
            Tile::Wall => Cell::Blocked,
            Tile::Ground(g) => Cell::Passable(g.cost()),
        }
    }
}

/// Spins the wheel: returns the slice that `0 ≤ r < total weight` lands in.
fn spin(wheel: &[(Tile, u32)], mut r: u32) -> Tile {
    for &(tile, weight) in wheel {
        if r < weight {
            return tile;
        }
        r -= weight;
    }
    Tile::Ground(Ground::Road)
}

pub fn random_terrain(width: u32, height: u32, weights: &Weights, rng: &mut Rng) -> Grid {
    let wheel = [
        (Tile::Wall, weights.wall),
        (Tile::Ground(Ground::Road), weights.road),
        (Tile::Ground(Ground::Grass), weights.grass),
        (Tile::Ground(Ground::Mud), weights.mud),
        (Tile::Ground(Ground::Water), weights.water),
    ];
    let total: u32 = wheel.iter().map(|&(_, w)| w).sum();
    let (w, h) = (width as usize, height as usize);
    let mut tiles: Vec<Tile> = (0..w * h)
        .map(|_| {
            if total == 0 {
                Tile::Ground(Ground::Road)
            } else {
                spin(&wheel, rng.below(total))
            }
        })
        .collect();
    tiles = smooth(&tiles, w, h);
    let mut grid = solid(width, height);
    for (i, tile) in tiles.iter().enumerate() {
        let _ = grid.set(Point::new((i % w) as i32, (i / w) as i32), tile.cell());
    }
    grid
}

/// Each cell takes the most common tile in its 3×3 neighbourhood (its own on a tie).
fn smooth(tiles: &[Tile], w: usize, h: usize) -> Vec<Tile> {
    let mut out = tiles.to_vec();
    for y in 0..h {
        for x in 0..w {
            let mut counts: [(Tile, u32); 9] = [(Tile::Wall, 0); 9];
            let mut kinds = 0;
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    let t = tiles[ny * w + nx];
                    match counts[..kinds].iter_mut().find(|(k, _)| *k == t) {
                        Some((_, n)) => *n += 1,
                        None => {
                            counts[kinds] = (t, 1);
                            kinds += 1;
                        }
                    }
                }
            }
            let own = tiles[y * w + x];
            let own_count = counts[..kinds]
                .iter()
                .find(|(k, _)| *k == own)
                .map_or(0, |c| c.1);
            let (best, n) = counts[..kinds]
                .iter()
                .copied()
                .max_by_key(|&(_, n)| n)
                .unwrap_or((own, 0));
            out[y * w + x] = if n > own_count { best } else { own };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wheel_follows_the_weights() {
        let wheel = [(Tile::Wall, 1), (Tile::Ground(Ground::Grass), 3)];
        let walls = (0..4).filter(|&r| spin(&wheel, r) == Tile::Wall).count();
        assert_eq!(walls, 1);
        // Over many spins the shares match the weights.
        let mut rng = Rng::new(3);
        let n = 40_000;
        let grass = (0..n)
            .filter(|_| spin(&wheel, rng.below(4)) != Tile::Wall)
            .count();
        assert!((grass as f64 / n as f64 - 0.75).abs() < 0.01);
    }

    #[test]
    fn zero_weights_remove_a_kind() {
        let weights = Weights {
            wall: 0,
            road: 1,
            grass: 0,
            mud: 0,
            water: 1,
        };
        let grid = random_terrain(32, 32, &weights, &mut Rng::new(5));
        for i in 0..grid.len() {
            let cell = grid.cell(grid.point_of(i));
            assert!(matches!(cell, Some(Cell::Passable(1 | 10))), "{cell:?}");
        }
        let nothing = Weights {
            wall: 0,
            road: 0,
            grass: 0,
            mud: 0,
            water: 0,
        };
        let grid = random_terrain(8, 8, &nothing, &mut Rng::new(5));
        assert!(grid.is_uniform_cost());
    }
}
