//! The explored overlay: each expanded cell's tile is tinted, by the order in which the search
//! expanded it or by its cost from the start. Tinting the tiles, rather than drawing a box per
//! cell, costs the same at any zoom and on any map size. While the flow field is shown, the tint
//! is its heat map instead: every cell by its cost to the goal.

use crate::frame::AppSystems;
use crate::lifelong::LifelongScene;
use crate::mapf::ShownPlan;
use crate::planner::flow::GoalField;
use crate::planner::shown::{ShownSearch, ShownSource};
use crate::view::overlays::{ExploredColoring, OverlaySettings};
use crate::view::palette::{COST_RAMP, FLOW_RAMP, ORDER_RAMP, ramp};
use crate::view::tilemap::{TileSystems, tile_entity};
use crate::world::layout::MapLayout;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use gridpath::Point;

/// Above this many explored cells, a stepping search is re-tinted at most every 0.1 s.
const THROTTLE_CELLS: usize = 20_000;

#[derive(Default)]
struct Tinted {
    cells: Vec<Point>,
    seen: Option<(u64, bool, ExploredColoring, Option<u64>)>,
    at: f64,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        tint_explored.in_set(AppSystems::Draw).after(TileSystems),
    );
}

fn tint_explored(
    shown: Res<ShownSearch>,
    goal_field: Res<GoalField>,
    settings: Res<OverlaySettings>,
    plan: Res<ShownPlan>,
    lifelong: Res<LifelongScene>,
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
    let flow = goal_field.enabled.then_some(goal_field.revision);
    // A multi-agent plan or a lifelong run on screen hides the one search's explored cells.
    let explored = settings.explored && plan.0.is_none() && lifelong.0.is_none();
    let key = (shown.revision, explored, settings.explored_coloring, flow);
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
    if goal_field.enabled {
        let max = goal_field.max_cost.max(f64::EPSILON);
        for i in 0..layout.width as usize * layout.height as usize {
            let p = Point::new(
                (i % layout.width as usize) as i32,
                (i / layout.width as usize) as i32,
            );
            if let Some(cost) = goal_field.field.cost(p) {
                paint(p, ramp(&FLOW_RAMP, (cost / max) as f32));
                tinted.cells.push(p);
            }
        }
        return;
    }
    if !explored {
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
