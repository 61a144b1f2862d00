//! Just enough JSON for a benchmark's configuration file: one object of strings, numbers and
//! other values, read without a dependency. Anything else (a nested object, an array) is parsed
//! and skipped, so a file with more keys than ours still reads. Nesting deeper than
//! [`MAX_DEPTH`] is refused: a hostile file of a million `[` must not overflow the stack.

use std::collections::HashMap;

/// How deep values may nest.
const MAX_DEPTH: usize = 64;

/// A top-level value we keep: a string or a number. Other kinds are skipped.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Text(String),
    Number(f64),
    Other,
}

/// The top-level object's keys and values, or what is wrong, with the byte offset.
pub fn parse_object(text: &str) -> Result<HashMap<String, Value>, String> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
    };
    reader.space();
    reader.expect(b'{')?;
    let mut out = HashMap::new();
    reader.space();
    if reader.eat(b'}') {
        return reader.end(out);
    }
    loop {
        reader.space();
        let key = reader.string()?;
        reader.space();
        reader.expect(b':')?;
        let value = reader.value(1)?;
        out.insert(key, value);
        reader.space();
        if reader.eat(b'}') {
            return reader.end(out);
        }
        reader.expect(b',')?;
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn fail<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.at))
    }

    fn space(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        let found = self.bytes.get(self.at) == Some(&b);
        self.at += usize::from(found);
        found
    }

    fn expect(&mut self, b: u8) -> Result<(), String> {
        if self.eat(b) {
            Ok(())
        } else {
            self.fail(&format!("expected '{}'", b as char))
        }
    }

    fn end(mut self, out: HashMap<String, Value>) -> Result<HashMap<String, Value>, String> {
        self.space();
        if self.at < self.bytes.len() {
            return self.fail("text after the object");
        }
        Ok(out)
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return self.fail("values nested too deep");
        }
        self.space();
        match self.bytes.get(self.at) {
            Some(b'"') => self.string().map(Value::Text),
            Some(b'{') => self.skip_list(b'}', depth, true),
            Some(b'[') => self.skip_list(b']', depth, false),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't' | b'f' | b'n') => {
                for word in ["true", "false", "null"] {
                    if self.bytes[self.at..].starts_with(word.as_bytes()) {
                        self.at += word.len();
                        return Ok(Value::Other);
                    }
                }
                self.fail("unknown word")
            }
            _ => self.fail("expected a value"),
        }
    }

    /// An object (`keyed`) or an array, skipped.
    fn skip_list(&mut self, close: u8, depth: usize, keyed: bool) -> Result<Value, String> {
        self.at += 1;
        self.space();
        if self.eat(close) {
            return Ok(Value::Other);
        }
        loop {
            if keyed {
                self.space();
                self.string()?;
                self.space();
                self.expect(b':')?;
            }
            self.value(depth + 1)?;
            self.space();
            if self.eat(close) {
                return Ok(Value::Other);
            }
            self.expect(b',')?;
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
        match text.parse::<f64>() {
            Ok(n) if n.is_finite() => Ok(Value::Number(n)),
            _ => {
                self.at = start;
                self.fail("a malformed number")
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out = Vec::new();
        loop {
            let Some(&b) = self.bytes.get(self.at) else {
                return self.fail("a string that never ends");
            };
            self.at += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.bytes.get(self.at) else {
                        return self.fail("a string that never ends");
                    };
                    self.at += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' | b'f' => {}
                        b'u' => {
                            let hex = self.bytes.get(self.at..self.at + 4);
                            let code = hex
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok());
                            let Some(code) = code else {
                                return self.fail("a malformed \\u escape");
                            };
                            self.at += 4;
                            let c = char::from_u32(code).unwrap_or('\u{fffd}');
                            out.extend_from_slice(c.to_string().as_bytes());
                        }
                        _ => return self.fail("an unknown escape"),
                    }
                }
                b if b < 0x20 => return self.fail("a control character in a string"),
                b => out.push(b),
            }
        }
        String::from_utf8(out).or_else(|_| self.fail("a string that is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_benchmark_configuration() {
        let text = r#"{ "mapFile": "maps/a.map", "teamSize": 800, "x": [1, {"y": null}],
            "t": true, "s": "a\"b\u0041" }"#;
        let object = parse_object(text).expect("valid");
        assert_eq!(object["mapFile"], Value::Text("maps/a.map".into()));
        assert_eq!(object["teamSize"], Value::Number(800.0));
        assert_eq!(object["x"], Value::Other);
        assert_eq!(object["s"], Value::Text("a\"bA".into()));
    }

    #[test]
    fn refuses_malformed_text_with_where() {
        for bad in [
            "",
            "[]",
            "{",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "{\"a\": 01x}",
            "{} x",
        ] {
            let e = parse_object(bad).expect_err(bad);
            assert!(e.contains("at byte"), "{bad}: {e}");
        }
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse_object(&deep).is_err());
    }
}
