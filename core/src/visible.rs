//! Text from the input shown to a person: characters that are invisible or act on the display
//! (terminal escapes, bidirectional overrides, zero-width characters, the byte-order mark) are written
//! out as `\u{202e}`, so a cluster name cannot rewrite a terminal or reorder the text around it.
//!
//! Used by every human-facing rendering (the CLI's table and diagnostics, Mermaid, SVG, CSV); data
//! formats (JSON, YAML) keep the text as it is, escaped by their own rules.

use std::borrow::Cow;
use std::fmt::Write as _;

/// True for the characters [`visible`] writes out: C0 and C1 controls and DEL (Unicode `Cc`), format
/// characters (`Cf`: bidirectional marks and overrides, zero-width characters, the byte-order mark,
/// invisible operators, tag characters), the line and paragraph separators, and U+FFFE and U+FFFF
/// (not characters at all, and forbidden in XML).
pub fn is_hidden(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    c.is_control()
        || matches!(
            c as u32,
            0xad | 0x600..=0x605
                | 0x61c
                | 0x6dd
                | 0x70f
                | 0x890..=0x891
                | 0x8e2
                | 0x180e
                | 0x200b..=0x200f
                | 0x2028..=0x202e
                | 0x2060..=0x2064
                | 0x2066..=0x206f
                | 0xfeff
                | 0xfff9..=0xfffb
                | 0xfffe..=0xffff
                | 0x110bd
                | 0x110cd
                | 0x13430..=0x1343f
                | 0x1bca0..=0x1bca3
                | 0x1d173..=0x1d17a
                | 0xe0001
                | 0xe0020..=0xe007f
        )
}

/// `s` with every [`is_hidden`] character written as `\n`, `\r`, `\t` or `\u{hex}`; borrowed when there
/// is none (the common case costs no allocation).
pub fn visible(s: &str) -> Cow<'_, str> {
    // Nearly all text is printable ASCII: one pass over the bytes says so.
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) || !s.chars().any(is_hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        push_visible(&mut out, c);
    }
    Cow::Owned(out)
}

/// Appends `c`, written out when it is hidden.
pub fn push_visible(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if is_hidden(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn hidden_characters_are_written_out() {
        assert_eq!(
            visible("a\u{1b}[2Jb\u{7}"),
            "a\\u{1b}[2Jb\\u{7}",
            "a terminal escape"
        );
        assert_eq!(
            visible("\u{202e}gnp.exe"),
            "\\u{202e}gnp.exe",
            "RIGHT-TO-LEFT OVERRIDE"
        );
        assert_eq!(visible("a\u{200b}b\u{feff}"), "a\\u{200b}b\\u{feff}");
        assert_eq!(visible("x\ny\tz"), "x\\ny\\tz");
        assert_eq!(
            visible("\u{85}\u{9f}\u{7f}"),
            "\\u{85}\\u{9f}\\u{7f}",
            "C1 and DEL"
        );
        assert_eq!(visible("\u{e0041}"), "\\u{e0041}", "a tag character");
        // Ordinary text, accents, other scripts and emoji stay as they are, without a copy.
        for plain in ["prod-eu-1", "ünï ✓", "שלום", "日本", "🚀", "a\\u{202e}"] {
            assert!(matches!(visible(plain), Cow::Borrowed(_)), "{plain}");
        }
    }
}
