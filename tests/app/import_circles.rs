//! No module of the four crates imports, however indirectly, a module that imports it: not
//! between siblings, not through a crate's root, and not between a folder's `mod.rs` and its
//! files (a `mod.rs` declares, re-exports and wires; what its files share lives in a file of its
//! own). Read from the sources, as `crates/gridpath/tests/layers.rs` reads the core's layers.
//!
//! A module *uses* another when its code (doc comments and tests aside) names it: a `crate::`
//! path or group, a `super::` path, group or glob, or a child module's name as a path's first
//! segment (`gather::gather`). A path names the deepest module it goes through.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module of the crate whose sources are in `src`, by path (`crowd::tick`; the root is ""),
/// with its code.
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path
                .strip_prefix(src)
                .expect("below src")
                .with_extension("");
            let mut parts: Vec<String> = relative
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts == ["lib"] {
                parts.clear();
            }
            if parts == ["main"] {
                // The binary: a crate of its own, which reaches the library by its name.
                parts = vec!["<bin>".to_string()];
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            let entry: &mut String = found.entry(parts.join("::")).or_default();
            entry.push_str(&code_of(&text));
        }
    }
    found
}

/// The text without comments and without its test module (from a `#[cfg(..test..)]` followed
/// by `mod` to the end of the file, where this codebase keeps its tests).
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        let next_is_mod = lines
            .peek()
            .is_some_and(|l| l.trim_start().starts_with("mod "));
        if trimmed.starts_with("#[cfg(") && trimmed.contains("test") && next_is_mod {
            break;
        }
        code.push_str(line.split("//").next().unwrap_or(""));
        code.push('\n');
    }
    code
}

/// The identifier starting at `text`'s beginning.
fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// A path (segments after `crate::` or from a known module) as written, `a::b::{c, d}` groups
/// spread: each path it names, as segments.
fn paths_at(text: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut rest = text;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            return inner
                .split(',')
                .map(|name| {
                    let mut path = prefix.clone();
                    path.extend(
                        name.trim()
                            .split("::")
                            .map(|s| ident(s.trim()).to_string())
                            .filter(|s| !s.is_empty() && s != "self"),
                    );
                    path
                })
                .collect();
        }
        let name = ident(rest);
        if name.is_empty() {
            return vec![prefix];
        }
        prefix.push(name.to_string());
        match rest[name.len()..].strip_prefix("::") {
            Some(more) => rest = more,
            None => return vec![prefix],
        }
    }
}

/// The deepest module of `known` that `base` + `path` goes through, if any of it is a module.
fn deepest(known: &BTreeSet<String>, base: &[String], path: &[String]) -> String {
    let mut whole: Vec<String> = base.to_vec();
    whole.extend(path.iter().cloned());
    (base.len()..=whole.len())
        .rev()
        .map(|k| whole[..k].join("::"))
        .find(|m| known.contains(m))
        .unwrap_or_else(|| base.join("::"))
}

/// Every module each module uses (see the module docs).
fn uses(mods: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let known: BTreeSet<String> = mods.keys().cloned().collect();
    let mut edges = BTreeMap::new();
    for (module, code) in mods {
        let segments: Vec<String> = if module.is_empty() {
            Vec::new()
        } else {
            module.split("::").map(String::from).collect()
        };
        let parent = &segments[..segments.len().saturating_sub(1)];
        let mut used = BTreeSet::new();
        for (at, _) in code.match_indices("crate::") {
            for path in paths_at(&code[at + "crate::".len()..]) {
                used.insert(deepest(&known, &[], &path));
            }
        }
        for (at, _) in code.match_indices("super::") {
            let after = &code[at + "super::".len()..];
            if after.starts_with('*') {
                used.insert(parent.join("::"));
                continue;
            }
            for path in paths_at(after) {
                used.insert(deepest(&known, parent, &path));
            }
        }
        for child in known.iter().filter(|k| {
            let (up, _) = k.rsplit_once("::").unwrap_or(("", k.as_str()));
            !k.is_empty() && up == module.as_str()
        }) {
            let name = child.rsplit("::").next().unwrap_or(child);
            let named = code.match_indices(&format!("{name}::")).any(|(at, _)| {
                let before = code[..at].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
            });
            if named {
                used.insert(child.clone());
            }
        }
        used.remove(module);
        edges.insert(module.clone(), used);
    }
    edges
}

/// The groups of modules that reach each other (Tarjan's strongly connected components), those
/// of two or more.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'e> {
        edges: &'e BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'e str, usize>,
        low: BTreeMap<&'e str, usize>,
        stack: Vec<&'e str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'e>(w: &mut Walk<'e>, v: &'e str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        for u in w.edges.get(v).into_iter().flatten() {
            if !w.index.contains_key(u.as_str()) {
                visit(w, u);
                let lu = w.low[u.as_str()];
                let lv = w.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lu);
            } else if w.stack.contains(&u.as_str()) {
                let iu = w.index[u.as_str()];
                let lv = w.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iu);
            }
        }
        if w.low[v] == w.index[v] {
            let mut group = Vec::new();
            while let Some(u) = w.stack.pop() {
                group.push(u.to_string());
                if u == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                w.found.push(group);
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v.as_str()) {
            visit(&mut walk, v);
        }
    }
    walk.found
}

#[test]
fn no_module_of_the_four_crates_is_in_an_import_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // With about how many modules each has, so that a reader that finds none fails.
    for (src, at_least) in [
        ("src", 20),
        ("crates/gridpath/src", 20),
        ("crates/gridpath_cli/src", 4),
        ("crates/bevy_gridpath/src", 20),
    ] {
        let mods = modules(&root.join(src));
        assert!(mods.len() >= at_least, "{src}: {} modules", mods.len());
        let found = circles(&uses(&mods));
        let shown: Vec<String> = found.iter().map(|g| g.join(" ↔ ")).collect();
        assert!(
            found.is_empty(),
            "{src}: import circles:\n{}",
            shown.join("\n")
        );
    }
}

#[test]
fn the_check_sees_a_circle_through_a_parent_and_one_between_siblings() {
    let mods = |files: &[(&str, &str)]| -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(m, code)| (m.to_string(), code_of(code)))
            .collect()
    };
    // A folder's mod.rs that wires its file, which imports what mod.rs holds.
    let parent = mods(&[
        ("", "mod crowd;"),
        (
            "crowd",
            "mod tick;\npub struct Crowd;\nfn plugin() { tick::run(); }",
        ),
        ("crowd::tick", "use super::Crowd;\npub fn run() {}"),
    ]);
    assert_eq!(circles(&uses(&parent)), vec![vec!["crowd", "crowd::tick"]]);
    // Two siblings through a group, and the same with the shared item in a file of its own.
    let siblings = mods(&[
        ("a", "use crate::{b::B, c};"),
        (
            "b",
            "use crate::a::{self};\n// crate::c in a comment is no use\npub struct B;",
        ),
        ("c", ""),
    ]);
    assert_eq!(circles(&uses(&siblings)), vec![vec!["a", "b"]]);
    let fixed = mods(&[
        (
            "crowd",
            "mod tick;\nmod state;\nfn plugin() { tick::run(); }",
        ),
        ("crowd::state", "pub struct Crowd;"),
        ("crowd::tick", "use super::state::Crowd;\npub fn run() {}"),
        ("crowd::gone", "#[cfg(test)]\nmod tests { use super::*; }"),
    ]);
    assert!(circles(&uses(&fixed)).is_empty());
}
