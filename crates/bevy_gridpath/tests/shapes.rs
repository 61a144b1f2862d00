//! Tilemaps of every shape: the nav grid's cells where bevy_ecs_tilemap draws its tiles, and
//! the plugin's real systems (headless, a manual clock of 50 ms a frame) on a hex map and on a
//! staggered isometric one.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_ecs_tilemap::helpers::hex_grid::neighbors::HexNeighbors;
use bevy_ecs_tilemap::helpers::square_grid::neighbors::{SQUARE_DIRECTIONS, SquareDirection};
use bevy_ecs_tilemap::prelude::*;
use bevy_gridpath::prelude::*;
use bevy_gridpath::tilemap::movement_for;
use bevy_gridpath::{AgentProgress, CellShape, CrowdGuidance, CrowdWays};
use std::time::Duration;

/// Every map type bevy_ecs_tilemap draws.
fn placed_types() -> Vec<TilemapType> {
    let mut types = vec![
        TilemapType::Square,
        TilemapType::Isometric(IsoCoordSystem::Diamond),
        TilemapType::Isometric(IsoCoordSystem::Staggered),
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
                );
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
fn a_staggered_maps_moves_are_bevy_ecs_tilemaps_neighbours() {
    // Every tile's moves, 4-way and 8-way on an open map, against `staggered_offset`.
    let size = TilemapSize { x: 6, y: 5 };
    let grid = bevy_gridpath::gridpath::Grid::new(size.x, size.y).expect("a grid");
    let sides = [
        SquareDirection::North,
        SquareDirection::East,
        SquareDirection::South,
        SquareDirection::West,
    ];
    for (square, directions) in [
        (Movement::FourWay, &sides[..]),
        // Every tile that touches, corners whatever they brush past.
        (
            Movement::EightWay(CornerRule::CutAlways),
            &SQUARE_DIRECTIONS[..],
        ),
    ] {
        let movement = movement_for(CellShape::Staggered, square);
        for y in 0..size.y {
            for x in 0..size.x {
                let tile = TilePos { x, y };
                let mut theirs: Vec<Point> = directions
                    .iter()
                    .filter_map(|d| tile.staggered_offset(d, &size))
                    .map(|t| Point::new(t.x as i32, t.y as i32))
                    .collect();
                let mut ours: Vec<Point> = movement
                    .neighbors(&grid, Point::new(x as i32, y as i32))
                    .map(|(p, _)| p)
                    .collect();
                theirs.sort_by_key(|p| (p.x, p.y));
                ours.sort_by_key(|p| (p.x, p.y));
                assert_eq!(ours, theirs, "{movement} at ({x}, {y})");
            }
        }
    }
}

const HEX: TilemapType = TilemapType::Hexagon(HexCoordSystem::RowOdd);
const STAGGERED: TilemapType = TilemapType::Isometric(IsoCoordSystem::Staggered);
const GRID: TilemapGridSize = TilemapGridSize { x: 20.0, y: 23.0 };

/// A headless app with a 12 × 9 hex map (pointy-top, odd rows shifted) of tiles, whose nav
/// grid is made by `for_tilemap`.
fn hex_app() -> App {
    tile_app(&HEX)
}

/// A headless app with a 12 × 9 map of tiles of this type.
fn tile_app(map_type: &TilemapType) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, GridPathPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )));
    let size = TilemapSize { x: 12, y: 9 };
    let nav = NavGrid::for_tilemap(
        map_type,
        &size,
        &GRID,
        &TilemapTileSize { x: 20.0, y: 23.0 },
        &TilemapAnchor::Center,
        &Transform::default(),
    );
    app.insert_resource(nav.expect("a map"));
    app.update();
    app
}

fn wall_tile(app: &mut App, x: u32, y: u32) -> Entity {
    app.world_mut().spawn((TilePos { x, y }, Obstacle)).id()
}

fn nav(app: &App) -> &NavGrid {
    app.world().resource::<NavGrid>()
}

/// Do two tiles touch, as bevy_ecs_tilemap says (its neighbour helpers)?
fn touching(map_type: &TilemapType, a: Point, b: Point) -> bool {
    let size = TilemapSize { x: 12, y: 9 };
    let tile = TilePos {
        x: a.x as u32,
        y: a.y as u32,
    };
    let b = TilePos {
        x: b.x as u32,
        y: b.y as u32,
    };
    match map_type {
        TilemapType::Hexagon(system) => {
            HexNeighbors::get_neighboring_positions(&tile, &size, system)
                .iter()
                .any(|t| *t == b)
        }
        _ => SQUARE_DIRECTIONS
            .iter()
            .any(|d| tile.staggered_offset(d, &size) == Some(b)),
    }
}

