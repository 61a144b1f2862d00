//! The app's pictures, drawn in code: the tile atlas and the marker discs. Generating them keeps
//! the app free of asset files it could fail to find, and makes each look easy to tweak.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// Pixels per tile side in the atlas.
pub const TILE_PX: u32 = 16;

/// The tiles of the atlas, in order: the tile texture index is the position here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileLook {
    Floor = 0,
    Wall = 1,
}

pub const TILE_LOOKS: [TileLook; 2] = [TileLook::Floor, TileLook::Wall];

type Rgba = [u8; 4];

fn pixel(look: TileLook, x: u32, y: u32) -> Rgba {
    match look {
        TileLook::Floor => [222, 216, 200, 255],
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
    let count = TILE_LOOKS.len() as u32;
    let (w, h) = (TILE_PX * count, TILE_PX);
    let mut data = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let look = TILE_LOOKS[(x / TILE_PX) as usize];
            data.extend_from_slice(&pixel(look, x % TILE_PX, y));
        }
    }
    image(w, h, data)
}

/// A filled disc of `fill` with a white rim, on transparent ground: a marker.
pub fn marker_disc(fill: Rgba) -> Image {
    let size = 32u32;
    let r = size as f32 / 2.0;
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let d = Vec2::new(x as f32 + 0.5 - r, y as f32 + 0.5 - r).length();
            let px = if d > r - 0.5 {
                [0, 0, 0, 0]
            } else if d > r - 4.0 {
                [255, 255, 255, 255]
            } else {
                fill
            };
            data.extend_from_slice(&px);
        }
    }
    image(size, size, data)
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
