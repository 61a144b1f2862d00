//! Dragging the start and goal markers with the left mouse button.
//!
//! While the user drags, only the marker's `Transform` follows the cursor. On release the cell
//! under the cursor becomes the marker's cell (through [`Markers`], which knows where a marker may
//! stand), or the marker goes back where it was and a notice says why.

use crate::input::pointer::{LeftButtonPoints, PointerOverUi, PointerWorld};
use crate::notices::Notices;
use crate::world::layout::{MapLayout, TILE};
use crate::world::markers::{Marker, MarkerCell, Markers};
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::Point;

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

/// A left press on a marker (within most of a cell of its centre) picks it up, judged where the
/// button went down. Presses over the panel never do.
pub fn begin_drag(
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerWorld>,
    button: Res<LeftButtonPoints>,
    over_ui: Res<PointerOverUi>,
    layout: Option<Res<MapLayout>>,
    markers: Query<(Entity, &MarkerCell)>,
    mut drag: ResMut<MarkerDrag>,
) {
    if !buttons.just_pressed(MouseButton::Left) || over_ui.0 {
        return;
    }
    let (Some(world), Some(layout)) = (button.down_or(&pointer), layout) else {
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

pub(super) fn follow_cursor(
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

/// On release, move the marker to the cell where the button came up, if it may stand there.
pub(super) fn end_drag(
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerWorld>,
    button: Res<LeftButtonPoints>,
    layout: Option<Res<MapLayout>>,
    nav: Option<Res<NavGrid>>,
    mut drag: ResMut<MarkerDrag>,
    dragged: Query<&Marker>,
    mut markers: Markers,
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
    let (Some(layout), Some(nav), Ok(&marker)) = (layout, nav, dragged.get(entity)) else {
        return;
    };
    let Some(back) = markers.cell(marker) else {
        return;
    };
    let refusal = match button.up_or(&pointer).map(|w| layout.cell_at(w)) {
        None => Some("was dropped outside the window".to_string()),
        Some(to) => match markers.move_to(marker, to, &nav) {
            Ok(()) if to != back => {
                moved.write(MarkerMoved {
                    marker,
                    from: back,
                    to,
                });
                None
            }
            Ok(()) => None,
            Err(why) => Some(why.describe()),
        },
    };
    if let Some(why) = refusal {
        notices.warn(format!("{} {why}: back to {back}.", marker.title()));
    }
}

/// Markers that are not being dragged sit on the centre of their cell.
pub(super) fn place_markers(
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
