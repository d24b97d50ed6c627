//! Input text (YAML or JSON) parsed into a document tree that remembers where every node was written.
//!
//! The tree is built from yaml-rust2's event stream with an explicit stack, never by recursion, so
//! hostile nesting is refused with a diagnostic instead of overflowing the stack. Scalars keep their
//! raw text and quoting: the decoder, not the parser, decides whether plain `007` is a number or the
//! label value "007", because only it knows which field it is reading.

use std::borrow::Cow;
use std::collections::HashMap;

use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};

use crate::diag::{Cap, Diagnostic, Location};

mod fast;
mod json;
mod keys;

pub use keys::Key;

/// Nesting deeper than this is refused: no real scenario or manifest comes close, and every walk over
/// the tree (including `Drop`) is then safely bounded.
pub const MAX_DEPTH: usize = 128;

/// Upper bounds on what anchors and aliases may copy per input, against "billion laughs" documents:
/// nodes, and bytes of keys and scalar text (18 KB of text once expanded to 9.6 GB by copying long
/// strings, which a count of nodes alone does not see).
pub const MAX_ALIAS_NODES: usize = 1_000_000;
pub const MAX_ALIAS_BYTES: usize = 16 * 1024 * 1024;

/// A node and where it starts (1-based line and column).
#[derive(Clone, Debug, PartialEq)]
pub struct Node<'a> {
    pub value: Value<'a>,
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    Scalar(Scalar<'a>),
    Seq(Vec<Node<'a>>),
    /// Keys in document order; duplicates were already reported and collapsed (last value wins).
    Map(Vec<Entry<'a>>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry<'a> {
    /// As written in the input when the fast reader read it without escapes; otherwise shared static
    /// text for well-known field names (see `keys`), or owned.
    pub key: Cow<'a, str>,
    pub key_line: usize,
    pub key_column: usize,
    pub value: Node<'a>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scalar<'a> {
    /// The text after YAML unescaping, before any type resolution: borrowed from the input when
    /// the fast reader read it without escapes (most scalars of a large text), owned otherwise.
    pub text: Cow<'a, str>,
    pub style: Style,
    /// `'` or `"` for a flow scalar in quotes, so a position inside `text` can be mapped back to the
    /// source column past escapes (`\"`, `''`); `None` for plain and block scalars.
    pub quote: Option<char>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Unquoted: subject to the YAML 1.2 core schema (`7` is an int, `true` a bool, `~` null).
    Plain,
    /// Quoted, block (`|`, `>`) or tagged `!!str`: always a string.
    Quoted,
}

/// A scalar's meaning under the YAML 1.2 core schema.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
}

impl<'a> Node<'a> {
    pub fn scalar(&self) -> Option<&Scalar<'a>> {
        match &self.value {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// [`Node::resolve`] is `Null`, without resolving the rest (a version such as `1.31.4-gke.1000`
    /// begins like a number, and the decoder asks this of every value it looks up).
    pub fn is_null(&self) -> bool {
        match &self.value {
            Value::Scalar(s) => s.style == Style::Plain && is_null_plain(&s.text),
            _ => false,
        }
    }

    /// The scalar's typed meaning, `None` for collections.
    pub fn resolve(&self) -> Option<Resolved<'_>> {
        self.scalar().map(Scalar::resolve)
    }

    /// The value of `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|e| e.key == key).map(|e| &e.value),
            _ => None,
        }
    }

    /// What kind of node this is, for "expected X, found Y" messages.
    pub fn describe(&self) -> &'static str {
        match &self.value {
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
            Value::Scalar(s) => match s.resolve() {
                Resolved::Null => "null",
                Resolved::Bool(_) => "a boolean",
                Resolved::Int(_) => "an integer",
                Resolved::Float(_) => "a number",
                Resolved::Str(_) => "a string",
            },
        }
    }

    /// The same tree owning all its text, for a tree that outlives the text it was read from.
    pub fn into_owned(self) -> Node<'static> {
        // Recursion is bounded: no tree is deeper than MAX_DEPTH.
        let value = match self.value {
            Value::Scalar(s) => Value::Scalar(Scalar {
                text: Cow::Owned(s.text.into_owned()),
                style: s.style,
                quote: s.quote,
            }),
            Value::Seq(items) => Value::Seq(items.into_iter().map(Node::into_owned).collect()),
            Value::Map(entries) => Value::Map(
                entries
                    .into_iter()
                    .map(|e| Entry {
                        key: keys::key(e.key.into_owned()),
                        key_line: e.key_line,
                        key_column: e.key_column,
                        value: e.value.into_owned(),
                    })
                    .collect(),
            ),
        };
        Node {
            value,
            line: self.line,
            column: self.column,
        }
    }

    pub fn location(&self, file: &str) -> Location {
        Location {
            file: file.to_string(),
            line: self.line,
            column: self.column,
        }
    }
}

