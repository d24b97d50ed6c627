//! Share links: a scenario's text, compressed and versioned, small enough for a URL fragment.
//!
//! The payload is `1.<base64url without padding of zlib-wrapped deflate of the text>`. It goes in the fragment
//! (`#s=1.…`) so the scenario never reaches a server log. The version prefix lets a later fleetplan change
//! the encoding and still tell an old reader, in words, why it cannot open the link.
//!
//! Links come from chat tools, e-mail and hand edits, so [`decode`] treats its input as hostile: every
//! damage is an error with a sentence for the user, sizes are capped before and during decompression (a
//! small link cannot unpack into gigabytes), and nothing panics.

use std::fmt;

use crate::diag::thousands;

use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

/// The format this fleetplan writes and the only one it reads.
pub const VERSION: &str = "1";

/// Longest payload [`decode`] looks at, in bytes (base64url is ASCII, so also characters).
pub const MAX_PAYLOAD_LEN: usize = 1 << 20;

/// Largest scenario text [`decode`] unpacks, in bytes. Far above any real scenario (the 2,000-cluster
/// example is a few kilobytes because fleets are generated), far below what would hurt a browser tab.
pub const MAX_TEXT_LEN: usize = 2 << 20;

/// Above this many characters [`link_warning`] speaks up: chat tools, mail clients and some proxies cut
/// or refuse URLs past roughly 8,000 characters.
pub const LONG_LINK: usize = 8_000;

/// deflate level 9: the text is small and encoded once per share, so size matters more than speed.
const LEVEL: u8 = 9;

/// Why a share link could not be opened. [`fmt::Display`] gives the sentence to show the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// Nothing after the `#` (or after `s=`).
    Empty,
    /// No `<version>.` prefix: not something fleetplan wrote.
    NotALink,
    /// A version this fleetplan does not read. Holds the version as written (shortened if absurd).
    UnknownVersion(String),
    /// A character outside base64url; `position` counts characters of the input from 1.
    NotBase64Url { position: usize, character: char },
    /// The compressed data ends early: the link was cut.
    Truncated,
    /// The compressed data is not valid deflate, or has bytes after its end.
    Damaged,
    /// The link itself is longer than [`MAX_PAYLOAD_LEN`].
    LinkTooLong { length: usize },
    /// The scenario would unpack to more than [`MAX_TEXT_LEN`] bytes.
    TextTooLarge,
    /// The unpacked bytes are not UTF-8; `position` is the byte offset of the first bad byte.
    NotUtf8 { position: usize },
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::Empty => f.write_str(
                "this share link holds no scenario: there is nothing after `#s=`; copy the whole link again",
            ),
            ShareError::NotALink => f.write_str(
                "this is not a fleetplan share link: it should look like `#s=1.…` \
                 (a format number, a dot, then the scenario data)",
            ),
            ShareError::UnknownVersion(v) if is_newer(v) => write!(
                f,
                "this link was made by a newer fleetplan (format {v}); this one reads format {VERSION} \
                 only. Open it with the newer fleetplan, or ask the sender for the scenario's YAML"
            ),
            ShareError::UnknownVersion(v) => write!(
                f,
                "this link's format `{v}` is not one fleetplan knows (this one reads format {VERSION}); \
                 the link is probably damaged"
            ),
            ShareError::NotBase64Url {
                position,
                character,
            } => write!(
                f,
                "this share link is damaged: character {position} ({}) cannot appear in a share link; \
                 it was probably changed when the link was copied",
                describe_char(*character)
            ),
            ShareError::Truncated => f.write_str(
                "this share link is cut short: its scenario data ends early. Long links are often cut \
                 by chat tools and mail clients; copy the whole link again",
            ),
            ShareError::Damaged => f.write_str(
                "this share link is damaged: its scenario data does not unpack. Copy the link again \
                 from where it was shared",
            ),
            ShareError::LinkTooLong { length } => write!(
                f,
                "this share link is too long to open: {} characters, fleetplan reads at most {}",
                thousands(*length),
                thousands(MAX_PAYLOAD_LEN)
            ),
            ShareError::TextTooLarge => write!(
                f,
                "the scenario in this link unpacks to more than {} MiB; fleetplan does not open \
                 scenarios that large from a link",
                MAX_TEXT_LEN >> 20
            ),
            ShareError::NotUtf8 { position } => write!(
                f,
                "this share link is damaged: its scenario is not text (invalid UTF-8 at byte {position})"
            ),
        }
    }
}

