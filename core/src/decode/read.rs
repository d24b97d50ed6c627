//! Typed reading of document nodes: every "expected X, found Y" and "unknown field" diagnostic is made
//! here, with the field's path and location, so each decoder only says what it expects.

use std::borrow::Cow;

use crate::diag::{Cap, Diagnostic, Location, Severity, SourceMap};
use crate::plan::Name;
use crate::source::{Entry, Node, Resolved, Style, Value};
use crate::time::{Duration, Time};

/// Where a value sits: `report` is the path diagnostics print (for a manifest, prefixed by the object,
/// e.g. `ClusterStagedUpdateStrategy/s: spec.stages[0]`); [`Path::origin`] is the scenario path recorded
/// in the SourceMap so that later validation errors on the scenario find the same line.
#[derive(Clone, Debug)]
pub(crate) struct Path {
    pub prefix: String,
    pub report: String,
    /// The scenario path when its text differs from `report`; `None` when it is the same text, as
    /// everywhere in fleetplan's own format, so reading a field builds its path once, not twice.
    origin: Option<String>,
}

impl Path {
    /// The same path in both worlds (the fleetplan format, whose paths are the scenario's).
    pub fn root() -> Path {
        Path {
            prefix: String::new(),
            report: String::new(),
            origin: None,
        }
    }

    /// A manifest object: reported as `prefix + report`, recorded under `origin`.
    pub fn object(prefix: String, report: &str, origin: &str) -> Path {
        Path {
            prefix,
            report: report.to_string(),
            origin: (origin != report).then(|| origin.to_string()),
        }
    }

    /// The scenario path this one is recorded under (empty: recorded nowhere).
    pub fn origin(&self) -> &str {
        self.origin.as_deref().unwrap_or(&self.report)
    }

    pub fn field(&self, key: &str) -> Path {
        let mut out = Path::root();
        self.field_into(key, &mut out);
        out
    }

    /// A field that exists in the report's shape only (manifest nesting the scenario does not have).
    pub fn report_field(&self, key: &str) -> Path {
        Path {
            prefix: self.prefix.clone(),
            report: join(&self.report, key),
            origin: Some(self.origin().to_string()),
        }
    }

    /// Different names on each side: `report_key` in the input, `origin_key` in the scenario.
    pub fn renamed(&self, report_key: &str, origin_key: &str) -> Path {
        if report_key == origin_key {
            return self.field(report_key);
        }
        Path {
            prefix: self.prefix.clone(),
            report: join(&self.report, report_key),
            origin: Some(join(self.origin(), origin_key)),
        }
    }

    /// This path as reported, recorded under `other`'s scenario path (a shorthand's field that the
    /// model keeps elsewhere).
    pub fn at_origin(mut self, other: &Path) -> Path {
        let origin = other.origin();
        self.origin = (origin != self.report).then(|| origin.to_string());
        self
    }

    /// This path as reported, recorded under the scenario path `origin` (a GKE file's object that is
    /// one part of the scenario it becomes; empty: recorded nowhere).
    pub fn recorded_as(mut self, origin: String) -> Path {
        self.origin = (origin != self.report).then_some(origin);
        self
    }

    /// [`Path::field`] written into `out`, reusing its strings' room (see [`Reader::field_path`]).
    pub fn field_into(&self, key: &str, out: &mut Path) {
        // Not `clone_from`: its copy is a `memory.copy` call in wasm even when the prefix is empty.
        out.prefix.clear();
        crate::append::append(&mut out.prefix, &self.prefix);
        join_into(&self.report, key, &mut out.report);
        match &self.origin {
            Some(o) => join_into(o, key, out.origin.get_or_insert_with(String::new)),
            None => out.origin = None,
        }
    }

    /// [`Path::index`] written into `out`, reusing its strings' room.
    pub fn index_into(&self, i: usize, out: &mut Path) {
        out.prefix.clear();
        crate::append::append(&mut out.prefix, &self.prefix);
        indexed_into(&self.report, i, &mut out.report);
        match &self.origin {
            Some(o) => indexed_into(o, i, out.origin.get_or_insert_with(String::new)),
            None => out.origin = None,
        }
    }

