//! How a multi-agent plan looks: each agent a disc in its own colour, gliding from cell to cell
//! as the time-line runs, and its goal a square outline in the same colour (an agent home sits
//! inside its square).
//!
//! While a plan is shown, the start and goal markers are hidden, and the search's overlays step
//! aside (see `overlays` and `explored_tint`).
//!
//! The discs are sprites, spawned once a plan and moved each frame: a thousand gizmo circles
//! would be re-tessellated every frame, a thousand sprites are one batch.

use crate::frame::AppSystems;
use crate::mapf::{Playback, ShownPlan};
use crate::view::textures;
use crate::world::agents::hue_for;
use crate::world::layout::{MapLayout, TILE};
use crate::world::markers::Marker;
use bevy::prelude::*;

/// One agent of the plan on screen.
#[derive(Component)]
struct PlanDisc(usize);

#[derive(Resource)]
struct DiscTexture(Handle<Image>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_texture).add_systems(
        Update,
        (respawn_discs, hide_markers, place_discs, draw_goals)
            .chain()
            .in_set(AppSystems::Draw),
    );
}

/// An agent's colour in the plan.
pub fn plan_color(agent: usize) -> Color {
    Color::hsl(hue_for(agent as u32), 0.75, 0.55)
}

fn make_texture(mut images: ResMut<Assets<Image>>, mut commands: Commands) {
    commands.insert_resource(DiscTexture(images.add(textures::rimmed_disc())));
}

/// A new plan (or none): one disc for each of its agents.
fn respawn_discs(
    shown: Res<ShownPlan>,
    discs: Query<Entity, With<PlanDisc>>,
    texture: Option<Res<DiscTexture>>,
    mut commands: Commands,
) {
    if !shown.is_changed() {
        return;
    }
    for disc in &discs {
        commands.entity(disc).despawn();
    }
    let (Some(plan), Some(texture)) = (&shown.0, texture) else {
        return;
    };
    spawn_discs(&mut commands, &texture.0, plan.agents(), 0.9, PlanDisc);
}

/// One disc for each of `count` agents, in their colours, `scale` of a tile across, each
/// tagged with `tag(agent)` (placed each frame by whoever tags them).
pub(super) fn spawn_discs<T: Component>(
    commands: &mut Commands,
    texture: &Handle<Image>,
    count: usize,
    scale: f32,
    tag: impl Fn(usize) -> T,
) {
    for agent in 0..count {
        commands.spawn((
            tag(agent),
            Sprite {
                image: texture.clone(),
                color: plan_color(agent),
                custom_size: Some(Vec2::splat(TILE * scale)),
                ..default()
            },
            Transform::from_translation(Vec3::new(0.0, 0.0, 10.0)),
        ));
    }
}

/// The start and goal markers belong to the one search between them: they step aside while a
/// multi-agent plan plays (as the search's path and explored cells do).
fn hide_markers(shown: Res<ShownPlan>, mut markers: Query<&mut Visibility, With<Marker>>) {
    if shown.is_changed() {
        show_markers(&mut markers, shown.0.is_none());
    }
}

/// Shows the start and goal markers, or hides them.
pub(super) fn show_markers(markers: &mut Query<&mut Visibility, With<Marker>>, shown: bool) {
    let visibility = if shown {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    for mut v in markers {
        v.set_if_neq(visibility);
    }
}

fn place_discs(
    shown: Res<ShownPlan>,
    playback: Res<Playback>,
    layout: Option<Res<MapLayout>>,
    mut discs: Query<(&PlanDisc, &mut Transform)>,
) {
    let (Some(plan), Some(layout)) = (&shown.0, layout) else {
        return;
    };
    for (PlanDisc(agent), mut transform) in &mut discs {
        if *agent < plan.agents() {
            let (from, to, f) = plan.leg(*agent, playback.time);
            let at = layout.cell_center(from).lerp(layout.cell_center(to), f);
            transform.translation = at.extend(10.0);
        }
    }
}

fn draw_goals(shown: Res<ShownPlan>, layout: Option<Res<MapLayout>>, mut gizmos: Gizmos) {
    let (Some(plan), Some(layout)) = (&shown.0, layout) else {
        return;
    };
    for (agent, &goal) in plan.goals.iter().enumerate() {
        let at = layout.cell_center(goal);
        gizmos.rect_2d(
            Isometry2d::from_translation(at),
            Vec2::splat(TILE * 0.8),
            plan_color(agent),
        );
    }
}
