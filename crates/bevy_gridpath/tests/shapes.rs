//! Tilemaps of every shape: the nav grid's cells where bevy_ecs_tilemap draws its tiles, and
//! the plugin's real systems (headless, a manual clock of 50 ms a frame) on a hex map.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_ecs_tilemap::prelude::*;
use bevy_gridpath::prelude::*;
use bevy_gridpath::tilemap::{TilemapGridError, movement_for};
use bevy_gridpath::{AgentProgress, CellShape};
use std::time::Duration;

/// Every map type bevy_ecs_tilemap draws that the nav grid places.
fn placed_types() -> Vec<TilemapType> {
    let mut types = vec![
        TilemapType::Square,
        TilemapType::Isometric(IsoCoordSystem::Diamond),
    ];
    for system in [
        HexCoordSystem::RowEven,
        HexCoordSystem::RowOdd,
        HexCoordSystem::ColumnEven,
        HexCoordSystem::ColumnOdd,
        HexCoordSystem::Row,
        HexCoordSystem::Column,
    ] {
        types.push(TilemapType::Hexagon(system));
    }
    types
}

/// A few numbers from a seed, the same every run.
fn dice(seed: &mut u64) -> f32 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (*seed >> 40) as f32 / (1u64 << 24) as f32
}

#[test]
fn cells_are_where_bevy_ecs_tilemap_draws_tiles_and_points_fall_in_the_tile_it_says() {
    let size = TilemapSize { x: 9, y: 7 };
    let grids = [
        Vec2::new(16.0, 16.0),
        Vec2::new(30.0, 26.0),
        Vec2::new(17.0, 20.0),
    ];
    let anchors = [
        TilemapAnchor::None,
        TilemapAnchor::Center,
        TilemapAnchor::TopLeft,
    ];
    let moved = Transform::from_xyz(-40.0, 25.0, 3.0);
    let mut seed = 7;
    for map_type in placed_types() {
        for grid in grids {
            for anchor in &anchors {
                let grid_size = TilemapGridSize {
                    x: grid.x,
                    y: grid.y,
                };
                let tile_size = TilemapTileSize {
                    x: grid.x,
                    y: grid.y,
                };
                let layout = GridLayout::for_tilemap(
                    &map_type, &size, &grid_size, &tile_size, anchor, &moved,
                )
                .expect("a shape the grid places");
                let at = moved.translation.truncate();
                for y in 0..size.y {
                    for x in 0..size.x {
                        let tile = TilePos { x, y };
                        let theirs = tile
                            .center_in_world(&size, &grid_size, &tile_size, &map_type, anchor)
                            + at;
                        let ours = layout.to_world(Point::new(x as i32, y as i32));
                        assert!(
                            ours.distance(theirs) < 1e-3,
                            "{map_type:?} {anchor:?} {grid}: ({x}, {y}) at {ours}, drawn at {theirs}"
                        );
                    }
                }
                // Points strewn over the map: the tile bevy_ecs_tilemap picks is ours.
                for _ in 0..400 {
                    let cell = Vec2::new(dice(&mut seed) * 9.0, dice(&mut seed) * 7.0) - 0.5;
                    let world = layout.cells_to_world(cell) + Vec2::new(dice(&mut seed), 0.0);
                    let theirs = TilePos::from_world_pos(
                        &(world - at),
                        &size,
                        &grid_size,
                        &tile_size,
                        &map_type,
                        anchor,
                    );
                    let ours = layout.cell_at(world);
                    if let Some(t) = theirs {
                        assert_eq!(
                            ours,
                            Point::new(t.x as i32, t.y as i32),
                            "{map_type:?} {anchor:?} {grid} at {world}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_staggered_map_is_refused_with_its_reason() {
    let size = TilemapSize { x: 4, y: 4 };
    let grid = TilemapGridSize { x: 16.0, y: 8.0 };
    let made = NavGrid::for_tilemap(
        &TilemapType::Isometric(IsoCoordSystem::Staggered),
        &size,
        &grid,
        &TilemapTileSize { x: 16.0, y: 8.0 },
        &TilemapAnchor::None,
        &Transform::default(),
    );
    let refused = made.expect_err("refused");
    assert_eq!(refused, TilemapGridError::Staggered);
    assert!(refused.to_string().contains("staggered"), "{refused}");
}

const HEX: TilemapType = TilemapType::Hexagon(HexCoordSystem::RowOdd);
const GRID: TilemapGridSize = TilemapGridSize { x: 20.0, y: 23.0 };

/// A headless app with a 12 × 9 hex map (pointy-top, odd rows shifted) of tiles, whose nav
/// grid is made by `for_tilemap`.
fn hex_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, GridPathPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )));
    let size = TilemapSize { x: 12, y: 9 };
    let nav = NavGrid::for_tilemap(
        &HEX,
        &size,
        &GRID,
        &TilemapTileSize { x: 20.0, y: 23.0 },
        &TilemapAnchor::Center,
        &Transform::default(),
    );
    app.insert_resource(nav.expect("a hex map"));
    app.update();
    app
}

fn wall_tile(app: &mut App, x: u32, y: u32) -> Entity {
    app.world_mut().spawn((TilePos { x, y }, Obstacle)).id()
}

fn nav(app: &App) -> &NavGrid {
    app.world().resource::<NavGrid>()
}

#[test]
fn on_a_hex_tilemap_a_wall_tile_walls_its_cell_a_route_bends_round_it_and_an_agent_arrives() {
    let mut app = hex_app();
    let layout = *nav(&app).layout();
    assert_eq!(layout.shape, CellShape::Hex(gridpath_hex()));
    // A wall across the map but for its top row: the way round is over it.
    for y in 0..8 {
        wall_tile(&mut app, 6, y);
    }
    app.update();
    for y in 0..8 {
        assert!(!nav(&app).is_passable(Point::new(6, y)), "(6, {y}) walled");
    }
    let (from, to) = (Point::new(2, 2), Point::new(10, 2));
    let movement = movement_for(layout.shape, Movement::default());
    let start = Transform::from_translation(layout.to_world(from).extend(0.0));
    let agent = GridAgent {
        movement,
        ..GridAgent::new(6.0)
    };
    let agent = app.world_mut().spawn((agent, start, Destination(to))).id();
    let mut seen_route = false;
    for _ in 0..3000 {
        app.update();
        std::thread::sleep(Duration::from_millis(1));
        if let Some(route) = app.world().get::<Route>(agent) {
            let cells = &route.cells;
            assert!(cells.iter().any(|c| c.y == 8), "over the wall's end");
            for pair in cells.windows(2) {
                let touching = gridpath_hex().neighbours(pair[0]).contains(&pair[1]);
                assert!(touching, "{} → {} are not neighbours", pair[0], pair[1]);
            }
            seen_route = true;
        }
        // Checked at every frame: the agent stands on open ground, on the line between the
        // centres of the cells it walks between.
        let world = app
            .world()
            .get::<Transform>(agent)
            .expect("an agent")
            .translation
            .truncate();
        let under = layout.cell_at(world);
        assert!(
            nav(&app).is_passable(under),
            "the agent stands on a wall at {under}"
        );
        let progress = app.world().get::<AgentProgress>(agent).expect("progress");
        if let Some(at) = progress.position() {
            assert!(layout.cells_to_world(at).distance(world) < 1e-3);
        }
        if app.world().get::<AgentStatus>(agent) == Some(&AgentStatus::Arrived) {
            break;
        }
    }
    assert!(seen_route, "a route was answered");
    assert_eq!(
        app.world().get::<AgentStatus>(agent),
        Some(&AgentStatus::Arrived)
    );
    let world = app
        .world()
        .get::<Transform>(agent)
        .expect("an agent")
        .translation;
    assert!(
        world.truncate().distance(layout.to_world(to)) < 1e-3,
        "at the goal's centre"
    );
}

fn gridpath_hex() -> bevy_gridpath::gridpath::hex::HexLayout {
    bevy_gridpath::tilemap::hex_layout(HexCoordSystem::RowOdd)
}

/// Every body's cell, by entity.
fn body_cells(app: &mut App) -> Vec<(Entity, Point)> {
    let mut q = app.world_mut().query::<(Entity, &AgentProgress, &Body)>();
    q.iter(app.world())
        .filter(|(_, p, _)| p.position().is_some())
        .map(|(e, p, _)| (e, p.cell()))
        .collect()
}

#[test]
fn a_crowd_on_a_hex_tilemap_queues_through_a_door_one_body_a_cell() {
    // A wall down column 6 but for a door of two hexagons; 24 bodies on the left, each bound
    // for a cell on the right. Checked at every frame: no body on a wall, no two on one cell,
    // every move to a touching hexagon, no two swapping.
    let mut app = hex_app();
    let layout = *nav(&app).layout();
    let movement = movement_for(layout.shape, Movement::default());
    for y in (0..9).filter(|y| !(4..=5).contains(y)) {
        wall_tile(&mut app, 6, y);
    }
    app.update();
    for i in 0..24 {
        let (at, to) = (
            Point::new(i % 4, i / 4 + 1),
            Point::new(8 + i % 4, i / 4 + 1),
        );
        let start = Transform::from_translation(layout.to_world(at).extend(0.0));
        let agent = GridAgent {
            movement,
            ..GridAgent::new(4.0)
        };
        app.world_mut().spawn((agent, Body, start, Destination(to)));
    }
    let hex = gridpath_hex();
    let mut before = body_cells(&mut app);
    let mut done = false;
    for frame in 0..6000 {
        app.update();
        let after = body_cells(&mut app);
        let mut taken = std::collections::HashMap::new();
        for &(e, c) in &after {
            assert!(nav(&app).is_passable(c), "{e} on a wall at {c}");
            if let Some(other) = taken.insert(c, e) {
                panic!("{e} and {other} both on {c}");
            }
            if let Some(&(_, was)) = before.iter().find(|b| b.0 == e)
                && was != c
            {
                assert!(hex.neighbours(was).contains(&c), "{e} jumped {was} → {c}");
                let swapped = before
                    .iter()
                    .any(|&(k, k_was)| k != e && k_was == c && after.contains(&(k, was)));
                assert!(!swapped, "{e} swapped {was} ↔ {c}");
            }
        }
        before = after;
        let stats = app.world().resource::<Crowd>().stats();
        if stats.bodies == 24 && stats.arrived == 24 {
            println!("24 bodies through a hex door in {frame} frames");
            done = true;
            break;
        }
    }
    let stats = app.world().resource::<Crowd>().stats();
    assert!(done, "not all arrived: {stats:?}");
}

#[test]
fn a_unit_bigger_than_a_cell_is_refused_on_hexagons_with_the_reason() {
    let mut app = hex_app();
    let movement = movement_for(nav(&app).layout().shape, Movement::default());
    let request = PathRequest::new(Point::new(1, 1), Point::new(8, 6))
        .with_movement(movement)
        .with_size(2);
    let asker = app.world_mut().spawn(request).id();
    for _ in 0..20 {
        app.update();
    }
    let failed = app.world().get::<PathFailed>(asker).expect("refused");
    assert!(
        failed.reason.to_string().contains("hexagons"),
        "{}",
        failed.reason
    );
}
