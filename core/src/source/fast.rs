//! A fast reader for the plain subset of YAML that scenarios, `kubectl get -o yaml|json` and GKE's
//! files are written in: block mappings and sequences, single-line plain and quoted scalars, literal
//! and folded block scalars, one-line flow collections (any JSON document at the top), comments and
//! `---` between documents, in ASCII text.
//!
//! It builds the same tree, with the same positions, as the event parser does (yaml-rust2, whose
//! quirks included: a null value's position is never needed because empty values are refused here, a
//! sequence written at its key's indentation starts at its first item's content). Whatever it does not
//! know for certain (anchors, tags, empty values, multi-line scalars, duplicate keys, deep nesting,
//! tabs, any syntax error) makes it return `None`, and the event parser reads the whole text instead:
//! every diagnostic and every limit of `source` stays where it is. The tests check both agree on
//! every text this reader accepts.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashSet;

use super::{Entry, Node, Scalar, Style, Value};

/// Nesting past this is left to the event parser, which reports `yaml-too-deep` at `MAX_DEPTH`.
const MAX_NESTING: usize = 100;
/// yaml-rust2 refuses implicit keys longer than this; such a key is left to it.
const MAX_KEY: usize = 1000;
/// Maps with more entries than this find duplicate keys through a set instead of a scan.
const SCAN_KEYS: usize = 12;

/// Parses `text` if it is entirely in the subset; `None` means "use the event parser".
pub(super) fn parse(text: &str) -> Option<Vec<Node<'_>>> {
    // Line breaks other than `\n`, tabs and control characters have rules of their own (tab
    // indentation, `\r`, NUL as the end of input, NEL and LS/PS, the byte order mark).
    let ascii = plain_ascii(text.as_bytes());
    if !ascii && !text.chars().all(|c| c == '\n' || ordinary(c)) {
        return None;
    }
    let mut r = Reader {
        b: text.as_bytes(),
        text,
        ascii,
        pos: 0,
        line: 1,
        line_start: 0,
        depth: 0,
        column_mark: Cell::new((0, 0, 1)),
        entries: Vec::new(),
        items: Vec::new(),
    };
    r.stream()
}

/// Whether every byte is printable ASCII or `\n`, eight bytes at a time: a word with no byte below
/// 0x20 and none above 0x7e is printable as a whole, and only a word that has one (a line break, most
/// often) is looked at byte by byte. At the bundle's opt-level "z" the compiler does not vectorize a
/// byte loop: byte by byte this check was 6.3 M of the 245 M instructions of five 1,000-cluster GKE
/// edits' core work (7 per byte), and it runs on every edit's whole text.
fn plain_ascii(b: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let ok = |b: u8| b.wrapping_sub(0x20) < 0x5f || b == b'\n';
    let mut words = b.chunks_exact(8);
    words.all(|w| {
        let x = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        // A byte below 0x20 sets its high bit in the first term (a borrow starts only at such a
        // byte, so the test is exact for "any"); a byte above 0x7e in the second (0x7f + 1 reaches
        // 0x80; 0x80 and above have it already).
        let below = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
        let above = (x.wrapping_add(ONES) | x) & HIGHS;
        (below | above) == 0 || w.iter().all(|&b| ok(b))
    }) && words.remainder().iter().all(|&b| ok(b))
}

/// A character with no special meaning to YAML beyond its own: printable, not a line break, not
/// the byte order mark.
fn ordinary(c: char) -> bool {
    matches!(c, ' '..='~' | '\u{a0}'..='\u{2027}' | '\u{202a}'..='\u{d7ff}' | '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}' | '\u{10000}'..)
}

/// Bytes at which a plain scalar may end or be refused (everything else just continues it).
const PLAIN_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let stops = b"\n:#-,[]{}";
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] = true;
        i += 1;
    }
    t
};

