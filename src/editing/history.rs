//! Undo and redo. Every edit is recorded as one step: a brush stroke, a clear, a marker move, a new
//! map. Undo applies a step backwards, redo forwards; a new edit clears the redo list.

use super::cells::{CellChange, CellEditor, CellState};
use super::marker_drag::MarkerMoved;
use crate::notices::Notices;
use crate::world::agents::{Agent, AgentPos, AgentSeed};
use crate::world::map_load::{LoadMap, MapLoaded, MapSnapshot};
use crate::world::markers::Marker;
use crate::world::nav::NavLink;
use crate::world::terrain::Ground;
use bevy::prelude::*;
use gridpath::{Link, Point};

/// The most steps kept; the oldest go first.
pub const MAX_STEPS: usize = 100;

/// One undoable step.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    Cells {
        label: &'static str,
        changes: Vec<CellChange>,
    },
    Marker {
        marker: Marker,
        from: Point,
        to: Point,
    },
    Map {
        before: Box<MapSnapshot>,
        after: Box<MapSnapshot>,
    },
    /// Agents spawned, dropped or cleared.
    Agents {
        label: &'static str,
        added: Vec<AgentSeed>,
        removed: Vec<AgentSeed>,
    },
    /// Links drawn or removed with the Links tool.
    Links {
        label: &'static str,
        added: Vec<Link>,
        removed: Vec<Link>,
    },
}

impl Edit {
    pub fn label(&self) -> String {
        match self {
            Edit::Cells { label, changes } => format!("{label} ({} cells)", changes.len()),
            Edit::Marker { marker, .. } => format!("move the {}", marker.name()),
            Edit::Map { after, .. } => format!("open {}", after.name),
            Edit::Agents {
                label,
                added,
                removed,
            } => format!("{label} ({})", added.len().max(removed.len())),
            Edit::Links { label, .. } => label.to_string(),
        }
    }
}

#[derive(Resource, Default, Debug)]
pub struct History {
    undo: Vec<Edit>,
    redo: Vec<Edit>,
}

impl History {
    pub fn record(&mut self, edit: Edit) {
        self.undo.push(edit);
        if self.undo.len() > MAX_STEPS {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    pub fn next_undo(&self) -> Option<&Edit> {
        self.undo.last()
    }

    pub fn next_redo(&self) -> Option<&Edit> {
        self.redo.last()
    }

    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }
}

/// Requests from the panel and the keyboard.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditCommand {
    Undo,
    Redo,
    ClearWalls,
    ClearTerrain,
}

/// Map loads that asked to be undoable become history steps.
pub(super) fn record_map_loads(mut loads: MessageReader<MapLoaded>, mut history: ResMut<History>) {
    for load in loads.read() {
        if let Some(before) = &load.before {
            history.record(Edit::Map {
                before: before.clone(),
                after: load.after.clone(),
            });
        }
    }
}

/// Marker drops become history steps.
pub(super) fn record_marker_moves(
    mut moves: MessageReader<MarkerMoved>,
    mut history: ResMut<History>,
) {
    for m in moves.read() {
        history.record(Edit::Marker {
            marker: m.marker,
            from: m.from,
            to: m.to,
        });
    }
}

pub(super) fn run_edit_commands(
    mut requests: MessageReader<EditCommand>,
    mut history: ResMut<History>,
    mut editor: CellEditor,
    mut load: MessageWriter<LoadMap>,
    mut notices: ResMut<Notices>,
    agents: Query<(Entity, &Agent, &AgentPos)>,
    links: Query<(Entity, &NavLink)>,
    mut commands: Commands,
) {
    // One closure for both kinds of entity step, as the two share the commands.
    let mut swap = |step: Swap| match step {
        Swap::Agents(take, bring) => swap_agents(take, bring, &agents, &mut commands),
        Swap::Links(take, bring) => swap_links(take, bring, &links, &mut commands),
    };
    for request in requests.read() {
        match request {
            EditCommand::Undo => match history.undo.pop() {
                Some(edit) => {
                    // Said first, so a warning from applying it is what stays on screen.
                    notices.info(format!("Undid: {}.", edit.label()));
                    apply(
                        &edit,
                        Direction::Back,
                        &mut editor,
                        &mut load,
                        &mut notices,
                        &mut swap,
                    );
                    history.redo.push(edit);
                }
                None => notices.info("Nothing to undo."),
            },
            EditCommand::Redo => match history.redo.pop() {
                Some(edit) => {
                    notices.info(format!("Redid: {}.", edit.label()));
                    apply(
                        &edit,
                        Direction::Forward,
                        &mut editor,
                        &mut load,
                        &mut notices,
                        &mut swap,
                    );
                    history.undo.push(edit);
                }
                None => notices.info("Nothing to redo."),
            },
            EditCommand::ClearWalls => {
                let changes = change_all(&mut editor, |s| CellState { wall: false, ..s });
                record_cells(&mut history, "clear walls", changes);
            }
            EditCommand::ClearTerrain => {
                let road = Ground::Road.cost();
                let changes = change_all(&mut editor, |s| CellState { cost: road, ..s });
                record_cells(&mut history, "clear terrain", changes);
            }
        }
    }
}

