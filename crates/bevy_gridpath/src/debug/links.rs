//! Links: a line between a link's ends, a ring at each, an arrow for one taken one way; a shut
//! link is drawn dim. Where a route takes a link, [`super::routes`] breaks its line and rings
//! the end it arrives at (the floor it changes to).

use super::groups::{DebugColors, LinkGizmos};
use super::on_screen::OnScreen;
use bevy::prelude::*;
use gridpath::Point;

pub(super) fn draw_links(
    screen: OnScreen,
    colors: Res<DebugColors>,
    mut gizmos: Gizmos<LinkGizmos>,
) {
    let Some(nav) = screen.nav() else {
        return;
    };
    let layout = nav.layout();
    let ring = layout.step.abs().x * 0.3;
    let world = |p: Point| layout.to_world(p);
    for (_, link) in nav.links() {
        let color = if link.open {
            colors.link
        } else {
            colors.link.with_alpha(0.3)
        };
        let (from, to) = (world(link.from), world(link.to));
        gizmos.circle_2d(Isometry2d::from_translation(from), ring, color);
        gizmos.circle_2d(Isometry2d::from_translation(to), ring, color);
        // From ring to ring, not centre to centre.
        let along = (to - from).normalize_or_zero() * ring;
        if link.two_way {
            gizmos.line_2d(from + along, to - along, color);
        } else {
            gizmos
                .arrow_2d(from + along, to - along, color)
                .with_tip_length(ring);
        }
    }
}
