//! `cargo bench --bench frame`: one frame's update of the playground on a 512×512 map, headless.
//!
//! The real systems run (input, editing, the planner, the nav grid, and the overlays collecting
//! their gizmos for a camera that frames the whole map beside the panel); rendering does not, as
//! there is no GPU here. Two cases: an ordinary frame, and a frame that also re-plans across the
//! map (A* from corner to corner).

use bevy::asset::AssetPlugin;
use bevy::gizmos::GizmoPlugin;
use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use criterion::{Criterion, criterion_group, criterion_main};
use pathfinder_playground::planner::{Plan, ReplanNow};
use pathfinder_playground::world::generators::{GeneratorKind, GeneratorSettings, generate};
use pathfinder_playground::world::layout::MapLayout;
use pathfinder_playground::world::map_load::{InitialMap, LoadMap};
use std::time::Duration;

/// A 1280×800 window with the 300-pixel panel, framing the whole map.
fn fitted_camera(layout: &MapLayout) -> (Camera2d, Projection, GlobalTransform) {
    let (window, panel) = (Vec2::new(1280.0, 800.0), 300.0);
    let map = layout.world_size();
    let scale = (map.x / (window.x - panel - 32.0)).max(map.y / (window.y - 32.0));
    let projection = Projection::Orthographic(OrthographicProjection {
        scale,
        area: Rect::from_center_size(Vec2::ZERO, window * scale),
        ..OrthographicProjection::default_2d()
    });
    (
        Camera2d,
        projection,
        GlobalTransform::from_xyz(-panel / 2.0 * scale, 0.0, 0.0),
    )
}

fn app_on_512() -> App {
    let settings = GeneratorSettings {
        kind: GeneratorKind::RandomTerrain,
        seed: 7,
        width: 512,
        height: 512,
        ..default()
    };
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, AssetPlugin::default()))
        // GizmoPlugin's skinned-mesh gizmos expect these asset types.
        .init_asset::<Mesh>()
        .init_asset::<bevy::mesh::skinning::SkinnedMeshInverseBindposes>()
        .add_plugins(GizmoPlugin)
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )))
        .insert_resource(InitialMap(LoadMap::new(
            settings.map_name(),
            generate(&settings),
        )))
        .add_plugins((
            pathfinder_playground::headless_plugin,
            pathfinder_playground::overlays_plugin,
        ));
    app.update();
    app.update();
    let layout = *app.world().resource::<MapLayout>();
    app.world_mut().spawn(fitted_camera(&layout));
    assert!(
        app.world().resource::<Plan>().has_path(),
        "the benchmark map must have a path"
    );
    app
}

fn frame(c: &mut Criterion) {
    let mut app = app_on_512();
    let mut group = c.benchmark_group("frame_512x512");
    group.sample_size(30);
    group.bench_function("update", |b| b.iter(|| app.update()));
    group.bench_function("update_with_replan", |b| {
        b.iter(|| {
            app.world_mut().write_message(ReplanNow);
            app.update();
        })
    });
    group.finish();
    let plan = app.world().resource::<Plan>();
    println!(
        "plan: {} cells, {} nodes expanded, {:.0} µs",
        plan.path.len(),
        plan.expanded,
        plan.micros
    );
}

criterion_group!(benches, frame);
criterion_main!(benches);
