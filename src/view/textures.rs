//! The app's pictures, drawn in code: the tile atlas and the marker discs. Generating them keeps
//! the app free of asset files it could fail to find, and makes each look easy to tweak.

use crate::view::palette;
use crate::world::terrain::Ground;
use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// Pixels per tile side in the atlas.
pub const TILE_PX: u32 = 16;

/// The tiles of the atlas, in order: the tile texture index is the position here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileLook {
    Road = 0,
    Grass = 1,
    Mud = 2,
    Water = 3,
    Wall = 4,
}

pub const TILE_LOOKS: [TileLook; 5] = [
    TileLook::Road,
    TileLook::Grass,
    TileLook::Mud,
    TileLook::Water,
    TileLook::Wall,
];

impl TileLook {
    pub fn of_ground(ground: Ground) -> Self {
        match ground {
            Ground::Road => TileLook::Road,
            Ground::Grass => TileLook::Grass,
            Ground::Mud => TileLook::Mud,
            Ground::Water => TileLook::Water,
        }
    }
}

type Rgba = [u8; 4];

fn shade([r, g, b]: [u8; 3], factor: f32) -> Rgba {
    let f = |c: u8| (f32::from(c) * factor).clamp(0.0, 255.0) as u8;
    [f(r), f(g), f(b), 255]
}

/// A cheap, repeatable per-pixel hash for texture speckle.
fn noise(x: u32, y: u32, salt: u32) -> u32 {
    let mut h = x.wrapping_mul(374_761_393)
        ^ y.wrapping_mul(668_265_263)
        ^ salt.wrapping_mul(2_147_483_647);
    h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
    h ^ (h >> 16)
}

fn pixel(look: TileLook, x: u32, y: u32) -> Rgba {
    match look {
        TileLook::Road => shade(palette::ground(Ground::Road), 1.0),
        TileLook::Grass => {
            // Blades: short darker strokes on a green field.
            let blade = noise(x / 2, y, 1).is_multiple_of(7);
            shade(
                palette::ground(Ground::Grass),
                if blade { 0.78 } else { 1.0 },
            )
        }
        TileLook::Mud => {
            let blotch = noise(x / 3, y / 3, 2).is_multiple_of(4);
            shade(
                palette::ground(Ground::Mud),
                if blotch { 0.82 } else { 1.0 },
            )
        }
        TileLook::Water => {
            // Ripples: light dashes on two rows.
            let ripple = (y % 8 == 3 && (x + 2) % 8 < 4) || (y % 8 == 7 && (x + 6) % 8 < 4);
            shade(
                palette::ground(Ground::Water),
                if ripple { 1.25 } else { 1.0 },
            )
        }
        TileLook::Wall => {
            // Bricks: mortar every 4 rows, joints every 8 columns, offset on alternate courses.
            let course = y / 4;
            let offset = if course.is_multiple_of(2) { 0 } else { 4 };
            if y % 4 == 3 || (x + offset) % 8 == 7 {
                [44, 46, 56, 255]
            } else {
                [78, 82, 98, 255]
            }
        }
    }
}

/// One row of tiles, left to right in [`TILE_LOOKS`] order.
pub fn tile_atlas() -> Image {
    shaped_tile_atlas(UVec2::splat(TILE_PX), &[])
}

/// [`tile_atlas`] for tiles of `size` pixels, each cut to the convex polygon `corners` (in
/// pixels from the tile's centre, y up; none: the whole tile), with half a pixel to spare so
/// that neighbouring tiles meet without a seam.
pub fn shaped_tile_atlas(size: UVec2, corners: &[Vec2]) -> Image {
    let count = TILE_LOOKS.len() as u32;
    let (w, h) = (size.x * count, size.y);
    let mut data = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let (look, tx) = (TILE_LOOKS[(x / size.x) as usize], x % size.x);
            let from_centre = Vec2::new(
                tx as f32 + 0.5 - size.x as f32 / 2.0,
                size.y as f32 / 2.0 - (y as f32 + 0.5),
            );
            let mut rgba = pixel(look, tx % TILE_PX, y % TILE_PX);
            if !in_polygon(from_centre, corners, 0.5) {
                rgba = [0; 4];
            }
            data.extend_from_slice(&rgba);
        }
    }
    image(w, h, data)
}

/// Whether `p` lies in the convex polygon `corners` (in order round it), or within `margin` of
/// it; every point lies in an empty polygon.
fn in_polygon(p: Vec2, corners: &[Vec2], margin: f32) -> bool {
    let n = corners.len();
    let centre = corners.iter().copied().sum::<Vec2>() / n.max(1) as f32;
    (0..n).all(|k| {
        let (a, b) = (corners[k], corners[(k + 1) % n]);
        let normal = (b - a).perp().normalize_or_zero();
        // The side of the edge the centre is on is inside.
        let inward = if normal.dot(centre - a) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        inward * normal.dot(p - a) >= -margin
    })
}

/// A filled disc of `fill` with a white rim, on transparent ground: a marker.
pub fn marker_disc([r, g, b]: [u8; 3]) -> Image {
    disc([r, g, b, 255], [255; 4], 4.0)
}

/// A white disc with a thin dark rim, tinted by its sprite: an agent of a multi-agent plan. The
/// rim keeps neighbours apart when a crowd packs every cell.
pub fn rimmed_disc() -> Image {
    disc([255; 4], [40, 40, 40, 255], 3.0)
}

/// A 32-pixel disc of `fill` inside a rim `rim_px` wide, on transparent ground.
fn disc(fill: [u8; 4], rim: [u8; 4], rim_px: f32) -> Image {
    let size = 32u32;
    let r = size as f32 / 2.0;
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let d = Vec2::new(x as f32 + 0.5 - r, y as f32 + 0.5 - r).length();
            let px = if d > r - 0.5 {
                [0, 0, 0, 0]
            } else if d > r - rim_px {
                rim
            } else {
                fill
            };
            data.extend_from_slice(&px);
        }
    }
    image(size, size, data)
}

/// An agent: a white disc with a pointed nose towards east (+x) and a dark rim, tinted by its
/// sprite's colour and turned to where the agent heads.
pub fn agent_arrow() -> Image {
    let size = 32u32;
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    let (body, radius) = (Vec2::new(13.0, 16.0), 10.5);
    let nose = [
        Vec2::new(31.0, 16.0),
        Vec2::new(13.0, 5.5),
        Vec2::new(13.0, 26.5),
    ];
    let inside = |p: Vec2| p.distance(body) <= radius || in_triangle(p, nose[0], nose[1], nose[2]);
    for y in 0..size {
        for x in 0..size {
            let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            // A rim: inside, but a point 2 px away is outside.
            let rim = [Vec2::X, -Vec2::X, Vec2::Y, -Vec2::Y]
                .iter()
                .any(|d| !inside(p + *d * 2.0));
            let px = match (inside(p), rim) {
                (false, _) => [0, 0, 0, 0],
                (true, true) => [30, 30, 30, 255],
                (true, false) => [255, 255, 255, 255],
            };
            data.extend_from_slice(&px);
        }
    }
    image(size, size, data)
}

fn in_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool {
    let side = |u: Vec2, v: Vec2| (v - u).perp_dot(p - u);
    let (d1, d2, d3) = (side(a, b), side(b, c), side(c, a));
    (d1 >= 0.0 && d2 >= 0.0 && d3 >= 0.0) || (d1 <= 0.0 && d2 <= 0.0 && d3 <= 0.0)
}

fn image(width: u32, height: u32, data: Vec<u8>) -> Image {
    Image::new(
        Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}
