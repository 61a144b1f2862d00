//! Editing the world: painting walls and ground with the mouse, undo and redo, clearing.
//!
//! A left drag that starts on a free cell paints walls and one that starts on a wall erases them
//! (PathFinding.js's rule); with a ground tool selected it paints that ground instead. A drag that
//! starts on a marker moves the marker (see `markers`), and a drag over the panel does nothing.
//! One drag is one undo step.

pub mod cells;
pub mod history;

use crate::AppSystems;
use crate::layout::MapLayout;
use crate::markers::{MarkerDrag, begin_drag};
use crate::nav::NavGrid;
use crate::notice::Notices;
use crate::pointer::{KeyboardOverUi, PointerOverUi, PointerWorld};
use crate::terrain::Ground;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use cells::{CellChange, CellEditor, CellState};
use gridpath::Point;
pub use history::{Edit, EditCommand, History};

/// What a left drag on the map paints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Walls: paints them from a free cell, erases them from a wall.
    #[default]
    Walls,
    /// Ground of this kind (walls stay).
    Ground(Ground),
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Walls => "Walls",
            Tool::Ground(g) => g.name(),
        }
    }
}

/// The allowed brush sizes: a square this many cells wide.
pub const BRUSH_SIZES: [u32; 3] = [1, 3, 5];

#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct EditTool {
    pub tool: Tool,
    pub brush: u32,
}

impl Default for EditTool {
    fn default() -> Self {
        Self {
            tool: Tool::Walls,
            brush: 1,
        }
    }
}

/// What a stroke does to each cell it passes over, decided when it begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BrushAction {
    AddWall,
    RemoveWall,
    SetGround(u32),
}

/// The drag in progress: its cells so far, so each cell changes once and the whole drag is one
/// undo step.
#[derive(Resource, Default, Debug)]
pub struct Stroke {
    action: Option<BrushAction>,
    last: Option<Point>,
    touched: HashSet<Point>,
    changes: Vec<CellChange>,
    refused_marker: bool,
}