#[test]
fn on_a_hex_tilemap_a_wall_tile_walls_its_cell_a_route_bends_round_it_and_an_agent_arrives() {
    let app = hex_app();
    assert_eq!(nav(&app).layout().shape, CellShape::Hex(gridpath_hex()));
    a_route_bends_round_a_wall_and_an_agent_arrives(&HEX);
}

#[test]
fn on_a_staggered_tilemap_a_route_bends_round_a_wall_and_an_agent_arrives() {
    let app = tile_app(&STAGGERED);
    assert_eq!(nav(&app).layout().shape, CellShape::Staggered);
    a_route_bends_round_a_wall_and_an_agent_arrives(&STAGGERED);
}

fn a_route_bends_round_a_wall_and_an_agent_arrives(map_type: &TilemapType) {
    let mut app = tile_app(map_type);
    let layout = *nav(&app).layout();
    // A wall down column 6 but for one gap: the top row on hexagons; on a staggered map a row
    // inside, as (6, 8) there touches only the tiles to its right (its neighbour on the left
    // would be (5, 9), off the map).
    let gap = match map_type {
        TilemapType::Hexagon(_) => Point::new(6, 8),
        _ => Point::new(6, 4),
    };
    let walled = (0..9).filter(|&y| y != gap.y);
    for y in walled.clone() {
        wall_tile(&mut app, 6, y as u32);
    }
    app.update();
    for y in walled {
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
            assert!(cells.contains(&gap), "through the gap");
            for pair in cells.windows(2) {
                let touch = touching(map_type, pair[0], pair[1]);
                assert!(touch, "{} → {} are not neighbours", pair[0], pair[1]);
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
    let failed = app
        .world()
        .get::<PathFailed>(agent)
        .map(|f| f.reason.to_string());
    assert!(seen_route, "a route was answered: {failed:?}");
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
    a_crowd_queues_through_a_door_one_body_a_cell(&HEX, CrowdWays::Routes, CrowdGuidance::None);
}

#[test]
fn a_crowd_on_a_staggered_tilemap_queues_through_a_door_one_body_a_cell() {
    let (ways, guidance) = (CrowdWays::Routes, CrowdGuidance::None);
    a_crowd_queues_through_a_door_one_body_a_cell(&STAGGERED, ways, guidance);
}

#[test]
fn a_crowd_by_goal_tables_and_the_traffic_queues_through_a_door_on_both_shapes() {
    // On hexagons the bodies read their goals' tables; a staggered map has none, and they keep
    // their routes. The traffic on both.
    for map_type in [&HEX, &STAGGERED] {
        let (ways, guidance) = (CrowdWays::GoalTables, CrowdGuidance::Traffic);
        a_crowd_queues_through_a_door_one_body_a_cell(map_type, ways, guidance);
    }
}

fn a_crowd_queues_through_a_door_one_body_a_cell(
    map_type: &TilemapType,
    ways: CrowdWays,
    guidance: CrowdGuidance,
) {
    // A wall down column 6 but for a door of two tiles; 24 bodies on the left, each bound for a
    // cell on the right. Checked at every frame: no body on a wall, no two on one cell, every
    // move to a touching tile, no two swapping.
    let mut app = tile_app(map_type);
    let mut crowd = app.world_mut().resource_mut::<Crowd>();
    (crowd.ways, crowd.guidance) = (ways, guidance);
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
                assert!(touching(map_type, was, c), "{e} jumped {was} → {c}");
                let swapped = before
                    .iter()
                    .any(|&(k, k_was)| k != e && k_was == c && after.contains(&(k, was)));
                assert!(!swapped, "{e} swapped {was} ↔ {c}");
            }
        }
        before = after;
        let stats = app.world().resource::<Crowd>().stats();
        if stats.bodies == 24 && stats.arrived == 24 {
            println!(
                "24 bodies through a door in {frame} frames on {map_type:?} ({ways:?}, {guidance:?})"
            );
            done = true;
            break;
        }
    }
    let stats = app.world().resource::<Crowd>().stats();
    assert!(done, "not all arrived: {stats:?}");
}

#[test]
fn a_unit_bigger_than_a_cell_is_refused_on_hexagons_with_the_reason() {
    a_unit_bigger_than_a_cell_is_refused(&HEX, "hexagons");
}

#[test]
fn a_unit_bigger_than_a_cell_is_refused_on_staggered_maps_with_the_reason() {
    a_unit_bigger_than_a_cell_is_refused(&STAGGERED, "staggered");
}

fn a_unit_bigger_than_a_cell_is_refused(map_type: &TilemapType, reason: &str) {
    let mut app = tile_app(map_type);
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
        failed.reason.to_string().contains(reason),
        "{}",
        failed.reason
    );
}