    pub fn index(&self, i: usize) -> Path {
        let mut out = Path::root();
        self.index_into(i, &mut out);
        out
    }

    pub fn shown(&self) -> String {
        format!("{}{}", self.prefix, self.report)
    }

    /// The last path segment, for messages ("`maxConcurrency` must be ...").
    fn name(&self) -> &str {
        let r = self.report.as_str();
        let cut = r.rfind('.').map_or(0, |i| i + 1);
        let last = &r[cut..];
        if last.is_empty() {
            "document"
        } else {
            last
        }
    }
}

// Paths are built for every field read (the source map records each), so by hand: room for the
// whole path reserved once, no formatting machinery.
fn join(base: &str, key: &str) -> String {
    let mut s = String::new();
    join_into(base, key, &mut s);
    s
}

/// `base.key` (or `key` at the top) into `out`, replacing what it held.
fn join_into(base: &str, key: &str, out: &mut String) {
    out.clear();
    if base.is_empty() {
        crate::append::append(out, key);
        return;
    }
    out.reserve(base.len() + 1 + key.len());
    crate::append::append(out, base);
    out.push('.');
    crate::append::append(out, key);
}

/// `base[i]` into `out`, replacing what it held.
fn indexed_into(base: &str, i: usize, out: &mut String) {
    let mut buf = [0; crate::decimal::LONGEST];
    let digits = crate::decimal::decimal(i as u64, &mut buf);
    out.clear();
    out.reserve(base.len() + digits.len() + 2);
    crate::append::append(out, base);
    out.push('[');
    crate::append::append(out, digits);
    out.push(']');
}

/// Reads nodes of one file, collecting diagnostics and the scenario paths it saw.
pub(crate) struct Reader<'f> {
    pub file: &'f str,
    pub diags: Vec<Diagnostic>,
    pub origin: Vec<(String, Location)>,
    /// Unknown keys are worth a warning in fleetplan's own format; manifests carry many fields the
    /// planner does not need (status, managedFields), so there they are skipped silently.
    pub warn_unknown: bool,
    /// A mistake repeated in every item of a long list is listed a hundred times, then counted.
    cap: Cap,
    /// When set ([`Reader::recording`]), paths are recorded here directly instead of in `origin`:
    /// no string and no location allocated per field read.
    sink: Option<SourceMap>,
    /// `file`'s index in `sink` (see [`SourceMap::file`]).
    sink_file: u32,
    /// The GKE kinds' decoding when the caller has it (see [`super::GkeDecoder`]).
    pub gke: Option<super::GkeDecoder>,
    /// Paths given back after use ([`Reader::done`]), whose strings the next [`Reader::field_path`]
    /// or [`Reader::index_path`] writes into: a cluster's item, `version`, `maintenance`, `window`
    /// and `daily` paths were five allocations and five frees per cluster, 5.5% of a 1,000-cluster
    /// GKE edit's core work.
    spare: Vec<Path>,
}

impl<'f> Reader<'f> {
    pub fn new(file: &'f str, warn_unknown: bool) -> Self {
        Reader {
            file,
            diags: Vec::new(),
            origin: Vec::new(),
            warn_unknown,
            cap: Cap::default(),
            sink: None,
            sink_file: 0,
            gke: None,
            spare: Vec::new(),
        }
    }

    /// `p.field(key)`, in the strings of a path given back before.
    pub fn field_path(&mut self, p: &Path, key: &str) -> Path {
        let mut out = self.spare.pop().unwrap_or_else(Path::root);
        p.field_into(key, &mut out);
        out
    }

    /// `p.index(i)`, in the strings of a path given back before.
    pub fn index_path(&mut self, p: &Path, i: usize) -> Path {
        let mut out = self.spare.pop().unwrap_or_else(Path::root);
        p.index_into(i, &mut out);
        out
    }

