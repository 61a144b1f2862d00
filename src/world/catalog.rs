//! The maps that ship with the app. They are compiled into the binary (from `assets/maps/`), so
//! the map menu works wherever the app is started from. The catalog hands out plain grids:
//! whoever wants one on screen sends it to the map loader.

use gridpath::Grid;
use gridpath::movingai::{
    FormatError, MapLimits, MapShape, parse_map, parse_shaped_map_with_limits,
};

pub struct ShippedMap {
    pub file: &'static str,
    pub about: &'static str,
    text: &'static str,
}

impl ShippedMap {
    /// The map's grid: walls, and the ground costs of its open cells.
    pub fn load(&self) -> Result<Grid, FormatError> {
        parse_map(self.text)
    }

    /// The map's grid and the shape of its cells.
    pub fn load_shaped(&self) -> Result<(Grid, MapShape), FormatError> {
        parse_shaped_map_with_limits(self.text, &MapLimits::DEFAULT)
    }
}

/// The shipped map called `name`, with or without its `.map`: `trap` or `trap.map`.
pub fn shipped(name: &str) -> Option<&'static ShippedMap> {
    let file = name.strip_suffix(".map").unwrap_or(name);
    SHIPPED
        .iter()
        .find(|m| m.file.strip_suffix(".map") == Some(file))
}

pub const SHIPPED: [ShippedMap; 8] = [
    ShippedMap {
        file: "rooms.map",
        about: "Nine rooms and offset doorways: the path has to bend.",
        text: include_str!("../../assets/maps/rooms.map"),
    },
    ShippedMap {
        file: "meadow.map",
        about: "A river with two bridges, mud and grass: cheap beats short.",
        text: include_str!("../../assets/maps/meadow.map"),
    },
    ShippedMap {
        file: "trap.map",
        about: "A U-shaped wall that greedy best-first walks straight into.",
        text: include_str!("../../assets/maps/trap.map"),
    },
    ShippedMap {
        file: "spiral.map",
        about: "One long spiral corridor.",
        text: include_str!("../../assets/maps/spiral.map"),
    },
    ShippedMap {
        file: "hex-ridge.map",
        about: "Hexagons: a ridge with two passes, a lake in mud, a meadow. Six neighbours, \
                each one step; A* measures with the hex distance.",
        text: include_str!("../../assets/maps/hex-ridge.map"),
    },
    ShippedMap {
        file: "arena.map",
        about: "Moving AI benchmark map from Dragon Age: Origins (ODC-By, Moving AI Lab).",
        text: include_str!("../../assets/maps/arena.map"),
    },
    ShippedMap {
        file: "random-32-32-10.map",
        about: "MAPF benchmark map: 10 % random walls; pair it with its scenario in Many agents \
                (Moving AI Lab).",
        text: include_str!("../../assets/maps/random-32-32-10.map"),
    },
    ShippedMap {
        file: "warehouse-10-20-10-2-1.map",
        about: "MAPF benchmark map: shelves in rows with aisles between (Moving AI Lab).",
        text: include_str!("../../assets/maps/warehouse-10-20-10-2-1.map"),
    },
];

/// A multi-agent benchmark scenario shipped with its map: an instance of N agents is its first N
/// lines.
pub struct ShippedScenario {
    pub map: &'static str,
    pub file: &'static str,
    pub text: &'static str,
}

pub const SHIPPED_SCENARIOS: [ShippedScenario; 1] = [ShippedScenario {
    map: "random-32-32-10.map",
    file: "random-32-32-10-random-1.scen",
    text: include_str!("../../assets/scenarios/random-32-32-10-random-1.scen"),
}];

/// The shipped scenario of the map called `map`, if there is one.
pub fn scenario_of(map: &str) -> Option<&'static ShippedScenario> {
    SHIPPED_SCENARIOS.iter().find(|s| s.map == map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_map_parses_and_has_connected_markers() {
        for map in &SHIPPED {
            let grid = map.load().unwrap_or_else(|e| panic!("{}: {e}", map.file));
            let (s, g) = crate::world::markers::far_apart_cells(&grid);
            assert_ne!(s, g, "{}", map.file);
            let found = gridpath::find_path(&grid, s, g, &Default::default()).expect("valid");
            assert!(found.path.is_some(), "{}: markers not connected", map.file);
        }
    }

    #[test]
    fn a_shipped_map_is_found_by_its_name_with_or_without_map() {
        assert_eq!(shipped("trap").map(|m| m.file), Some("trap.map"));
        assert_eq!(shipped("trap.map").map(|m| m.file), Some("trap.map"));
        assert!(shipped("maps/trap.map").is_none());
        assert!(shipped("").is_none());
    }

    #[test]
    fn each_shipped_scenario_fits_its_shipped_map() {
        for scen in &SHIPPED_SCENARIOS {
            let grid = shipped(scen.map).expect("its map").load().expect("loads");
            let scenarios = gridpath::movingai::parse_scen(scen.text).expect("parses");
            let agents = scenarios.len();
            let instance = gridpath::mapf::Instance::from_scenarios(grid, &scenarios, agents);
            assert!(instance.is_ok(), "{}: {instance:?}", scen.file);
        }
    }

    #[test]
    fn the_hex_map_is_hexagons_and_its_markers_are_joined_by_hex_moves() {
        let map = shipped("hex-ridge").expect("shipped");
        let (grid, shape) = map.load_shaped().expect("parses");
        let hex = shape.hex().expect("hexagons");
        let (s, g) = crate::world::markers::far_apart_cells(&grid);
        let config = gridpath::SearchConfig {
            movement: gridpath::Movement::Hex(hex),
            heuristic: gridpath::Heuristic::Hex,
            ..Default::default()
        };
        let found = gridpath::find_path(&grid, s, g, &config).expect("valid");
        assert!(found.path.is_some(), "markers not joined");
    }

    #[test]
    fn the_meadow_has_terrain() {
        let grid = SHIPPED[1].load().expect("meadow");
        assert!(!grid.is_uniform_cost());
    }
}
