//! How agents look: a small arrowhead in the agent's own colour, turned the way it heads, greyed
//! while it is stuck. One texture serves them all; each sprite tints it.

use crate::agents::Facing;
use crate::frame::AppSystems;
use crate::view::textures;
use crate::world::agents::{Agent, AgentPos};
use crate::world::layout::{MapLayout, TILE};
use bevy::prelude::*;
use bevy_gridpath::AgentStatus;

/// Agents never shrink below this many pixels across, so a crowd stays visible on big maps.
const MIN_AGENT_PX: f32 = 11.0;

/// The one arrowhead texture.
#[derive(Resource)]
struct AgentTexture(Handle<Image>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_texture)
        .add_observer(dress_agent)
        .add_systems(Update, place_agents.in_set(AppSystems::Draw));
}

/// An agent's colour: its hue, greyed when stuck.
pub fn agent_color(agent: &Agent, status: AgentStatus) -> Color {
    match status {
        AgentStatus::Stuck => Color::hsl(agent.hue, 0.1, 0.55),
        _ => Color::hsl(agent.hue, 0.8, 0.6),
    }
}

fn make_texture(mut images: ResMut<Assets<Image>>, mut commands: Commands) {
    commands.insert_resource(AgentTexture(images.add(textures::agent_arrow())));
}

fn dress_agent(
    add: On<Add, Agent>,
    agents: Query<&Agent>,
    texture: Option<Res<AgentTexture>>,
    mut commands: Commands,
) {
    let (Ok(agent), Some(texture)) = (agents.get(add.entity), texture) else {
        return;
    };
    commands.entity(add.entity).insert((Sprite {
        image: texture.0.clone(),
        color: agent_color(agent, AgentStatus::Waiting),
        custom_size: Some(Vec2::splat(TILE * 1.1)),
        ..default()
    },));
}

/// Puts each sprite where its agent is, turned its way, and no smaller than [`MIN_AGENT_PX`].
fn place_agents(
    layout: Option<Res<MapLayout>>,
    camera: Query<&Projection, With<Camera2d>>,
    mut agents: Query<(
        &Agent,
        &AgentPos,
        &Facing,
        &AgentStatus,
        &mut Transform,
        &mut Sprite,
    )>,
) {
    let Some(layout) = layout else {
        return;
    };
    let scale = match camera.iter().next() {
        Some(Projection::Orthographic(o)) => (MIN_AGENT_PX / (TILE * 1.1 / o.scale)).max(1.0),
        _ => 1.0,
    };
    for (agent, pos, facing, status, mut transform, mut sprite) in &mut agents {
        // A unit k cells across is drawn over the k × k cells right of and below its cell, a
        // little inside them so that neighbours stay apart.
        let k = f32::from(agent.size.max(1));
        let at = layout.position_of(pos.0 + Vec2::splat((k - 1.0) / 2.0));
        let scale = if k > 1.0 { scale.max(k * 0.85) } else { scale };
        // Cells count y downwards, the world upwards.
        let angle = (-facing.0.y).atan2(facing.0.x);
        transform.translation = at.extend(9.0);
        transform.rotation = Quat::from_rotation_z(angle);
        transform.scale = Vec3::new(scale, scale, 1.0);
        let color = agent_color(agent, *status);
        if sprite.color != color {
            sprite.color = color;
        }
    }
}