    /// Gives a path from [`Reader::field_path`] or [`Reader::index_path`] back for reuse (a path
    /// not given back is only freed).
    pub fn done(&mut self, p: Path) {
        self.spare.push(p);
    }

    /// A reader that records paths straight into a source map (taken back with
    /// [`Reader::take_source_map`]) rather than into `origin`.
    pub fn recording(file: &'f str, warn_unknown: bool) -> Self {
        let mut r = Reader::new(file, warn_unknown);
        let mut map = SourceMap::default();
        r.sink_file = map.file(file);
        r.sink = Some(map);
        r
    }

    pub fn take_source_map(&mut self) -> Option<SourceMap> {
        self.sink.take()
    }

    /// Points the path of `p` at `loc`, whether or not it was recorded already.
    pub fn repoint(&mut self, p: &Path, loc: Location) {
        let origin = p.origin();
        if origin.is_empty() {
            return;
        }
        if let Some(map) = &mut self.sink {
            map.repoint(origin, loc);
            return;
        }
        match self.origin.iter_mut().rev().find(|(o, _)| o == origin) {
            Some(entry) => entry.1 = loc,
            None => self.origin.push((origin.to_string(), loc)),
        }
    }

    pub fn loc(&self, n: &Node) -> Location {
        n.location(self.file)
    }

    /// Where the `char_column`-th character (1-based) of a string scalar's text was written: past the
    /// opening quote and the escapes before it (`\"` in double quotes, `''` in single quotes). Block
    /// scalars and text over several lines point at the scalar itself.
    pub fn loc_in_string(&self, n: &Node, char_column: usize) -> Location {
        let mut loc = self.loc(n);
        let Some(s) = n.scalar() else {
            return loc;
        };
        if s.text.as_bytes().contains(&b'\n') || (s.style == Style::Quoted && s.quote.is_none()) {
            return loc;
        }
        let width: usize = s
            .text
            .chars()
            .take(char_column.saturating_sub(1))
            .map(|c| escaped_width(c, s.quote))
            .sum();
        loc.column += usize::from(s.quote.is_some()) + width;
        loc
    }

    /// Records where the scenario path of `p` was written.
    pub fn note(&mut self, p: &Path, n: &Node) {
        let origin = p.origin();
        if origin.is_empty() {
            return;
        }
        if let Some(map) = &mut self.sink {
            map.record_at(origin, self.sink_file, n.line, n.column);
            return;
        }
        let loc = self.loc(n);
        self.origin.push((origin.to_string(), loc));
    }

    /// [`Reader::note`] for `p.field(key)`, without building that path. Inline, with the
    /// recording: each label and name of a cluster is noted, and in wasm a call costs several times
    /// what it does natively.
    #[inline]
    fn note_in(&mut self, p: &Path, key: &str, n: &Node) {
        if let Some(map) = &mut self.sink {
            map.record_field_at(p.origin(), key, self.sink_file, n.line, n.column);
            return;
        }
        self.note_in_list(p, key, n);
    }

    /// [`Reader::note_in`] without a source map (apart, so that the recording inlines).
    #[inline(never)]
    fn note_in_list(&mut self, p: &Path, key: &str, n: &Node) {
        let loc = self.loc(n);
        self.origin.push((join(p.origin(), key), loc));
    }

    pub fn push(&mut self, d: Diagnostic, p: &Path, n: &Node) {
        let shown = p.shown();
        let mut d = if shown.is_empty() { d } else { d.at(shown) };
        d.location = Some(self.loc(n));
        self.cap.push(&mut self.diags, d);
    }

    pub fn error(&mut self, code: &'static str, message: impl Into<String>, p: &Path, n: &Node) {
        self.push(Diagnostic::error(code, message), p, n);
    }

    pub fn warning(&mut self, code: &'static str, message: impl Into<String>, p: &Path, n: &Node) {
        self.push(Diagnostic::warning(code, message), p, n);
    }

