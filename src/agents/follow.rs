//! The app's view of each agent follows the plugin's: its position in cells ([`AgentPos`]), which
//! the sprites, the undo history and the test hook read, and the way it faces. An agent the
//! plugin moved off a wall painted under it is told in the notices.

use super::stats::AgentStats;
use crate::notices::Notices;
use crate::world::agents::{Agent, AgentPos};
use bevy::prelude::*;
use bevy_gridpath::{AgentEscaped, AgentProgress};

/// The way an agent faces (a unit vector in cell units, y down), for its sprite.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Facing(pub Vec2);

impl Default for Facing {
    fn default() -> Self {
        Self(Vec2::X)
    }
}

pub(super) fn follow(mut agents: Query<(&AgentProgress, &mut AgentPos, &mut Facing), With<Agent>>) {
    for (progress, mut pos, mut facing) in &mut agents {
        let Some(at) = progress.position() else {
            continue;
        };
        let moved = at - pos.0;
        if moved.length() > 1e-6 {
            facing.0 = moved.normalize();
            pos.0 = at;
        }
    }
}

pub(super) fn tell_escapes(
    mut escaped: MessageReader<AgentEscaped>,
    agents: Query<(), With<Agent>>,
    mut stats: ResMut<AgentStats>,
    mut notices: ResMut<Notices>,
) {
    let pushed = escaped.read().filter(|e| agents.contains(e.agent)).count();
    if pushed > 0 {
        stats.pushed += pushed as u64;
        notices.info(format!(
            "A wall was painted under {pushed} agent{}: moved to the nearest free cell.",
            if pushed == 1 { "" } else { "s" }
        ));
    }
}
