//! The panel's one font: Ubuntu Light, egui's own proportional font, for its text and its code
//! editor alike.
//!
//! egui's default set is four fonts, and in the browser they cost 0.6 MB of the gzipped page
//! (an emoji font and an icon font for a few symbols, and Hack for monospace text). The panel's
//! text is Latin with a handful of symbols (× µ √ Δ − · … ≤), all of them in Ubuntu Light; its
//! step controls are painted (`widgets::step_button`), not glyphs. The test below checks every
//! symbol the app writes has its glyph, so a new one cannot turn into a box unnoticed.

use bevy::prelude::*;
use bevy_egui::{EguiContext, EguiPreUpdateSet, egui};
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        install
            .after(EguiPreUpdateSet::InitContexts)
            .before(EguiPreUpdateSet::BeginPass),
    );
}

/// The font every text of the panel is set in, in both of egui's families.
pub fn definitions() -> egui::FontDefinitions {
    const NAME: &str = "Ubuntu-Light";
    let mut fonts = egui::FontDefinitions::empty();
    fonts.font_data.insert(
        NAME.into(),
        Arc::new(egui::FontData::from_static(
            epaint_default_fonts::UBUNTU_LIGHT,
        )),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.insert(family, vec![NAME.into()]);
    }
    fonts
}

/// Gives each new egui context the font before its first pass: without one, egui has nothing
/// to lay text out with.
fn install(mut contexts: Query<&mut EguiContext, Added<EguiContext>>) {
    for mut context in &mut contexts {
        context.get_mut().set_fonts(definitions());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every character outside ASCII in the code of `dir` (not its comments, nor the tests at
    /// a file's end), and the file it is in.
    fn symbols_written(dir: &Path, found: &mut Vec<(char, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                symbols_written(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                let code = text.lines().take_while(|l| !l.starts_with("#[cfg(test)]"));
                for line in code.filter(|l| !l.trim_start().starts_with("//")) {
                    let code = line.split(" // ").next().unwrap_or(line);
                    for c in code.chars().filter(|c| !c.is_ascii()) {
                        found.push((c, path.display().to_string()));
                    }
                }
            }
        }
    }

    #[test]
    fn every_symbol_the_app_writes_has_a_glyph() {
        let mut found = Vec::new();
        for dir in ["src", "crates/bevy_gridpath/src", "crates/gridpath/src"] {
            symbols_written(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut found);
        }
        assert!(
            found.iter().any(|(c, _)| *c == '×'),
            "the scan finds nothing"
        );
        // egui tells a missing glyph by the face that draws its stand-in (◻): with one font,
        // that is the font itself, and every glyph would be "missing". Behind the panel's font,
        // a font that has ◻ (egui's emoji font, only here) draws the stand-ins instead.
        let mut definitions = definitions();
        let stand_ins = "stand-ins".to_string();
        definitions.font_data.insert(
            stand_ins.clone(),
            Arc::new(egui::FontData::from_static(
                epaint_default_fonts::NOTO_EMOJI_REGULAR,
            )),
        );
        for family in definitions.families.values_mut() {
            family.push(stand_ins.clone());
        }
        let mut fonts = egui::epaint::text::Fonts::new(Default::default(), definitions);
        let missing: Vec<_> = found
            .into_iter()
            // The graph lab shows the stepper's '→' as "->" (`graph_lab.rs` replaces it).
            .filter(|(c, file)| {
                !(*c == '→'
                    && ["lab/stepper.rs", "ui/graph_lab.rs"]
                        .iter()
                        .any(|f| file.ends_with(f)))
            })
            .filter(|(c, _)| {
                let family = [egui::FontFamily::Proportional, egui::FontFamily::Monospace];
                family
                    .into_iter()
                    .any(|f| !fonts.has_glyph(&egui::FontId::new(14.0, f), *c))
            })
            .collect();
        assert!(missing.is_empty(), "no glyph for {missing:?}");
    }
}
