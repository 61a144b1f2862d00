//! Units that differ: a [`UnitClass`] for each kind of unit, registered once by name, and a
//! [`ClassId`] on each request or agent that names it.
//!
//! The grid keeps one [`Terrain`] per cell ([`CellTerrain`] on a tile or an entity sets it);
//! the class says what each terrain means to its units: closed, or a cost factor. A boat, a
//! soldier and a tank share one [`crate::NavGrid`], and nobody keeps a copy of it per class.
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_gridpath::gridpath::{Terrain, UnitClass};
//! use bevy_gridpath::{ClassId, PathRequest, UnitClasses};
//! use bevy_gridpath::gridpath::Point;
//!
//! fn setup(mut classes: ResMut<UnitClasses>, mut commands: Commands) {
//!     let boat = classes.add("boat", UnitClass::closed().with_cost(Terrain::WATER, 1));
//!     commands.spawn(PathRequest::new(Point::new(1, 1), Point::new(9, 4)).with_class(boat));
//! }
//! ```

use bevy::prelude::*;
use gridpath::{Terrain, UnitClass};

/// Which registered [`UnitClass`] a request or an agent moves as. [`ClassId::DEFAULT`] (0)
/// reads the grid as it is: every terrain open at its cell's cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClassId(pub u16);

impl ClassId {
    /// The grid as it is, for units with no class.
    pub const DEFAULT: ClassId = ClassId(0);
}

/// The game's unit classes, by [`ClassId`]. The plugin inserts an empty one; add a class when
/// the game starts and keep its id. A class may be changed later ([`UnitClasses::set`]): the
/// requests started after that read the new one.
#[derive(Resource, Debug, Default)]
pub struct UnitClasses {
    classes: Vec<(String, UnitClass)>,
}

impl UnitClasses {
    /// Registers `class` under `name`; its id, to put on requests and agents.
    pub fn add(&mut self, name: impl Into<String>, class: UnitClass) -> ClassId {
        self.classes.push((name.into(), class));
        ClassId(self.classes.len().min(usize::from(u16::MAX)) as u16)
    }

    /// The class of `id`: `Ok(None)` for [`ClassId::DEFAULT`], `Err` for an id never given.
    pub fn get(&self, id: ClassId) -> Result<Option<&UnitClass>, UnknownClass> {
        match id.0 {
            0 => Ok(None),
            k => self
                .classes
                .get(usize::from(k) - 1)
                .map(|(_, class)| Some(class))
                .ok_or(UnknownClass(id)),
        }
    }

    /// Changes what class `id` means. `false` for an id never given.
    pub fn set(&mut self, id: ClassId, class: UnitClass) -> bool {
        match usize::from(id.0)
            .checked_sub(1)
            .and_then(|k| self.classes.get_mut(k))
        {
            Some(slot) => {
                slot.1 = class;
                true
            }
            None => false,
        }
    }

    /// The name `id` was registered under (`"default"` for [`ClassId::DEFAULT`]).
    pub fn name(&self, id: ClassId) -> Option<&str> {
        match id.0 {
            0 => Some("default"),
            k => self
                .classes
                .get(usize::from(k) - 1)
                .map(|(n, _)| n.as_str()),
        }
    }

    /// Every registered class with its id, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = (ClassId, &str, &UnitClass)> {
        self.classes
            .iter()
            .enumerate()
            .map(|(k, (name, class))| (ClassId(k as u16 + 1), name.as_str(), class))
    }
}

/// A [`ClassId`] that [`UnitClasses`] never gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownClass(pub ClassId);

/// The terrain of the entity's cell (its [`crate::CellPos`], or its tile): what a
/// [`UnitClass`] reads. Removing it puts the cell back to [`Terrain::GROUND`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellTerrain(pub Terrain);
