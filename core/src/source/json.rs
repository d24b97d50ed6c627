//! JSON text read straight into the positioned document tree, an order of magnitude faster than
//! the YAML parser on the multi-megabyte objects `kubectl get -o json` prints for large runs.
//!
//! Only strict JSON is taken, and only when nothing needs a diagnostic: on any syntax error, a
//! duplicate key, or nesting past [`MAX_DEPTH`] it gives up (`None`) and the YAML parser reads the
//! text instead, with its located messages. Nodes get the same shapes the YAML parser gives JSON:
//! strings quoted (`"`), numbers, booleans and null plain; positions are 1-based line and column of
//! the value's first character (a string's opening quote, a container's bracket).

use std::borrow::Cow;

use super::keys::key as shared;
use super::{Entry, Node, Scalar, Style, Value, MAX_DEPTH};

/// Every JSON value of `text`, one after another (whitespace-separated), or `None`.
pub fn parse(text: &str) -> Option<Vec<Node<'_>>> {
    let mut p = Parser {
        b: text.as_bytes(),
        text,
        i: 0,
        line: 1,
        line_start: 0,
        seen: (0, 1),
    };
    let mut docs = Vec::new();
    loop {
        p.ws();
        if p.i >= p.b.len() {
            break;
        }
        let node = p.value(0)?;
        if !node.is_null() {
            docs.push(node);
        }
    }
    Some(docs)
}

struct Parser<'t> {
    b: &'t [u8],
    text: &'t str,
    i: usize,
    line: usize,
    line_start: usize,
    /// The last column computed, as (byte offset, column): the cursor only moves forward, so a
    /// column is counted from there, never from the line's start again (one-line JSON is common).
    seen: (usize, usize),
}

impl<'t> Parser<'t> {
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                _ => break,
            }
        }
    }

    /// The column of the current byte, counted in characters as the YAML parser does.
    fn column(&mut self) -> usize {
        let (from, col) = if self.seen.0 >= self.line_start {
            self.seen
        } else {
            (self.line_start, 1)
        };
        let col = col + self.text.get(from..self.i).map_or(0, |s| s.chars().count());
        self.seen = (self.i, col);
        col
    }

    fn value(&mut self, depth: usize) -> Option<Node<'t>> {
        self.ws();
        let (line, column) = (self.line, self.column());
        let value = match *self.b.get(self.i)? {
            b'{' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                let mut entries: Vec<Entry> = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        let (key_line, key_column) = (self.line, self.column());
                        if self.b.get(self.i) != Some(&b'"') {
                            return None;
                        }
                        // Borrowed when written without escapes, as the fast YAML reader's
                        // keys are; an unescaped copy is shared when it is a well-known name.
                        let key = match self.string()? {
                            Cow::Owned(k) => shared(k),
                            borrowed => borrowed,
                        };
                        self.ws();
                        if self.b.get(self.i) != Some(&b':') {
                            return None;
                        }
                        self.i += 1;
                        let value = self.value(depth + 1)?;
                        // Duplicate keys get the YAML reader's warning: leave them to it.
                        if entries.len() < 64 && entries.iter().any(|e| e.key == key) {
                            return None;
                        }
                        entries.push(Entry {
                            key,
                            key_line,
                            key_column,
                            value,
                        });
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                    if entries.len() >= 64 {
                        let mut keys: Vec<&str> = entries.iter().map(|e| e.key.as_ref()).collect();
                        crate::sort::sort(&mut keys);
                        if keys.windows(2).any(|w| w[0] == w[1]) {
                            return None;
                        }
                    }
                }
                Value::Map(entries)
            }
            b'[' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                } else {
                    loop {
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                Value::Seq(items)
            }
            b'"' => Value::Scalar(Scalar {
                text: self.string()?,
                style: Style::Quoted,
                quote: Some('"'),
            }),
            _ => {
                let start = self.i;
                while self
                    .b
                    .get(self.i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
                {
                    self.i += 1;
                }
                let word = &self.text[start..self.i];
                let ok = matches!(word, "true" | "false" | "null") || is_number(word);
                if !ok {
                    return None;
                }
                Value::Scalar(Scalar {
                    text: Cow::Borrowed(word),
                    style: Style::Plain,
                    quote: None,
                })
            }
        };
        Some(Node {
            value,
            line,
            column,
        })
    }

    /// A string token starting at `"`, unescaped: borrowed from the text when it has no escape (nearly
    /// every string of a status; a copy each was 200,000 allocations for a 10,000-cluster run).
    fn string(&mut self) -> Option<Cow<'t, str>> {
        self.i += 1;
        let mut out: Cow<'t, str> = Cow::Borrowed("");
        loop {
            let start = self.i;
            while self
                .b
                .get(self.i)
                .is_some_and(|&c| c != b'"' && c != b'\\' && c >= 0x20)
            {
                self.i += 1;
            }
            let part = self.text.get(start..self.i)?;
            // The first part stays borrowed; an escape makes the text owned.
            if out.is_empty() {
                out = Cow::Borrowed(part);
            } else {
                out.to_mut().push_str(part);
            }
            match *self.b.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    return Some(out);
                }
                b'\\' => {
                    let out = out.to_mut();
                    let c = *self.b.get(self.i + 1)?;
                    self.i += 2;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.b.get(self.i..self.i + 2) != Some(b"\\u") {
                                    return None;
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return None;
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            out.push(char::from_u32(code)?);
                        }
                        _ => return None,
                    }
                }
                // A raw control character (a newline) is not JSON.
                _ => return None,
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let s = self.text.get(self.i..self.i + 4)?;
        self.i += 4;
        u32::from_str_radix(s, 16).ok()
    }
}

