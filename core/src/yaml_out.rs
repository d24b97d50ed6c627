//! Block-style YAML output for JSON values: scenarios and plans written back in a form that reads well
//! and decodes to the same values. Strings are quoted exactly when a plain scalar would change type or
//! break the syntax ("1", "true", "on", "", leading indicators, ": " inside).

use serde_json::Value;

use crate::model::Scenario;
use crate::source::{resolve_plain, Resolved};

/// The value as a YAML document (no `---`), ending with a newline.
pub fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(m) if !m.is_empty() => write_map(&mut out, m, 0),
        Value::Array(a) if !a.is_empty() => write_seq(&mut out, a, 0),
        scalar => {
            out.push_str(&inline(scalar));
            out.push('\n');
        }
    }
    out
}

/// A scenario in the fleetplan format; decoding the text gives the scenario back (its SourceMap aside).
pub fn scenario_to_yaml(s: &Scenario) -> String {
    to_yaml(&serde_json::to_value(s).unwrap_or(Value::Null))
}

fn indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Scalars and empty collections, which fit on one line.
fn inline(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string(s),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
        _ => false,
    }
}

// Nesting of serialized values is bounded by the types that produced them (or by serde_json's own
// parse limit), so recursion here cannot be driven arbitrarily deep by user input.
fn write_map(out: &mut String, m: &serde_json::Map<String, Value>, depth: usize) {
    let mut first = true;
    for (k, v) in m {
        if !first {
            indent(out, depth);
        }
        first = false;
        out.push_str(&string(k));
        out.push(':');
        match v {
            Value::Object(inner) if !inner.is_empty() => {
                out.push('\n');
                indent(out, depth + 2);
                write_map(out, inner, depth + 2);
            }
            Value::Array(items) if !items.is_empty() => {
                out.push('\n');
                indent(out, depth + 2);
                write_seq(out, items, depth + 2);
            }
            scalar => {
                out.push(' ');
                out.push_str(&inline(scalar));
                out.push('\n');
            }
        }
    }
}

/// Writes a sequence whose first `- ` goes where the cursor is (already indented by `depth`).
fn write_seq(out: &mut String, items: &[Value], depth: usize) {
    let mut first = true;
    for item in items {
        if !first {
            indent(out, depth);
        }
        first = false;
        out.push_str("- ");
        match item {
            Value::Object(m) if is_block(item) => write_map(out, m, depth + 2),
            Value::Array(a) if is_block(item) => write_seq(out, a, depth + 2),
            scalar => {
                out.push_str(&inline(scalar));
                out.push('\n');
            }
        }
    }
}

/// A string as a scalar: plain when that reads back as the same string, double-quoted otherwise.
pub(crate) fn string(s: &str) -> String {
    if needs_quotes(s) {
        serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
    } else {
        s.to_string()
    }
}

fn needs_quotes(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return true;
    };
    if !matches!(resolve_plain(s), Resolved::Str(_)) {
        return true;
    }
    // YAML 1.1 readers (kubectl's among them) still take these as booleans.
    const YAML11: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off",
        "OFF",
    ];
    if YAML11.contains(&s) {
        return true;
    }
    if "-?:,[]{}#&*!|>'\"%@`".contains(first)
        && !(matches!(first, '-' | '?' | ':') && s.len() > 1 && !s[1..].starts_with(' '))
    {
        return true;
    }
    if first.is_whitespace() || s.ends_with(char::is_whitespace) || s.ends_with(':') {
        return true;
    }
    if s.contains(": ")
        || s.contains(" #")
        || s.contains(['\n', '\r', '\t'])
        || s.chars().any(char::is_control)
    {
        return true;
    }
    // Inside flow collections these would end the scalar; quote them so output can be pasted anywhere.
    s.contains(['{', '}', '[', ']', ','])
        || s == "---"
        || s == "..."
        || s.starts_with("--- ")
        || s.starts_with("...")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn strings_are_quoted_only_when_needed() {
        let v = json!({
            "plain": "environment", "one": "1", "t": "true", "on": "on", "empty": "", "null": "null",
            "colon": "a: b", "time": "09:00", "pct": "25%", "pattern": "{i:04}", "dash": "-x", "list": "- x",
            "offset": "+01:00", "float": "1.5", "multi": "a\nb", "star": "*x", "int": 3, "f": 0.2, "b": false, "n": null
        });
        let text = to_yaml(&v);
        let expect = [
            "plain: environment",
            "one: \"1\"",
            "t: \"true\"",
            "\"on\": \"on\"",
            "empty: \"\"",
            "\"null\": \"null\"",
            "colon: \"a: b\"",
            "time: 09:00",
            "pct: 25%",
            "pattern: \"{i:04}\"",
            "dash: -x",
            "list: \"- x\"",
            "offset: +01:00",
            "float: \"1.5\"",
            "multi: \"a\\nb\"",
            "star: \"*x\"",
            "int: 3",
            "f: 0.2",
            "b: false",
            "\"n\": null",
        ];
        for line in expect {
            assert!(
                text.lines().any(|l| l == line),
                "missing `{line}` in\n{text}"
            );
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn nested_collections_are_block_style_and_parse_back() {
        let v =
            json!({"a": [{"x": 1, "z": ["p", "q"]}, [1, 2], []], "b": {}, "c": {"d": {"e": "1"}}});
        let text = to_yaml(&v);
        assert_eq!(
            text,
            "a:\n  - x: 1\n    z:\n      - p\n      - q\n  - - 1\n    - 2\n  - []\nb: {}\nc:\n  d:\n    e: \"1\"\n"
        );
        let (docs, diags) = crate::source::parse(&text, "o.yaml");
        assert!(diags.is_empty());
        assert_eq!(
            docs[0]
                .get("c")
                .unwrap()
                .get("d")
                .unwrap()
                .get("e")
                .unwrap()
                .resolve(),
            Some(Resolved::Str("1"))
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn every_example_round_trips_through_yaml() {
        use crate::input::{load, Source};
        for e in crate::examples::all() {
            let mut original = load(&[Source {
                name: e.name,
                text: e.text,
            }])
            .scenarios
            .remove(0);
            let text = scenario_to_yaml(&original);
            let loaded = load(&[Source {
                name: "out.yaml",
                text: &text,
            }]);
            assert!(
                loaded
                    .diagnostics
                    .iter()
                    .all(|d| d.code != "wrong-type" && d.code != "unknown-field"),
                "{:?}",
                loaded.diagnostics
            );
            let mut back = loaded
                .scenarios
                .into_iter()
                .next()
                .unwrap_or_else(|| panic!("{}: nothing decoded from\n{text}", e.name));
            original.origin = Default::default();
            back.origin = Default::default();
            assert_eq!(back, original, "{} did not survive\n{text}", e.name);
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_scenario_using_every_field_round_trips() {
        let text = include_str!("decode/full.yaml");
        let (docs, _) = crate::source::parse(text, "full.yaml");
        let mut original = crate::decode::decode_document(&docs[0], "full.yaml").scenario;
        let out = scenario_to_yaml(&original);
        let (docs, diags) = crate::source::parse(&out, "out.yaml");
        assert!(diags.is_empty(), "{diags:?}");
        let decoded = crate::decode::decode_document(&docs[0], "out.yaml");
        assert!(
            decoded.diagnostics.is_empty(),
            "{:?}\n{out}",
            decoded.diagnostics
        );
        let mut back = decoded.scenario;
        original.origin = Default::default();
        back.origin = Default::default();
        assert_eq!(back, original, "{out}");
    }
}
