//! Quoting hostile text back safely: a short excerpt, with everything not plainly visible escaped
//! (read through [`super::text`], which re-exports it). A leaf: the errors quote with it too.

use std::fmt::Write;

/// At most this many characters of the offending text are quoted in a message.
pub const EXCERPT_CHARS: usize = 32;

/// And at most this many once escaped: one invisible character can take ten (`\u{10ffff}`), so a
/// line of combining marks would otherwise quote at ten times the length.
const EXCERPT_SHOWN: usize = 48;

/// `text` in quotes, as a message may show it: at most [`EXCERPT_CHARS`] characters (and 48 once
/// escaped), with control and invisible characters escaped as Rust writes them (`\0`, `\r`,
/// `\u{1b}`, `\u{feff}`), and the full length given when it was cut:
/// `'xxxx…' (50000000 characters)`.
pub fn quote(text: &str) -> String {
    let mut shown = String::new();
    let mut taken = 0;
    for c in text.chars().take(EXCERPT_CHARS) {
        let before = shown.len();
        push_visible(&mut shown, c);
        if shown.chars().count() > EXCERPT_SHOWN {
            shown.truncate(before);
            break;
        }
        taken += 1;
    }
    let mut out = format!("'{shown}'");
    let total = taken + text.chars().skip(taken).count();
    if total > taken {
        let _ = write!(out, "… ({total} characters)");
    }
    out
}

/// One character in quotes, escaped like [`quote`].
pub fn quote_char(c: char) -> String {
    let mut out = String::from("'");
    push_visible(&mut out, c);
    out.push('\'');
    out
}

/// A character as itself if it is plainly visible, or its escape (`escape_debug` escapes control
/// characters, white space other than the space, format characters such as the byte-order mark,
/// and combining marks).
fn push_visible(out: &mut String, c: char) {
    match c {
        '"' | '\'' => out.push(c),
        _ => out.extend(c.escape_debug()),
    }
}

/// A path as a message may show it: whole, but with the same escapes as [`quote`].
pub fn visible_path(path: &std::path::Path) -> String {
    let mut out = String::new();
    for c in path.to_string_lossy().chars() {
        push_visible(&mut out, c);
    }
    out
}
