//! Scenes: a map and a crowd, each agent bound for a place of its own, to watch bodies queue,
//! give way and pass. Loading one replaces the map (one undo step, as any map load).
//!
//! The agents' layer, later in the frame, hears of it ([`SceneLoaded`]) and sends them to their
//! own places, as bodies.
//!
//! - **Door**: 300 agents file through a door one cell wide into the room beyond.
//! - **Corridor**: 50 against 50 head-on in a corridor one cell wide with one passing bay.
//! - **Crossing**: a crowd going east crosses a crowd going south in an open room.
//! - **Three sizes**: units of 1 × 1, 2 × 2 and 3 × 3 through a door three cells wide.
//! - **Tactics**: a hexagon map of walls and grass, the start marker a unit and four agents
//!   standing still as its enemies, with the tactics view on (its range, turns and sight).
//! - **Two floors**: the ground floor and the floor above side by side on one map, joined by
//!   links (the stairs, a lift); the start below, the goal above: the path takes the stairs.
//!
//! In the crowd scenes each agent's place is the mirror of where it starts, so every one has
//! somewhere to be and the crowds must pass through each other to get there; in the tactics
//! scene each agent's place is where it stands.

use super::agents::AgentRoster;
use crate::notices::Notices;
use crate::world::agents::OwnPlace;
use crate::world::map_load::{LoadMap, MapLoaded};
use bevy::prelude::*;
use gridpath::hex::HexLayout;
use gridpath::movingai::MapShape;
use gridpath::{Grid, Link, Point};

/// The scenes, as the panel and `--scene` name them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scene {
    #[default]
    Door,
    Corridor,
    Crossing,
    ThreeSizes,
    Tactics,
    Floors,
}

/// The tactics scene: `#` a wall, `2` grass (two points to enter), `E` an enemy, `S` the unit
/// (the start marker), `G` the goal marker. Pointy-top hexagons, odd rows shifted right.
const TACTICS: [&str; 15] = [
    "......................",
    "..S.....22.....E......",
    "........22............",
    "....###...............",
    "......#.....22...E....",
    "......#.....22........",
    "......#...............",
    "...........####.......",
    "...22....G............",
    "...22......E..........",
    "......................",
    ".........###..........",
    "....E.....#.....22....",
    "................22....",
    "......................",
];

