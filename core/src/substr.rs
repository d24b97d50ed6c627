//! Finding a short piece of text in a string without the standard library's two-way searcher.
//!
//! `str::find`, `contains` and `replace` with a `&str` pattern (and `contains` with a non-ASCII
//! `char`) compile the standard library's `StrSearcher`, about 2.3 KB of wasm, into the browser's
//! main module, which has a size budget. The core only looks for a few bytes (`{i`, `TimedWait `) in
//! short names and labels, where a plain scan of each place is as quick. Same results as the
//! standard library's methods.

/// Where `needle` first occurs in `haystack`, as `haystack.find(needle)` says.
pub fn find(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    if n.is_empty() {
        return Some(0);
    }
    h.windows(n.len()).position(|w| w == n)
}

/// Whether `needle` occurs in `haystack`, as `haystack.contains(needle)` says.
pub fn contains(haystack: &str, needle: &str) -> bool {
    find(haystack, needle).is_some()
}

/// `haystack` with each occurrence of `from` (not empty) replaced by `to`, left to right and not
/// overlapping, as `haystack.replace(from, to)` gives.
pub fn replace(haystack: &str, from: &str, to: &str) -> String {
    debug_assert!(!from.is_empty());
    let mut out = String::with_capacity(haystack.len());
    let mut rest = haystack;
    // A match of valid UTF-8 in valid UTF-8 starts and ends on character boundaries.
    while let Some(i) = find(rest, from).filter(|_| !from.is_empty()) {
        out.push_str(&rest[..i]);
        out.push_str(to);
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn finds_and_replaces_like_the_standard_library() {
        let texts = [
            "",
            "a",
            "{i",
            "{i}",
            "aks-{i:04}",
            "x{i}y{i}",
            "{{i",
            "TimedWait TimedWait 1h",
            "é{i}ü",
            "aaaa",
            "ababab",
            "ü",
            "wait",
            "TimedWait",
        ];
        let needles = [
            "",
            "{i",
            "{i}",
            "a",
            "aa",
            "ab",
            "bab",
            "ü",
            "TimedWait ",
            "é{",
        ];
        for h in texts {
            for n in needles {
                assert_eq!(find(h, n), h.find(n), "find {n:?} in {h:?}");
                assert_eq!(contains(h, n), h.contains(n), "contains {n:?} in {h:?}");
                if !n.is_empty() {
                    assert_eq!(replace(h, n, "<>"), h.replace(n, "<>"), "{n:?} in {h:?}");
                }
            }
        }
    }
}
