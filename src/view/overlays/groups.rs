//! The playground's own gizmo groups, one an overlay, switched from the panel's settings.

use bevy::prelude::*;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct PathGizmos;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct FrontierGizmos;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct FlowGizmos;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct GridGraphGizmos;

#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct ClearanceGizmos;

/// The unit classes view's routes.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct ClassRouteGizmos;
