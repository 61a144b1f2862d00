//! Brush strokes: a left drag paints walls or ground on every cell it passes, with a square
//! brush, and the whole drag is one undo step.

use super::agents::AgentCommand;
use super::cells::{CellChange, CellEditor, CellState};
use super::history::{self, History};
use super::links::LinkClick;
use super::marker_drag::MarkerDrag;
use super::tool::{EditTool, Tool};
use crate::input::pointer::{LeftButtonPoints, PointerOverUi, PointerWorld};
use crate::notices::Notices;
use crate::world::layout::MapLayout;
use bevy::ecs::system::SystemParam;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use gridpath::Point;
use gridpath::hex::HexLayout;

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

/// The tools a click uses, not a drag: each sends what it asks for on.
#[derive(SystemParam)]
pub(super) struct ClickTools<'w> {
    drops: MessageWriter<'w, AgentCommand>,
    links: MessageWriter<'w, LinkClick>,
}

impl ClickTools<'_> {
    fn click(&mut self, tool: Tool, cell: Point) {
        match tool {
            Tool::Agents => {
                self.drops.write(AgentCommand::DropAt(cell));
            }
            Tool::Links => {
                self.links.write(LinkClick(cell));
            }
            Tool::Walls | Tool::Ground(_) => {}
        }
    }
}

/// Brush strokes: begin on a left press on the map (not on a marker, not over the panel), paint
/// every cell the cursor passes while held, record one undo step on release.
pub(super) fn paint(
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerWorld>,
    button: Res<LeftButtonPoints>,
    over_ui: Res<PointerOverUi>,
    drag: Res<MarkerDrag>,
    tool: Res<EditTool>,
    layout: Res<MapLayout>,
    mut stroke: ResMut<Stroke>,
    mut editor: CellEditor,
    mut history: ResMut<History>,
    mut notices: ResMut<Notices>,
    mut clicks: ClickTools,
) {
    let cell_of = |w: Vec2| layout.cell_at(w);
    let pressed_cell = button.down_or(&pointer).map(cell_of);
    if buttons.just_pressed(MouseButton::Left)
        && !over_ui.0
        && drag.dragging.is_none()
        && let Some(cell) = pressed_cell.filter(|c| layout.contains(*c))
        && let Some(state) = editor.state(cell)
    {
        // The cell under the press decides what the stroke does, and is painted at once: the
        // button may already be up again by the end of a slow frame.
        let action = match tool.tool {
            Tool::Walls if state.wall => BrushAction::RemoveWall,
            Tool::Walls => BrushAction::AddWall,
            Tool::Ground(g) => BrushAction::SetGround(g.cost()),
            Tool::Agents | Tool::Links => return clicks.click(tool.tool, cell),
        };
        *stroke = Stroke {
            action: Some(action),
            last: Some(cell),
            ..default()
        };
        brush_at(
            &mut editor,
            &mut stroke,
            cell,
            tool.brush,
            action,
            layout.shape.hex(),
        );
    }
    let Some(action) = stroke.action else {
        return;
    };
    // Paint along lines from the last cell, so that a fast drag leaves no gaps: through every
    // point the cursor passed this frame, then to the cursor while the button is held, or to
    // where it came up on release.
    let held = buttons.pressed(MouseButton::Left);
    let to = if held {
        pointer.0.map(cell_of)
    } else {
        button.up_or(&pointer).map(cell_of)
    };
    // On hexagons the line steps between touching hexagons and the brush is a hexagon: a
    // square grid's line would step corner to corner, where hexagons do not touch, and leave a
    // wall with gaps.
    let hex = layout.shape.hex();
    for cell in button.moves.iter().map(|&w| cell_of(w)).chain(to) {
        let from = stroke.last.unwrap_or(cell);
        let cells: Vec<Point> = match hex {
            Some(h) => h.line(from, cell),
            None => line(from, cell).collect(),
        };
        for centre in cells {
            brush_at(&mut editor, &mut stroke, centre, tool.brush, action, hex);
        }
        stroke.last = Some(cell);
    }
    if !held {
        let done = std::mem::take(&mut *stroke);
        end_stroke(done, action, &mut history, &mut notices);
    }
}

/// Paints a brush `size` cells wide centred on `centre`, each cell once per stroke: a square,
/// or on hexagons the hexagons within `size / 2` steps.
fn brush_at(
    editor: &mut CellEditor,
    stroke: &mut Stroke,
    centre: Point,
    size: u32,
    action: BrushAction,
    hex: Option<HexLayout>,
) {
    let half = (size.clamp(1, 5) / 2) as i32;
    for dy in -half..=half {
        for dx in -half..=half {
            let p = Point::new(centre.x + dx, centre.y + dy);
            let within = hex.is_none_or(|h| h.distance(centre, p) <= half as u32);
            if within && editor.contains(p) && stroke.touched.insert(p) {
                paint_cell(editor, stroke, p, action);
            }
        }
    }
}

/// On release: one undo step for the whole stroke, and a word if it skipped the markers.
fn end_stroke(stroke: Stroke, action: BrushAction, history: &mut History, notices: &mut Notices) {
    if stroke.refused_marker {
        notices.warn("Walls can't go on the start or the goal: those cells were left free.");
    }
    let label = match action {
        BrushAction::AddWall => "paint walls",
        BrushAction::RemoveWall => "erase walls",
        BrushAction::SetGround(_) => "paint ground",
    };
    history::record_cells(history, label, stroke.changes);
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
