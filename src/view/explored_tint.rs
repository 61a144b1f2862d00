//! The explored overlay: each expanded cell's tile is tinted, by the order in which the search
//! expanded it or by its cost from the start. Tinting the tiles, rather than drawing a box per
//! cell, costs the same at any zoom and on any map size.

use crate::AppSystems;
use crate::layout::MapLayout;
use crate::overlays::{ExploredColoring, OverlaySettings};
use crate::planner::shown::{ShownSearch, ShownSource};
use crate::tilemap::tile_entity;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use gridpath::Point;

/// Above this many explored cells, a stepping search is re-tinted at most every 0.1 s.
const THROTTLE_CELLS: usize = 20_000;

/// The colour ramps, light to dark, as linear multipliers of the tile's own colour.
pub const ORDER_RAMP: [[f32; 3]; 3] = [[0.62, 0.92, 1.0], [0.45, 0.62, 1.0], [0.72, 0.42, 0.95]];
pub const COST_RAMP: [[f32; 3]; 3] = [[1.0, 0.96, 0.55], [1.0, 0.7, 0.35], [0.95, 0.4, 0.35]];

/// The tint at `t` in 0..=1 along a ramp.
pub fn ramp(stops: &[[f32; 3]; 3], t: f32) -> Color {
    let t = t.clamp(0.0, 1.0) * 2.0;
    let (a, b, f) = if t < 1.0 {
        (stops[0], stops[1], t)
    } else {
        (stops[1], stops[2], t - 1.0)
    };
    let mix = |i: usize| a[i] + (b[i] - a[i]) * f;
    Color::srgb(mix(0), mix(1), mix(2))
}

#[derive(Default)]
struct Tinted {
    cells: Vec<Point>,
    seen: Option<(u64, bool, ExploredColoring)>,
    at: f64,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        tint_explored
            .in_set(AppSystems::Draw)
            .after(crate::tilemap::TileSystems),
    );
}

fn tint_explored(
    shown: Res<ShownSearch>,
    settings: Res<OverlaySettings>,
    layout: Option<Res<MapLayout>>,
    time: Res<Time<Real>>,
    storage: Query<&TileStorage>,
    mut colors: Query<&mut TileColor>,
    mut tinted: Local<Tinted>,
) {
    let Some(layout) = layout else { return };
    let Ok(storage) = storage.single() else {
        return;
    };
    let key = (
        shown.revision,
        settings.explored,
        settings.explored_coloring,
    );
    let now = time.elapsed_secs_f64();
    let busy = shown.source == ShownSource::Stepping && shown.explored.len() > THROTTLE_CELLS;
    if tinted.seen == Some(key) || (busy && now - tinted.at < 0.1) {
        return;
    }
    if layout.is_changed() {
        tinted.cells.clear(); // a new tilemap starts untinted
    }
    tinted.seen = Some(key);
    tinted.at = now;
    let mut paint = |p: Point, color: Color| {
        if let Some(mut c) = tile_entity(storage, &layout, p).and_then(|e| colors.get_mut(e).ok())
            && c.0 != color
        {
            c.0 = color;
        }
    };
    for p in tinted.cells.drain(..) {
        paint(p, Color::WHITE);
    }
    if !settings.explored {
        return;
    }
    let n = shown.explored.len().max(2) as f32 - 1.0;
    let max_g = shown
        .explored
        .iter()
        .map(|(_, g)| *g)
        .fold(0.0f32, f32::max)
        .max(f32::EPSILON);
    for (i, &(p, g)) in shown.explored.iter().enumerate() {
        let color = match settings.explored_coloring {
            ExploredColoring::Order => ramp(&ORDER_RAMP, i as f32 / n),
            ExploredColoring::Cost => ramp(&COST_RAMP, g / max_g),
        };
        paint(p, color);
        tinted.cells.push(p);
    }
}