    pub fn wrong_type(&mut self, expected: &str, p: &Path, n: &Node) {
        let msg = if p.report.is_empty() {
            format!("the document must be {expected}, found {}", n.describe())
        } else {
            format!("`{}` must be {expected}, found {}", p.name(), n.describe())
        };
        self.error("wrong-type", msg, p, n);
    }

    pub fn missing(&mut self, key: &str, p: &Path, n: &Node) {
        let what = if p.report.is_empty() {
            "the document".to_string()
        } else {
            format!("`{}`", p.report)
        };
        self.error(
            "missing-field",
            format!("{what} needs `{key}`"),
            &p.field(key),
            n,
        );
    }

    /// The entries of a mapping, warning about keys not in `known`. Null reads as absent; any other
    /// non-mapping is a type error.
    pub fn map<'n>(
        &mut self,
        n: &'n Node<'n>,
        p: &Path,
        known: &[&str],
    ) -> Option<&'n [Entry<'n>]> {
        match &n.value {
            Value::Map(entries) => {
                self.note(p, n);
                if self.warn_unknown {
                    for e in entries.iter().filter(|e| !known.contains(&&*e.key)) {
                        if !self.cap.admits("unknown-field") {
                            // Past the cap only the count is kept: no suggestion worth computing.
                            self.cap
                                .count(&mut self.diags, Severity::Warning, "unknown-field");
                            continue;
                        }
                        let within = if p.report.is_empty() {
                            "the scenario".to_string()
                        } else {
                            format!("`{}`", p.report)
                        };
                        let mut msg = format!("unknown field `{}` in {within}", e.key);
                        if let Some(s) = suggest(&e.key, known) {
                            msg.push_str(&format!("; did you mean `{s}`?"));
                        }
                        let mut d =
                            Diagnostic::warning("unknown-field", msg).at(p.field(&e.key).shown());
                        d.location = Some(Location {
                            file: self.file.to_string(),
                            line: e.key_line,
                            column: e.key_column,
                        });
                        self.cap.push(&mut self.diags, d);
                    }
                }
                Some(entries)
            }
            _ if n.is_null() => None,
            _ => {
                self.wrong_type("a mapping", p, n);
                None
            }
        }
    }

    /// The items of a list. Null reads as absent.
    pub fn seq<'n>(&mut self, n: &'n Node<'n>, p: &Path) -> Option<&'n [Node<'n>]> {
        match &n.value {
            Value::Seq(items) => {
                self.note(p, n);
                Some(items)
            }
            _ if n.is_null() => None,
            _ => {
                self.wrong_type("a list", p, n);
                None
            }
        }
    }

    /// A string; plain numbers and booleans are taken as their text (`resourceSnapshotIndex: 0`).
    pub fn string(&mut self, n: &Node, p: &Path) -> Option<String> {
        match (&n.value, n.resolve()) {
            (_, Some(Resolved::Null)) => None,
            (Value::Scalar(s), _) => {
                self.note(p, n);
                Some(s.text.to_string())
            }
            _ => {
                self.wrong_type("a string", p, n);
                None
            }
        }
    }

    /// `self.string(n, &p.field(key))`, building the field's path only when a diagnostic needs it
    /// (thousands of clusters read a dozen fields each), and borrowed from the tree when the node is
    /// a string, so that each caller copies it once, into what it keeps. Compiled into both: each
    /// is on the reading path of every cluster, where a call of its own cost 1.7 M instructions per
    /// 10,000-cluster GKE text.
    #[inline(always)]
    fn text_in<'n>(&mut self, n: &'n Node, p: &Path, key: &str) -> Option<Cow<'n, str>> {
        if let Value::Scalar(s) = &n.value {
            if !n.is_null() {
                self.note_in(p, key, n);
                return Some(Cow::Borrowed(&s.text));
            }
        }
        self.string(n, &p.field(key)).map(Cow::Owned)
    }

    /// [`Self::text_in`] as an owned text.
    pub fn string_in(&mut self, n: &Node, p: &Path, key: &str) -> Option<String> {
        self.text_in(n, p, key).map(|text| match text {
            Cow::Borrowed(text) => crate::append::owned(text),
            Cow::Owned(text) => text,
        })
    }

    /// [`Self::text_in`] as a shared [`Name`], copied once from the tree into its own block.
    pub fn name_in(&mut self, n: &Node, p: &Path, key: &str) -> Option<Name> {
        self.text_in(n, p, key).map(|text| match text {
            Cow::Borrowed(text) => Name::from(text),
            Cow::Owned(text) => Name::from(text),
        })
    }

    /// `self.label_value(n, &p.field(key))`, building the path only for a diagnostic.
    /// The value borrowed from the tree when it is a string (most are), so a cluster's label map
    /// copies it once, into its own text.
    pub fn label_value_in<'n>(&mut self, n: &'n Node, p: &Path, key: &str) -> Option<Cow<'n, str>> {
        if let (Value::Scalar(s), Some(Resolved::Str(_))) = (&n.value, n.resolve()) {
            self.note_in(p, key, n);
            return Some(Cow::Borrowed(&s.text));
        }
        self.label_value(n, &p.field(key)).map(Cow::Owned)
    }

    /// A label value: Kubernetes requires strings, so a plain `1` or `true` is read as its text with a
    /// warning saying to quote it.
    pub fn label_value(&mut self, n: &Node, p: &Path) -> Option<String> {
        match (&n.value, n.resolve()) {
            (Value::Scalar(s), Some(Resolved::Str(_))) => {
                self.note(p, n);
                Some(s.text.to_string())
            }
            (Value::Scalar(s), Some(r)) => {
                self.note(p, n);
                let text = if matches!(r, Resolved::Null) {
                    String::new()
                } else {
                    s.text.to_string()
                };
                let msg = format!(
                    "label value `{}` is {}, but Kubernetes label values are strings; read as \"{text}\" (quote it to silence this)",
                    s.text,
                    n.describe()
                );
                self.warning("label-not-string", msg, p, n);
                Some(text)
            }
            _ => {
                self.wrong_type("a string", p, n);
                None
            }
        }
    }

    pub fn int(&mut self, n: &Node, p: &Path) -> Option<i64> {
        match n.resolve() {
            Some(Resolved::Null) => None,
            Some(Resolved::Int(i)) => {
                self.note(p, n);
                Some(i)
            }
            _ => {
                self.wrong_type("an integer", p, n);
                None
            }
        }
    }

    /// An integer the real API holds in a Go `int32`. The API server does not enforce `format: int32` on
    /// custom resources (kubernetes#136091), so a larger number is refused only where Go decodes the
    /// object (KubeFleet's webhook, the controllers' caches), with encoding/json's text. `go_field` is
    /// the struct and JSON path that text names (`PlacementPolicy.spec.policy.numberOfClusters`).
    pub fn int32(&mut self, n: &Node, p: &Path, go_field: &str) -> Option<i32> {
        let i = self.int(n, p)?;
        match i32::try_from(i) {
            Ok(v) => Some(v),
            Err(_) => {
                let msg = format!(
                    "json: cannot unmarshal number {i} into Go struct field {go_field} of type int32"
                );
                self.error("int32-range", msg, p, n);
                None
            }
        }
    }

    /// A non-negative integer that fits `u32` (counts, numbering).
    pub fn count(&mut self, n: &Node, p: &Path) -> Option<u32> {
        let i = self.int(n, p)?;
        match u32::try_from(i) {
            Ok(v) => Some(v),
            Err(_) => {
                let msg = format!(
                    "`{}` must be between 0 and {}, found {i}",
                    p.name(),
                    u32::MAX
                );
                self.error("invalid-value", msg, p, n);
                None
            }
        }
    }

    pub fn float(&mut self, n: &Node, p: &Path) -> Option<f64> {
        match n.resolve() {
            Some(Resolved::Null) => None,
            Some(Resolved::Int(i)) => {
                self.note(p, n);
                Some(i as f64)
            }
            Some(Resolved::Float(f)) => {
                self.note(p, n);
                Some(f)
            }
            _ => {
                self.wrong_type("a number", p, n);
                None
            }
        }
    }

    pub fn boolean(&mut self, n: &Node, p: &Path) -> Option<bool> {
        match n.resolve() {
            Some(Resolved::Null) => None,
            Some(Resolved::Bool(b)) => {
                self.note(p, n);
                Some(b)
            }
            _ => {
                self.wrong_type("true or false", p, n);
                None
            }
        }
    }

    /// fleetplan's duration syntax (`90s`, `1h30m`, `2d`; a bare number is seconds).
    pub fn duration(&mut self, n: &Node, p: &Path) -> Option<Duration> {
        let text = self.scalar_text(n, p, "a duration such as 30m or 1h30m")?;
        match Duration::parse(&text) {
            Ok(d) => Some(d),
            Err(e) => {
                self.error("invalid-value", e, p, n);
                None
            }
        }
    }

    /// An RFC 3339 instant.
    pub fn time(&mut self, n: &Node, p: &Path) -> Option<Time> {
        let text = self.scalar_text(n, p, "an RFC 3339 time such as 2026-11-23T09:00:00Z")?;
        match Time::parse(&text) {
            Ok(t) => Some(t),
            Err(e) => {
                self.error("invalid-value", e, p, n);
                None
            }
        }
    }

    /// A scalar's text whatever its type (null reads as absent).
    pub fn scalar_text(&mut self, n: &Node, p: &Path, expected: &str) -> Option<String> {
        match (&n.value, n.resolve()) {
            (_, Some(Resolved::Null)) => None,
            (Value::Scalar(s), _) => {
                self.note(p, n);
                Some(s.text.to_string())
            }
            _ => {
                self.wrong_type(expected, p, n);
                None
            }
        }
    }

    /// A list of strings; a single string is accepted as a list of one.
    pub fn strings(&mut self, n: &Node, p: &Path) -> Vec<String> {
        if let Value::Scalar(_) = n.value {
            return self.string(n, p).into_iter().collect();
        }
        let Some(items) = self.seq(n, p) else {
            return Vec::new();
        };
        items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| self.string(item, &p.index(i)))
            .collect()
    }
}

