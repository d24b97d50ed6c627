//! Short texts appended without a `memcpy` of a run-time length: in wasm every such copy is a
//! `memory.copy`, which V8 runs for about 8 ns whatever the length (bench/REPORT.md, 2026-11-27),
//! and reading a 10,000-cluster scenario appended some twenty short texts per cluster (paths recorded
//! in the source map, label keys and values, a cluster's name). The one `unsafe` of the crate, and
//! why, is in [`append`].

/// Texts longer than this are appended by `push_str` (one copy is then worth its call).
const SHORT: usize = 32;

/// Appends `s` to `out`, as `out.push_str(s)` does. A text up to [`SHORT`] bytes is copied in pieces
/// of 8 (or 4) bytes, the last piece overlapping the one before it, which compile to plain loads and
/// stores; one under 4 bytes byte by byte.
#[inline]
pub(crate) fn append(out: &mut String, s: &str) {
    let b = s.as_bytes();
    let len = b.len();
    if len > SHORT {
        out.push_str(s);
        return;
    }
    // SAFETY: what is appended below is exactly `s`'s bytes in order (an overlapping piece rewrites
    // the bytes it overlaps with the same bytes), so `out` ends as valid UTF-8. A piece may end inside
    // a character only until the next piece completes it, and nothing between them can panic or
    // return: the room is reserved first, so no piece reallocates. Safe code (`str` pieces cut at
    // character boundaries, `String::truncate`) took five times the instructions per text in checks.
    let v = unsafe { out.as_mut_vec() };
    v.reserve(len);
    let end = v.len() + len;
    if let Some(last) = b.last_chunk::<8>() {
        let mut rest = b;
        while let Some((word, tail)) = rest.split_first_chunk::<8>() {
            v.extend_from_slice(word);
            rest = tail;
        }
        v.truncate(end - 8);
        v.extend_from_slice(last);
    } else if let (Some(first), Some(last)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        v.extend_from_slice(first);
        v.truncate(end - 4);
        v.extend_from_slice(last);
    } else {
        for &byte in b {
            v.push(byte);
        }
    }
}

/// `s` as an owned text, copied by [`append`].
#[inline]
pub(crate) fn owned(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    append(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn appends_exactly_the_text_whatever_its_length_and_characters() {
        // Every piece of a text mixing one- to four-byte characters, from empty to past the short
        // limit, so that the 8- and 4-byte copies start and end inside characters in every way they can.
        let mixed = "a-é-€-𝄞-b0-ü-𝄞𝄞-zoné-région-européenne-x1-あい-9";
        assert!(mixed.len() > SHORT + 8);
        let bounds: Vec<usize> = (0..=mixed.len())
            .filter(|&at| mixed.is_char_boundary(at))
            .collect();
        for before in ["", "x", "clusters[7].", "ü", "𝄞"] {
            for (i, &start) in bounds.iter().enumerate() {
                for &end in &bounds[i..] {
                    let s = &mixed[start..end];
                    let mut out = before.to_string();
                    append(&mut out, s);
                    assert_eq!(out, format!("{before}{s}"), "{before:?} + {s:?}");
                    assert_eq!(owned(s), s);
                }
            }
        }
    }
}
