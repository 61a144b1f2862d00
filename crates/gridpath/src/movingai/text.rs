//! Reading text that may be hostile: quoting it back safely, strict numbers, and UTF-8 errors
//! that say where they are.
//!
//! A file from the internet can hold a 50 MB line, terminal escape sequences, NUL bytes or
//! invisible characters. An error message quotes at most a short excerpt of it, with everything
//! that is not plainly visible escaped, so the message is short and means what it shows.

use super::error::FormatError;
pub use super::quote::{EXCERPT_CHARS, quote, quote_char, visible_path};

/// A whole number written as plain decimal digits: no sign, no spaces, no `0x`, and small enough
/// for a `u32`. (Rust's own `parse` accepts a leading `+`, which the formats do not document.)
///
/// One pass, digit by digit, with checked arithmetic: a scenario file has five numbers a line,
/// and checking the digits first and then calling `parse` read each one twice.
pub fn whole_number(text: &str) -> Option<u32> {
    if text.is_empty() {
        return None;
    }
    text.bytes().try_fold(0u32, |n, b| {
        let digit = b.is_ascii_digit().then(|| u32::from(b - b'0'))?;
        n.checked_mul(10)?.checked_add(digit)
    })
}

/// A length written as the benchmark files write it: digits, optionally a point and more digits
/// (`3`, `54.04163055`). No sign, exponent, `inf` or `NaN`, and not so large that it is infinite
/// as a float (beyond about 1.8 × 10³⁰⁸; a fuzz finding had 332 digits).
pub fn decimal(text: &str) -> Option<f64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) {
        return None;
    }
    text.parse().ok().filter(|v: &f64| v.is_finite())
}

/// The bytes as text, or an error naming the line and column of the first byte that is not
/// UTF-8 (the formats are plain ASCII, so it is almost certainly not a map at all).
pub fn decode(bytes: &[u8]) -> Result<&str, FormatError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        // Everything before the bad byte is valid, so this never falls back.
        let column = std::str::from_utf8(&good[line_start..]).map_or(0, |s| s.chars().count()) + 1;
        let byte = bytes[e.valid_up_to()];
        FormatError::new(
            line,
            format!("byte 0x{byte:02x} is not UTF-8 text (these files are plain ASCII)"),
        )
        .at_column(column)
    })
}

/// The text without a UTF-8 byte-order mark at its start: some editors on Windows add one, and
/// it is invisible, so an error about it would be baffling.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_and_escaped() {
        assert_eq!(quote("hex"), "'hex'");
        assert_eq!(quote("a\u{1b}[31m\0\r"), "'a\\u{1b}[31m\\0\\r'");
        assert_eq!(quote("\u{feff}type"), "'\\u{feff}type'");
        assert_eq!(quote("it's"), "'it's'");
        let long = "x".repeat(50_000);
        assert_eq!(
            quote(&long),
            format!("'{}'… (50000 characters)", "x".repeat(EXCERPT_CHARS))
        );
        let marks = "\u{303}".repeat(40);
        let shown = quote(&marks);
        assert!(shown.len() < 80, "{shown}");
        assert!(shown.ends_with("… (40 characters)"), "{shown}");
        assert_eq!(quote_char('\t'), "'\\t'");
        assert_eq!(quote_char('Z'), "'Z'");
    }

    #[test]
    fn numbers_are_strict() {
        assert_eq!(whole_number("49"), Some(49));
        assert_eq!(whole_number("007"), Some(7));
        assert_eq!(whole_number("4294967295"), Some(u32::MAX));
        for bad in ["+3", "-1", " 3", "", "3.0", "4294967296", "0x10", "٣"] {
            assert_eq!(whole_number(bad), None, "{bad:?}");
        }
        assert_eq!(decimal("54.04163055"), Some(54.04163055));
        assert_eq!(decimal("3"), Some(3.0));
        for bad in ["+1", "-0.5", "1e5", "inf", "NaN", ".5", "5.", "1.2.3", ""] {
            assert_eq!(decimal(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn bad_utf8_names_its_line_and_column() {
        let err = decode(b"type octile\nheight 2\nwi\xffdth 2\n").unwrap_err();
        assert_eq!((err.line, err.column), (3, Some(3)));
        assert!(err.message.contains("0xff"), "{}", err.message);
        assert_eq!(decode("é\n".as_bytes()), Ok("é\n"));
        assert_eq!(without_bom("\u{feff}type"), "type");
    }
}
