//! The tactics view: the start marker as a unit of a turn-based game, the goal as the cell it is
//! ordered to, and the agents on the map as its enemies (the one under the pointer shows where
//! it can reach in one turn, in its own colour). The unit's movement range and what it
//! sees are asked of the plugin exactly as a game asks ([`RangeRequest`] and [`SightRequest`] on
//! the marker, answered off the frame and drawn by its debug overlay); this module adds what the
//! view teaches: the way to the goal cut into turns, the cells where an enemy's zone of control
//! ends a move, and the lesson's figures (the range's cells against A\*'s expansions to the goal:
//! a range has no goal to be pulled towards, so it settles every cell within reach).

use super::query::PlanQuery;
use super::settings::PlanSystems;
use crate::editing::{Scene, SceneLoaded};
use crate::input::pointer::{PointerOverUi, PointerWorld};
use crate::world::agents::AgentPos;
use crate::world::markers::Start;
use bevy::prelude::*;
use bevy_gridpath::{Answer, RangeRequest, SightRequest};
use gridpath::tactics::{TurnEnd, split_into_turns};
use gridpath::{Path, Point, SearchConfig, find_path};

/// The panel's settings for the view.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct TacticsSettings {
    /// Show it? The start marker then carries the requests.
    pub enabled: bool,
    /// Movement points a turn.
    pub points: u32,
    /// How many turns of movement the range covers.
    pub turns: u32,
    /// How far the unit sees, in cells.
    pub sight: u32,
}

impl Default for TacticsSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            points: 6,
            turns: 2,
            sight: 8,
        }
    }
}

/// What the view shows besides the plugin's answers, for the range last answered.
#[derive(Resource, Clone, Debug, Default)]
pub struct TacticsLesson {
    /// The way to the goal, if the goal is in range.
    pub route: Option<Path>,
    /// Where each turn of it ends.
    pub turns: Vec<TurnEnd>,
    /// Cells in range inside an enemy's zone of control: a move ends there.
    pub zones: Vec<Point>,
    /// Cells in range.
    pub range_cells: usize,
    /// What A\* expanded to find its way to the goal (none if it could not).
    pub astar_expanded: Option<usize>,
    /// The movement points a turn the lesson was made with.
    pub points: f64,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TacticsSettings>()
        .init_resource::<TacticsLesson>()
        .add_systems(
            Update,
            (
                on_in_the_tactics_scene,
                ask_for_range_and_sight,
                range_of_the_enemy_under_the_pointer,
                make_lesson,
            )
                .chain()
                .in_set(PlanSystems::Search),
        );
}

/// The tactics scene switches the view on.
fn on_in_the_tactics_scene(
    mut loaded: MessageReader<SceneLoaded>,
    mut settings: ResMut<TacticsSettings>,
) {
    if loaded.read().any(|s| s.0 == Scene::Tactics) {
        settings.enabled = true;
    }
}

/// Puts the unit's requests on the start marker (the agents' cells as its enemies), or takes
/// them off when the view is switched off. A request equal to the one there is left alone, so
/// the plugin computes again only for a change.
fn ask_for_range_and_sight(
    settings: Res<TacticsSettings>,
    query: PlanQuery,
    marker: Single<(Entity, Option<&RangeRequest>, Option<&SightRequest>), With<Start>>,
    agents: Query<&AgentPos>,
    mut commands: Commands,
) {
    let (entity, range, sight) = *marker;
    let mut marker = commands.entity(entity);
    if !settings.enabled {
        if range.is_some() || sight.is_some() {
            marker.remove::<(RangeRequest, SightRequest)>();
            marker.remove::<(Answer<RangeRequest>, Answer<SightRequest>)>();
        }
        return;
    }
    let (from, movement) = (query.start(), query.settings().search.movement);
    let enemies: Vec<Point> = agents.iter().map(|a| a.cell()).collect();
    let budget = f64::from(settings.points * settings.turns);
    let wanted = RangeRequest::new(from, budget, movement).with_enemies(enemies);
    if range != Some(&wanted) {
        marker.insert(wanted);
    }
    let wanted = SightRequest {
        from,
        radius: settings.sight,
        movement,
    };
    if sight != Some(&wanted) {
        marker.insert(wanted);
    }
}

/// The enemy under the pointer asks for its own range, one turn's points with the unit as its
/// enemy; the others drop theirs. (The debug overlay draws each range in its entity's
/// `RouteColor`: an agent's own hue.)
fn range_of_the_enemy_under_the_pointer(
    settings: Res<TacticsSettings>,
    query: PlanQuery,
    pointer: Res<PointerWorld>,
    over_ui: Res<PointerOverUi>,
    agents: Query<(Entity, &AgentPos, Option<&RangeRequest>), Without<Start>>,
    mut commands: Commands,
) {
    let hovered = (settings.enabled && !over_ui.0)
        .then_some(pointer.0)
        .flatten()
        .zip(query.nav())
        .map(|(world, nav)| nav.layout().cell_at(world));
    let movement = query.settings().search.movement;
    let others = |me: Entity| -> Vec<Point> {
        agents
            .iter()
            .filter(|(e, ..)| *e != me)
            .map(|(_, a, _)| a.cell())
            .collect()
    };
    for (entity, at, range) in &agents {
        let mut agent = commands.entity(entity);
        if hovered != Some(at.cell()) {
            if range.is_some() {
                agent.remove::<(RangeRequest, Answer<RangeRequest>)>();
            }
            continue;
        }
        let budget = f64::from(settings.points);
        let wanted = RangeRequest::new(at.cell(), budget, movement)
            .with_enemies(vec![query.start()])
            .with_closed(others(entity));
        if range != Some(&wanted) {
            agent.insert(wanted);
        }
    }
}

/// Makes the lesson again when a new range lands or the goal moves.
fn make_lesson(
    settings: Res<TacticsSettings>,
    query: PlanQuery,
    range: Option<Single<Ref<Answer<RangeRequest>>, With<Start>>>,
    mut lesson: ResMut<TacticsLesson>,
    mut made_for: Local<Option<(u64, Point, Point, u32)>>,
) {
    let (Some(range), Some(grid)) = (range, query.grid()) else {
        return;
    };
    let goal = query.goal();
    let key = (range.revision, range.request.from, goal, settings.points);
    if !settings.enabled || (*made_for == Some(key) && !range.is_changed()) {
        return;
    }
    *made_for = Some(key);
    let points = f64::from(settings.points);
    let blockers = range.request.blockers(grid);
    let route = range.route_to(goal);
    let turns = route
        .as_ref()
        .and_then(|r| {
            split_into_turns(grid, range.request.movement, &r.cells, points, &blockers).ok()
        })
        .unwrap_or_default();
    let zones = range
        .answer
        .cells()
        .map(|(p, _)| p)
        .filter(|&p| blockers.in_zone(grid, p) && p != range.request.from)
        .collect();
    let astar = SearchConfig::astar(range.request.movement);
    let astar_expanded = find_path(grid, range.request.from, goal, &astar)
        .ok()
        .filter(|found| found.path.is_some())
        .map(|found| found.expanded);
    *lesson = TacticsLesson {
        route,
        turns,
        zones,
        range_cells: range.answer.len(),
        astar_expanded,
        points,
    };
}