impl Scene {
    pub const ALL: [Scene; 6] = [
        Scene::Door,
        Scene::Corridor,
        Scene::Crossing,
        Scene::ThreeSizes,
        Scene::Tactics,
        Scene::Floors,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Scene::Door => "door",
            Scene::Corridor => "corridor",
            Scene::Crossing => "crossing",
            Scene::ThreeSizes => "sizes",
            Scene::Tactics => "tactics",
            Scene::Floors => "floors",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Scene::Door => "door: 300 through one cell",
            Scene::Corridor => "corridor: 50 against 50",
            Scene::Crossing => "crossing: crowd across crowd",
            Scene::ThreeSizes => "three sizes through a door",
            Scene::Tactics => "tactics: a unit and its enemies on hexagons",
            Scene::Floors => "two floors joined by stairs and a lift",
        }
    }

    pub fn parse(key: &str) -> Option<Scene> {
        Scene::ALL.into_iter().find(|s| s.key() == key.trim())
    }

    /// The shape of its cells.
    pub fn shape(self) -> MapShape {
        match self {
            Scene::Tactics => MapShape::Hex(HexLayout::RowOdd),
            _ => MapShape::Octile,
        }
    }

    /// Where its markers go: the tactics scene's `S` and `G`; else out of the way, in the
    /// corners.
    fn markers(self, grid: &Grid) -> (Point, Point) {
        let find = |marker: char| {
            TACTICS.iter().enumerate().find_map(|(y, row)| {
                let x = row.find(marker)?;
                Some(Point::new(x as i32, y as i32))
            })
        };
        match (self, find('S'), find('G')) {
            (Scene::Tactics, Some(start), Some(goal)) => (start, goal),
            (Scene::Floors, ..) => (Point::new(2, 15), Point::new(FLOOR + 3 + 14, 2)),
            _ => {
                let corner = Point::new(grid.width() as i32 - 1, grid.height() as i32 - 1);
                (Point::new(0, 0), corner)
            }
        }
    }

    /// The map (text rows, `#` a wall) and the agents: where each starts, its size, and its place.
    fn build(self) -> (Vec<String>, Vec<(Point, u8, Point)>) {
        let p = Point::new;
        match self {
            Scene::Tactics => {
                let mut enemies = Vec::new();
                let rows = TACTICS
                    .iter()
                    .enumerate()
                    .map(|(y, row)| {
                        for x in row.match_indices('E').map(|(x, _)| x) {
                            let at = p(x as i32, y as i32);
                            enemies.push((at, 1, at));
                        }
                        row.replace(['E', 'S', 'G'], ".")
                    })
                    .collect();
                (rows, enemies)
            }
            Scene::Floors => (two_floors(), Vec::new()),
            Scene::Door => {
                let rows = room_with_wall(41, 30, 20, 15..=15);
                let agents = (0..300)
                    .map(|i| {
                        let at = p(i % 15, i / 15 + 5);
                        (at, 1, p(40 - at.x, at.y))
                    })
                    .collect();
                (rows, agents)
            }
            Scene::Corridor => {
                let rows = (0..9)
                    .map(|y| {
                        let corridor = match y {
                            4 => "....................",
                            3 => "#########.##########",
                            _ => "####################",
                        };
                        format!("{}{corridor}{}", ".".repeat(10), ".".repeat(10))
                    })
                    .collect();
                let mut agents = Vec::new();
                for i in 0..50 {
                    let (x, y) = (i % 10, i / 10 + 2);
                    agents.push((p(x, y), 1, p(39 - x, y)));
                    agents.push((p(39 - x, y), 1, p(x, y)));
                }
                (rows, agents)
            }
            Scene::Crossing => {
                let rows = room_with_wall(40, 40, -1, 0..=0);
                let mut agents = Vec::new();
                for i in 0..100 {
                    let (a, b) = (i % 10, i / 10);
                    agents.push((p(a, 15 + b), 1, p(39 - a, 15 + b)));
                    agents.push((p(15 + a, b), 1, p(15 + a, 39 - b)));
                }
                (rows, agents)
            }
            Scene::ThreeSizes => {
                let rows = room_with_wall(41, 30, 20, 13..=15);
                let mirror = |at: Point, k: i32| p(41 - k - at.x, at.y);
                let mut agents = Vec::new();
                for i in 0..5 {
                    let at = p(1 + 4 * (i % 3), 1 + 4 * (i / 3));
                    agents.push((at, 3, mirror(at, 3)));
                }
                for i in 0..12 {
                    let at = p(1 + 3 * (i % 6), 10 + 3 * (i / 6));
                    agents.push((at, 2, mirror(at, 2)));
                }
                for i in 0..100 {
                    let at = p(i % 17, 17 + i / 17);
                    agents.push((at, 1, mirror(at, 1)));
                }
                (rows, agents)
            }
        }
    }
}

/// The width of each floor of the two-floor scene; the floor above starts 3 cells to its right.
const FLOOR: i32 = 17;

impl Scene {
    /// The scene's links: for the two floors, the stairs (each floor's south-west corner to the
    /// other's, 4 to climb) and a lift (north-east corners, 8 to ride, one way up).
    fn links(self) -> Vec<Link> {
        let above = |p: Point| Point::new(p.x + FLOOR + 3, p.y);
        match self {
            Scene::Floors => vec![
                Link::new(Point::new(1, 16), above(Point::new(1, 16)), 4),
                Link::new(Point::new(15, 1), above(Point::new(15, 1)), 8).one_way(),
            ],
            _ => Vec::new(),
        }
    }
}

/// The two-floor scene's map: two floors of [`FLOOR`] × 18 with rooms (the floor above is the
/// ground floor turned upside down), and a void three cells wide between them.
fn two_floors() -> Vec<String> {
    let floor = |y: usize| match y {
        6 => "########..#######",
        12 => "#######..########",
        _ if (7..12).contains(&y) => ".......#.........",
        _ => ".................",
    };
    (0..18)
        .map(|y| format!("{}###{}", floor(y), floor(17 - y)))
        .collect()
}

