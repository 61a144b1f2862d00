//! Where the panel's named widgets are on screen, recorded as the panel draws them. The
//! end-to-end test hook reads it to know where to click; nothing else needs it.

use crate::view::palette;
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

/// An sRGB colour of the palette, for egui.
pub(crate) const fn color32([r, g, b]: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(r, g, b)
}

pub(crate) const RED: egui::Color32 = color32(palette::ERROR_TEXT);
pub(crate) const AMBER: egui::Color32 = color32(palette::WARNING_TEXT);

/// The panel's file-name field, as the Map and the many-agents sections show it.
pub fn file_field(ui: &mut egui::Ui, path: &mut String) {
    ui.horizontal(|ui| {
        ui.label("file");
        ui.add(egui::TextEdit::singleline(path).desired_width(190.0));
    });
}

/// A small filled square in a colour, as drawn next to palette entries and legends.
pub fn swatch(ui: &mut egui::Ui, rgb: [u8; 3]) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, color32(rgb));
}

/// A legend's line: a swatch before each label, wrapped to the panel's width.
pub fn legend_line(ui: &mut egui::Ui, entries: &[([u8; 3], &str)]) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        for &(rgb, label) in entries {
            swatch(ui, rgb);
            ui.label(label);
        }
    });
}

std::thread_local! {
    /// Every section open, whatever the user chose: for the test that lays the whole panel out.
    static ALL_OPEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A collapsing section of the panel, forced open when `open` (a result that just arrived) or
/// while a test lays out every section.
pub(crate) fn section(title: &str, open: bool) -> egui::CollapsingHeader {
    let open = open || ALL_OPEN.with(std::cell::Cell::get);
    egui::CollapsingHeader::new(title).open(open.then_some(true))
}

/// Opens every section on this thread from now on (for tests).
#[cfg(test)]
pub(crate) fn open_all_sections() {
    ALL_OPEN.with(|all| all.set(true));
}

/// The shapes on the time-line's step buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepIcon {
    /// A bar and a triangle pointing left: to the start.
    ToStart,
    /// A triangle pointing left: one step back.
    Back,
    /// A triangle pointing right: one step forward.
    Forward,
    /// A triangle pointing right and a bar: to the end.
    ToEnd,
}

/// A button with a step icon painted on it, in the colour its text would have. Painted rather
/// than a glyph: the symbols ⏮ ◀ ▶ ⏭ are in none of the panel's font (see `fonts`).
pub fn step_button(ui: &mut egui::Ui, icon: StepIcon) -> egui::Response {
    let size = egui::vec2(24.0, ui.spacing().interact_size.y);
    let response = ui.add(egui::Button::new("").min_size(size));
    let color = ui.style().interact(&response).fg_stroke.color;
    let c = response.rect.center();
    // A triangle of half-height `h` whose point is at `tip`, and a bar beside its base.
    let h = 4.5;
    let (left, bar) = match icon {
        StepIcon::ToStart => (true, Some(c.x - 5.0)),
        StepIcon::Back => (true, None),
        StepIcon::Forward => (false, None),
        StepIcon::ToEnd => (false, Some(c.x + 5.0)),
    };
    let (tip, base) = match (left, bar) {
        (true, Some(x)) => (x + 1.0, x + 1.0 + 2.0 * h),
        (false, Some(x)) => (x - 1.0, x - 1.0 - 2.0 * h),
        (true, None) => (c.x - h, c.x + h),
        (false, None) => (c.x + h, c.x - h),
    };
    let triangle = vec![
        egui::pos2(tip, c.y),
        egui::pos2(base, c.y - h),
        egui::pos2(base, c.y + h),
    ];
    let painter = ui.painter();
    painter.add(egui::Shape::convex_polygon(
        triangle,
        color,
        egui::Stroke::NONE,
    ));
    if let Some(x) = bar {
        let bar = egui::Rect::from_center_size(egui::pos2(x, c.y), egui::vec2(1.5, 2.0 * h));
        painter.rect_filled(bar, 0.0, color);
    }
    response
}
