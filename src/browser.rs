//! What a browser gives the playground instead of files: a map chosen in the page's file picker
//! or dropped on the page arrives as text, and a saved map leaves as a download. A leaf module,
//! like [`crate::notices`]: any layer may use it, and it uses none.
//!
//! The page (`web/index.html`) reads a chosen or dropped file and calls [`open_map_text`], which
//! sorts it by its first line: a MAPF plan (`agents=`) goes to the plan player
//! ([`take_opened_plans`]), a scenario (`version`) to the multi-agent solver
//! ([`take_opened_scenarios`]), anything else to the world's map loader ([`take_opened_maps`]).

use std::sync::Mutex;

type Opened = Mutex<Vec<(String, String)>>;

/// Files handed over by the page and not yet taken, by kind: (file name, text).
static MAPS: Opened = Mutex::new(Vec::new());
static PLANS: Opened = Mutex::new(Vec::new());
static SCENARIOS: Opened = Mutex::new(Vec::new());

/// Called by the page with a file the user chose or dropped.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen::prelude::wasm_bindgen)]
pub fn open_map_text(name: String, text: String) {
    let first = text.trim_start_matches('\u{feff}').trim_start();
    let kind = if first.starts_with("agents=") {
        &PLANS
    } else if first.starts_with("version") {
        &SCENARIOS
    } else {
        &MAPS
    };
    if let Ok(mut opened) = kind.lock() {
        opened.push((name, text));
    }
}

/// The maps the page handed over since the last call, oldest first.
pub fn take_opened_maps() -> Vec<(String, String)> {
    take(&MAPS)
}

/// The MAPF plans (result files) the page handed over since the last call.
pub fn take_opened_plans() -> Vec<(String, String)> {
    take(&PLANS)
}

/// The scenario files the page handed over since the last call.
pub fn take_opened_scenarios() -> Vec<(String, String)> {
    take(&SCENARIOS)
}

fn take(opened: &Opened) -> Vec<(String, String)> {
    opened
        .lock()
        .map(|mut opened| std::mem::take(&mut *opened))
        .unwrap_or_default()
}

/// Offers `text` to the user as a download named `file`.
#[cfg(target_arch = "wasm32")]
pub fn download(file: &str, text: &str) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let fail = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no page")?;
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/plain");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "not a link")?;
    link.set_href(&url);
    link.set_download(file);
    link.click();
    web_sys::Url::revoke_object_url(&url).map_err(fail)
}

/// Opens the page's file picker (a hidden `<input type=file id=map-file>`); the chosen file
/// comes back through [`open_map_text`].
#[cfg(target_arch = "wasm32")]
pub fn choose_map_file() -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let input = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("map-file"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        .ok_or("the page has no file picker")?;
    input.click();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_handed_over_are_taken_once_in_order() {
        open_map_text("a.map".into(), "one".into());
        open_map_text("b.map".into(), "two".into());
        let names: Vec<String> = take_opened_maps().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["a.map", "b.map"]);
        assert!(take_opened_maps().is_empty());
    }

    #[test]
    fn plans_and_scenarios_are_told_from_maps_by_their_first_line() {
        open_map_text("p.txt".into(), "agents=2\nsolution=\n".into());
        open_map_text("s.scen".into(), "\u{feff}version 1\n".into());
        assert_eq!(take_opened_plans().len(), 1);
        assert_eq!(take_opened_scenarios().len(), 1);
    }
}
