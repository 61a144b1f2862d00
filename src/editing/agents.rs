//! Adding and removing agents, as edits: drop one with the agent tool, spawn many at random free
//! cells, clear them all. Each is one undo step, which brings the same agents (same ids, colours
//! and cells) back or takes them away again.

use super::history::{Edit, History};
use crate::notices::Notices;
use crate::world::agents::{
    Agent, AgentPos, AgentSeed, DEFAULT_SPEED, MAX_AGENTS, hue_for, random_place,
};
use crate::world::generators::rng::Rng;
use crate::world::map_load::MapLoaded;
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use gridpath::Point;

/// Requests from the panel and the agent tool.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentCommand {
    /// This many agents, each on a random free cell.
    Spawn(u32),
    /// One agent on this cell (the agent tool's click).
    DropAt(Point),
    Clear,
}

/// How big the agents spawned or dropped next are: the panel's size picker.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SpawnSize {
    /// One cell.
    #[default]
    One,
    /// Two cells by two.
    Two,
    /// Three cells by three.
    Three,
    /// Mostly one cell, some two, a few three (7 : 2 : 1).
    Mixed,
}

impl SpawnSize {
    pub const ALL: [SpawnSize; 4] = [Self::One, Self::Two, Self::Three, Self::Mixed];

    pub fn label(self) -> &'static str {
        match self {
            SpawnSize::One => "1×1",
            SpawnSize::Two => "2×2",
            SpawnSize::Three => "3×3",
            SpawnSize::Mixed => "mixed",
        }
    }

    /// Reads a size as the command line gives it: 1, 2, 3 or mixed.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "1" | "1x1" | "1×1" => Some(Self::One),
            "2" | "2x2" | "2×2" => Some(Self::Two),
            "3" | "3x3" | "3×3" => Some(Self::Three),
            "mixed" => Some(Self::Mixed),
            _ => None,
        }
    }

    /// The size of the next agent.
    fn pick(self, rng: &mut Rng) -> u8 {
        match self {
            SpawnSize::One => 1,
            SpawnSize::Two => 2,
            SpawnSize::Three => 3,
            SpawnSize::Mixed => match rng.below(10) {
                0 => 3,
                1 | 2 => 2,
                _ => 1,
            },
        }
    }
}

/// Numbers agents, and picks their random cells.
#[derive(Resource, Debug)]
pub struct AgentRoster {
    next_id: u32,
    rng: Rng,
}

impl Default for AgentRoster {
    fn default() -> Self {
        Self {
            next_id: 0,
            rng: Rng::new(0xA6E7),
        }
    }
}

impl AgentRoster {
    pub(super) fn seed_at(&mut self, cell: Point, size: u8) -> AgentSeed {
        let id = self.next_id;
        self.next_id += 1;
        // Speeds vary a little, so a crowd spreads out instead of marching in step.
        let speed = DEFAULT_SPEED * (0.8 + 0.4 * self.rng.below(1000) as f32 / 1000.0);
        AgentSeed {
            agent: Agent {
                id,
                hue: hue_for(id),
                speed,
                size,
            },
            cell,
        }
    }
}

/// Why one long function: a Bevy system answering each panel command (spawn, drop one at a cell,
/// clear) in one match, over the same queries and resources.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_agent_commands(
    mut requests: MessageReader<AgentCommand>,
    spawn_size: Res<SpawnSize>,
    agents: Query<(Entity, &Agent, &AgentPos)>,
    nav: Res<NavGrid>,
    mut roster: ResMut<AgentRoster>,
    mut history: ResMut<History>,
    mut notices: ResMut<Notices>,
    mut commands: Commands,
) {
    let mut count = agents.iter().len();
    for request in requests.read() {
        match *request {
            AgentCommand::Spawn(n) => {
                let room = MAX_AGENTS.saturating_sub(count);
                let asked = n as usize;
                let n = asked.min(room);
                let added: Vec<AgentSeed> = (0..n)
                    .map_while(|_| {
                        let size = spawn_size.pick(&mut roster.rng);
                        let cell = random_place(&mut roster.rng, &nav, size)?;
                        Some(roster.seed_at(cell, size))
                    })
                    .collect();
                if added.is_empty() {
                    notices.warn(if room == 0 {
                        format!("There are already {MAX_AGENTS} agents, the most there may be.")
                    } else {
                        "No free cell for an agent on this map.".into()
                    });
                    continue;
                }
                if added.len() < asked {
                    notices.info(format!(
                        "Spawned {} of {asked} agents (there may be {MAX_AGENTS} at most).",
                        added.len()
                    ));
                }
                count += added.len();
                add(&added, "spawn agents", &mut history, &mut commands);
            }
            AgentCommand::DropAt(cell) => {
                if !nav.grid().contains(cell) {
                    continue;
                }
                let size = spawn_size.pick(&mut roster.rng);
                if !nav.is_passable(cell) {
                    notices.warn(format!("An agent can't stand on a wall at {cell}."));
                } else if !nav.grid_for(size).is_passable(cell) {
                    notices.warn(format!(
                        "An agent {size}×{size} doesn't fit at {cell}: it covers the cells right of and below it."
                    ));
                } else if count >= MAX_AGENTS {
                    notices.warn(format!("There are already {MAX_AGENTS} agents."));
                } else {
                    count += 1;
                    let seed = roster.seed_at(cell, size);
                    add(&[seed], "drop an agent", &mut history, &mut commands);
                }
            }
            AgentCommand::Clear => {
                let removed: Vec<AgentSeed> = agents
                    .iter()
                    .map(|(entity, &agent, &pos)| {
                        commands.entity(entity).despawn();
                        AgentSeed {
                            agent,
                            cell: pos.cell(),
                        }
                    })
                    .collect();
                count = 0;
                if !removed.is_empty() {
                    history.record(Edit::Agents {
                        label: "clear agents",
                        added: Vec::new(),
                        removed,
                    });
                }
            }
        }
    }
}

fn add(seeds: &[AgentSeed], label: &'static str, history: &mut History, commands: &mut Commands) {
    for seed in seeds {
        seed.spawn(commands);
    }
    history.record(Edit::Agents {
        label,
        added: seeds.to_vec(),
        removed: Vec::new(),
    });
}

/// A new map takes the agents away: their cells meant nothing on it.
pub(super) fn clear_on_new_map(
    mut loads: MessageReader<MapLoaded>,
    agents: Query<Entity, With<Agent>>,
    mut commands: Commands,
) {
    if loads.read().count() > 0 {
        for entity in &agents {
            commands.entity(entity).despawn();
        }
    }
}
