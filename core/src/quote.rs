//! Go's `strconv.Quote` (`%q`): how the API server and KubeFleet's controllers write a string value
//! into their messages. Its own module, below both the label rules and the fleet that quote with it.

use std::fmt::Write as _;

/// Go's `strconv.Quote` (`%q`), which the API server uses for a string's bad value: `"`, `\` and the
/// C escapes, `\xNN` for other ASCII control bytes, `\uNNNN`/`\UNNNNNNNN` for other non-printable
/// characters (here: Unicode control and format characters); printable text stays as it is.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control() || is_format(c) => {
                if (c as u32) < 0x10000 {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                } else {
                    let _ = write!(out, "\\U{:08x}", c as u32);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A few invisible format characters Go does not print as they are (soft hyphen, zero-width marks,
/// bidirectional controls, the byte-order mark).
fn is_format(c: char) -> bool {
    matches!(c as u32, 0xad | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x2064 | 0xfeff)
}
