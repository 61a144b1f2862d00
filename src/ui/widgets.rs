//! Where the panel's named widgets are on screen, recorded as the panel draws them. The
//! end-to-end test hook reads it to know where to click; nothing else needs it.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_egui::egui;

/// The centre of each named widget, in logical window pixels, as of the last panel pass.
#[derive(Resource, Debug, Default)]
pub struct PanelWidgets(HashMap<&'static str, Vec2>);

impl PanelWidgets {
    /// Records where a widget is.
    pub fn note(&mut self, name: &'static str, response: &egui::Response) {
        let c = response.rect.center();
        self.0.insert(name, Vec2::new(c.x, c.y));
    }

    /// Every widget and its centre, sorted by name.
    pub fn sorted(&self) -> Vec<(&'static str, Vec2)> {
        let mut all: Vec<_> = self.0.iter().map(|(n, c)| (*n, *c)).collect();
        all.sort_by_key(|(name, _)| *name);
        all
    }
}

/// A duration for the panel: "45 µs", or "1.2 ms" from a millisecond up.
pub fn duration(micros: f64) -> String {
    if micros >= 1000.0 {
        format!("{:.1} ms", micros / 1000.0)
    } else {
        format!("{micros:.0} µs")
    }
}

/// JPS+'s table work in a few words, for a narrow column: "repaired in 45 µs".
pub fn table_work(work: &bevy_gridpath::TableWork) -> String {
    let what = match work.update {
        gridpath::jump_distances::Update::Unchanged => return "up to date".into(),
        gridpath::jump_distances::Update::Repaired { .. } => "repaired",
        gridpath::jump_distances::Update::Rebuilt => "built",
    };
    format!("{what} in {}", duration(work.micros))
}
