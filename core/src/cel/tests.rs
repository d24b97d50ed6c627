//! CEL selectors as a user meets them: what matches which labels, what each syntax error says and where.

use super::*;

fn labels(pairs: &[(&str, &str)]) -> SortedMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A selector, the cluster's labels, and CEL's result: `Some(bool)`, or `None` for "no such key".
type Case = (
    &'static str,
    &'static [(&'static str, &'static str)],
    Option<bool>,
);

const CASES: &[Case] = &[
    (
        "resource.labels.canary == 'true'",
        &[("canary", "true")],
        Some(true),
    ),
    (
        "resource.labels.canary == 'true'",
        &[("canary", "false")],
        Some(false),
    ),
    (
        "resource.labels.canary == \"true\"",
        &[("canary", "true")],
        Some(true),
    ),
    (
        "'true' == resource.labels.canary",
        &[("canary", "true")],
        Some(true),
    ),
    ("resource.labels.canary == 'true'", &[], None),
    (
        "resource.labels.env != 'prod'",
        &[("env", "dev")],
        Some(true),
    ),
    (
        "resource.labels.env != 'prod'",
        &[("env", "prod")],
        Some(false),
    ),
    ("resource.labels.env != 'prod'", &[], None),
    (
        "resource.labels['prod-region'] == 'us-west1'",
        &[("prod-region", "us-west1")],
        Some(true),
    ),
    (
        "resource.labels[\"example.com/tier\"] == 'a'",
        &[("example.com/tier", "a")],
        Some(true),
    ),
    (
        "resource.labels.region in ['us-west1', 'us-east1']",
        &[("region", "us-east1")],
        Some(true),
    ),
    (
        "resource.labels.region in ['us-west1', 'us-east1']",
        &[("region", "eu")],
        Some(false),
    ),
    (
        "resource.labels.region in []",
        &[("region", "eu")],
        Some(false),
    ),
    (
        "resource.labels.region in ['a',]",
        &[("region", "a")],
        Some(true),
    ),
    ("resource.labels.region in ['a']", &[], None),
    ("'canary' in resource.labels", &[("canary", "")], Some(true)),
    ("'canary' in resource.labels", &[], Some(false)),
    (
        "has(resource.labels.canary)",
        &[("canary", "x")],
        Some(true),
    ),
    ("has(resource.labels.canary)", &[], Some(false)),
    ("!has(resource.labels.canary)", &[], Some(true)),
    (
        "has(resource.labels.env) && resource.labels.env != 'prod'",
        &[],
        Some(false),
    ),
    (
        "!has(resource.labels.env) || resource.labels.env != 'prod'",
        &[],
        Some(true),
    ),
    (
        "resource.labels.env != 'prod' || !has(resource.labels.env)",
        &[],
        Some(true),
    ),
    ("resource.labels.env == 'prod' && false", &[], Some(false)),
    ("resource.labels.env == 'prod' && true", &[], None),
    (
        "resource.labels.a == 'x' || resource.labels.b == 'y'",
        &[("b", "y")],
        Some(true),
    ),
    (
        "resource.labels.a == 'x' || resource.labels.b == 'y'",
        &[("b", "n")],
        None,
    ),
    ("!(resource.labels.a == 'x')", &[("a", "y")], Some(true)),
    ("!(resource.labels.a == 'x')", &[], None),
    (
        "(resource.labels.a == 'x' || resource.labels.a == 'y') && resource.labels.b == 'z'",
        &[("a", "y"), ("b", "z")],
        Some(true),
    ),
    (
        "resource.labels.a == 'x' || resource.labels.a == 'y' && resource.labels.b == 'z'",
        &[("a", "x"), ("b", "n")],
        Some(true),
    ),
    ("true", &[], Some(true)),
    ("!false && !!true", &[], Some(true)),
    (
        "resource.labels.v == 'it\\'s'",
        &[("v", "it's")],
        Some(true),
    ),
    (
        "resource.labels.v == \"a\\\"b\\\\c\\n\"",
        &[("v", "a\"b\\c\n")],
        Some(true),
    ),
    (
        "resource.labels.v == '\\x41\\u00e9\\101'",
        &[("v", "AéA")],
        Some(true),
    ),
    ("resource.labels.v == r'a\\b'", &[("v", "a\\b")], Some(true)),
    (
        "resource.labels.v == '''it's'''",
        &[("v", "it's")],
        Some(true),
    ),
    ("resource.labels.v == 'é'", &[("v", "é")], Some(true)),
    (
        "  resource . labels . env=='a'  ",
        &[("env", "a")],
        Some(true),
    ),
];

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn selectors_evaluate_as_cel_does() {
    for (text, pairs, want) in CASES {
        let e = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let l = labels(pairs);
        let got = e.evaluate(&l).ok();
        assert_eq!(got, *want, "{text} over {pairs:?}");
        assert_eq!(e.matches(&l), *want == Some(true), "{text} over {pairs:?}");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn a_missing_label_names_the_key() {
    let e = parse("resource.labels.tier != 'db'").unwrap();
    assert_eq!(
        e.evaluate(&labels(&[])).unwrap_err().to_string(),
        "no such key: tier"
    );
}

/// (input, canonical text).
const CANONICAL: &[(&str, &str)] = &[
    (
        "resource.labels.canary==\"true\"",
        "resource.labels.canary == 'true'",
    ),
    (
        "resource.labels['canary'] == 'x'",
        "resource.labels.canary == 'x'",
    ),
    (
        "resource.labels['prod-region'] == 'x'",
        "resource.labels['prod-region'] == 'x'",
    ),
    (
        "resource.labels['in'] == 'x'",
        "resource.labels['in'] == 'x'",
    ),
    ("((resource.labels.a=='1'))", "resource.labels.a == '1'"),
    (
        "(resource.labels.a=='1' || resource.labels.b=='2') && has(resource.labels.c)",
        "(resource.labels.a == '1' || resource.labels.b == '2') && has(resource.labels.c)",
    ),
    (
        "resource.labels.a=='1' || (resource.labels.b=='2' || resource.labels.c=='3')",
        "resource.labels.a == '1' || (resource.labels.b == '2' || resource.labels.c == '3')",
    ),
    (
        "!(resource.labels.a in [\"x\",'y'])",
        "!(resource.labels.a in ['x', 'y'])",
    ),
    ("!!has(resource.labels.a)", "!!has(resource.labels.a)"),
    (
        "resource.labels.v == \"it's\\n\\u0001\"",
        "resource.labels.v == 'it\\'s\\n\\u0001'",
    ),
    ("'k' in resource.labels", "'k' in resource.labels"),
];

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn canonical_text_reads_back_as_the_same_selector() {
    for (text, canonical) in CANONICAL {
        let Ok(e) = parse(text) else {
            assert!(canonical.is_empty(), "{text} should parse");
            continue;
        };
        assert_eq!(e.to_string(), *canonical, "{text}");
        assert_eq!(parse(canonical).as_ref(), Ok(&e), "{canonical}");
    }
}

/// (input, column, message).
const ERRORS: &[(&str, usize, &str)] = &[
    ("", 1, "expected a selector expression, found an empty text"),
    ("resource.labels.canary = 'true'", 24, "expected `==` (CEL compares with two equals signs), found `=`"),
    ("resource.labels.canary == true", 27, "the right side of `==` (column 24) must be a label (resource.labels.KEY) or a string"),
    ("resource.labels.canary == 'true", 27, "unterminated string: expected a closing ', found the end of the selector"),
    ("resource.labels.canary", 23, "expected `==`, `!=` or `in` after the value at column 1, found the end of the selector"),
    // CEL reads `a.prod-region` as `a.prod - region`: the error names the fix (issue 10, item 8).
    ("resource.labels.prod-region == 'a'", 1, "`resource.labels.prod-region` reads as `resource.labels.prod - region` (a subtraction), not as the label `prod-region`: write resource.labels['prod-region']"),
    ("resource.labels.tier == 'a' && resource.labels.zone-1-b != 'x'", 32, "`resource.labels.zone-1-b` reads as `resource.labels.zone - 1 - b` (a subtraction), not as the label `zone-1-b`: write resource.labels['zone-1-b']"),
    ("has(resource.labels.prod-region)", 5, "`resource.labels.prod-region` reads as `resource.labels.prod - region` (a subtraction), not as the label `prod-region`: write 'prod-region' in resource.labels (has() takes only keys without `-`)"),
    // With spaces it is a subtraction as written: the generic message.
    ("resource.labels.prod - region == 'a'", 22, "expected `==`, `!=` or `in` after the value at column 1, found `-`"),
    ("resource.labels.tier == 'a' && ", 32, "expected a label (resource.labels.KEY), a string, `has(`, `!` or `(`, found the end of the selector"),
    ("(resource.labels.a == 'x'", 26, "expected `)` to close the `(` at column 1, found the end of the selector"),
    ("resource.labels.a == 'x')", 25, "expected `&&`, `||` or the end of the selector, found `)`"),
    ("resource.labels.a in ('x')", 22, "expected a list of strings such as ['a', 'b'] (or resource.labels) after `in`"),
    ("resource.labels.a in ['x' 'y']", 27, "expected `,` or `]` in the list opened at column 22, found the string 'y'"),
    ("resource.labels.a in ['x', 1]", 28, "label values are strings: quote the number ('1')"),
    ("resource.labels.a == 1", 22, "expected a label (resource.labels.KEY), a string, `has(`, `!` or `(`, found the number `1`; label values are strings, so quote it: '1'"),
    ("resource.labels.a == prod", 22, "unknown name `prod`: labels are read as resource.labels.KEY, and strings need quotes ('prod')"),
    ("labels.a == 'x'", 1, "unknown name `labels`: labels are read as resource.labels.KEY, and strings need quotes ('labels')"),
    ("resource.annotations.a == 'x'", 10, "expected `labels` after `resource.` (selectors can only read resource.labels), found `annotations`"),
    ("has(resource.labels['a.b'])", 5, "invalid argument to has() macro: has() takes resource.labels.KEY; for this key write 'a.b' in resource.labels"),
    ("has(canary)", 5, "expected resource.labels.KEY inside has(), found `canary`"),
    ("size(resource.labels) > 0", 1, "unsupported function `size`: GKE label selectors support only has(resource.labels.KEY)"),
    ("resource.labels.a < 'b'", 19, "`<` is not supported: label values are strings compared with `==`, `!=` or `in`"),
    ("!resource.labels.a == 'x'", 2, "`!` at column 1 negates only the next term, which is not a condition; write !( ... ) around the comparison"),
    ("resource.labels.a == 'x' & resource.labels.b == 'y'", 26, "expected `&&`, found `&`"),
    ("resource.labels.a == 'x' == 'y'", 26, "expected `&&`, `||` or `)` after a comparison, found `==` (compare one pair at a time)"),
    ("resource.labels.a == 'x\\q'", 24, "unknown escape `\\q`; expected one of \\\\ \\' \\\" \\n \\r \\t \\xHH \\uHHHH"),
    ("resource.labels.a == '\\u12'", 23, "invalid escape `\\u12'`: expected 4 hexadecimal digits"),
    ("resource.labels.a == 'é' && #", 29, "unexpected character `#`"),
    ("resource.labels.a == null", 22, "`null` is not a label value; use has(resource.labels.KEY) to test whether a label is set"),
    ("resource.labels.in == 'x'", 17, "expected a label key after `resource.labels.`, found `in` (write resource.labels['KEY'] for keys with dots, slashes or dashes)"),
    ("resource.labels.a == 'x' and resource.labels.b == 'y'", 26, "expected `&&`, found `and` (CEL writes it `&&`)"),
    ("has(resource.labels.a) OR true", 24, "expected `||`, found `OR` (CEL writes it `||`)"),
    ("not has(resource.labels.a)", 1, "expected a condition, found `not`: CEL negates with `!`, as in !has(resource.labels.KEY)"),
    ("['a'] == 'x'", 1, "the left side of `==` must be a label (resource.labels.KEY) or a string"),
    ("'a\nb' == 'x'", 3, "unterminated string: expected a closing ' before the line break (use triple quotes for text over several lines)"),
];

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn syntax_errors_say_what_was_expected_and_where() {
    for (text, column, message) in ERRORS {
        let e = parse(text).expect_err(text);
        assert_eq!(
            (e.column, e.message.as_str()),
            (*column, *message),
            "{text}"
        );
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn deep_nesting_is_refused_and_long_chains_are_fine() {
    let deep = format!("{}true{}", "(".repeat(100_000), ")".repeat(100_000));
    let e = parse(&deep).unwrap_err();
    assert_eq!(e.column, MAX_DEPTH + 1);
    assert_eq!(e.message, "the selector is nested more than 64 levels deep");
    assert!(parse(&"!".repeat(100_000)).is_err());
    let ok = format!("{}true{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
    assert_eq!(parse(&ok), Ok(Expr::Bool(true)));
    // 20,000 terms in one chain: flat, so evaluating, printing and dropping do not recurse per term.
    let chain = vec!["resource.labels.a == 'x'"; 20_000].join(" || ");
    let e = parse(&chain).unwrap();
    assert!(e.matches(&labels(&[("a", "x")])));
    assert_eq!(e.to_string().len(), chain.len());
}

/// Hostile inputs never panic: every prefix and every one-character mutation of tricky selectors.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn hostile_input_never_panics() {
    let seeds = [
        "resource.labels['a\\'b'] in ['x', \"y\", r'z', '''w'''] && !has(resource.labels.c) || 'k' in resource.labels",
        "((resource.labels.a != '\\u00e9\\x41\\101\\U0001F600'))",
        "'é' == resource.labels[\"ü\"]",
    ];
    let specials = [
        '\'', '"', '\\', '[', ']', '(', ')', '!', '=', '&', '|', '.', ',', 'r', 'u', 'x', '0', ' ',
        '\n', 'é', '\u{0}', '😀',
    ];
    let l = labels(&[("a", "x"), ("c", "")]);
    for seed in seeds {
        let chars: Vec<char> = seed.chars().collect();
        for cut in 0..=chars.len() {
            let prefix: String = chars[..cut].iter().collect();
            let _ = parse(&prefix).map(|e| (e.matches(&l), e.to_string()));
            for s in specials {
                for op in 0..3 {
                    let mut c = chars.clone();
                    match op {
                        0 if cut < c.len() => c[cut] = s,
                        1 => c.insert(cut, s),
                        _ if cut < c.len() => {
                            c.remove(cut);
                        }
                        _ => {}
                    }
                    let text: String = c.into_iter().collect();
                    if let Ok(e) = parse(&text) {
                        let _ = e.matches(&l);
                        // Whatever parses prints a text that parses to the same selector.
                        assert_eq!(parse(&e.to_string()).as_ref(), Ok(&e), "{text}");
                    } else if let Err(err) = parse(&text) {
                        assert!(
                            err.column >= 1 && err.column <= text.chars().count() + 1,
                            "{text}: {err}"
                        );
                    }
                }
            }
        }
    }
}

/// Random token soup: never a panic, errors always inside the text, and whatever parses round-trips.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn random_token_soup_never_panics() {
    let pieces = [
        "resource", ".", "labels", "[", "]", "'a'", "\"b\"", "r'c'", "'''d'''", "==", "!=", "in",
        "has", "(", ")", "!", "&&", "||", ",", "true", "false", "x", "1", " ", "'", "\\", "=", "&",
        "|", "é", "'\\u00", "null", "<",
    ];
    let l = labels(&[("a", "a"), ("x", "b")]);
    let mut seed: u64 = 0xce1;
    for _ in 0..20_000 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let len = (seed >> 58) as usize + 1;
        let mut text = String::new();
        let mut s = seed;
        for _ in 0..len {
            s = s
                .wrapping_mul(2_862_933_555_777_941_757)
                .wrapping_add(3_037_000_493);
            text.push_str(pieces[(s >> 40) as usize % pieces.len()]);
        }
        match parse(&text) {
            Ok(e) => {
                let _ = e.evaluate(&l);
                assert_eq!(parse(&e.to_string()).as_ref(), Ok(&e), "{text}");
            }
            Err(err) => {
                assert!(
                    err.column >= 1 && err.column <= text.chars().count() + 1,
                    "{text}: {err}"
                );
                assert!(!err.message.is_empty());
            }
        }
    }
}