impl std::error::Error for ShareError {}

/// A positive integer other than ours, without leading zeros: a format from a later fleetplan.
fn is_newer(v: &str) -> bool {
    !v.is_empty()
        && v.bytes().all(|b| b.is_ascii_digit())
        && !v.starts_with('0')
        && (v.len() > VERSION.len() || (v.len() == VERSION.len() && v > VERSION))
}

fn describe_char(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

/// The share payload of a scenario text: `1.` then base64url (no padding) of its zlib-wrapped deflate (Adler-32 checked on the way back).
/// Put it in a URL as `#s=<payload>`.
pub fn encode(scenario_text: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(scenario_text.as_bytes(), LEVEL);
    let mut out = String::with_capacity(VERSION.len() + 1 + packed.len().div_ceil(3) * 4);
    out.push_str(VERSION);
    out.push('.');
    base64url_encode(&packed, &mut out);
    out
}

/// The scenario text of a share payload. Accepts the payload alone (`1.xxxx`), a fragment (`#1.xxxx`,
/// `#s=1.xxxx`, `#embed=1&s=1.xxxx`) or a whole URL; surrounding whitespace is ignored.
pub fn decode(payload: &str) -> Result<String, ShareError> {
    let packed = unpack(payload)?;
    text_of(inflate_limited(&packed, MAX_TEXT_LEN)?)
}

/// [`decode`]'s first half: the payload's zlib-wrapped deflate data, its version and characters
/// checked, not yet inflated. A caller with an inflater of its own (the browser's
/// `DecompressionStream`) inflates it into at most [`MAX_TEXT_LEN`] bytes, then calls [`text_of`].
pub fn unpack(payload: &str) -> Result<Vec<u8>, ShareError> {
    let input = payload;
    let (offset, payload) = locate(input);
    if payload.is_empty() {
        return Err(ShareError::Empty);
    }
    // Before any real work: the cheap check that bounds all the rest.
    if payload.len() > MAX_PAYLOAD_LEN {
        return Err(ShareError::LinkTooLong {
            length: payload.len(),
        });
    }
    let Some((version, data)) = payload.split_once('.') else {
        return Err(ShareError::NotALink);
    };
    if version != VERSION {
        if version.is_empty() {
            return Err(ShareError::NotALink);
        }
        return Err(ShareError::UnknownVersion(shorten(version)));
    }
    if data.is_empty() {
        return Err(ShareError::Empty);
    }
    let data_offset = offset + version.len() + 1;
    let packed = base64url_decode(data).map_err(|bad| match bad {
        Base64Error::Char(i) => ShareError::NotBase64Url {
            position: char_position(input, data_offset + i),
            character: char_at(data, i),
        },
        Base64Error::Length => ShareError::Truncated,
    })?;
    Ok(packed)
}

/// [`decode`]'s last step: the inflated bytes as the scenario's text.
pub fn text_of(bytes: Vec<u8>) -> Result<String, ShareError> {
    String::from_utf8(bytes).map_err(|e| ShareError::NotUtf8 {
        position: e.utf8_error().valid_up_to(),
    })
}

/// A warning to show beside a share link that may not survive being passed around, or `None`.
pub fn link_warning(payload: &str) -> Option<String> {
    let n = payload.chars().count();
    if n > MAX_PAYLOAD_LEN {
        return Some(format!(
            "this link is {} characters long, more than the {} fleetplan opens; share the scenario's \
             YAML file instead",
            thousands(n),
            thousands(MAX_PAYLOAD_LEN)
        ));
    }
    if n > LONG_LINK {
        return Some(format!(
            "this link is {} characters long; chat tools, mail clients and some proxies cut links \
             longer than about {}. Share the scenario's YAML file instead, or shorten the scenario \
             (a fleet generator instead of listed clusters)",
            thousands(n),
            thousands(LONG_LINK)
        ));
    }
    None
}

/// Finds the payload inside what the user gave: after the first `#`, under the `s=` key when the
/// fragment has keys. Returns the payload's byte offset in `input` (for error positions) and the payload.
fn locate(input: &str) -> (usize, &str) {
    let mut start = 0;
    let mut s = input;
    if let Some(i) = s.find('#') {
        start = i + 1;
        s = &s[start..];
    }
    // Trim after the cut so that `  #s=1.x  ` and `1.x\n` both work; track how much was trimmed in front.
    let trimmed_front = s.len() - s.trim_start().len();
    start += trimmed_front;
    s = s.trim();
    if s.as_bytes().contains(&b'=') {
        // A fragment of keys: take the value of `s`, ignore the others (e.g. a future `view=`).
        let mut at = start;
        for part in s.split('&') {
            if let Some(value) = part.strip_prefix("s=") {
                return (at + 2, value);
            }
            at += part.len() + 1;
        }
        // Keys, but no `s`: nothing for us. Base64url never contains `=`, as we write it without padding.
        if !s.as_bytes().contains(&b'.') {
            return (start, "");
        }
    }
    (start, s)
}

/// 1-based character position of byte `i` of `input`, for messages people count along the link with.
fn char_position(input: &str, i: usize) -> usize {
    let mut end = i.min(input.len());
    while end > 0 && !input.is_char_boundary(end) {
        end -= 1;
    }
    input[..end].chars().count() + 1
}

fn char_at(s: &str, i: usize) -> char {
    let mut start = i.min(s.len());
    while start > 0 && !s.is_char_boundary(start) {
        start -= 1;
    }
    s[start..].chars().next().unwrap_or('\u{FFFD}')
}

/// At most 16 characters of an unknown version, so a garbage link does not produce a garbage message.
fn shorten(v: &str) -> String {
    let mut out: String = v.chars().take(16).collect();
    if v.chars().nth(16).is_some() {
        out.push('…');
    }
    out
}

/// Inflates zlib-wrapped deflate into at most `limit` bytes, growing the buffer by doubling so a bomb costs at
/// most `limit` bytes of memory, and rejecting data that goes on after the deflate stream ends.
fn inflate_limited(input: &[u8], limit: usize) -> Result<Vec<u8>, ShareError> {
    // The zlib wrapper's Adler-32 makes a damaged link an error instead of silently different text.
    let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF
        | inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER
        | inflate_flags::TINFL_FLAG_COMPUTE_ADLER32;
    let mut out = vec![0u8; input.len().saturating_mul(4).clamp(64, limit.max(1))];
    let mut state = DecompressorOxide::new();
    let mut rest = input;
    let mut out_pos = 0;
    loop {
        let (status, consumed, written) = decompress(&mut state, rest, &mut out, out_pos, flags);
        out_pos = out_pos.saturating_add(written).min(out.len());
        rest = rest.get(consumed..).unwrap_or(&[]);
        match status {
            TINFLStatus::Done => {
                if !rest.is_empty() {
                    return Err(ShareError::Damaged);
                }
                out.truncate(out_pos);
                return Ok(out);
            }
            TINFLStatus::HasMoreOutput => {
                if out.len() >= limit {
                    return Err(ShareError::TextTooLarge);
                }
                let grown = out.len().saturating_mul(2).min(limit);
                out.resize(grown, 0);
            }
            // The decoder wanted more input than there is: the stream was cut.
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                return Err(ShareError::Truncated)
            }
            _ => return Err(ShareError::Damaged),
        }
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// RFC 4648 §5 (URL- and filename-safe), without padding.
fn base64url_encode(bytes: &[u8], out: &mut String) {
    let sym = |v: u32| ALPHABET[(v & 63) as usize] as char;
    let mut chunks = bytes.chunks_exact(3);
    for c in &mut chunks {
        let n = (u32::from(c[0]) << 16) | (u32::from(c[1]) << 8) | u32::from(c[2]);
        out.extend([sym(n >> 18), sym(n >> 12), sym(n >> 6), sym(n)]);
    }
    match *chunks.remainder() {
        [a] => {
            let n = u32::from(a) << 16;
            out.extend([sym(n >> 18), sym(n >> 12)]);
        }
        [a, b] => {
            let n = (u32::from(a) << 16) | (u32::from(b) << 8);
            out.extend([sym(n >> 18), sym(n >> 12), sym(n >> 6)]);
        }
        _ => {}
    }
}

/// Symbol values by byte; 0xFF marks bytes outside the alphabet.
const DECODE: [u8; 256] = {
    let mut table = [0xFFu8; 256];
    let mut i = 0;
    while i < 64 {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table
};

enum Base64Error {
    /// The byte offset of the first character outside the alphabet.
    Char(usize),
    /// A length no encoder produces (one symbol left over): the text was cut.
    Length,
}

fn base64url_decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    // Tolerate padding someone added by hand; we never write it.
    let text = text.trim_end_matches('=');
    let b = text.as_bytes();
    if let Some(i) = b.iter().position(|&c| DECODE[c as usize] == 0xFF) {
        return Err(Base64Error::Char(i));
    }
    if b.len() % 4 == 1 {
        return Err(Base64Error::Length);
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3 + 2);
    let mut chunks = b.chunks_exact(4);
    let val = |c: u8| u32::from(DECODE[c as usize]);
    for c in &mut chunks {
        let n = (val(c[0]) << 18) | (val(c[1]) << 12) | (val(c[2]) << 6) | val(c[3]);
        out.extend([(n >> 16) as u8, (n >> 8) as u8, n as u8]);
    }
    // Unused low bits of the last symbol are ignored rather than rejected, so a link cut mid-byte is
    // reported by the inflater as cut short, the more helpful message.
    match *chunks.remainder() {
        [a, b] => out.push(((val(a) << 18 | val(b) << 12) >> 16) as u8),
        [a, b, c] => {
            let n = (val(a) << 18) | (val(b) << 12) | (val(c) << 6);
            out.extend([(n >> 16) as u8, (n >> 8) as u8]);
        }
        _ => {}
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn every_example_round_trips() {
        for e in examples::all() {
            let payload = encode(e.text);
            assert!(payload.starts_with("1."), "{}", e.name);
            assert!(
                payload[2..]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "{}: not fragment-safe",
                e.name
            );
            assert_eq!(decode(&payload).as_deref(), Ok(e.text), "{}", e.name);
            assert_eq!(decode(&format!("#s={payload}")).as_deref(), Ok(e.text));
            assert_eq!(decode(&format!("#{payload}")).as_deref(), Ok(e.text));
            assert_eq!(
                decode(&format!("https://x.test/?embed=1#s={payload}\n")).as_deref(),
                Ok(e.text)
            );
            assert_eq!(encode(e.text), payload, "deterministic");
            assert!(link_warning(&payload).is_none(), "{}", e.name);
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_staged_example_shrinks_a_lot() {
        let text = examples::get("staged").unwrap().text;
        let payload = encode(text);
        let ratio = payload.len() as f64 / text.len() as f64;
        // Measured: 2,071 bytes of YAML → 989 characters of link (0.48), comments included.
        assert!(
            ratio < 0.55,
            "staged: {} bytes → {} characters, ratio {ratio:.2}",
            text.len(),
            payload.len()
        );
        let large = examples::get("large-fleet").unwrap().text;
        assert!(encode(large).len() < large.len());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn round_trips_odd_texts() {
        for text in [
            "",
            "a",
            "ab",
            "abc",
            "ünïcödé ✓ 🚀",
            "\0\r\n\t",
            &"x".repeat(100_000),
        ] {
            let p = encode(text);
            if text.is_empty() {
                // An empty scenario deflates to a couple of bytes: still a valid link.
                assert_eq!(decode(&p).as_deref(), Ok(""));
            } else {
                assert_eq!(decode(&p).as_deref(), Ok(text));
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn base64url_matches_rfc4648_vectors() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            let mut s = String::new();
            base64url_encode(raw.as_bytes(), &mut s);
            assert_eq!(s, enc);
            assert_eq!(base64url_decode(enc).ok().as_deref(), Some(raw.as_bytes()));
        }
        let mut s = String::new();
        base64url_encode(&[0xfb, 0xff, 0xbf], &mut s);
        assert_eq!(s, "-_-_");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn truncated_links_are_errors() {
        let payload = encode(examples::get("staged").unwrap().text);
        // Nothing, `1` (no version dot), `1.` (nothing after the version); every longer cut ends the
        // compressed stream early, which the inflater reports as such.
        assert_eq!(decode(""), Err(ShareError::Empty));
        assert_eq!(decode(&payload[..1]), Err(ShareError::NotALink));
        assert_eq!(decode(&payload[..2]), Err(ShareError::Empty));
        for cut in 3..payload.len() {
            assert_eq!(
                decode(&payload[..cut]),
                Err(ShareError::Truncated),
                "cut at {cut}"
            );
        }
        // What the user reads for a cut link.
        assert_eq!(
            decode(&payload[..payload.len() / 2]).unwrap_err().to_string(),
            "this share link is cut short: its scenario data ends early. Long links are often cut by chat tools and mail clients; copy the whole link again"
        );
        assert_eq!(
            decode(&payload[..payload.len() - 40]),
            Err(ShareError::Truncated)
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn flipped_characters_never_panic() {
        let text = examples::get("staged").unwrap().text;
        let payload = encode(text);
        let bytes = payload.as_bytes();
        let mut errors = 0;
        let mut total = 0;
        // Each position, replaced by a few symbols: the zlib checksum must catch every flip that changes
        // the text, so a damaged link never opens a different scenario.
        for i in 2..bytes.len() {
            for sub in [b'A', b'z', b'_', b'7'] {
                if bytes[i] == sub {
                    continue;
                }
                let mut damaged = bytes.to_vec();
                damaged[i] = sub;
                let damaged = String::from_utf8(damaged).unwrap();
                total += 1;
                match decode(&damaged) {
                    Err(_) => errors += 1,
                    // Only the last symbol has bits no byte uses; changing just those is harmless.
                    Ok(t) => assert_eq!(t, text, "flip at {i} opened different text"),
                }
            }
        }
        assert!(errors + 4 >= total, "{errors} of {total} flips detected");
        let mut bad = payload.clone();
        bad.insert(10, '!');
        assert_eq!(
            decode(&format!("#s={bad}")),
            Err(ShareError::NotBase64Url {
                position: 14,
                character: '!'
            })
        );
        assert!(decode(&format!("#s={bad}"))
            .unwrap_err()
            .to_string()
            .contains("character 14 (`!`)"));
        let mut bad = payload;
        bad.insert(5, 'é');
        assert_eq!(
            decode(&bad),
            Err(ShareError::NotBase64Url {
                position: 6,
                character: 'é'
            })
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn versions_and_empties() {
        assert_eq!(decode(""), Err(ShareError::Empty));
        assert_eq!(decode("#"), Err(ShareError::Empty));
        assert_eq!(decode("#s="), Err(ShareError::Empty));
        assert_eq!(decode("  #s=1.  "), Err(ShareError::Empty));
        assert_eq!(decode("#embed=1"), Err(ShareError::Empty));
        assert_eq!(decode("#hello"), Err(ShareError::NotALink));
        assert_eq!(decode(".abc"), Err(ShareError::NotALink));
        let e = decode("#s=7.AAAA").unwrap_err();
        assert_eq!(e, ShareError::UnknownVersion("7".into()));
        assert!(e
            .to_string()
            .starts_with("this link was made by a newer fleetplan (format 7); "));
        let e = decode("12.AAAA").unwrap_err();
        assert!(e.to_string().contains("newer fleetplan (format 12)"));
        let e = decode("0.AAAA").unwrap_err();
        assert!(e.to_string().contains("format `0` is not one"), "{e}");
        let e = decode(&format!("{}.AAAA", "v".repeat(500))).unwrap_err();
        assert!(e.to_string().len() < 300, "{e}");
        assert_eq!(decode("1.A"), Err(ShareError::Truncated));
        assert_eq!(decode("1.____"), Err(ShareError::Damaged));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn trailing_bytes_are_damage() {
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(b"name: x\n", LEVEL);
        let mut extra = packed.clone();
        extra.extend_from_slice(b"zzz");
        let mut s = String::from("1.");
        base64url_encode(&extra, &mut s);
        assert_eq!(decode(&s), Err(ShareError::Damaged));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn sizes_are_capped() {
        // A zip bomb: 16 MiB of one byte deflates to ~16 KiB, a link far under the length cap.
        let bomb = vec![b'a'; 16 << 20];
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&bomb, 1);
        let mut payload = String::from("1.");
        base64url_encode(&packed, &mut payload);
        assert!(payload.len() < MAX_PAYLOAD_LEN);
        assert_eq!(decode(&payload), Err(ShareError::TextTooLarge));
        assert!(decode(&payload).unwrap_err().to_string().contains("2 MiB"));

        // Exactly the cap unpacks; one byte more does not.
        let at_cap = "b".repeat(MAX_TEXT_LEN);
        assert_eq!(decode(&encode(&at_cap)).map(|t| t.len()), Ok(MAX_TEXT_LEN));
        let over = "b".repeat(MAX_TEXT_LEN + 1);
        assert_eq!(decode(&encode(&over)), Err(ShareError::TextTooLarge));

        let long = format!("1.{}", "A".repeat(MAX_PAYLOAD_LEN));
        let e = decode(&long).unwrap_err();
        assert!(matches!(e, ShareError::LinkTooLong { .. }));
        assert!(e.to_string().contains("1,048,578 characters"), "{e}");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn not_utf8_is_reported() {
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(b"ok\xff\xfe", LEVEL);
        let mut s = String::from("1.");
        base64url_encode(&packed, &mut s);
        assert_eq!(decode(&s), Err(ShareError::NotUtf8 { position: 2 }));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn long_links_warn() {
        assert!(link_warning("1.abc").is_none());
        let w = link_warning(&format!("1.{}", "A".repeat(9_000))).unwrap();
        assert!(w.contains("9,002 characters"), "{w}");
        assert!(link_warning(&"A".repeat(LONG_LINK)).is_none());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn garbage_never_panics() {
        // A deterministic byte soup (xorshift), as strings of every shape decode might meet.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for len in 0..400 {
            let mut s = String::from(if len % 2 == 0 { "1." } else { "#s=1." });
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.push(ALPHABET[(x % 64) as usize] as char);
            }
            let _ = decode(&s);
        }
        for s in [
            "#s=#s=1.AA",
            "1..",
            "1.=",
            "s=1.AA&s=2.B",
            "#&&&",
            "é#é",
            "1.AAAAé",
        ] {
            let _ = decode(s).map_err(|e| e.to_string());
        }
    }
}
