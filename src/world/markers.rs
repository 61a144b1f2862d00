//! The start and goal markers, and dragging them with the left mouse button.
//!
//! A marker's [`MarkerCell`] is the cell the planner uses: always on the map and never on a wall.
//! While the user drags, only the marker's `Transform` follows the cursor. On release the cell
//! under the cursor becomes the new `MarkerCell`, or, if that cell is not allowed, the marker
//! goes back where it was and a notice says why.

use crate::AppSystems;
use crate::layout::{MapLayout, TILE};
use crate::nav::NavGrid;
use crate::notice::Notices;
use crate::pointer::{PointerOverUi, PointerWorld};
use bevy::prelude::*;
use gridpath::Point;

/// Where the path starts.
#[derive(Component, Debug, Default)]
pub struct Start;

/// Where the path should end.
#[derive(Component, Debug, Default)]
pub struct Goal;

/// Which marker an entity is (for names in messages).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Start,
    Goal,
}

impl Marker {
    pub fn name(self) -> &'static str {
        match self {
            Marker::Start => "start",
            Marker::Goal => "goal",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Marker::Start => "The start",
            Marker::Goal => "The goal",
        }
    }
}

/// The marker's cell: the last valid place it was dropped.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarkerCell(pub Point);

/// A marker was dropped on a new cell (the history records it).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkerMoved {
    pub marker: Marker,
    pub from: Point,
    pub to: Point,
}

/// The marker being dragged, if any.
#[derive(Resource, Default, Debug)]
pub struct MarkerDrag {
    pub dragging: Option<Entity>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MarkerDrag>()
        .add_message::<MarkerMoved>();
    app.add_systems(Startup, spawn_markers);
    app.add_systems(
        Update,
        (begin_drag, follow_cursor, end_drag, place_markers)
            .chain()
            .in_set(AppSystems::Edit),
    );
}

fn spawn_markers(mut commands: Commands) {
    commands.spawn((
        Name::new("Start"),
        Start,
        Marker::Start,
        MarkerCell::default(),
        Transform::from_xyz(0.0, 0.0, 10.0),
    ));
    commands.spawn((
        Name::new("Goal"),
        Goal,
        Marker::Goal,
        MarkerCell::default(),
        Transform::from_xyz(0.0, 0.0, 10.0),
    ));
}

/// A left press on a marker (within most of a cell of its centre) picks it up. Presses over the
/// panel never do.
pub fn begin_drag(
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerWorld>,
    over_ui: Res<PointerOverUi>,
    layout: Option<Res<MapLayout>>,
    markers: Query<(Entity, &MarkerCell)>,
    mut drag: ResMut<MarkerDrag>,
) {
    if !buttons.just_pressed(MouseButton::Left) || over_ui.0 {
        return;
    }
    let (Some(world), Some(layout)) = (pointer.0, layout) else {
        return;
    };
    let grab_radius = TILE * 0.75;
    drag.dragging = markers
        .iter()
        .map(|(e, cell)| (e, layout.cell_center(cell.0).distance(world)))
        .filter(|&(_, d)| d <= grab_radius)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(e, _)| e);
}

/// Is the pointer carrying a marker right now?
pub fn is_dragging_marker(drag: Res<MarkerDrag>) -> bool {
    drag.dragging.is_some()
}

fn follow_cursor(
    drag: Res<MarkerDrag>,
    pointer: Res<PointerWorld>,
    mut transforms: Query<&mut Transform>,
) {
    if let (Some(e), Some(world)) = (drag.dragging, pointer.0)
        && let Ok(mut t) = transforms.get_mut(e)
    {
        t.translation.x = world.x;
        t.translation.y = world.y;
    }
}

/// On release, move the marker to the cell under the cursor if it may stand there.
pub fn end_drag(
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerWorld>,
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    mut drag: ResMut<MarkerDrag>,
    mut markers: Query<(Entity, &Marker, &mut MarkerCell)>,
    mut notices: ResMut<Notices>,
    mut moved: MessageWriter<MarkerMoved>,
) {
    let Some(entity) = drag.dragging else {
        return;
    };
    if !buttons.just_released(MouseButton::Left) && buttons.pressed(MouseButton::Left) {
        return;
    }
    drag.dragging = None;
    let (Some(layout), Some(nav)) = (layout, nav) else {
        return;
    };
    let other_cell = markers
        .iter()
        .find(|(e, ..)| *e != entity)
        .map(|(_, _, c)| c.0);
    let Ok((_, &marker, mut cell)) = markers.get_mut(entity) else {
        return;
    };
    let back = cell.0;
    let refusal = match pointer.0.map(|w| layout.cell_at(w)) {
        None => Some("was dropped outside the window".to_string()),
        Some(p) if !layout.contains(p) => Some("can't leave the map".to_string()),
        Some(p) if !nav.is_passable(p) => Some(format!("can't stand on a wall at {p}")),
        Some(p) if Some(p) == other_cell => {
            Some("can't share a cell with the other marker".to_string())
        }
        Some(p) => {
            if p != cell.0 {
                cell.0 = p;
                moved.write(MarkerMoved {
                    marker,
                    from: back,
                    to: p,
                });
            }
            None
        }
    };
    if let Some(why) = refusal {
        notices.warn(format!("{} {why}: back to {back}.", marker.title()));
    }
}

/// Markers that are not being dragged sit on the centre of their cell.
fn place_markers(
    drag: Res<MarkerDrag>,
    layout: Option<Res<MapLayout>>,
    mut markers: Query<(Entity, &MarkerCell, &mut Transform)>,
) {
    let Some(layout) = layout else { return };
    for (e, cell, mut t) in &mut markers {
        if drag.dragging != Some(e) {
            let c = layout.cell_center(cell.0);
            if t.translation.x != c.x || t.translation.y != c.y {
                t.translation.x = c.x;
                t.translation.y = c.y;
            }
        }
    }
}