/// A room of `width × height` with a wall down `x = wall` (none if negative), open where `y` is
/// in `door`.
fn room_with_wall(
    width: usize,
    height: usize,
    wall: i32,
    door: std::ops::RangeInclusive<usize>,
) -> Vec<String> {
    (0..height)
        .map(|y| {
            let mut row = ".".repeat(width);
            if wall >= 0 && !door.contains(&y) {
                let x = wall as usize;
                row.replace_range(x..x + 1, "#");
            }
            row
        })
        .collect()
}

/// Load this scene (the panel's Scenes picker, or `--scene`).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadScene(pub Scene);

/// A scene's crowd was spawned: its agents have places of their own to go to.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneLoaded(pub Scene);

/// The scene whose map is loading: its agents come once it is up.
#[derive(Resource, Clone, Copy, Debug)]
pub(super) struct PendingScene(Scene);

/// Asks for the scene's map; its agents follow when it has loaded.
pub(super) fn load_scenes(
    mut requests: MessageReader<LoadScene>,
    mut load: MessageWriter<LoadMap>,
    mut notices: ResMut<Notices>,
    mut commands: Commands,
) {
    let Some(&LoadScene(scene)) = requests.read().last() else {
        return;
    };
    let (rows, agents) = scene.build();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    match Grid::from_ascii(&rows) {
        Ok(mut grid) => {
            for link in scene.links() {
                // Laid out inside the scene's own map: both ends are on it.
                let _ = grid.add_link(link);
            }
            let markers = scene.markers(&grid);
            let mut request = LoadMap::new(format!("scene: {}", scene.key()), grid);
            request.markers = Some(markers);
            request.shape = scene.shape();
            load.write(request);
            commands.insert_resource(PendingScene(scene));
            let agents = match scene {
                Scene::Floors => {
                    "the start below, the goal above: the path takes the stairs (violet); \
                     draw more with the Links tool"
                        .to_owned()
                }
                Scene::Tactics => format!(
                    "the start is a unit with {} enemies round it; drag the goal",
                    agents.len()
                ),
                _ => format!("{} agents, each bound for a place of its own", agents.len()),
            };
            notices.info(format!("Scene \"{}\": {agents}.", scene.label()));
        }
        // The scenes are built in code, and a test loads each: only a broken build gets here.
        Err(e) => notices.warn(format!("Scene {} could not be built: {e}", scene.key())),
    }
}

/// Once the scene's map is up (after the agents of the old map are cleared), its agents.
pub(super) fn spawn_scene_agents(
    mut loads: MessageReader<MapLoaded>,
    pending: Option<Res<PendingScene>>,
    mut roster: ResMut<AgentRoster>,
    mut loaded: MessageWriter<SceneLoaded>,
    mut commands: Commands,
) {
    let (Some(pending), true) = (pending, loads.read().count() > 0) else {
        return;
    };
    let (_, agents) = pending.0.build();
    for (at, size, place) in agents {
        let seed = roster.seed_at(at, size);
        let entity = seed.spawn(&mut commands);
        commands.entity(entity).insert(OwnPlace(place));
    }
    loaded.write(SceneLoaded(pending.0));
    commands.remove_resource::<PendingScene>();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scene_builds_and_every_agent_fits_at_both_ends_apart_from_the_others() {
        for scene in Scene::ALL {
            let (rows, agents) = scene.build();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let grid = Grid::from_ascii(&rows).expect("a map");
            for pick in [|a: &(Point, u8, Point)| a.0, |a: &(Point, u8, Point)| a.2] {
                let mut covered = std::collections::HashSet::new();
                for agent in &agents {
                    let (at, k) = (pick(agent), i32::from(agent.1));
                    for dy in 0..k {
                        for dx in 0..k {
                            let c = Point::new(at.x + dx, at.y + dy);
                            assert!(grid.is_passable(c), "{scene:?}: {c} is a wall");
                            assert!(covered.insert(c), "{scene:?}: two agents on {c}");
                        }
                    }
                }
            }
            assert_eq!(Scene::parse(scene.key()), Some(scene));
        }
    }
}