impl Scalar<'_> {
    pub fn resolve(&self) -> Resolved<'_> {
        if self.style == Style::Quoted {
            return Resolved::Str(&self.text);
        }
        resolve_plain(&self.text)
    }
}

/// YAML 1.2 core schema resolution of a plain scalar.
pub fn resolve_plain(t: &str) -> Resolved<'_> {
    // Every null, boolean and number of the core schema begins with one of these bytes; any other
    // plain scalar is a string (names, fleets, selectors): one test instead of the comparisons below,
    // for the thousands of scalars of a large fleet.
    if !matches!(
        t.as_bytes().first(),
        None | Some(
            b'0'..=b'9' | b'.' | b'+' | b'-' | b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F'
        )
    ) {
        return Resolved::Str(t);
    }
    if is_null_plain(t) {
        return Resolved::Null;
    }
    match t {
        "true" | "True" | "TRUE" => return Resolved::Bool(true),
        "false" | "False" | "FALSE" => return Resolved::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Resolved::Float(f64::INFINITY)
        }
        "-.inf" | "-.Inf" | "-.INF" => return Resolved::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Resolved::Float(f64::NAN),
        _ => {}
    }
    if let Some(n) = parse_core_int(t) {
        return Resolved::Int(n);
    }
    if is_core_float(t) {
        if let Ok(f) = t.parse::<f64>() {
            return Resolved::Float(f);
        }
    }
    Resolved::Str(t)
}

/// The core schema's spellings of null.
fn is_null_plain(t: &str) -> bool {
    matches!(t, "" | "~" | "null" | "Null" | "NULL")
}

fn parse_core_int(t: &str) -> Option<i64> {
    if let Some(oct) = t.strip_prefix("0o") {
        return if !oct.is_empty() && oct.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
            i64::from_str_radix(oct, 8).ok()
        } else {
            None
        };
    }
    if let Some(hex) = t.strip_prefix("0x") {
        return if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            i64::from_str_radix(hex, 16).ok()
        } else {
            None
        };
    }
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Out-of-range integers stay strings rather than silently becoming floats.
    t.parse::<i64>().ok()
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn is_core_float(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
            frac_digits += 1;
        }
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

/// Parses every document of `text`. Problems (syntax errors, duplicate keys, bad aliases) come back as
/// diagnostics located in `file`; the documents parsed before a syntax error are still returned.
/// Empty documents (only comments, a bare `---`) are dropped.
pub fn parse<'a>(text: &'a str, file: &str) -> (Vec<Node<'a>>, Vec<Diagnostic>) {
    match parse_fast(text) {
        Some(docs) => (docs, Vec::new()),
        None => parse_full(text, file),
    }
}

/// The fast readers alone: the documents of a text in the subset they know (which needs no
/// diagnostic), or `None` when only [`parse_full`] can read it. A front end that brings the full
/// reader in later (see [`crate::parts`]) reads most texts with this alone.
pub fn parse_fast(text: &str) -> Option<Vec<Node<'_>>> {
    // Editors on Windows like to start files with a byte order mark; it is not part of any key.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Strict JSON that needs no diagnostic is read by the fast reader (`kubectl get -o json` of a
    // large run is megabytes); anything else goes through YAML, which has every message.
    if looks_like_json(text) {
        if let Some(docs) = json::parse(text) {
            return Some(docs);
        }
    }
    // Most YAML is in the subset the fast YAML reader knows; it gives up on anything else (errors
    // and every limit's case included), and the event parser reads the text from the start.
    fast::parse(text)
}

