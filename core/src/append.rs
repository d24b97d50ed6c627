//! Short texts appended without a `memcpy` of a run-time length: in wasm every such copy is a
//! `memory.copy`, which V8 runs for about 8 ns whatever the length (bench/REPORT.md, 2026-11-27),
//! and reading a 10,000-cluster scenario appended some twenty short texts per cluster (paths recorded
//! in the source map, label keys and values, a cluster's name). The one `unsafe` of the crate, and
//! why, is in [`append`].

/// Texts longer than this are appended by `push_str` (one copy is then worth its call).
const SHORT: usize = 32;

/// Appends `s` to `out`, as `out.push_str(s)` does. A text up to [`SHORT`] bytes is copied in pieces
/// of 8 (or 4) bytes, the last piece overlapping the one before it, which compile to plain loads and
/// stores; one under 4 bytes byte by byte. Written into the room past the text's end and counted in
/// once complete: one capacity check per text, not one per piece.
#[inline]
pub(crate) fn append(out: &mut String, s: &str) {
    let b = s.as_bytes();
    let len = b.len();
    if len > SHORT {
        out.push_str(s);
        return;
    }
    // SAFETY: the bytes counted in by `set_len` are exactly `s`'s, written in order into the room
    // reserved past the end (an overlapping piece rewrites the bytes it overlaps with the same
    // bytes), so `out` ends as valid UTF-8 and never holds an uninitialized byte. Until `set_len`
    // the text is as it was, so a panic in between (none can happen: the room is reserved first)
    // would leave it valid. Safe code (`str` pieces cut at character boundaries, `String::truncate`)
    // took five times the instructions per text in checks.
    unsafe {
        let v = out.as_mut_vec();
        v.reserve(len);
        let at = v.len();
        let room = &mut v.spare_capacity_mut()[..len];
        // The pieces at fixed places (no loop the compiler could turn back into a `memcpy`).
        if let Some(last) = b.last_chunk::<8>() {
            // The pieces before the last (which covers what they do not).
            for from in [0, 8, 16] {
                if from + 8 < len {
                    if let Some(word) = b.get(from..).and_then(<[u8]>::first_chunk::<8>) {
                        put(&mut room[from..], word);
                    }
                }
            }
            put(&mut room[len - 8..], last);
        } else if let (Some(first), Some(last)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
            put(&mut room[..], first);
            put(&mut room[len - 4..], last);
        } else if let (Some(first), Some(last)) = (b.first_chunk::<2>(), b.last_chunk::<2>()) {
            put(&mut room[..], first);
            put(&mut room[len - 2..], last);
        } else if let (Some(&byte), Some(to)) = (b.first(), room.first_mut()) {
            to.write(byte);
        }
        v.set_len(at + len);
    }
}

/// Copies the piece `from` into the start of `to`: one load and one store.
#[inline(always)]
fn put<const N: usize>(to: &mut [std::mem::MaybeUninit<u8>], from: &[u8; N]) {
    for (t, &f) in to[..N].iter_mut().zip(from) {
        t.write(f);
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
