//! The unit classes view through the real systems: the four classes registered in the plugin's
//! `UnitClasses`, each routed by `PathService::search_now_as` from the start to the goal; each
//! route keeps to what its class may enter, the boat on land says why it has none, and painting
//! water on a route makes its class go round.

use super::*;
use pathfinder_playground::planner::classes::{CLASSES, ClassRoutes, ClassesSettings};
use pathfinder_playground::world::terrain::{Ground, GroundChanged, GroundMap};

/// Mud (cost 5) across row 1 but at its ends, water (cost 9) across row 3 but at column 5.
const MAP: [&str; 5] = [
    "...........",
    ".555555555.",
    "...........",
    "99999.99999",
    "...........",
];

fn routes(app: &App) -> ClassRoutes {
    app.world().resource::<ClassRoutes>().clone()
}

fn ground(app: &mut App, p: Point) -> Ground {
    let nav = app.world().resource::<bevy_gridpath::NavGrid>();
    Ground::from_cost(nav.ground_cost(p).expect("on the map"))
}

#[test]
fn each_class_keeps_to_its_ground_and_follows_the_paint() {
    let mut app = app_on(&MAP, (0, 0), (10, 4));
    app.world_mut().resource_mut::<ClassesSettings>().enabled = true;
    app.update();
    let shown = routes(&app);
    assert_eq!(shown.routes.len(), CLASSES.len());
    let cost = |k: usize| {
        shown.routes[k]
            .route
            .as_ref()
            .map(|p| p.cost)
            .expect("a route")
    };
    let cells = |k: usize| {
        shown.routes[k]
            .route
            .as_ref()
            .expect("a route")
            .cells
            .clone()
    };
    for p in cells(1) {
        assert_ne!(ground(&mut app, p), Ground::Water, "the soldier at {p}");
    }
    for p in cells(2) {
        assert!(
            !matches!(ground(&mut app, p), Ground::Water | Ground::Mud),
            "the tank at {p}"
        );
    }
    assert!(
        cost(0) <= cost(1) && cost(0) <= cost(2),
        "the walker has every way"
    );
    let boat = shown.routes[3]
        .route
        .as_ref()
        .expect_err("the boat starts on land");
    assert!(boat.contains("(0, 0)"), "{boat}");

    // Water painted on the ford: the soldier and the tank have no way left; the walker wades.
    let ford = Point::new(5, 3);
    assert!(cells(1).contains(&ford));
    // As the terrain brush paints: the ground map, and a message for the grid to follow.
    let water = Ground::Water.cost();
    assert!(
        app.world_mut()
            .resource_mut::<GroundMap>()
            .set_cost(ford, water)
    );
    app.world_mut().write_message(GroundChanged(ford));
    for _ in 0..3 {
        app.update();
    }
    let flooded = routes(&app);
    assert!(flooded.routes[0].route.is_ok(), "the walker wades");
    assert!(flooded.routes[1].route.is_err() && flooded.routes[2].route.is_err());
}