/// RFC 8259's number grammar, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, with a value
/// a double holds (JSON readers refuse `1e400` as out of range): what a JSON parser takes as a number.
fn is_number(word: &str) -> bool {
    let b = word.as_bytes();
    let digits = |mut i: usize| {
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > start).then_some(i)
    };
    let mut i = usize::from(b.first() == Some(&b'-'));
    i = match b.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => digits(i).unwrap_or(i),
        _ => return false,
    };
    if b.get(i) == Some(&b'.') {
        let Some(j) = digits(i + 1) else {
            return false;
        };
        i = j;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let Some(j) = digits(i) else {
            return false;
        };
        i = j;
    }
    i == b.len() && word.parse::<f64>().is_ok_and(f64::is_finite)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn positions_and_shapes_match_what_the_yaml_reader_gives_json() {
        let text = "{\n  \"a\": [1, \"x\\n\\u00e9\", -2.5e3],\n  \"b\": {\"c\": true, \"d\": null, \"é\": {}}\n}\n";
        let fast = parse(text).unwrap();
        let (slow, diags) = crate::source::parse_yaml_only(text, "t.json");
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(fast, slow);
        // JSON's surrogate pairs (which YAML does not have).
        let emoji = parse("\"\\ud83d\\ude00\"").unwrap();
        assert_eq!(emoji[0].scalar().unwrap().text, "\u{1f600}");
    }

    /// Containers nested in containers, and escaped keys and values, read as the YAML reader reads
    /// them; text without escapes is the input's own.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn nesting_and_escapes_match_the_yaml_reader() {
        let text = r#"{"a": [1, {"b": [2, [], {}], "\u0063": "x\ty"}, [[3], 4]], "d": {"e": {"f": "g"}}, "h\"i": []}"#;
        let fast = parse(text).unwrap();
        let (slow, diags) = crate::source::parse_yaml_only(text, "t.json");
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(fast, slow);
        assert_eq!(
            fast[0]
                .get("a")
                .and_then(|a| match &a.value {
                    Value::Seq(items) => items[1].get("c"),
                    _ => None,
                })
                .and_then(Node::scalar)
                .map(|s| &*s.text),
            Some("x\ty")
        );
        let g = fast[0]
            .get("d")
            .and_then(|d| d.get("e"))
            .and_then(|e| e.get("f"))
            .and_then(Node::scalar);
        assert!(matches!(g.map(|s| &s.text), Some(Cow::Borrowed("g"))));
        // A duplicate key is seen inside the innermost mapping only, wherever it is nested.
        assert!(parse(r#"{"a": {"b": 1, "b": 2}}"#).is_none());
        assert!(parse(r#"{"a": {"b": 1}, "b": {"a": 2}}"#).is_some());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn anything_needing_a_diagnostic_is_left_to_the_yaml_reader() {
        for bad in [
            "{\"a\": 1, \"a\": 2}",
            "{\"a\": 1,}",
            "{\"a\": tru}",
            "[1, 2",
            "\"a\nb\"",
            &"[".repeat(200),
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }

    /// RFC 8259 section 6: an optional minus, an integer without leading zeros, an optional fraction
    /// with digits, an optional exponent with digits; no `+` sign, no bare `.5`, no hex, no NaN or
    /// Infinity; and a value out of a double's range (`1e400`) is refused as JSON readers refuse it.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn numbers_are_json_numbers() {
        for good in [
            "0", "-0", "7", "-12", "3.25", "1e5", "1E+5", "2.5e-3", "0.0", "1e-400",
        ] {
            assert!(is_number(good), "{good}");
            assert!(parse(&format!("[{good}]")).is_some(), "{good}");
        }
        for bad in [
            "01", "+1", ".5", "1.", "1e", "1e+", "-", "0x10", "NaN", "Infinity", "1e400", "1.5.2",
        ] {
            assert!(!is_number(bad), "{bad}");
            assert!(parse(&format!("[{bad}]")).is_none(), "{bad}");
        }
    }
}
