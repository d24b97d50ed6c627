//! The fast reader against the event parser: on every text the fast reader accepts, both give the
//! same tree with the same positions (the property its speed may never break). Texts: the built-in
//! examples and the other YAML files the crate embeds, hand-written cases of each construct and
//! quirk, seeded random documents in every style, and random edits of all of them.

use super::super::{parse_yaml, Node};
use super::parse;

/// The event parser's reading, when it reads the text without any diagnostic.
fn reference(text: &str) -> Option<Vec<Node<'_>>> {
    let out = parse_yaml(text, "t.yaml");
    (out.error.is_none() && out.diags.is_empty()).then_some(out.docs)
}

/// Checks the property on `text`; returns whether the fast reader accepted it.
fn agrees(text: &str) -> bool {
    let Some(fast) = parse(text) else {
        return false;
    };
    match reference(text) {
        Some(full) => assert_eq!(fast, full, "the readers disagree on {text:?}"),
        None => panic!(
            "the fast reader accepted {text:?}, which the event parser refuses or warns about"
        ),
    }
    true
}

/// Texts the fast reader must accept (the common forms), each checked against the event parser.
const ACCEPTED: &[&str] = &[
    "a: 1\n",
    "a: 1",
    "a: b\nc: d\n",
    "# c\na: 1 # trailing\n\n# end\n",
    "top:\n  - x\n  - key: v\n    other: w\n",
    "d:\n- 1\n- 2\ne: 3\n",
    "d:\n- a: 1\n  b: 2\n- c: 3\n",
    "- - 1\n  - 2\n- 3\n",
    "-\n  a: 1\n- b\n",
    "seq:\n  -\n    a: 1\n",
    "a: [1, 2, 3]\nb: {c: d, e: f}\nc: []\nd: {}\n",
    "a: [x, {y: 1, z: [2]}, 'q', \"r\"]\n",
    "a: 'it''s'\nb: \"say \\\"hi\\\" \\\\ \\/ \\n \\t \\u00e9\"\n",
    "a: \"\"\nb: ''\n",
    "key with spaces: value with spaces\n",
    "url: https://example.com:8443/path?x=1#frag\n",
    "image: nginx:1.25\n",
    "a: value#not-comment\n",
    "a: -1\nb: -x\nc: x-\n",
    "\"quoted key\": 1\n'single': 2\n",
    "a: |\n  line 1\n  line 2\nb: 1\n",
    "a: |-\n  line 1\n\n  line 3\n\n\nb: 1\n",
    "a: |+\n  kept\n\n\nb: 1\n",
    "a: >\n  folded\n  text\n\n  para\nb: 1\n",
    "a: >-\n  one\n  two\n",
    "a: >+\n  one\n\n",
    "a: |\n  indented\n    more\n  less\n",
    "a: |\n  x\n  # not a comment\n",
    "- |\n  in a list\n- >\n  folded\n",
    "a: |\n  no newline at the end",
    "{\"a\": 1, \"b\": [true, null, -2.5e3], \"c\": {\"d\": \"e\"}}",
    "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": {}\n}\n",
    "[1, 2,\n 3]\n",
    "{\"a\":1,\"b\":\"x\"}",
    "---\na: 1\n---\nb: 2\n",
    "--- # first\na: 1\n",
    "---\n---\na: 1\n",
    "",
    "# only a comment\n",
    "plain document\n",
    "a:\n  b:\n    c:\n      d: 1\n",
    "a:    spaced   \nb:\n\n\n  c: 1\n",
    "a: [ 1 , 2 ]\n",
    "a: { b: 1 , c: 2 }\n",
    "a: {b: [1, 2], c: {d: e}}\n",
    "labels: {app.kubernetes.io/name: web, tier: \"1\"}\n",
    "k: v\n---\n- 1\n",
    "a: b\n  # indented comment\nc: d\n",
    "a: 'x' # c\nb: \"y\"   \n",
    "1: one\ntrue: yes\n~: null\n",
    "key:   \n  - a\n",
    "- a\n- b\n",
    "  a: 1\n  b: 2\n",
    "a: x]\nb: x}\nc: a,b\n",
    "[1, 2] # c\n",
    "a: é # → …\nb: 'ü'\nc: [ñ, \"ß\"]\nd: |\n  ∑ x\n",
];