struct Reader<'t> {
    b: &'t [u8],
    text: &'t str,
    /// Columns count characters; in ASCII text they are bytes.
    ascii: bool,
    pos: usize,
    /// 1-based line of `pos`, and the offset where that line starts.
    line: usize,
    line_start: usize,
    depth: usize,
    /// The last column counted in non-ASCII text, as (line start, offset, column): the next one on the
    /// same line is counted on from there. Counting from the line's start each time made a one-line
    /// JSON document with one accented letter quadratic (an 840 KB share link read for 18 s).
    column_mark: Cell<(usize, usize, usize)>,
    /// The entries of the mappings and the items of the lists being read, innermost last: each is
    /// moved into a list of its exact size when it ends. Grown by doubling and shrunk, each list left
    /// a gap behind it that the decoder's long-lived text then filled, and the freed tree's pages
    /// could not be given back while the plan was made (peak memory of `fleetplan check` on the
    /// 10,000-cluster GKE scenario 40.0 -> 41.8 MB when scalars stopped being copied).
    entries: Vec<Entry<'t>>,
    items: Vec<Node<'t>>,
}

type Found<T> = Option<T>;

impl<'t> Reader<'t> {
    fn peek(&self) -> u8 {
        self.b.get(self.pos).copied().unwrap_or(b'\n')
    }

    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(b'\n')
    }

    fn eof(&self) -> bool {
        self.pos >= self.b.len()
    }

    /// 1-based column of `pos`, in characters as the event parser counts them.
    fn column(&self) -> usize {
        if self.ascii {
            return self.pos - self.line_start + 1;
        }
        let (mark_line, mark_pos, mark_column) = self.column_mark.get();
        let (from, column) = if mark_line == self.line_start && mark_pos <= self.pos {
            (mark_pos, mark_column)
        } else {
            (self.line_start, 1)
        };
        let column = column
            + self.b[from..self.pos]
                .iter()
                .filter(|&&b| b & 0xc0 != 0x80)
                .count();
        self.column_mark.set((self.line_start, self.pos, column));
        column
    }

    fn indent(&self) -> usize {
        self.pos - self.line_start
    }

    /// Past the `\n` ending the current line (or to the end of the text).
    fn next_line(&mut self) {
        match self.b[self.pos.min(self.b.len())..]
            .iter()
            .position(|&c| c == b'\n')
        {
            Some(i) => {
                self.pos += i + 1;
                self.line += 1;
                self.line_start = self.pos;
            }
            None => self.pos = self.b.len(),
        }
    }

    fn skip_spaces(&mut self) {
        while self.peek() == b' ' && !self.eof() {
            self.pos += 1;
        }
    }

    /// At the end of a node: only spaces and a comment may follow on its line. Moves to the next line.
    fn end_of_line(&mut self) -> Found<()> {
        let before = self.pos;
        self.skip_spaces();
        match self.peek() {
            b'\n' => {}
            b'#' if self.pos > before => {}
            _ => return None,
        }
        self.next_line();
        Some(())
    }

    /// Moves to the first character of the next line that has content (not blank, not a comment),
    /// and returns its indentation; `None` at the end of the text. Starts at the beginning of a line.
    fn content_line(&mut self) -> Option<usize> {
        loop {
            if self.eof() {
                return None;
            }
            self.skip_spaces();
            match self.peek() {
                b'\n' | b'#' => self.next_line(),
                _ => return Some(self.indent()),
            }
        }
    }

    /// `---` or `...` at the start of the current line, followed by a space or the line's end.
    fn document_marker(&self) -> Option<u8> {
        let s = self.line_start;
        let c = self.at(s);
        ((c == b'-' || c == b'.')
            && self.at(s + 1) == c
            && self.at(s + 2) == c
            && matches!(self.at(s + 3), b' ' | b'\n'))
        .then_some(c)
    }

    fn stream(&mut self) -> Found<Vec<Node<'t>>> {
        let mut docs = Vec::new();
        loop {
            if self.content_line().is_none() {
                return Some(docs);
            }
            match self.document_marker() {
                Some(b'-') => {
                    self.pos = self.line_start + 3;
                    self.end_of_line()?;
                    continue;
                }
                Some(_) => return None,
                None => {}
            }
            if self.peek() == b'%' {
                return None;
            }
            let node = self.block_node(-1)?;
            // Only the end of the text or the next document may follow a document's root.
            if self.content_line().is_some() && self.document_marker() != Some(b'-') {
                return None;
            }
            if !node.is_null() {
                docs.push(node);
            }
        }
    }

    fn enter(&mut self) -> Found<()> {
        self.depth += 1;
        (self.depth <= MAX_NESTING).then_some(())
    }

    /// A node starting at `pos` (its line's first content), inside a block whose indentation is
    /// `parent` (-1 at the top). Leaves `pos` at the start of the line after the node.
    fn block_node(&mut self, parent: isize) -> Found<Node<'t>> {
        if self.indent() as isize <= parent {
            return None;
        }
        self.enter()?;
        let node = match self.peek() {
            b'-' if matches!(self.at(self.pos + 1), b' ' | b'\n') => self.block_seq(false)?,
            b'[' | b'{' => {
                let node = self.flow_node(parent < 0)?;
                self.end_of_line()?;
                node
            }
            b'|' | b'>' => self.block_scalar(parent)?,
            _ => {
                let (scalar, line, column) = self.inline_scalar()?;
                if self.peek() == b':' {
                    self.pos = self.line_start + column - 1;
                    self.line = line;
                    self.block_map()?
                } else {
                    self.end_of_line()?;
                    scalar_node(scalar, line, column)
                }
            }
        };
        self.depth -= 1;
        Some(node)
    }

    /// A plain or quoted scalar on one line, in block context; stops before a `: ` that follows it.
    fn inline_scalar(&mut self) -> Found<(Scalar<'t>, usize, usize)> {
        let (line, column) = (self.line, self.column());
        let scalar = match self.peek() {
            b'"' | b'\'' => self.quoted()?,
            _ => self.plain(false)?,
        };
        if self.peek() == b':' && !matches!(self.at(self.pos + 1), b' ' | b'\n') {
            return None;
        }
        Some((scalar, line, column))
    }

    /// A block mapping whose first key is at `pos`; its entries are at that indentation.
    fn block_map(&mut self) -> Found<Node<'t>> {
        let n = self.indent();
        let (line, column) = (self.line, self.column());
        let base = self.entries.len();
        let mut keys = Keys::default();
        loop {
            let (key_line, key_column) = (self.line, self.column());
            let key_start = self.pos;
            let key = match self.peek() {
                b'"' | b'\'' => self.quoted_text()?.0,
                b'-' if matches!(self.at(self.pos + 1), b' ' | b'\n') => return None,
                _ => Cow::Borrowed(self.plain_text(false)?),
            };
            if self.peek() != b':'
                || !matches!(self.at(self.pos + 1), b' ' | b'\n')
                || self.pos - key_start > MAX_KEY
            {
                return None;
            }
            self.pos += 1;
            let value = self.map_value(n)?;
            if keys.seen(&self.entries[base..], &key) {
                return None;
            }
            self.entries.push(Entry {
                key,
                key_line,
                key_column,
                value,
            });
            match self.content_line() {
                Some(i) if i == n && self.document_marker().is_none() => {
                    if self.peek() == b'-' && matches!(self.at(self.pos + 1), b' ' | b'\n') {
                        return None;
                    }
                }
                Some(i) if i > n => return None,
                _ => break,
            }
        }
        // The tree of a large text lives until it is decoded: the entries move into a list of exactly
        // their number (see `Reader::entries`).
        Some(Node {
            value: Value::Map(take_from(&mut self.entries, base)),
            line,
            column,
        })
    }

    /// The value after a block mapping key's `:` (at indentation `n`).
    fn map_value(&mut self, n: usize) -> Found<Node<'t>> {
        let after_colon = self.pos;
        self.skip_spaces();
        let c = self.peek();
        if c == b'\n' || (c == b'#' && self.pos > after_colon) {
            self.next_line();
            let i = self.content_line()?;
            if i == n && self.document_marker().is_none() {
                // A sequence may sit at its key's indentation.
                if self.peek() == b'-' && matches!(self.at(self.pos + 1), b' ' | b'\n') {
                    self.enter()?;
                    let seq = self.block_seq(true)?;
                    self.depth -= 1;
                    return Some(seq);
                }
                return None;
            }
            return self.block_node(n as isize);
        }
        self.enter()?;
        let node = match c {
            b'[' | b'{' => {
                let node = self.flow_node(false)?;
                self.end_of_line()?;
                node
            }
            b'|' | b'>' => self.block_scalar(n as isize)?,
            b'-' if matches!(self.at(self.pos + 1), b' ' | b'\n') => return None,
            _ => {
                let (scalar, line, column) = self.inline_scalar()?;
                if self.peek() == b':' {
                    return None;
                }
                self.end_of_line()?;
                scalar_node(scalar, line, column)
            }
        };
        self.depth -= 1;
        Some(node)
    }

    /// A block sequence whose first `-` is at `pos`. `indentless`: written at its mapping key's
    /// indentation, where the event parser places it at the first item's content.
    fn block_seq(&mut self, indentless: bool) -> Found<Node<'t>> {
        let n = self.indent();
        let (mut line, mut column) = (self.line, self.column());
        let base = self.items.len();
        loop {
            // At a `-` followed by a space or the line's end.
            self.pos += 1;
            let after_dash = self.pos;
            self.skip_spaces();
            let c = self.peek();
            if indentless && self.items.len() == base {
                if c == b'\n' || c == b'#' {
                    return None;
                }
                (line, column) = (self.line, self.column());
            }
            let item = if c == b'\n' || (c == b'#' && self.pos > after_dash) {
                self.next_line();
                match self.content_line() {
                    Some(i) if i > n => self.block_node(n as isize)?,
                    _ => return None,
                }
            } else {
                // Compact forms: `- - x` and `- key: value` take the item's column as indentation.
                self.block_node(n as isize)?
            };
            self.items.push(item);
            match self.content_line() {
                Some(i) if i == n && self.document_marker().is_none() => {
                    let dash = self.peek() == b'-' && matches!(self.at(self.pos + 1), b' ' | b'\n');
                    if !dash {
                        if indentless {
                            break;
                        }
                        return None;
                    }
                }
                Some(i) if i > n => return None,
                _ => break,
            }
        }
        Some(Node {
            value: Value::Seq(take_from(&mut self.items, base)),
            line,
            column,
        })
    }

    /// `|` or `>` with an optional chomping indicator, then lines indented more than `parent`.
    fn block_scalar(&mut self, parent: isize) -> Found<Node<'t>> {
        let literal = self.peek() == b'|';
        self.pos += 1;
        let chomp = self.peek();
        if chomp == b'-' || chomp == b'+' {
            self.pos += 1;
        }
        self.skip_spaces();
        if self.peek() != b'\n' {
            return None;
        }
        self.next_line();
        // The first content line sets the indentation; leading blank lines have rules of their own.
        if self.eof() {
            return None;
        }
        self.skip_spaces();
        let m = self.indent();
        if self.peek() == b'\n' || m == 0 || m as isize <= parent {
            return None;
        }
        let (line, column) = (self.line, self.column());
        let mut text = String::new();
        // Line breaks seen since the last content line: the one ending it, then one per blank line.
        let mut breaks = 0usize;
        let mut first = true;
        loop {
            // At column m of a content line.
            let start = self.pos;
            let end = self.b[start..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(self.b.len(), |i| start + i);
            let content = &self.text[start..end];
            if !literal && content.starts_with(' ') {
                return None;
            }
            if !first {
                if literal || breaks > 1 {
                    let joined = if literal { breaks } else { breaks - 1 };
                    text.extend(std::iter::repeat_n('\n', joined));
                } else {
                    text.push(' ');
                }
            }
            first = false;
            text.push_str(content);
            self.pos = end;
            self.next_line();
            breaks = 1;
            // Blank lines, then either more content at m or the end of the scalar.
            loop {
                if self.eof() {
                    break;
                }
                let line_begin = self.pos;
                self.skip_spaces();
                let spaces = self.pos - line_begin;
                if self.peek() == b'\n' && !self.eof() {
                    if spaces > m {
                        return None;
                    }
                    breaks += 1;
                    self.next_line();
                    continue;
                }
                if self.eof() {
                    // Spaces ending the text without a line break count as a line of their own there.
                    if spaces > 0 {
                        return None;
                    }
                    break;
                }
                if spaces >= m {
                    self.pos = line_begin + m;
                } else {
                    self.pos = line_begin;
                }
                break;
            }
            if self.eof() || self.pos - self.line_start < m || self.indent() != m {
                break;
            }
        }
        match chomp {
            b'-' => {}
            b'+' => text.extend(std::iter::repeat_n('\n', breaks)),
            _ => text.push('\n'),
        }
        // Leave `pos` at the start of the line after the scalar.
        if !self.eof() {
            self.pos = self.line_start;
        }
        Some(Node {
            value: Value::Scalar(Scalar {
                text: Cow::Owned(text),
                style: Style::Quoted,
                quote: None,
            }),
            line,
            column,
        })
    }

    /// A flow collection starting at `pos` (`[` or `{`). `multiline`: it is a document's root, so
    /// line breaks inside are whitespace (JSON); elsewhere it must close on its line.
    fn flow_node(&mut self, multiline: bool) -> Found<Node<'t>> {
        self.enter()?;
        let (line, column) = (self.line, self.column());
        let open = self.peek();
        self.pos += 1;
        let value = if open == b'[' {
            let base = self.items.len();
            loop {
                self.flow_space(multiline)?;
                if self.peek() == b']' {
                    break;
                }
                let item = self.flow_item(multiline)?;
                self.items.push(item);
                self.flow_space(multiline)?;
                match self.peek() {
                    b',' => self.pos += 1,
                    b']' => break,
                    _ => return None,
                }
            }
            Value::Seq(take_from(&mut self.items, base))
        } else {
            let base = self.entries.len();
            let mut keys = Keys::default();
            loop {
                self.flow_space(multiline)?;
                if self.peek() == b'}' {
                    break;
                }
                let (key_line, key_column) = (self.line, self.column());
                let key_start = self.pos;
                let key = match self.peek() {
                    b'"' | b'\'' => self.quoted_text()?.0,
                    _ => Cow::Borrowed(self.plain_text(true)?),
                };
                if self.pos - key_start > MAX_KEY || self.peek() != b':' {
                    return None;
                }
                self.pos += 1;
                self.flow_space(multiline)?;
                if matches!(self.peek(), b',' | b'}') {
                    return None;
                }
                let value = self.flow_item(multiline)?;
                if keys.seen(&self.entries[base..], &key) {
                    return None;
                }
                self.entries.push(Entry {
                    key,
                    key_line,
                    key_column,
                    value,
                });
                self.flow_space(multiline)?;
                match self.peek() {
                    b',' => self.pos += 1,
                    b'}' => break,
                    _ => return None,
                }
            }
            Value::Map(take_from(&mut self.entries, base))
        };
        self.pos += 1;
        self.depth -= 1;
        Some(Node {
            value,
            line,
            column,
        })
    }

    /// A value inside a flow collection: a nested collection or a scalar not followed by `:` (a
    /// single-pair mapping, which this reader leaves to the event parser).
    fn flow_item(&mut self, multiline: bool) -> Found<Node<'t>> {
        match self.peek() {
            b'[' | b'{' => self.flow_node(multiline),
            _ => {
                let (line, column) = (self.line, self.column());
                let scalar = match self.peek() {
                    b'"' | b'\'' => self.quoted()?,
                    _ => self.plain(true)?,
                };
                let save = (self.pos, self.line, self.line_start);
                self.flow_space(multiline)?;
                if self.peek() == b':' {
                    return None;
                }
                (self.pos, self.line, self.line_start) = save;
                Some(scalar_node(scalar, line, column))
            }
        }
    }

    /// Spaces, and line breaks when `multiline` (no comments, no document markers).
    #[inline]
    fn flow_space(&mut self, multiline: bool) -> Found<()> {
        // Most calls stand at the next token already, or one space before it (`{name: x, ...}`):
        // decided inline, without a call, which in wasm costs several times what it does natively
        // (about 2 ns in V8; a 10,000-cluster text asks this 190,000 times).
        let token = |c: u8| !matches!(c, b' ' | b'\n' | b'#');
        match self.b.get(self.pos..self.pos + 2) {
            Some(&[c, _]) if token(c) => return Some(()),
            Some(&[b' ', c]) if token(c) => {
                self.pos += 1;
                return Some(());
            }
            _ => {}
        }
        self.flow_space_on(multiline)
    }

    /// [`Reader::flow_space`] past the common cases (apart, so that those inline).
    #[inline(never)]
    fn flow_space_on(&mut self, multiline: bool) -> Found<()> {
        loop {
            self.skip_spaces();
            if self.eof() {
                return None;
            }
            match self.peek() {
                b'\n' if multiline => {
                    self.next_line();
                    if self.document_marker().is_some() {
                        return None;
                    }
                }
                b'\n' | b'#' => return None,
                _ => return Some(()),
            }
        }
    }

    /// A plain scalar on one line. In block context it ends at `: `, ` #` or the line's end; in flow
    /// context also at `,[]{}`. Trailing spaces are not part of it.
    fn plain(&mut self, flow: bool) -> Found<Scalar<'t>> {
        Some(Scalar {
            text: Cow::Borrowed(self.plain_text(flow)?),
            style: Style::Plain,
            quote: None,
        })
    }

    /// [`Reader::plain`]'s text, as written in the input.
    fn plain_text(&mut self, flow: bool) -> Found<&'t str> {
        let start = self.pos;
        let first = self.peek();
        let next = self.at(start + 1);
        match first {
            b'-' | b'?' | b':' if matches!(next, b' ' | b'\n') => return None,
            b'-' if flow && matches!(next, b',' | b'[' | b']' | b'{' | b'}') => return None,
            b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|'
            | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' | b'\n' | b' ' => return None,
            _ => {}
        }
        let mut i = start;
        loop {
            // Most bytes only continue the scalar; the table finds the next one that may not.
            while i < self.b.len() && !PLAIN_STOP[usize::from(self.b[i])] {
                i += 1;
            }
            let c = self.at(i);
            match c {
                b'\n' => break,
                b':' => {
                    let after = self.at(i + 1);
                    if matches!(after, b' ' | b'\n')
                        || (flow && matches!(after, b',' | b'[' | b']' | b'{' | b'}'))
                    {
                        break;
                    }
                }
                b'#' if self.at(i - 1) == b' ' => break,
                // The event parser refuses ` -` before a flow indicator inside a flow scalar.
                b'-' if flow
                    && self.at(i - 1) == b' '
                    && matches!(self.at(i + 1), b',' | b'[' | b']' | b'{' | b'}') =>
                {
                    return None
                }
                b',' | b'[' | b']' | b'{' | b'}' if flow => break,
                _ => {}
            }
            i += 1;
        }
        let end = start + self.text[start..i].trim_end_matches(' ').len();
        self.pos = end;
        if flow {
            // Spaces before the terminator belong to no token.
            self.skip_spaces();
            if self.peek() == b'#' {
                return None;
            }
        } else {
            // In block context the scanner stops at the terminator; spaces before `:` are fine.
            let save = self.pos;
            self.skip_spaces();
            if self.peek() != b':' {
                self.pos = save;
            }
        }
        Some(&self.text[start..end])
    }

    /// A single- or double-quoted scalar that closes on its line (JSON's escapes in double quotes).
    fn quoted(&mut self) -> Found<Scalar<'t>> {
        let (text, q) = self.quoted_text()?;
        Some(Scalar {
            text,
            style: Style::Quoted,
            quote: Some(char::from(q)),
        })
    }

    /// [`Reader::quoted`]'s text and quote: borrowed from the input when it has no escape.
    fn quoted_text(&mut self) -> Found<(Cow<'t, str>, u8)> {
        let q = self.peek();
        self.pos += 1;
        let mut text = String::new();
        let mut run = self.pos;
        // Whether `text` holds the scalar so far (only after an escape); otherwise it is `run..pos`.
        let mut escaped = false;
        loop {
            let c = self.peek();
            if c == b'\n' {
                return None;
            }
            if c == q {
                if q == b'\'' && self.at(self.pos + 1) == b'\'' {
                    text.push_str(&self.text[run..=self.pos]);
                    escaped = true;
                    self.pos += 2;
                    run = self.pos;
                    continue;
                }
                break;
            }
            if c == b'\\' && q == b'"' {
                text.push_str(&self.text[run..self.pos]);
                escaped = true;
                let e = self.at(self.pos + 1);
                let ch = match e {
                    b'\\' => '\\',
                    b'"' => '"',
                    b'/' => '/',
                    b'n' => '\n',
                    b't' => '\t',
                    b'r' => '\r',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'0' => '\0',
                    b'u' => {
                        let hex = self.text.get(self.pos + 2..self.pos + 6)?;
                        if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                            return None;
                        }
                        let ch = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                        self.pos += 4;
                        ch
                    }
                    _ => return None,
                };
                text.push(ch);
                self.pos += 2;
                run = self.pos;
                continue;
            }
            self.pos += 1;
        }
        let text = if escaped {
            text.push_str(&self.text[run..self.pos]);
            Cow::Owned(text)
        } else {
            Cow::Borrowed(&self.text[run..self.pos])
        };
        self.pos += 1;
        // What may follow a quoted scalar: spaces, then a line end, a comment, `:` or a flow indicator.
        let after = self.pos;
        self.skip_spaces();
        match self.peek() {
            b'\n' | b':' | b',' | b']' | b'}' => {}
            b'#' if self.pos > after => {}
            _ => return None,
        }
        if self.peek() != b':' {
            self.pos = after;
        }
        Some((text, q))
    }
}