/// What [`parse`] does with a text the fast readers give up on: the event parser, with every
/// diagnostic and limit (and, for JSON, the fallbacks below).
pub fn parse_full(text: &str, file: &str) -> (Vec<Node<'static>>, Vec<Diagnostic>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (docs, mut diags) = parse_slow(text, file);
    // The warnings' "… and N more" is written here, where the list is handed out.
    crate::diag::cap(&mut diags);
    (docs, diags)
}

fn parse_slow(text: &str, file: &str) -> (Vec<Node<'static>>, Vec<Diagnostic>) {
    let first = parse_yaml(text, file);
    if first.error.is_none() {
        return (first.docs, first.diags);
    }
    if looks_like_json(text) {
        // JSON allows tabs wherever it allows spaces; YAML does not allow them as indentation. Outside
        // strings a tab is only whitespace, and inside JSON strings raw tabs are illegal anyway, so a
        // same-width replacement keeps every line and column.
        if text.as_bytes().contains(&b'\t') {
            let retry = parse_yaml(&text.replace('\t', " "), file);
            if retry.error.is_none() {
                return (retry.docs, retry.diags);
            }
        }
        if let Some(docs) = parse_json(text) {
            return (docs, Vec::new());
        }
    }
    let mut diags = first.diags;
    diags.extend(first.error);
    (first.docs, diags)
}

/// The YAML reader alone, for tests that compare the fast JSON reader with it.
#[cfg(test)]
pub(crate) fn parse_yaml_only(text: &str, file: &str) -> (Vec<Node<'static>>, Vec<Diagnostic>) {
    let o = parse_yaml(text, file);
    let mut diags = o.diags;
    diags.extend(o.error);
    (o.docs, diags)
}

fn looks_like_json(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('{') || t.starts_with('[')
}

struct Outcome {
    docs: Vec<Node<'static>>,
    diags: Vec<Diagnostic>,
    error: Option<Diagnostic>,
}

fn parse_yaml(text: &str, file: &str) -> Outcome {
    let mut builder = Builder::new(file, text);
    let mut parser = Parser::new_from_str(text);
    let error = loop {
        match parser.next_token() {
            Ok((Event::StreamEnd, _)) => break None,
            Ok((event, mark)) => {
                if let Err(d) = builder.event(event, mark) {
                    break Some(d);
                }
            }
            Err(e) => break Some(syntax_error(&e, text, file)),
        }
    };
    Outcome {
        docs: builder.docs,
        diags: builder.diags,
        error,
    }
}

/// The line and column just past the last character of `text` (1-based, columns in characters).
fn end_of(text: &str) -> (usize, usize) {
    let last = text.rsplit('\n').next().unwrap_or("");
    (text.split('\n').count(), last.chars().count() + 1)
}

fn syntax_error(e: &ScanError, text: &str, file: &str) -> Diagnostic {
    let m = e.marker();
    let mut d = Diagnostic::error("yaml-syntax", format!("YAML syntax error: {}", e.info()));
    // The parser reports the end of a text without a final line break on the line after the last
    // one, which no editor shows: point just past the end of the last line instead.
    let end = end_of(text);
    let (line, column) = if m.line() > end.0 {
        end
    } else {
        (m.line().max(1), m.col() + 1)
    };
    d.location = Some(Location {
        file: file.to_string(),
        line,
        column,
    });
    d
}

enum Frame {
    Seq {
        line: usize,
        column: usize,
        anchor: usize,
        items: Vec<Node<'static>>,
    },
    Map {
        line: usize,
        column: usize,
        anchor: usize,
        entries: Vec<Entry<'static>>,
        /// Key → its entry, so a duplicate is found in constant time (a scan made 170,000 keys
        /// take over a minute).
        index: HashMap<String, usize>,
        key: Option<PendingKey>,
    },
}

struct PendingKey {
    /// `None` for a key that is not a scalar: its value is read and dropped.
    text: Option<String>,
    line: usize,
    column: usize,
}

struct Builder<'f> {
    file: &'f str,
    /// The text, to see whether a scalar spans lines, and a (character, byte) position in it:
    /// the parser's markers count characters and only move forward.
    src: &'f str,
    cursor: (usize, usize),
    /// Line and column just past the last character: where the parser's "end of the text" is shown.
    end: (usize, usize),
    stack: Vec<Frame>,
    docs: Vec<Node<'static>>,
    diags: Vec<Diagnostic>,
    /// Completed anchored nodes with their height and size, for the depth and size checks when an
    /// alias copies them.
    anchors: HashMap<usize, Anchored>,
    /// What anchors and aliases may still copy.
    copy_budget: Size,
    cap: Cap,
}

