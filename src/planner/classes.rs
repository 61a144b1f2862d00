//! The unit classes view: the way from the start to the goal for four kinds of unit on one map,
//! side by side, as the comparison does for algorithms. The map's ground is each cell's terrain
//! (road, grass, mud, water: [`crate::world::terrain::Ground::terrain`]); each class says which
//! it may enter and at what factor, registered in the plugin's [`UnitClasses`] and asked with
//! [`PathService::search_now_as`], exactly as a game asks.

use super::query::PlanQuery;
use super::settings::PlanSystems;
use crate::world::terrain::Ground;
use bevy::prelude::*;
use bevy_gridpath::{ClassId, PathRequest, PathService, UnitClasses};
use gridpath::{Path, Point, QueryError, Search, SearchConfig, UnitClass};

/// The four classes, in the panel's order: their names and what they may enter.
pub const CLASSES: [(&str, &str); 4] = [
    (
        "Walker",
        "every ground at its own cost, wading through water",
    ),
    ("Soldier", "no water; mud costs it twice"),
    ("Tank", "road and grass only"),
    ("Boat", "water only"),
];

fn class(name: &str) -> UnitClass {
    let (water, mud) = (Ground::Water.terrain(), Ground::Mud.terrain());
    match name {
        "Soldier" => UnitClass::new().without(water).with_cost(mud, 2),
        "Tank" => UnitClass::new().without(water).without(mud),
        "Boat" => UnitClass::closed().with_cost(water, 1),
        _ => UnitClass::new(),
    }
}

/// The panel's switch.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassesSettings {
    pub enabled: bool,
}

/// Each class's answer for the current query, in [`CLASSES`] order.
#[derive(Resource, Clone, Debug, Default)]
pub struct ClassRoutes {
    pub routes: Vec<ClassRoute>,
}

/// One class's way, or why it has none.
#[derive(Clone, Debug)]
pub struct ClassRoute {
    pub name: &'static str,
    pub route: Result<Path, String>,
    pub expanded: usize,
}

/// The classes' ids in [`UnitClasses`], registered at startup.
#[derive(Resource, Clone, Debug, Default)]
struct ClassIds(Vec<ClassId>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ClassesSettings>()
        .init_resource::<ClassRoutes>()
        .init_resource::<ClassIds>()
        .add_systems(Startup, register_classes)
        .add_systems(Update, route_each_class.in_set(PlanSystems::Search));
}

fn register_classes(mut classes: ResMut<UnitClasses>, mut ids: ResMut<ClassIds>) {
    ids.0 = CLASSES
        .iter()
        .map(|(name, _)| classes.add(*name, class(name)))
        .collect();
}

/// Routes every class again when the query, the map or the switch changes.
#[allow(clippy::too_many_arguments)]
fn route_each_class(
    settings: Res<ClassesSettings>,
    query: PlanQuery,
    classes: Res<UnitClasses>,
    ids: Res<ClassIds>,
    mut service: ResMut<PathService>,
    mut routes: ResMut<ClassRoutes>,
    mut search: Local<Search>,
    mut made_for: Local<Option<(Point, Point, SearchConfig, u64)>>,
) {
    let Some(nav) = query.nav().filter(|_| settings.enabled) else {
        if !routes.routes.is_empty() {
            routes.routes.clear();
            *made_for = None;
        }
        return;
    };
    let config = SearchConfig {
        record_trace: false,
        ..query
            .settings()
            .search
            .with_algorithm(gridpath::Algorithm::AStar)
    };
    let key = (query.start(), query.goal(), config, nav.revision());
    if *made_for == Some(key) {
        return;
    }
    *made_for = Some(key);
    routes.routes = CLASSES
        .iter()
        .zip(&ids.0)
        .map(|(&(name, _), &id)| {
            let request = PathRequest::new(query.start(), query.goal())
                .with_config(config)
                .with_class(id);
            let answer = service.search_now_as(nav, &classes, &request, &mut search);
            let expanded = search.expanded();
            let route = match answer {
                Ok(route) => Ok(Path {
                    cost: route.cost(),
                    cells: route.cells,
                    partial: route.partial,
                }),
                Err(failed) => Err(match failed.refusal() {
                    Some(QueryError::StartClosed(p)) => format!("may not stand on the start {p}"),
                    Some(QueryError::GoalClosed(p)) => format!("may not enter the goal {p}"),
                    _ => failed.reason.to_string(),
                }),
            };
            ClassRoute {
                name,
                route,
                expanded,
            }
        })
        .collect();
}
