//! No function of the four crates (their sources, examples and benchmarks) is over 80 lines
//! unless its doc comment says why it must be long ("Why one long function: ..."). Read from the
//! sources: a function's length is from its `fn` line to the brace that closes its body.

use std::path::{Path, PathBuf};

const LIMIT: usize = 80;
const WHY: &str = "Why one long function:";

/// Every `.rs` file below `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found
}

/// A line without its comment and the insides of its string and character literals, so that
/// their braces do not count.
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            // A character literal ('{', '\''), not a lifetime ('a).
            '\'' if matches!(chars.clone().nth(1), Some('\'')) => {
                chars.nth(1);
            }
            '\'' if chars.peek() == Some(&'\\') => {
                chars.nth(2);
            }
            c => out.push(c),
        }
    }
    out
}

/// Is this line the start of a function (`fn name`, perhaps `pub`, `const` or `async`)?
fn is_fn(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let skipped = words
        .iter()
        .take_while(|w| w.starts_with("pub") || ["const", "async", "unsafe"].contains(w))
        .count();
    words.get(skipped) == Some(&"fn")
}

/// The functions over the limit whose doc comment does not say why: file, line, length.
fn too_long(file: &Path) -> Vec<(String, usize, usize)> {
    let text = std::fs::read_to_string(file).expect("a source file");
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !is_fn(line) {
            continue;
        }
        let (mut depth, mut opened, mut end) = (0i32, false, None);
        for (j, later) in lines.iter().enumerate().skip(i) {
            let code = code_of(later);
            if !opened && code.contains(';') && !code.contains('{') {
                break; // a declaration without a body
            }
            for c in code.chars() {
                match c {
                    '{' => (depth, opened) = (depth + 1, true),
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth == 0 {
                end = Some(j);
                break;
            }
        }
        let Some(end) = end else { continue };
        let length = end - i + 1;
        let above = lines[..i]
            .iter()
            .rev()
            .take_while(|l| l.trim_start().starts_with("///") || l.trim_start().starts_with("#["));
        let why = above.clone().any(|l| l.contains(WHY));
        if length > LIMIT && !why {
            found.push((file.display().to_string(), i + 1, length));
        }
    }
    found
}

#[test]
fn no_function_is_over_80_lines_without_saying_why() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "benches", "crates"] {
        files.extend(sources(&root.join(dir)));
    }
    // Tests may be long: a scene and its checks read best in one place.
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "tests"));
    assert!(files.len() > 200, "{} source files found", files.len());
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| too_long(f))
        .map(|(file, line, length)| format!("{file}:{line}: {length} lines"))
        .collect();
    assert!(
        found.is_empty(),
        "over {LIMIT} lines with no \"{WHY}\" in the doc comment:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_long_function_is_found_and_a_short_one_is_not() {
    let dir = std::env::temp_dir().join(format!("long-fns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let body = "    let x = '{';\n    let s = \"}}\";\n".repeat(45);
    let long = format!("/// Doc.\npub fn long() {{\n{body}}}\n\nfn short() {{}}\n");
    let file = dir.join("a.rs");
    std::fs::write(&file, &long).expect("written");
    let found = too_long(&file);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].1, found[0].2), (2, 92));
    let why = long.replace("/// Doc.", &format!("/// Doc.\n/// {WHY} it is."));
    std::fs::write(&file, why).expect("written");
    assert!(too_long(&file).is_empty());
}
