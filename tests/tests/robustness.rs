//! Damaged input never panics: every example, cut and scrambled in many deterministic ways, still loads
//! and plans (a panic in the browser would kill the whole app), and every problem is said with a place
//! inside the text.

use fleetplan::examples;
use fleetplan_tests::{assert_said_with_a_place, load_and_plan, INPUT_NAME};
use wasm_bindgen_test::wasm_bindgen_test;

/// A small deterministic generator, so failures reproduce on both targets.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

fn char_boundary(text: &str, mut i: usize) -> usize {
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i.min(text.len())
}

fn mutations(text: &str, rng: &mut Lcg) -> Vec<String> {
    let mut out = Vec::new();
    // Truncations: what a cut-off paste or share link gives.
    for _ in 0..12 {
        let at = char_boundary(text, rng.next(text.len()));
        out.push(text[..at].to_string());
    }
    // Deleted spans.
    for _ in 0..12 {
        let a = char_boundary(text, rng.next(text.len()));
        let b = char_boundary(text, a + rng.next(40));
        out.push(format!("{}{}", &text[..a], &text[b..]));
    }
    // Lines swapped, duplicated, re-indented.
    let lines: Vec<&str> = text.lines().collect();
    for _ in 0..12 {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let (i, j) = (rng.next(l.len()), rng.next(l.len()));
        match rng.next(3) {
            0 => l.swap(i, j),
            1 => l.insert(i, lines[j].to_string()),
            _ => l[i] = format!("  {}", l[i]),
        }
        out.push(l.join("\n"));
    }
    // Hostile values in place of scalars.
    for bad in [
        "-1",
        "1e400",
        "99999999999999999999",
        "\"\"",
        "[]",
        "{}",
        "~",
        "*x",
        "&a [*a]",
        "'\u{1F600}'",
    ] {
        let at = char_boundary(text, rng.next(text.len()));
        if let Some(colon) = text[at..].find(": ") {
            let start = at + colon + 2;
            let end = text[start..].find('\n').map_or(text.len(), |e| start + e);
            out.push(format!("{}{bad}{}", &text[..start], &text[end..]));
        }
    }
    out
}

#[wasm_bindgen_test(unsupported = test)]
fn damaged_examples_never_panic() {
    let mut rng = Lcg(0x5eed);
    let mut planned = 0;
    for e in examples::all().iter().filter(|e| e.name != "large-fleet") {
        for text in mutations(e.text, &mut rng) {
            let (loaded, plans) = load_and_plan(&text);
            planned += plans.len();
            assert_said_with_a_place(INPUT_NAME, &text, &loaded, &plans, e.name);
        }
    }
    assert!(planned > 0, "some damaged inputs should still plan");
}

/// Inputs built to hurt are refused where they hurt, with the parser's or fleetplan's own words.
#[wasm_bindgen_test(unsupported = test)]
fn pathological_inputs_are_reported_not_fatal() {
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    let wide_fleet = "generate: [{count: 4000000000, name: \"c{i}\"}]\nstrategy: {kind: kubefleet-staged, stages: [{name: a, labelSelector: {}}]}\n";
    // 9^5 = 59,049 copies of `x`: well inside the alias caps, so it reads (and is no scenario).
    let billion_laughs = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n";
    for (text, expected) in [
        // The YAML parser's own recursion limit stops flow nesting at the 256th `[`.
        (deep.as_str(), "input.yaml:1:256: error[yaml-syntax]: YAML syntax error: recursion limit exceeded"),
        (wide_fleet, "input.yaml:1:20: error[fleet-too-large]: the fleet would have more than 1,000,000 clusters; generator skipped (generator 1 (c{i}), at generate[0].count)"),
        (billion_laughs, "error[no-scenario]: no scenario or KubeFleet objects found: no document has a `strategy`, and there are no KubeFleet objects"),
        ("\u{0}\u{1}", "error[no-scenario]: no scenario or KubeFleet objects found"),
        ("---\n---\n---\n", "error[no-scenario]: no scenario or KubeFleet objects found"),
        // An unclosed mapping: the parser meets the end of the text, just past the `{`, for a value.
        ("{", "input.yaml:1:2: error[yaml-syntax]: YAML syntax error: while parsing a node, did not find expected node content"),
    ] {
        let (loaded, plans) = load_and_plan(text);
        let errors: Vec<String> = loaded
            .diagnostics
            .iter()
            .chain(plans.iter().flat_map(|p| &p.diagnostics))
            .filter(|d| d.is_error())
            .map(|d| d.to_string())
            .collect();
        assert_eq!(errors, [expected], "{:?}", &text[..text.len().min(40)]);
        assert_said_with_a_place(INPUT_NAME, text, &loaded, &plans, expected);
    }
}