struct Anchored {
    node: Node<'static>,
    height: usize,
    size: Size,
}

/// Nodes, and bytes of keys and scalar text, of a tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Size {
    nodes: usize,
    bytes: usize,
}

impl Size {
    fn of(node: &Node) -> Size {
        let mut size = Size::default();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            size.nodes += 1;
            match &n.value {
                Value::Seq(items) => stack.extend(items.iter()),
                Value::Map(entries) => {
                    size.bytes += entries.iter().map(|e| e.key.len()).sum::<usize>();
                    stack.extend(entries.iter().map(|e| &e.value));
                }
                Value::Scalar(s) => size.bytes += s.text.len(),
            }
        }
        size
    }

    /// Takes `cost` out of the budget, or says the budget is spent.
    fn spend(&mut self, cost: Size) -> bool {
        if cost.nodes > self.nodes || cost.bytes > self.bytes {
            return false;
        }
        self.nodes -= cost.nodes;
        self.bytes -= cost.bytes;
        true
    }
}

impl<'f> Builder<'f> {
    fn new(file: &'f str, src: &'f str) -> Self {
        Builder {
            file,
            end: end_of(src),
            src,
            cursor: (0, 0),
            stack: Vec::new(),
            docs: Vec::new(),
            diags: Vec::new(),
            anchors: HashMap::new(),
            copy_budget: Size {
                nodes: MAX_ALIAS_NODES,
                bytes: MAX_ALIAS_BYTES,
            },
            cap: Cap::default(),
        }
    }

    fn fatal(&self, code: &'static str, message: String, line: usize, column: usize) -> Diagnostic {
        let mut d = Diagnostic::error(code, message);
        d.location = Some(Location {
            file: self.file.to_string(),
            line,
            column,
        });
        d
    }

    fn event(&mut self, event: Event, mark: Marker) -> Result<(), Diagnostic> {
        let (mut line, mut column) = (mark.line().max(1), mark.col() + 1);
        // An empty value at the very end of a text without a final line break is marked on a line
        // after the last; show it where the text ends.
        if line > self.end.0 {
            (line, column) = self.end;
        }
        match event {
            Event::DocumentStart => {
                self.stack.clear();
                self.anchors.clear();
            }
            Event::Scalar(text, style_of_event, anchor, tag) => {
                let style = if style_of_event == TScalarStyle::Plain && !is_str_tag(tag.as_ref()) {
                    Style::Plain
                } else {
                    Style::Quoted
                };
                let mut quote = match style_of_event {
                    TScalarStyle::SingleQuoted => Some('\''),
                    TScalarStyle::DoubleQuoted => Some('"'),
                    _ => None,
                };
                let mut style = style;
                if self.spans_lines(mark.index(), style_of_event, &text) {
                    // Folded over several lines: a position inside the text has no single column,
                    // so diagnostics point at the scalar (as for block scalars). Folding put a space
                    // in it, so it was a string anyway.
                    (style, quote) = (Style::Quoted, None);
                }
                let node = Node {
                    value: Value::Scalar(Scalar {
                        text: Cow::Owned(text),
                        style,
                        quote,
                    }),
                    line,
                    column,
                };
                self.remember(anchor, &node, 0)?;
                self.complete(node);
            }
            Event::Alias(id) => {
                let Some(anchored) = self.anchors.get(&id) else {
                    return Err(self.fatal("yaml-alias", "alias refers to an anchor that is not defined before it (or to the node that contains it)".into(), line, column));
                };
                if self.stack.len() + anchored.height > MAX_DEPTH {
                    return Err(self.fatal(
                        "yaml-too-deep",
                        format!("nesting deeper than {MAX_DEPTH} levels (through an alias)"),
                        line,
                        column,
                    ));
                }
                if !self.copy_budget.spend(anchored.size) {
                    return Err(self.too_much_copied(line, column));
                }
                let mut copy = anchored.node.clone();
                // Point at the alias, where the user wrote this value.
                copy.line = line;
                copy.column = column;
                self.complete(copy);
            }
            Event::SequenceStart(..) | Event::MappingStart(..) if self.stack.len() >= MAX_DEPTH => {
                return Err(self.fatal(
                    "yaml-too-deep",
                    format!("nesting deeper than {MAX_DEPTH} levels"),
                    line,
                    column,
                ));
            }
            Event::SequenceStart(anchor, _) => self.stack.push(Frame::Seq {
                line,
                column,
                anchor,
                items: Vec::new(),
            }),
            Event::MappingStart(anchor, _) => self.stack.push(Frame::Map {
                line,
                column,
                anchor,
                entries: Vec::new(),
                index: HashMap::new(),
                key: None,
            }),
            Event::SequenceEnd | Event::MappingEnd => {
                let (node, anchor) = match self.stack.pop() {
                    Some(Frame::Seq {
                        line,
                        column,
                        anchor,
                        items,
                    }) => (
                        Node {
                            value: Value::Seq(items),
                            line,
                            column,
                        },
                        anchor,
                    ),
                    Some(Frame::Map {
                        line,
                        column,
                        anchor,
                        entries,
                        ..
                    }) => (
                        Node {
                            value: Value::Map(entries),
                            line,
                            column,
                        },
                        anchor,
                    ),
                    None => return Ok(()),
                };
                if anchor > 0 {
                    let height = 1 + height(&node);
                    self.remember(anchor, &node, height)?;
                }
                self.complete(node);
            }
            Event::DocumentEnd | Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
        }
        Ok(())
    }

