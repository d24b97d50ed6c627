//! Counting and finding a text's lines eight bytes at a time, for code that does it on every edit.
//!
//! The browser's editor places its window, caret and scroll position by line (web/src/editor.rs): five
//! or six passes over the whole text per pasted edit, 180 KB for a 1,000-cluster GKE scenario. Byte by
//! byte, in the bundle's wasm, those passes were about 5% of a pasted edit's time in Chromium
//! (bench/REPORT.md); a word of eight bytes tested at once for newlines takes a fraction of that. Only
//! the editor calls the line functions: code the edit memo shared with it would be a module of its own
//! in the split bundle, one more download for the app's first visit. The byte test under them,
//! `bytes_equal`, is always inlined, so `status::looks_live` uses it too without such a module.

const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
const LOW7: u64 = u64::from_ne_bytes([0x7f; 8]);

/// The bytes of `word` equal to `byte`, as their high bits. Exact: after the xor such a byte is zero,
/// and a byte's high bit survives here only when its seven low bits are zero (adding 0x7f carries
/// into the high bit otherwise) and its own high bit is clear. Always inlined, so that a caller outside
/// the editor (`status::looks_live`) shares the test, not a function the split bundle would have to
/// put in a module of its own.
#[inline(always)]
pub(crate) fn bytes_equal(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// The bytes of `word` that are newlines, as their high bits.
#[inline]
fn newline_bits(word: u64) -> u64 {
    bytes_equal(word, b'\n')
}

/// Counts the newlines of `bytes` up to the `n`th: how many it counted, and the offset just after the
/// `n`th (the end of `bytes` when there are fewer). One function behind both callers, kept out of
/// them: inlined into the editor's three line helpers it added 0.3 KB to the app's first visit, as
/// one function 0.1 KB.
#[inline(never)]
fn scan(bytes: &[u8], n: usize) -> (usize, usize) {
    let (mut seen, mut at) = (0, 0);
    while let Some(word) = bytes.get(at..at + 8) {
        let word = u64::from_ne_bytes([
            word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
        ]);
        let here = newline_bits(word).count_ones() as usize;
        if seen + here >= n {
            break;
        }
        seen += here;
        at += 8;
    }
    while let Some(&b) = bytes.get(at) {
        at += 1;
        if b == b'\n' {
            seen += 1;
            if seen == n {
                return (seen, at);
            }
        }
    }
    (seen, at)
}

/// How many newlines `bytes` holds.
pub fn newlines(bytes: &[u8]) -> usize {
    scan(bytes, usize::MAX).0
}

/// The byte offset just after the `n`th newline of `bytes` (1-based), where line `n` (0-based) starts;
/// `None` when there are fewer.
pub fn after_newline(bytes: &[u8], n: usize) -> Option<usize> {
    if n == 0 {
        return Some(0);
    }
    let (seen, at) = scan(bytes, n);
    (seen == n).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to 40 bytes, every place and number of newlines among other bytes (the ones a
    /// carry or a borrow could confuse with a newline: 0x09, 0x0b, 0x8a, 0x00, 0xff), against a
    /// byte-by-byte count and search.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn agree_with_a_byte_by_byte_pass() {
        let fill = [b'a', 0x09, 0x0b, 0x8a, 0x00, 0xff, b' '];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for len in 0..=40usize {
            for round in 0..60 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        if (state >> 8) % (2 + round % 5) == 0 {
                            b'\n'
                        } else {
                            fill[(state % fill.len() as u64) as usize]
                        }
                    })
                    .collect();
                let ends: Vec<usize> = (0..len).filter(|&i| bytes[i] == b'\n').collect();
                assert_eq!(newlines(&bytes), ends.len(), "{bytes:?}");
                assert_eq!(after_newline(&bytes, 0), Some(0));
                for n in 1..=ends.len() + 1 {
                    assert_eq!(
                        after_newline(&bytes, n),
                        ends.get(n - 1).map(|i| i + 1),
                        "{n} of {bytes:?}"
                    );
                }
            }
        }
    }
}
