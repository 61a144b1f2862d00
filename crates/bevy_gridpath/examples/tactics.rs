//! Turn-based tactics on hexagons: movement range, routes split into turns, zones of control and
//! sight.
//!
//! Click one of your units (blue) to select it. The plugin answers its `RangeRequest` (every
//! hexagon it can reach in two turns of 4 movement points, forest costing 2) and its
//! `SightRequest` (what it sees), and the debug plugin draws both: outlines for the range, dots
//! for sight. Hover a hexagon in range to see the route there, a ring where each turn ends. The
//! enemies (red) close their hexagons and hold the six round them: a move that enters one ends
//! there, so the range stops at an enemy's side. Click a hexagon in range to move there; the
//! range and sight follow the unit, and the map's walls (grey) block both.
//!
//! `cargo run --example tactics` (from the workspace root)

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_gridpath::gridpath::hex::HexLayout;
use bevy_gridpath::prelude::*;
use bevy_gridpath::{Answer, TacticsGizmos};

/// Movement points a turn; a range covers two turns.
const POINTS: f64 = 4.0;
/// `#` wall, `f` forest (2 points to enter), `B` your unit, `R` an enemy.
const MAP: [&str; 11] = [
    "...............",
    "..B....ff......",
    ".......ff..R...",
    "...###.........",
    ".....#...ff....",
    "..B..#...ff.R..",
    ".....#.........",
    "..........###..",
    "....ff.........",
    "..B.ff....R....",
    "...............",
];

#[derive(Component)]
struct Unit {
    at: Point,
    enemy: bool,
}

#[derive(Component)]
struct Selected;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, GridPathPlugin, GridPathDebugPlugin))
        .insert_resource(DebugColors {
            grid: Color::srgba(1.0, 1.0, 1.0, 0.3), // the map's hexagons, plainly
            ..default()
        })
        .add_systems(Startup, spawn_level)
        .add_systems(PostStartup, show_the_grid)
        .add_systems(Update, (click, draw_forest_and_route))
        .run();
}

/// The hexagon layout: pointy-top hexagons 48 pixels across, odd rows shifted right, row 0 at
/// the top, the map centred on the origin (rows are three quarters of a hexagon's height apart).
fn layout() -> GridLayout {
    let (w, h) = (MAP[0].len() as f32, MAP.len() as f32);
    let step = Vec2::new(48.0, -48.0 * 2.0 / 3f32.sqrt());
    let origin = Vec2::new(-(w - 0.5) * step.x / 2.0, -(h - 1.0) * 0.75 * step.y / 2.0);
    GridLayout::hex(origin, step, HexLayout::RowOdd)
}

/// The grid's lines are off by default (busy on big maps); this map is small. After `Startup`,
/// where the debug plugin switches them off.
fn show_the_grid(mut store: ResMut<GizmoConfigStore>) {
    store.config_mut::<NavGridGizmos>().0.enabled = true;
}

fn spawn_level(mut commands: Commands) {
    commands.spawn(Camera2d);
    let layout = layout();
    let nav = NavGrid::new(MAP[0].len() as u32, MAP.len() as u32).expect("a small grid");
    commands.insert_resource(nav.with_layout(layout));
    for (y, row) in MAP.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            let at = Point::new(x as i32, y as i32);
            match c {
                b'#' => drop(commands.spawn((Obstacle, CellPos(at)))),
                b'f' => drop(commands.spawn((CellCost(2), CellPos(at)))),
                b'B' | b'R' => {
                    let enemy = c == b'R';
                    let color = if enemy {
                        Color::srgb(0.9, 0.25, 0.2)
                    } else {
                        Color::srgb(0.25, 0.5, 1.0)
                    };
                    commands.spawn((
                        Unit { at, enemy },
                        Sprite::from_color(color, Vec2::splat(24.0)),
                        Transform::from_translation(layout.to_world(at).extend(1.0)),
                    ));
                }
                _ => {}
            }
        }
    }
}