    /// Whether the scalar written from character `index` of the text runs over more than one line.
    fn spans_lines(&mut self, index: usize, style: TScalarStyle, text: &str) -> bool {
        if index < self.cursor.0 {
            self.cursor = (0, 0);
        }
        for c in self.src[self.cursor.1..].chars() {
            if self.cursor.0 == index {
                break;
            }
            self.cursor = (self.cursor.0 + 1, self.cursor.1 + c.len_utf8());
        }
        let mut raw = self.src[self.cursor.1..].chars();
        match style {
            // Plain text is written as it reads, unless folded: then a line break stands in it.
            TScalarStyle::Plain => raw.take(text.chars().count()).any(|c| c == '\n'),
            TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted => {
                let close = if style == TScalarStyle::SingleQuoted {
                    '\''
                } else {
                    '"'
                };
                raw.next();
                let mut raw = raw.peekable();
                while let Some(c) = raw.next() {
                    match c {
                        '\n' => return true,
                        // An escaped line break continues the scalar on the next line.
                        '\\' if close == '"' && raw.next() == Some('\n') => return true,
                        '\'' if close == '\'' && raw.peek() == Some(&'\'') => {
                            raw.next();
                        }
                        c if c == close => return false,
                        _ => {}
                    }
                }
                false
            }
            _ => false,
        }
    }

    /// Keeps a copy of an anchored node for its aliases. The copy counts against the same budget as
    /// the aliases' copies: anchors nested a hundred deep would otherwise copy the text a hundred times.
    fn remember(
        &mut self,
        anchor: usize,
        node: &Node<'static>,
        height: usize,
    ) -> Result<(), Diagnostic> {
        if anchor == 0 {
            return Ok(());
        }
        let size = Size::of(node);
        if !self.copy_budget.spend(size) {
            return Err(self.too_much_copied(node.line, node.column));
        }
        let anchored = Anchored {
            node: node.clone(),
            height,
            size,
        };
        self.anchors.insert(anchor, anchored);
        Ok(())
    }

    fn too_much_copied(&self, line: usize, column: usize) -> Diagnostic {
        self.fatal(
            "yaml-alias",
            format!(
                "anchors and aliases expand to more than {} nodes or {} MiB of text; fleetplan stops reading here",
                crate::diag::thousands(MAX_ALIAS_NODES),
                MAX_ALIAS_BYTES / (1024 * 1024)
            ),
            line,
            column,
        )
    }

