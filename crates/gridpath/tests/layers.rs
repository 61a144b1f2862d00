//! The crate is layered, and this test keeps it so: every `crate::…` path in a source file's code
//! (doc comments aside) names a module of the same layer or one below. The engines, in one layer,
//! may not name each other: they share only what lies below them.
//!
//! ```text
//! 4  the facade and what is built on it   search.rs, scenarios.rs, lib.rs, main.rs
//! 3  engines, side by side                engines/best_first/, engines/bidirectional.rs, …
//! 2  the best-first loop's rules          algorithms/
//! 1  the vocabulary of a search           vocabulary/, textbook.rs, tactics/ (which answers in
//!                                         its `Path`)
//! 0  grids, moves, heuristics, regions    grid.rs, hex.rs, staggered.rs, movement.rs, heuristic.rs, components.rs, buckets.rs, …
//! ```

use std::path::Path;

/// The layer of a source file, by its path below `src/`.
fn file_layer(path: &str) -> (u8, &str) {
    let top = path.split('/').next().unwrap_or(path);
    let layer = match top {
        "search.rs" | "scenarios.rs" | "lib.rs" | "main.rs" => 4,
        "engines" => 3,
        "algorithms" => 2,
        "vocabulary" | "textbook.rs" | "tactics" => 1,
        _ => 0,
    };
    // Within the engines, each engine is its own unit; `engines/mod.rs` and `engine.rs` are shared.
    let unit = match path {
        "engines/mod.rs" | "engines/engine.rs" => "engines",
        p if p.starts_with("engines/best_first/") => "best_first",
        p => p.trim_end_matches(".rs"),
    };
    (layer, unit)
}

/// The layer of what `crate::NAME` names: a module, or a name the crate root re-exports.
fn name_layer(name: &str) -> Option<(u8, &'static str)> {
    Some(match name {
        "Search" | "find_path" | "search" | "scenarios" => (4, "search"),
        "engines" => (3, "engines"),
        "bidirectional" | "Bidirectional" => (3, "engines/bidirectional"),
        "incremental" | "DStarLite" => (3, "engines/incremental"),
        "algorithms" => (2, "algorithms"),
        "vocabulary" | "Algorithm" | "GoalMode" | "NodeInfo" | "NodeState" | "Path"
        | "QueryError" | "SearchConfig" | "SearchResult" | "SearchStatus" | "Step"
        | "TraceEvent" | "textbook" | "tactics" => (1, "vocabulary"),
        "grid" | "Grid" | "Cell" | "Point" | "GridError" | "movement" | "Movement"
        | "CornerRule" | "DIAGONAL" | "STEPS" | "heuristic" | "Heuristic" | "run_bits"
        | "line_of_sight" | "smoothen_path" | "components" | "Components" | "jump_distances"
        | "JumpDistances" | "flow_field" | "FlowField" | "movingai" | "graph" | "mapf"
        | "clearance" | "Clearance" | "hex" | "staggered" | "buckets" | "terrain" | "Terrain"
        | "unit_class" | "UnitClass" | "links" | "Link" | "LinkId" | "point" => (0, "base"),
        _ => return None,
    })
}

/// Every `crate::NAME` in the code of `text`, and `crate::{A, B}` groups' names, with the line.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for name in group[..end].split(',') {
                    let name = name.trim().split("::").next().unwrap_or("");
                    if !name.is_empty() {
                        found.push((n + 1, name.to_string()));
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                found.push((n + 1, name));
            }
        }
    }
    found
}

fn source_files(dir: &Path, below: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("src") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            source_files(&path, below, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path.strip_prefix(below).expect("below src");
            let text = std::fs::read_to_string(&path).expect("a source file");
            out.push((name.to_string_lossy().replace('\\', "/"), text));
        }
    }
}

#[test]
fn no_module_names_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &src, &mut files);
    assert!(files.len() > 30, "{} files", files.len());
    let mut wrong = Vec::new();
    for (file, text) in &files {
        let (layer, unit) = file_layer(file);
        for (line, name) in crate_paths(text) {
            let Some((their_layer, their_unit)) = name_layer(&name) else {
                wrong.push(format!(
                    "{file}:{line}: crate::{name} is in no layer: add it"
                ));
                continue;
            };
            let sideways = layer == 3 && their_layer == 3 && their_unit != unit;
            if their_layer > layer || sideways {
                wrong.push(format!("{file}:{line}: layer {layer} names crate::{name} ({their_unit}, layer {their_layer})"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The checker can fail: a lower layer that names a higher one is caught.
#[test]
fn the_checker_sees_an_upward_path() {
    let paths =
        crate_paths("use crate::{Grid, Search};\nlet x = crate::engines::best_first; // crate::x");
    let names: Vec<&str> = paths.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["Grid", "Search", "engines"]);
    assert_eq!(file_layer("vocabulary/types.rs").0, 1);
    assert!(name_layer("Search").is_some_and(|(l, _)| l > 1));
}