impl Stroke {
    pub fn is_active(&self) -> bool {
        self.action.is_some()
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EditTool>()
        .init_resource::<Stroke>()
        .init_resource::<History>()
        .add_message::<EditCommand>()
        .add_systems(
            Update,
            (
                shortcuts,
                paint.after(begin_drag),
                history::record_marker_moves,
                history::run_edit_commands,
            )
                .chain()
                .in_set(AppSystems::Edit)
                .run_if(resource_exists::<NavGrid>),
        );
}

/// Ctrl+Z undoes; Ctrl+Shift+Z and Ctrl+Y redo. Not while a text field has the keyboard.
fn shortcuts(
    keys: Res<ButtonInput<KeyCode>>,
    over_ui: Res<KeyboardOverUi>,
    mut out: MessageWriter<EditCommand>,
) {
    if over_ui.0 {
        return;
    }
    // A modifier counts if it was down at any time this frame: a quick chord can be pressed and
    // released between two frames, more so when frames are slow.
    let held = |k: [KeyCode; 2]| {
        keys.any_pressed(k) || keys.any_just_pressed(k) || keys.any_just_released(k)
    };
    let ctrl = held([KeyCode::ControlLeft, KeyCode::ControlRight])
        || held([KeyCode::SuperLeft, KeyCode::SuperRight]);
    let shift = held([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if !ctrl {
        return;
    }
    if keys.just_pressed(KeyCode::KeyZ) {
        out.write(if shift {
            EditCommand::Redo
        } else {
            EditCommand::Undo
        });
    } else if keys.just_pressed(KeyCode::KeyY) {
        out.write(EditCommand::Redo);
    }
}

/// Brush strokes: begin on a left press on the map (not on a marker, not over the panel), paint
/// every cell the cursor passes while held, record one undo step on release.
fn paint(
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerWorld>,
    over_ui: Res<PointerOverUi>,
    drag: Res<MarkerDrag>,
    tool: Res<EditTool>,
    layout: Res<MapLayout>,
    mut stroke: ResMut<Stroke>,
    mut editor: CellEditor,
    mut history: ResMut<History>,
    mut notices: ResMut<Notices>,
) {
    let cursor_cell = pointer.0.map(|w| layout.cell_at(w));
    if buttons.just_pressed(MouseButton::Left)
        && !over_ui.0
        && drag.dragging.is_none()
        && let Some(cell) = cursor_cell.filter(|c| layout.contains(*c))
        && let Some(state) = editor.state(cell)
    {
        let change = match tool.tool {
            Tool::Walls if state.wall => BrushAction::RemoveWall,
            Tool::Walls => BrushAction::AddWall,
            Tool::Ground(g) => BrushAction::SetGround(g.cost()),
        };
        *stroke = Stroke {
            action: Some(change),
            ..default()
        };
    }
    let Some(change) = stroke.action else {
        return;
    };
    if buttons.pressed(MouseButton::Left)
        && let Some(cell) = cursor_cell
    {
        let from = stroke.last.unwrap_or(cell);
        let half = (tool.brush.clamp(1, 5) / 2) as i32;
        for centre in line(from, cell) {
            for dy in -half..=half {
                for dx in -half..=half {
                    let p = Point::new(centre.x + dx, centre.y + dy);
                    if !editor.contains(p) || !stroke.touched.insert(p) {
                        continue;
                    }
                    paint_cell(&mut editor, &mut stroke, p, change);
                }
            }
        }
        stroke.last = Some(cell);
    }
    if !buttons.pressed(MouseButton::Left) {
        let stroke = std::mem::take(&mut *stroke);
        if stroke.refused_marker {
            notices.warn("Walls can't go on the start or the goal: those cells were left free.");
        }
        let label = match change {
            BrushAction::AddWall => "paint walls",
            BrushAction::RemoveWall => "erase walls",
            BrushAction::SetGround(_) => "paint ground",
        };
        history::record_cells(&mut history, label, stroke.changes);
    }
}

fn paint_cell(editor: &mut CellEditor, stroke: &mut Stroke, p: Point, change: BrushAction) {
    let Some(state) = editor.state(p) else { return };
    let target = match change {
        BrushAction::AddWall => {
            if !state.wall && editor.marker_on(p).is_some() {
                stroke.refused_marker = true;
                return;
            }
            CellState {
                wall: true,
                ..state
            }
        }
        BrushAction::RemoveWall => CellState {
            wall: false,
            ..state
        },
        BrushAction::SetGround(cost) => CellState { cost, ..state },
    };
    if let Some(c) = editor.apply(p, target) {
        stroke.changes.push(c);
    }
}

/// The cells on a straight line from `a` to `b`, both included (Bresenham), so that a fast drag
/// leaves no gaps.
pub fn line(a: Point, b: Point) -> impl Iterator<Item = Point> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let mut err = dx + dy;
    let mut p = Some(a);
    std::iter::from_fn(move || {
        let current = p?;
        p = (current != b).then(|| {
            let e2 = 2 * err;
            let mut next = current;
            if e2 >= dy {
                err += dy;
                next.x += sx;
            }
            if e2 <= dx {
                err += dx;
                next.y += sy;
            }
            next
        });
        Some(current)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_have_no_gaps() {
        let cells: Vec<Point> = line(Point::new(0, 0), Point::new(5, 2)).collect();
        assert_eq!(cells.first(), Some(&Point::new(0, 0)));
        assert_eq!(cells.last(), Some(&Point::new(5, 2)));
        for w in cells.windows(2) {
            assert!((w[1].x - w[0].x).abs() <= 1 && (w[1].y - w[0].y).abs() <= 1);
        }
        assert_eq!(line(Point::new(3, 3), Point::new(3, 3)).count(), 1);
        assert_eq!(line(Point::new(0, 4), Point::new(0, 0)).count(), 5);
    }
}