    fn complete(&mut self, node: Node<'static>) {
        match self.stack.last_mut() {
            None => {
                if !node.is_null() {
                    self.docs.push(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                index,
                key,
                line,
                column,
                ..
            }) => match key.take() {
                None => {
                    // yaml-rust2 marks a block mapping at its first `:`; the user thinks of it as
                    // starting at its first key.
                    if entries.is_empty() && (node.line, node.column) < (*line, *column) {
                        (*line, *column) = (node.line, node.column);
                    }
                    let text = match &node.value {
                        Value::Scalar(s) => Some(s.text.to_string()),
                        _ => None,
                    };
                    if text.is_none() {
                        let mut d = Diagnostic::warning(
                            "yaml-complex-key",
                            "a mapping key must be a plain value; this entry is ignored",
                        );
                        d.location = Some(node.location(self.file));
                        self.cap.push(&mut self.diags, d);
                    }
                    *key = Some(PendingKey {
                        text,
                        line: node.line,
                        column: node.column,
                    });
                }
                Some(PendingKey {
                    text: Some(text),
                    line,
                    column,
                }) => {
                    if let Some(&at) = index.get(&text) {
                        let existing = &mut entries[at];
                        let mut d = Diagnostic::warning(
                            "duplicate-key",
                            format!("key `{text}` appears twice in this mapping (first on line {}); the last value is used", existing.key_line),
                        );
                        d.location = Some(Location {
                            file: self.file.to_string(),
                            line,
                            column,
                        });
                        *existing = Entry {
                            key: keys::key(text),
                            key_line: line,
                            key_column: column,
                            value: node,
                        };
                        self.cap.push(&mut self.diags, d);
                    } else {
                        index.insert(text.clone(), entries.len());
                        entries.push(Entry {
                            key: keys::key(text),
                            key_line: line,
                            key_column: column,
                            value: node,
                        });
                    }
                }
                Some(PendingKey { text: None, .. }) => {}
            },
        }
    }
}

fn is_str_tag(tag: Option<&Tag>) -> bool {
    tag.is_some_and(|t| t.suffix == "str" || t.suffix == "tag:yaml.org,2002:str")
}

/// Height of a tree below its root; bounded by [`MAX_DEPTH`], so iteration over a small stack.
fn height(node: &Node) -> usize {
    let mut max = 0;
    let mut stack = vec![(node, 0usize)];
    while let Some((n, d)) = stack.pop() {
        max = max.max(d);
        match &n.value {
            Value::Seq(items) => stack.extend(items.iter().map(|c| (c, d + 1))),
            Value::Map(entries) => stack.extend(entries.iter().map(|e| (&e.value, d + 1))),
            Value::Scalar(_) => {}
        }
    }
    max
}

/// Last resort for JSON that yaml-rust2 rejects. serde_json caps nesting at 128 itself; positions are
/// lost, so every node points at the start of the input.
fn parse_json(text: &str) -> Option<Vec<Node<'static>>> {
    let mut docs = Vec::new();
    for value in serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>() {
        docs.push(from_json(value.ok()?));
    }
    Some(docs)
}

