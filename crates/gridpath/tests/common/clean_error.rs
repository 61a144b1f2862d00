//! What every parse error must be, whatever the input: short, printable, and on a line of the
//! text. Shared by the property tests and the parser fuzz targets (`fuzz/`), which include this
//! file by path.

use gridpath::movingai::FormatError;

/// Panics unless `e`, shown as a user sees it, is under 300 characters with no control
/// characters, and names a line of `bytes` (or the one just past its end).
pub fn assert_clean_error(bytes: &[u8], e: &FormatError) {
    let shown = e.to_string();
    assert!(shown.len() < 300, "{} bytes: {shown}", shown.len());
    assert!(!shown.chars().any(char::is_control), "{shown:?}");
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    assert!(
        e.line >= 1 && e.line <= lines + 1,
        "line {} of {lines}",
        e.line
    );
}