pub(super) fn record_cells(history: &mut History, label: &'static str, changes: Vec<CellChange>) {
    if !changes.is_empty() {
        history.record(Edit::Cells { label, changes });
    }
}

fn change_all(editor: &mut CellEditor, f: impl Fn(CellState) -> CellState) -> Vec<CellChange> {
    let (w, h) = (editor.width() as i32, editor.height() as i32);
    let mut changes = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let p = Point::new(x, y);
            if let Some(state) = editor.state(p)
                && let Some(change) = editor.apply(p, f(state))
            {
                changes.push(change);
            }
        }
    }
    changes
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Back,
    Forward,
}

fn apply(
    edit: &Edit,
    direction: Direction,
    editor: &mut CellEditor,
    load: &mut MessageWriter<LoadMap>,
    notices: &mut Notices,
    swap: &mut impl FnMut(Swap),
) {
    let back = direction == Direction::Back;
    match edit {
        Edit::Cells { changes, .. } => {
            let mut kept_free = false;
            for c in changes {
                let target = if back { c.before } else { c.after };
                if target.wall && editor.marker_on(c.cell).is_some() {
                    kept_free = true;
                    continue;
                }
                editor.apply(c.cell, target);
            }
            if kept_free {
                notices.warn("A marker stands where a wall was: its cell stays free.");
            }
        }
        Edit::Marker { marker, from, to } => {
            let target = if back { *from } else { *to };
            if editor.move_marker(*marker, target).is_err() {
                notices.warn(format!(
                    "The {} can't go back to {target}: that cell is taken.",
                    marker.name()
                ));
            }
        }
        Edit::Map { before, after } => {
            let snapshot = if back { before } else { after };
            load.write(LoadMap::restore(snapshot));
        }
        Edit::Agents { added, removed, .. } => {
            let (take, bring) = if back {
                (added, removed)
            } else {
                (removed, added)
            };
            swap(Swap::Agents(take, bring));
        }
        Edit::Links { added, removed, .. } => {
            let (take, bring) = if back {
                (added, removed)
            } else {
                (removed, added)
            };
            swap(Swap::Links(take, bring));
        }
    }
}

/// Undo or redo of a links step: the links it added go, those it removed come back (or the
/// other way round).
fn swap_links(
    take: &[Link],
    bring: &[Link],
    links: &Query<(Entity, &NavLink)>,
    commands: &mut Commands,
) {
    for (entity, link) in links {
        if take.contains(&link.0) {
            commands.entity(entity).despawn();
        }
    }
    for &link in bring {
        commands.spawn(NavLink(link));
    }
}

/// Entities an undo or redo takes away and brings back.
enum Swap<'a> {
    Agents(&'a [AgentSeed], &'a [AgentSeed]),
    Links(&'a [Link], &'a [Link]),
}

/// Undo or redo of an agents step: the agents it added go, the ones it removed come back (or the
/// other way round). One brought back onto a wall painted since goes to the nearest free cell,
/// as any agent under a new wall does.
fn swap_agents(
    take: &[AgentSeed],
    bring: &[AgentSeed],
    agents: &Query<(Entity, &Agent, &AgentPos)>,
    commands: &mut Commands,
) {
    for (entity, agent, _) in agents {
        if take.iter().any(|s| s.agent.id == agent.id) {
            commands.entity(entity).despawn();
        }
    }
    for seed in bring {
        seed.spawn(commands);
    }
}