/// Texts the fast reader must leave to the event parser: outside its subset, or wrong.
const REFUSED: &[&str] = &[
    "a:\n",
    "a: &x 1\nb: *x\n",
    "a: !!str 7\n",
    "a: 1\na: 2\n",
    "a: b: c\n",
    "a: plain\n  continued\n",
    "a: \"multi\n  line\"\n",
    "a:\tb\n",
    "? complex\n: key\n",
    "%YAML 1.2\n---\na: 1\n",
    "a: 1\n...\n",
    "a: [1,\n 2]\n",
    "a: {b}\n",
    "a: [b: c]\n",
    "a: |2\n   x\n",
    "a: |\n\n  x\n",
    "a: 1\r\nb: 2\r\n",
    "a: [1, 2\n",
    "- a\nb: 1\n",
    "a:\n  - x\n  b: 1\n",
    "a: 'unterminated\n",
    "a: \"\\x41\"\n",
    "a: \u{feff}x\n",
    "a: x\u{2028}y\n",
    "a: \u{85}\n",
    "a: @x\n",
];

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn common_forms_are_read_exactly_as_the_event_parser_reads_them() {
    for text in ACCEPTED {
        assert!(agrees(text), "the fast reader refused {text:?}");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn everything_else_is_left_to_the_event_parser() {
    for text in REFUSED {
        assert!(parse(text).is_none(), "the fast reader accepted {text:?}");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn the_examples_are_read_alike_and_mostly_fast() {
    let mut texts: Vec<&str> = crate::examples::all().iter().map(|e| e.text).collect();
    texts.push(include_str!("../../decode/full.yaml"));
    let mut accepted = 0;
    for text in &texts {
        accepted += usize::from(agrees(text));
    }
    assert!(
        accepted * 2 >= texts.len(),
        "only {accepted} of {} examples read fast",
        texts.len()
    );
}

/// A small deterministic generator (xorshift64*), so the random texts are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Scalars the fast reader knows, and (rarer) ones it leaves to the event parser.
const WORDS: &[&str] = &[
    "a",
    "name",
    "x-y",
    "1",
    "-2",
    "0.5",
    "true",
    "null",
    "~",
    "a b",
    "ns/x",
    "v:1",
    "k#v",
    "'q'",
    "\"d\"",
    "\"e\\\"s\"",
    "'it''s'",
    "\"\"",
    "''",
    "http://h:1/p",
    "a,b",
    "é",
    "x→y",
];
const ODD_WORDS: &[&str] = &[
    "x ", "@", "&a", "*a", "!t", "? k", "-", "[1]", "{}", ":", "a:b", "%", "\"\\x\"",
];

fn scalar(rng: &mut Rng) -> String {
    if rng.below(60) == 0 {
        rng.pick(ODD_WORDS).to_string()
    } else {
        rng.pick(WORDS).to_string()
    }
}

fn flow(rng: &mut Rng, depth: usize) -> String {
    let n = rng.below(4);
    if depth > 2 || rng.below(3) == 0 {
        return scalar(rng);
    }
    let sep = rng.pick(&[", ", ",", " , "]);
    if rng.below(2) == 0 {
        let items: Vec<String> = (0..n).map(|_| flow(rng, depth + 1)).collect();
        format!("[{}]", items.join(sep))
    } else {
        let items: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    "k{i}:{}{}",
                    rng.pick(&[" ", "  ", ""]),
                    flow(rng, depth + 1)
                )
            })
            .collect();
        format!("{{{}}}", items.join(sep))
    }
}

/// A block node at `indent`, written after `key:` or (`in_list`) `- `, so it starts on the same line
/// or the next.
fn block(rng: &mut Rng, indent: usize, depth: usize, in_list: bool, out: &mut String) {
    let pad = " ".repeat(indent);
    match if depth > 3 { 0 } else { rng.below(6) } {
        0 => {
            out.push(' ');
            out.push_str(&scalar(rng));
            if rng.below(5) == 0 {
                out.push_str(" # note");
            }
            out.push('\n');
        }
        1 => {
            out.push(' ');
            out.push_str(&flow(rng, 0));
            out.push('\n');
        }
        2 => {
            out.push(' ');
            out.push_str(rng.pick(&["|", ">", "|-", ">-", "|+", ">+"]));
            out.push('\n');
            for k in 0..1 + rng.below(3) {
                let line = match rng.below(8) {
                    0 if k > 0 => "",
                    1 => "  deeper",
                    2 => "# hash",
                    3 => "a: b",
                    4 => "more text",
                    _ => "text",
                };
                if !line.is_empty() {
                    out.push_str(&pad);
                    out.push_str("  ");
                }
                out.push_str(line);
                out.push('\n');
            }
        }
        3 => {
            out.push('\n');
            let at = indent + rng.below(3);
            for i in 0..1 + rng.below(3) {
                out.push_str(&" ".repeat(at));
                out.push_str(&format!("k{i}:"));
                block(rng, at + 2, depth + 1, false, out);
            }
        }
        4 => {
            out.push('\n');
            let at = indent - 2 + rng.below(4); // from the key's own column (no indentation) on
            for _ in 0..1 + rng.below(3) {
                out.push_str(&" ".repeat(at));
                out.push('-');
                block(rng, at + 2, depth + 1, true, out);
            }
        }
        _ => {
            // A compact mapping in a list item; after a key, a comment and a blank line first.
            if in_list {
                out.push_str(" k: v\n");
                out.push_str(&pad);
                out.push_str("j: w\n");
            } else {
                out.push_str(" # comment\n\n");
                out.push_str(&pad);
                out.push_str("k: v\n");
            }
        }
    }
}

fn document(rng: &mut Rng) -> String {
    let mut out = String::new();
    for d in 0..1 + rng.below(2) {
        if d > 0 || rng.below(3) == 0 {
            out.push_str("---\n");
        }
        if rng.below(6) == 0 {
            out.push_str(&flow(rng, 0));
            out.push('\n');
            continue;
        }
        for i in 0..1 + rng.below(4) {
            out.push_str(&format!("key{i}:"));
            block(rng, 2, 0, false, &mut out);
        }
    }
    out
}

/// One random edit: delete, insert or replace a character with one that matters to YAML.
fn mutate(rng: &mut Rng, text: &str) -> String {
    const CHARS: &[&str] = &[
        " ", "\n", ":", "-", "#", "'", "\"", "[", "]", "{", "}", ",", "|", ">", "a", "  ", "\\",
    ];
    let mut bytes = text.as_bytes().to_vec();
    let at = if bytes.is_empty() {
        0
    } else {
        rng.below(bytes.len())
    };
    let with = rng.pick(CHARS).as_bytes();
    match rng.below(3) {
        0 if !bytes.is_empty() => {
            bytes.remove(at);
        }
        1 => {
            bytes.splice(at..at, with.iter().copied());
        }
        _ if !bytes.is_empty() => {
            bytes.splice(at..=at, with.iter().copied());
        }
        _ => {}
    }
    String::from_utf8(bytes).unwrap_or_default()
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn random_documents_and_random_edits_are_read_alike() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut accepted = 0;
    let mut seeds: Vec<String> = ACCEPTED.iter().map(|t| t.to_string()).collect();
    seeds.extend(crate::examples::all().iter().map(|e| e.text.to_string()));
    for _ in 0..1500 {
        seeds.push(document(&mut rng));
    }
    for text in &seeds {
        accepted += usize::from(agrees(text));
        let mut edited = text.clone();
        for _ in 0..4 {
            edited = mutate(&mut rng, &edited);
            agrees(&edited);
        }
    }
    // The generator writes mostly accepted forms; a reader that refused everything would pass the
    // property vacuously.
    assert!(
        accepted * 2 >= seeds.len(),
        "only {accepted} of {} texts read fast",
        seeds.len()
    );
}

/// The word-at-a-time check agrees with the rule it stands for (every byte printable ASCII or a line
/// break) for each byte value at each place in a word, and in the tail after the last whole word.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn printable_ascii_is_checked_byte_for_byte_alike() {
    let rule = |b: &[u8]| b.iter().all(|&c| (0x20..=0x7e).contains(&c) || c == b'\n');
    let base = b"name: a-b\nc: {d: 1}\n".to_vec();
    for len in [0, 1, 7, 8, 9, 16, 20] {
        for at in 0..len {
            for byte in 0..=255u8 {
                let mut text = base[..len].to_vec();
                text[at] = byte;
                assert_eq!(
                    super::plain_ascii(&text),
                    rule(&text),
                    "{byte:#x} at {at} of {len}"
                );
            }
        }
    }
    let mut rng = Rng(4242);
    for _ in 0..2000 {
        let len = rng.below(40);
        let text: Vec<u8> = (0..len)
            .map(|_| match rng.below(4) {
                0 => rng.below(256) as u8,
                1 => b'\n',
                _ => b' ' + rng.below(95) as u8,
            })
            .collect();
        assert_eq!(super::plain_ascii(&text), rule(&text), "{text:?}");
    }
}