/// The hexagon under the pointer, if any.
fn hovered(
    window: &Window,
    (camera, transform): (&Camera, &GlobalTransform),
    nav: &NavGrid,
) -> Option<Point> {
    let world = camera
        .viewport_to_world_2d(transform, window.cursor_position()?)
        .ok()?;
    let cell = nav.layout().cell_at(world);
    nav.grid().contains(cell).then_some(cell)
}

/// A click on one of your units selects it; a click on a hexagon in the selected unit's range
/// moves it there.
fn click(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    nav: Res<NavGrid>,
    mut units: Query<(
        Entity,
        &mut Unit,
        &mut Transform,
        Option<&Answer<RangeRequest>>,
    )>,
    mut commands: Commands,
) {
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(cell) = hovered(&window, *camera, &nav) else {
        return;
    };
    let movement = Movement::Hex(HexLayout::RowOdd);
    let mut chosen = None;
    for (entity, mut unit, mut transform, range) in &mut units {
        if unit.at == cell && !unit.enemy {
            chosen = Some(entity);
        } else if range.is_some_and(|r| r.answer.cost(cell).is_some()) {
            unit.at = cell; // it walks there: its requests follow below
            transform.translation = nav.layout().to_world(cell).extend(1.0);
            chosen = Some(entity);
        }
    }
    let Some(chosen) = chosen else {
        return;
    };
    let cells = |enemy: bool| -> Vec<Point> {
        let others = units.iter().filter(|(e, ..)| *e != chosen);
        others
            .filter(|(_, u, ..)| u.enemy == enemy)
            .map(|(_, u, ..)| u.at)
            .collect()
    };
    let (enemies, friends) = (cells(true), cells(false));
    for (entity, unit, ..) in &units {
        let mut e = commands.entity(entity);
        if entity != chosen {
            e.remove::<(Selected, RangeRequest, SightRequest, Answer<RangeRequest>)>();
            e.remove::<Answer<SightRequest>>();
            continue;
        }
        let range = RangeRequest::new(unit.at, 2.0 * POINTS, movement)
            .with_enemies(enemies.clone())
            .with_closed(friends.clone());
        let sight = SightRequest {
            from: unit.at,
            radius: 6,
            movement,
        };
        e.insert((Selected, range, sight));
    }
}

/// Forest as small green hexagons; the route to the hovered hexagon, a ring where each turn ends.
fn draw_forest_and_route(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    nav: Res<NavGrid>,
    selected: Query<&Answer<RangeRequest>, With<Selected>>,
    mut gizmos: Gizmos,
    mut tactics: Gizmos<TacticsGizmos>,
) {
    let layout = nav.layout();
    for (y, row) in MAP.iter().enumerate() {
        for x in row
            .bytes()
            .enumerate()
            .filter(|(_, c)| *c == b'f')
            .map(|(x, _)| x)
        {
            let outline = layout.outline(Point::new(x as i32, y as i32), 0.45);
            gizmos.linestrip_2d(
                outline.iter().chain(outline.first()).copied(),
                Color::srgb(0.2, 0.7, 0.3),
            );
        }
    }
    let (Some(cell), Ok(range)) = (hovered(&window, *camera, &nav), selected.single()) else {
        return;
    };
    let (Some(route), Some(turns)) = (
        range.route_to(cell),
        range.turns_to(nav.grid(), cell, POINTS),
    ) else {
        return;
    };
    let white = Color::WHITE;
    tactics.linestrip_2d(route.cells.iter().map(|&p| layout.to_world(p)), white);
    for (n, turn) in turns.iter().enumerate() {
        let at = Isometry2d::from_translation(layout.to_world(route.cells[turn.at]));
        let color = if n == 0 {
            white
        } else {
            Color::srgb(1.0, 0.4, 0.8)
        };
        tactics.circle_2d(at, 16.0, color);
    }
}
