//! Every colour the playground shows, in one place: the overlays, the markers, the ground, the
//! explored-cell ramps and the panel's warning colours. The tiles, the gizmos, the panel's legend
//! and the end-to-end tests all read them from here.

use crate::world::terrain::Ground;
use bevy::prelude::*;

/// Behind the map.
pub const BACKGROUND: Color = Color::srgb(0.11, 0.12, 0.14);
pub const GRID: Color = Color::srgba(0.25, 0.25, 0.3, 0.55);
pub const OBSTACLE: Color = Color::srgb(1.0, 0.55, 0.1);
pub const PATH: Color = Color::srgb(0.1, 0.95, 0.2);
/// The path straightened with line of sight, drawn over the green one.
pub const STRAIGHTENED: Color = Color::srgb(0.97, 0.97, 1.0);
pub const FRONTIER: Color = Color::srgb(0.15, 0.45, 1.0);
/// A bidirectional search's second frontier, the one spreading from the goal.
pub const FRONTIER_FROM_GOAL: Color = Color::srgb(0.9, 0.2, 0.75);
/// Where a bidirectional search's two halves meet.
pub const MEETING: Color = Color::srgb(1.0, 1.0, 1.0);
pub const CURRENT: Color = Color::srgb(1.0, 0.85, 0.0);
/// The g, h and f written on cells.
/// The grid drawn as a graph: its edges and its nodes.
pub const GRAPH_EDGE: Color = Color::srgb(0.95, 0.55, 0.1);
pub const GRAPH_NODE: Color = Color::srgb(0.1, 0.1, 0.15);
pub const LABEL: Color = Color::srgb(0.05, 0.05, 0.1);

/// The markers, as sRGB bytes.
pub const START: [u8; 3] = [40, 190, 70];
pub const GOAL: [u8; 3] = [220, 50, 50];

/// The panel's text for errors ("No path") and warnings.
pub const ERROR_TEXT: [u8; 3] = [255, 90, 90];
pub const WARNING_TEXT: [u8; 3] = [255, 190, 70];

/// A kind of ground's colour, as sRGB bytes.
pub fn ground(g: Ground) -> [u8; 3] {
    match g {
        Ground::Road => [222, 216, 200],
        Ground::Grass => [132, 186, 96],
        Ground::Mud => [140, 102, 66],
        Ground::Water => [72, 132, 204],
    }
}

/// The explored-cell tints, light to dark, as multipliers of the tile's own colour: by the order
/// of expansion, and by the cost from the start.
pub const ORDER_RAMP: [[f32; 3]; 3] = [[0.62, 0.92, 1.0], [0.45, 0.62, 1.0], [0.72, 0.42, 0.95]];
pub const COST_RAMP: [[f32; 3]; 3] = [[1.0, 0.96, 0.55], [1.0, 0.7, 0.35], [0.95, 0.4, 0.35]];

/// The flow field's heat map, by cost to the goal: near is light green, far is violet.
pub const FLOW_RAMP: [[f32; 3]; 3] = [[0.6, 1.0, 0.62], [0.5, 0.78, 1.0], [0.7, 0.5, 0.92]];

/// The flow field's arrows.
/// The ring around a stuck agent.
/// The clearance overlay's rings: room for a unit of one cell, two, three or more.
pub const CLEARANCE: [Color; 3] = [
    Color::srgb(0.95, 0.3, 0.3),
    Color::srgb(1.0, 0.75, 0.2),
    Color::srgb(0.3, 0.9, 0.4),
];
/// The tactics view: the unit's range outlined, what it sees dotted, the way to the goal ringed
/// where each turn ends (the first turn's end and the later ones), an enemy's zone of control.
pub const RANGE: Color = Color::srgb(0.1, 0.35, 0.95);
pub const SIGHT: Color = Color::srgb(0.95, 0.6, 0.0);
pub const TURN_END: Color = Color::srgb(0.05, 0.05, 0.12);
pub const LATER_TURN_END: Color = Color::srgb(0.95, 0.25, 0.8);
pub const ZONE: Color = Color::srgb(0.9, 0.1, 0.1);
/// The unit classes view: each class's route (walker, soldier, tank, boat).
pub const CLASSES: [Color; 4] = [
    Color::srgb(0.95, 0.95, 0.95),
    Color::srgb(0.2, 0.45, 1.0),
    Color::srgb(0.2, 0.8, 0.3),
    Color::srgb(0.1, 0.85, 0.95),
];
pub const STUCK: Color = Color::srgb(0.95, 0.2, 0.2);
pub const FLOW_ARROW: Color = Color::srgba(0.08, 0.1, 0.2, 0.75);

/// The tint at `t` in 0..=1 along a ramp.
pub fn ramp(stops: &[[f32; 3]; 3], t: f32) -> Color {
    let t = t.clamp(0.0, 1.0) * 2.0;
    let (a, b, f) = if t < 1.0 {
        (stops[0], stops[1], t)
    } else {
        (stops[1], stops[2], t - 1.0)
    };
    let mix = |i: usize| a[i] + (b[i] - a[i]) * f;
    Color::srgb(mix(0), mix(1), mix(2))
}

/// A colour as sRGB bytes (alpha dropped).
pub fn rgb8(color: Color) -> [u8; 3] {
    let c = color.to_srgba();
    [c.red, c.green, c.blue].map(|v| (v * 255.0) as u8)
}