/// The end of `list` from `base` on (a collection's entries or items, once it ends), moved into a
/// list of its exact size in one copy. A draining iterator moved them one by one: 15.2 M instructions
/// of five 1,000-cluster GKE edits' core work at opt-level "z", four lists per cluster.
fn take_from<T>(list: &mut Vec<T>, base: usize) -> Vec<T> {
    if base == 0 {
        // `split_off(0)` would hand over the whole buffer, its spare room included (a document's
        // root, once per document).
        return list.drain(base..).collect();
    }
    list.split_off(base)
}

fn scalar_node(scalar: Scalar<'_>, line: usize, column: usize) -> Node<'_> {
    Node {
        value: Value::Scalar(scalar),
        line,
        column,
    }
}

/// The keys of one mapping so far, to find a duplicate (which the event parser must report). Small
/// maps are scanned; longer ones keep a hash of each key, and two keys with the same hash also count
/// as a duplicate: the event parser then reads the text, which is never wrong, only slower.
#[derive(Default)]
struct Keys {
    hashes: Option<HashSet<u64>>,
}

impl Keys {
    /// Whether `key` is among `entries`' keys. The scan of a small map inline (every entry of every
    /// mapping asks; see `Reader::flow_space` for why calls matter), the hashes apart.
    #[inline]
    fn seen(&mut self, entries: &[Entry], key: &str) -> bool {
        if entries.len() < SCAN_KEYS {
            return entries.iter().any(|e| e.key == key);
        }
        self.hashed(entries, key)
    }

    /// [`Keys::seen`] for a longer map, by the keys' hashes.
    #[inline(never)]
    fn hashed(&mut self, entries: &[Entry], key: &str) -> bool {
        let hashes = self
            .hashes
            .get_or_insert_with(|| entries.iter().map(|e| crate::fnv::hash(&e.key)).collect());
        !hashes.insert(crate::fnv::hash(key))
    }
}

#[cfg(test)]
mod tests;
