//! Keyboard shortcuts for editing: Ctrl+Z undoes; Ctrl+Shift+Z and Ctrl+Y redo.

use super::history::EditCommand;
use crate::input::pointer::KeyboardOverUi;
use bevy::prelude::*;

/// Ctrl+Z undoes; Ctrl+Shift+Z and Ctrl+Y redo. Not while a text field has the keyboard.
pub(super) fn shortcuts(
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
