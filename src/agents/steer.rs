//! Where each agent goes: the plugin's [`Destination`]. Chasers head for the goal marker and
//! follow it when it is dragged; a wanderer picks a random stop near it, walks there, and picks
//! another (a few times running when one has no way: it may lie in a walled-off room). How
//! agents move ([`GridAgent`]) follows the panel: their speed, the planner's moves, and for
//! flow-field chasers the shared field ([`SharedFlow`]).

use super::follow::Facing;
use super::settings::{AgentGoal, AgentSettings};
use crate::editing::SceneLoaded;
use crate::planner::PlannerSettings;
use crate::world::agents::{Agent, AgentPos, OwnPlace, random_place_near};
use crate::world::generators::rng::Rng;
use crate::world::markers::{Goal, MarkerCell};
use crate::world::nav::NavGrid;
use bevy::prelude::*;
use bevy_gridpath::{
    AgentProgress, AgentStatus, Body, BodyMotion, Destination, GridAgent, PathFailed, PathService,
    Patience, RouteColor, SharedFlow,
};

/// Picks wanderers' stops.
#[derive(Resource)]
pub struct WanderRng(pub Rng);

impl Default for WanderRng {
    fn default() -> Self {
        Self(Rng::new(0x3A9D))
    }
}

/// How many stops in a row a wanderer tries before it calls itself stuck.
const WANDER_TRIES: u32 = 3;

/// Seconds a wandering body waits in a jam, getting no nearer, before it heads somewhere else.
/// Jams in a dense crowd are bodies bound opposite ways through one gap: one that turns away
/// makes room. (Shorter than the crowd's deadlock count, which does not start again for it.)
const WANDER_PATIENCE: f32 = 2.5;

/// A wanderer's stops in a row that had no way, and its patience with jams.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Wandering {
    failures: u32,
    patience: Patience,
}

/// A scene's crowd goes to its own places, as bodies.
pub(super) fn go_to_own_places(
    mut loaded: MessageReader<SceneLoaded>,
    mut settings: ResMut<AgentSettings>,
) {
    if loaded.read().count() > 0 {
        settings.goal = AgentGoal::Own;
        settings.bodies = true;
    }
}

/// A new agent becomes the plugin's [`GridAgent`], standing on its cell.
pub(super) fn equip(
    add: On<Add, Agent>,
    agents: Query<(&Agent, &AgentPos)>,
    nav: Option<Res<NavGrid>>,
    planner: Res<PlannerSettings>,
    settings: Res<AgentSettings>,
    mut commands: Commands,
) {
    let Ok((agent, pos)) = agents.get(add.entity) else {
        return;
    };
    let at = nav.map_or(Vec2::ZERO, |nav| nav.layout().cells_to_world(pos.0));
    let mut entity = commands.entity(add.entity);
    entity.insert((
        GridAgent {
            speed: agent.speed,
            movement: planner.search.movement,
            size: agent.size,
            ..default()
        },
        Transform::from_translation(at.extend(9.0)),
        Facing::default(),
        Wandering::default(),
        // The plugin's route overlay draws its route in its colour: linear already, as the
        // gizmos want it (an `Hsla` would be converted again for each route at every frame).
        RouteColor(Color::hsla(agent.hue, 0.8, 0.6, 0.7).to_linear().into()),
    ));
    if settings.flow_chasing() {
        entity.insert(SharedFlow);
    }
    if settings.as_bodies() {
        entity.insert(Body);
    }
}

type Steered<'a> = (
    Entity,
    &'a Agent,
    &'a mut GridAgent,
    &'a AgentStatus,
    &'a AgentProgress,
    Option<&'a Destination>,
    Option<&'a PathFailed>,
    Has<SharedFlow>,
    Has<Body>,
    &'a mut Wandering,
    Option<&'a OwnPlace>,
    Option<&'a BodyMotion>,
);

/// Sets every agent's destination and moves from the panel and the goal marker.
///
/// Why one long function: a Bevy system; each kind of agent (chasing, wandering, flowing, a body of
/// the crowd) is a few lines that need most of its queries, which helpers would pass along.
#[allow(clippy::too_many_arguments)]
pub(super) fn steer(
    settings: Res<AgentSettings>,
    planner: Res<PlannerSettings>,
    nav: Res<NavGrid>,
    goal: Single<&MarkerCell, With<Goal>>,
    mut service: ResMut<PathService>,
    mut rng: ResMut<WanderRng>,
    mut last_goal: Local<Option<AgentGoal>>,
    mut agents: Query<Steered>,
    mut commands: Commands,
) {
    if service.budget != settings.budget {
        service.budget = settings.budget;
    }
    let new_goal = last_goal.replace(settings.goal) != Some(settings.goal);
    let flow = settings.flow_chasing();
    for (
        entity,
        agent,
        mut grid_agent,
        status,
        progress,
        destination,
        failed,
        has_flow,
        is_body,
        mut wandering,
        own,
        motion,
    ) in &mut agents
    {
        let moves = GridAgent {
            speed: agent.speed,
            movement: planner.search.movement,
            size: agent.size,
            ..default()
        };
        if *grid_agent != moves {
            *grid_agent = moves;
        }
        if settings.as_bodies() != is_body {
            if is_body {
                commands.entity(entity).remove::<Body>();
            } else {
                commands.entity(entity).insert(Body);
            }
        }
        if flow != has_flow {
            if flow {
                commands.entity(entity).insert(SharedFlow);
            } else {
                commands.entity(entity).remove::<SharedFlow>();
            }
        }
        let to = match settings.goal {
            AgentGoal::Chase => Some(goal.0),
            AgentGoal::Own => own.map(|o| o.0),
            // Not placed yet, it has no cell to wander from: it picks at the next frame.
            AgentGoal::Wander if progress.placed_cell().is_none() => None,
            AgentGoal::Wander => {
                let here = progress.cell();
                let failed_here =
                    failed.is_some_and(|f| Some(f.request.to) == destination.map(|d| d.0));
                if *status == AgentStatus::Walking {
                    wandering.failures = 0;
                }
                let stalled = motion.map_or(0.0, BodyMotion::stalled);
                let jammed = wandering.patience.gives_up(stalled, WANDER_PATIENCE);
                let pick = new_goal
                    || destination.is_none()
                    || *status == AgentStatus::Arrived
                    || jammed
                    || (*status == AgentStatus::Stuck
                        && failed_here
                        && wandering.failures + 1 < WANDER_TRIES);
                if pick && *status == AgentStatus::Stuck {
                    wandering.failures += 1;
                }
                pick.then(|| random_place_near(&mut rng.0, &nav, here, agent.size))
                    .flatten()
                    .or(destination.map(|d| d.0))
            }
        };
        if let Some(to) = to
            && destination.map(|d| d.0) != Some(to)
        {
            commands.entity(entity).insert(Destination(to));
        }
    }
}
