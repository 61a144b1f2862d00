//! The maps that ship with the app. They are compiled into the binary (from `assets/maps/`), so
//! the map menu works wherever the app is started from. The catalog hands out plain grids:
//! whoever wants one on screen sends it to the map loader.

use gridpath::Grid;
use gridpath::movingai::{FormatError, parse_map};

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
}

/// The shipped map called `name`, with or without its `.map`: `trap` or `trap.map`.
pub fn shipped(name: &str) -> Option<&'static ShippedMap> {
    let file = name.strip_suffix(".map").unwrap_or(name);
    SHIPPED
        .iter()
        .find(|m| m.file.strip_suffix(".map") == Some(file))
}

pub const SHIPPED: [ShippedMap; 5] = [
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
        file: "arena.map",
        about: "Moving AI benchmark map from Dragon Age: Origins (ODC-By, Moving AI Lab).",
        text: include_str!("../../assets/maps/arena.map"),
    },
];

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
    fn the_meadow_has_terrain() {
        let grid = SHIPPED[1].load().expect("meadow");
        assert!(!grid.is_uniform_cost());
    }
}
