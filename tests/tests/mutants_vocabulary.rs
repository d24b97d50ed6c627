//! Rules of the shared vocabulary (CEL selectors, kubectl selector syntax, durations) that mutation
//! testing (scripts/mutants.sh, bench/mutants.md) found unguarded: each test states the rule and its
//! source, and fails if the rule changes.

use fleetplan::label_map::LabelMap;

use fleetplan::selector::parse_kubectl;
use fleetplan::time::Duration;
use wasm_bindgen_test::wasm_bindgen_test;

fn labels(k: &str, v: &str) -> LabelMap {
    LabelMap::from([(k, v)])
}

/// CEL's string escapes (cel-spec `langdef.md`, "String and Bytes Values"): `\a \b \f \n \r \t \v`
/// are the C control characters BEL, BS, FF, LF, CR, HT, VT; `\\ \' \" \` \?` stand for the character
/// itself; `\ooo` is an octal code point. A selector comparing a label with an escaped literal selects
/// exactly the cluster whose label is that character.
#[wasm_bindgen_test(unsupported = test)]
fn cel_escapes_decode_to_the_characters_cel_defines() {
    let table = [
        ("\\a", '\u{7}'),
        ("\\b", '\u{8}'),
        ("\\f", '\u{c}'),
        ("\\n", '\n'),
        ("\\r", '\r'),
        ("\\t", '\t'),
        ("\\v", '\u{b}'),
        ("\\\\", '\\'),
        ("\\'", '\''),
        ("\\\"", '"'),
        ("\\`", '`'),
        ("\\?", '?'),
        // FF again, as an octal code (12 decimal = 014 octal).
        ("\\014", '\u{c}'),
    ];
    for (escape, decoded) in table {
        let text = format!("resource.labels.k == '{escape}'");
        let expr = fleetplan::cel::parse(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert!(
            expr.matches(&labels("k", &decoded.to_string())),
            "{text} should select a label equal to U+{:04X}",
            decoded as u32
        );
        // The escape is decoded, not kept as written.
        assert!(!expr.matches(&labels("k", escape)), "{text}");
    }
}

/// A kubectl-syntax selector that does not parse (`labelSelector: "env=prod,)"`) is reported at the
/// column where it went wrong, naming what was found there, so the user can see which character to
/// fix: the syntax is kubectl's (`-l`, apimachinery `labels.Parse`), the messages fleetplan's.
#[wasm_bindgen_test(unsupported = test)]
fn kubectl_selector_errors_name_what_was_found_and_where() {
    let cases = [
        // (text, column, expected, found)
        ("env=prod,)", 10, "expected a label key", "`)`"),
        ("(", 1, "expected a label key", "`(`"),
        (",", 1, "expected a label key", "`,`"),
        ("=prod", 1, "expected a label key", "`=`"),
        ("!=prod", 1, "expected a label key", "`!=`"),
        ("!!canary", 2, "expected a label key", "`!`"),
        (
            "env in prod",
            8,
            "expected `(` after `in`/`notin`",
            "`prod`",
        ),
        (
            "env in (a",
            10,
            "expected `,` or `)` in the value list",
            "the end of the selector",
        ),
        ("env in (<)", 9, "expected a label value", "`<` or `>`"),
        (
            "env=prod)",
            9,
            "expected `,` or the end of the selector",
            "`)`",
        ),
    ];
    for (text, column, expected, found) in cases {
        let (col, message) = parse_kubectl(text).expect_err(text);
        assert_eq!(
            (col, message.as_str()),
            (column, format!("{expected}, found {found}").as_str()),
            "{text}"
        );
    }
}

/// fleetplan's durations (docs/scenario-format.md): a bare integer is a number of seconds, zero
/// included; a negative one is refused as negative, never read as a negative span of time.
#[wasm_bindgen_test(unsupported = test)]
fn bare_integer_durations_are_seconds_and_never_negative() {
    assert_eq!(Duration::parse("0"), Ok(Duration::ZERO));
    assert_eq!(Duration::parse("1"), Ok(Duration(1_000)));
    assert_eq!(Duration::parse("90"), Ok(Duration(90_000)));
    for text in ["-1", "-90"] {
        let err = Duration::parse(text).expect_err(text);
        assert!(err.contains("negative"), "{text}: {err}");
    }
}