/// Source characters one text character takes inside `quote` (the shortest escape that writes it).
fn escaped_width(c: char, quote: Option<char>) -> usize {
    match (quote, c) {
        (Some('"'), '"' | '\\' | '\n' | '\r' | '\t' | '\0' | '\u{8}' | '\u{c}') => 2,
        (Some('"'), c) if c.is_control() => 6,
        (Some('\''), '\'') => 2,
        _ => 1,
    }
}

/// The value of `key` in a mapping's entries, with null treated as absent.
pub(crate) fn get<'n>(entries: &'n [Entry<'n>], key: &str) -> Option<&'n Node<'n>> {
    entries
        .iter()
        .find(|e| e.key == key)
        .map(|e| &e.value)
        .filter(|n| !n.is_null())
}

/// The closest known key, when it is close enough to be a likely typo.
pub(crate) fn suggest<'k>(word: &str, known: &[&'k str]) -> Option<&'k str> {
    let lower = word.to_ascii_lowercase();
    known
        .iter()
        .map(|k| (edit_distance(&lower, &k.to_ascii_lowercase()), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Optimal string alignment distance: Levenshtein plus adjacent transpositions (`stagse` → `stages` is 1).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() > 64 || b.len() > 64 {
        return usize::MAX;
    }
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().take(w).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn suggestions_catch_typos_but_not_unrelated_words() {
        let known = ["stages", "name", "run", "placement", "deleteClusters"];
        assert_eq!(suggest("stagse", &known), Some("stages"));
        assert_eq!(suggest("placment", &known), Some("placement"));
        assert_eq!(suggest("deleteclusters", &known), Some("deleteClusters"));
        assert_eq!(suggest("colour", &known), None);
    }
}