fn from_json(value: serde_json::Value) -> Node<'static> {
    use serde_json::Value as J;
    let value = match value {
        J::Null => Value::Scalar(Scalar {
            text: "null".into(),
            style: Style::Plain,
            quote: None,
        }),
        J::Bool(b) => Value::Scalar(Scalar {
            text: Cow::Owned(b.to_string()),
            style: Style::Plain,
            quote: None,
        }),
        J::Number(n) => Value::Scalar(Scalar {
            text: Cow::Owned(n.to_string()),
            style: Style::Plain,
            quote: None,
        }),
        J::String(s) => Value::Scalar(Scalar {
            text: Cow::Owned(s),
            style: Style::Quoted,
            quote: Some('"'),
        }),
        J::Array(items) => Value::Seq(items.into_iter().map(from_json).collect()),
        J::Object(map) => Value::Map(
            map.into_iter()
                .map(|(key, v)| Entry {
                    key: keys::key(key),
                    key_line: 1,
                    key_column: 1,
                    value: from_json(v),
                })
                .collect(),
        ),
    };
    Node {
        value,
        line: 1,
        column: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Node<'_> {
        let (mut docs, diags) = parse(text, "t.yaml");
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(docs.len(), 1);
        docs.remove(0)
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn scalars_resolve_by_the_yaml_1_2_core_schema() {
        let doc = one("a: 007\nb: \"007\"\nc: true\nd: ~\ne: 1.5\nf: on\ng: 0x1F\nh: 2026-11-23T09:00:00Z\ni: |\n  7\n");
        assert_eq!(doc.get("a").unwrap().resolve(), Some(Resolved::Int(7)));
        assert_eq!(doc.get("b").unwrap().resolve(), Some(Resolved::Str("007")));
        assert_eq!(doc.get("c").unwrap().resolve(), Some(Resolved::Bool(true)));
        assert_eq!(doc.get("d").unwrap().resolve(), Some(Resolved::Null));
        assert_eq!(doc.get("e").unwrap().resolve(), Some(Resolved::Float(1.5)));
        assert_eq!(
            doc.get("f").unwrap().resolve(),
            Some(Resolved::Str("on")),
            "YAML 1.1 booleans are strings in 1.2"
        );
        assert_eq!(doc.get("g").unwrap().resolve(), Some(Resolved::Int(31)));
        assert_eq!(
            doc.get("h").unwrap().resolve(),
            Some(Resolved::Str("2026-11-23T09:00:00Z"))
        );
        assert_eq!(doc.get("i").unwrap().resolve(), Some(Resolved::Str("7\n")));
        // A plain `1` still has its text, for label values.
        assert_eq!(doc.get("a").unwrap().scalar().unwrap().text, "007");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn every_special_plain_scalar_of_the_core_schema_still_resolves() {
        // The YAML 1.2 core schema's tag resolution table (spec 10.3.2): null, booleans, integers in
        // base 10, 8 and 16, floats, infinities and not-a-number, each spelling it lists.
        let typed = [
            ("", Resolved::Null),
            ("~", Resolved::Null),
            ("null", Resolved::Null),
            ("Null", Resolved::Null),
            ("NULL", Resolved::Null),
            ("true", Resolved::Bool(true)),
            ("True", Resolved::Bool(true)),
            ("TRUE", Resolved::Bool(true)),
            ("false", Resolved::Bool(false)),
            ("False", Resolved::Bool(false)),
            ("FALSE", Resolved::Bool(false)),
            ("12", Resolved::Int(12)),
            ("+12", Resolved::Int(12)),
            ("-12", Resolved::Int(-12)),
            ("0o17", Resolved::Int(15)),
            ("0x1f", Resolved::Int(31)),
            (".5", Resolved::Float(0.5)),
            ("-1.5e3", Resolved::Float(-1500.0)),
            ("+.inf", Resolved::Float(f64::INFINITY)),
            ("-.Inf", Resolved::Float(f64::NEG_INFINITY)),
        ];
        for (text, want) in typed {
            assert_eq!(resolve_plain(text), want, "{text:?}");
        }
        assert!(matches!(resolve_plain(".NaN"), Resolved::Float(f) if f.is_nan()));
        // Anything else is a string, whatever its first character.
        for text in [
            "g-00012",
            "projects/testing",
            "REGULAR",
            "env=prod",
            "_x",
            "1.31.4-gke.1000",
            "nulls",
            "t",
            "é",
        ] {
            assert_eq!(resolve_plain(text), Resolved::Str(text), "{text:?}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn only_the_core_schemas_plain_nulls_are_null() {
        // Spec 10.3.2: null is `null`, `Null`, `NULL`, `~` or nothing, written plain; quoted or as a
        // block scalar the same text is a string, and `1.31.4-gke.1000` (which begins like a number)
        // or `nulls` are strings too.
        let doc = one("a:\nb: ~\nc: null\nd: Null\ne: NULL\nf: \"~\"\ng: 'null'\nh: |\n  null\ni: nulls\nj: 1.31.4-gke.1000\nk: 0\nl: [x]\nm: {n: ~}\n");
        let null = |k: &str| doc.get(k).unwrap().is_null();
        for k in ["a", "b", "c", "d", "e"] {
            assert!(null(k), "{k}");
        }
        for k in ["f", "g", "h", "i", "j", "k", "l", "m"] {
            assert!(!null(k), "{k}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn nodes_carry_one_based_positions() {
        let doc = one("top:\n  - x\n  - key: v\n");
        let items = match &doc.get("top").unwrap().value {
            Value::Seq(items) => items.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!((items[0].line, items[0].column), (2, 5));
        assert_eq!(
            (
                items[1].get("key").unwrap().line,
                items[1].get("key").unwrap().column
            ),
            (3, 10)
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn syntax_errors_have_a_position() {
        let (_, diags) = parse("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml");
        assert_eq!(diags.len(), 1);
        let d = &diags[0];
        assert_eq!(d.code, "yaml-syntax");
        // The flow list opened on line 2 is still open on line 3, where `c:` is a key in flow
        // context: the parser stops at its `:`, line 3 column 2.
        assert_eq!(
            d.to_string(),
            "bad.yaml:3:2: error[yaml-syntax]: YAML syntax error: illegal placement of ':' indicator"
        );
        // A second `:` on one line: the value `b` cannot start a mapping; the place is that `:`.
        let (_, diags) = parse("a: b: c\n", "bad.yaml");
        assert_eq!(
            diags[0].to_string(),
            "bad.yaml:1:5: error[yaml-syntax]: YAML syntax error: mapping values are not allowed in this context"
        );
        // The end of a text without a final line break is placed after its last character, not on
        // a line the editor does not have.
        let (_, diags) = parse("a: [1,", "bad.yaml");
        let loc = diags[0].location.as_ref().unwrap();
        assert_eq!((loc.line, loc.column), (1, 7), "{}", diags[0]);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn duplicate_keys_warn_and_the_last_wins() {
        let (docs, diags) = parse("a: 1\nb: 2\na: 3\n", "d.yaml");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, "duplicate-key");
        assert_eq!(diags[0].location.as_ref().unwrap().line, 3);
        assert_eq!(docs[0].get("a").unwrap().resolve(), Some(Resolved::Int(3)));
        match &docs[0].value {
            Value::Map(entries) => assert_eq!(entries.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn multiple_documents_and_empty_ones() {
        let (docs, diags) = parse("# only a comment\n---\na: 1\n---\n---\nb: 2\n", "m.yaml");
        assert!(diags.is_empty());
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].line, 6);
        assert!(parse("", "e.yaml").0.is_empty());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn json_including_tab_indentation_is_accepted() {
        let doc = one("{\n\t\"name\": \"x\",\n\t\"n\": 7,\n\t\"s\": \"7\"\n}\n");
        assert_eq!(doc.get("n").unwrap().resolve(), Some(Resolved::Int(7)));
        assert_eq!(doc.get("s").unwrap().resolve(), Some(Resolved::Str("7")));
        assert_eq!(doc.get("name").unwrap().line, 2);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn aliases_resolve_and_cannot_loop_or_explode() {
        let doc = one("base: &b {x: 1}\nuse: *b\n");
        assert_eq!(
            doc.get("use").unwrap().get("x").unwrap().resolve(),
            Some(Resolved::Int(1))
        );
        let (_, diags) = parse("a: &a [1, *a]\n", "r.yaml");
        assert_eq!(diags[0].code, "yaml-alias");
        let mut laughs = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            laughs.push_str(&format!("a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"));
        }
        let (_, diags) = parse(&laughs, "l.yaml");
        assert!(diags.iter().any(|d| d.code == "yaml-alias"), "{diags:?}");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = "[".repeat(100_000);
        let (_, diags) = parse(&deep, "deep.yaml");
        assert!(diags.iter().any(|d| d.is_error()));
        let deep_block: String = (0..300).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
        let (_, diags) = parse(&deep_block, "deep.yaml");
        assert!(diags.iter().any(|d| d.code == "yaml-too-deep"), "{diags:?}");
    }

    /// A scalar folded over several lines has no single column for a position inside it, so it keeps
    /// no quote to map columns with (diagnostics then point at the scalar); one line keeps its quote.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn scalars_over_several_lines_are_marked() {
        let doc =
            one("a: \"x\n  y\"\nb: 'p\n  q'\nc: plain\n  folded\nd: \"one 'line'\"\ne: 'it''s'\n");
        let quote = |k: &str| doc.get(k).unwrap().scalar().unwrap().quote;
        assert_eq!(
            [quote("a"), quote("b"), quote("c"), quote("d"), quote("e")],
            [None, None, None, Some('"'), Some('\'')]
        );
        assert_eq!(
            doc.get("c").unwrap().resolve(),
            Some(Resolved::Str("plain folded"))
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_byte_order_mark_is_skipped() {
        let doc = one("\u{feff}a: 1\n");
        assert!(doc.get("a").is_some());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn str_tag_forces_a_string() {
        let doc = one("a: !!str 7\n");
        assert_eq!(doc.get("a").unwrap().resolve(), Some(Resolved::Str("7")));
    }
}
