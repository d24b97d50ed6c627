//! Diagnostics: what is wrong, how badly, and where (a field path, and a file line/column when known).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::OnceLock;

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// A place in an input file. Lines and columns count from 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable identifier of the rule, e.g. `cluster-in-no-stage`; tests and CI filters key on it.
    pub code: &'static str,
    /// The message; where the real system has one, its exact text.
    pub message: String,
    /// Field path in the scenario (`strategy.stages[1].maxConcurrency`), when the problem has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Where the path (or its nearest parent) was written, when the scenario came from text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// The object the path is about, named as people write it (`cluster prod-3`, `MemberCluster/prod-3`,
    /// `stage canary`); filled by the naming module once the scenario is known. Read it with
    /// [`Diagnostic::subject`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<Box<Subject>>,
    /// Non-zero on the one diagnostic that stands for the diagnostics of its code left out past
    /// [`MAX_PER_CODE`] ("… and 1,954,000 more"): how many there were.
    #[serde(skip_serializing_if = "is_zero")]
    pub omitted: u32,
}

/// The name of what a diagnostic is about. Behind a thin box: diagnostics are returned by value in
/// `Result`s, so they stay small.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Subject(pub String);

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Diagnostics of one code past this many are counted, not listed: a mistake repeated over a million
/// clusters must not produce a million messages (nor the memory to hold them).
pub const MAX_PER_CODE: usize = 100;

impl Diagnostic {
    /// What the diagnostic is about, named as people write it (`cluster prod-3`).
    pub fn subject(&self) -> Option<&str> {
        self.subject.as_deref().map(|s| s.0.as_str())
    }

    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            path: None,
            location: None,
            subject: None,
            omitted: 0,
        }
    }
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            code,
            message: message.into(),
            path: None,
            location: None,
            subject: None,
            omitted: 0,
        }
    }
    pub fn info(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Info,
            code,
            message: message.into(),
            path: None,
            location: None,
            subject: None,
            omitted: 0,
        }
    }
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// How many problems this diagnostic stands for: one, or those it summarizes.
    pub fn count(&self) -> usize {
        self.omitted.max(1) as usize
    }

    /// The "… and N more" diagnostic for `omitted` left-out diagnostics of `like`'s code.
    fn more(like: &Diagnostic, omitted: u32) -> Diagnostic {
        Diagnostic {
            severity: like.severity,
            code: like.code,
            message: format!("… and {} more", thousands(omitted as usize)),
            path: None,
            location: None,
            subject: None,
            omitted,
        }
    }
}

/// `1954000` → `1,954,000`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Keeps the first [`MAX_PER_CODE`] diagnostics of each code, in order, and folds the rest (and any
/// summaries a [`Cap`] already made) into one "… and N more" right after the last one kept.
pub fn cap(diags: &mut Vec<Diagnostic>) {
    // Per code: how many are listed, how many left out, and after which index the summary goes.
    let mut codes: HashMap<&'static str, (usize, u32, usize)> = HashMap::new();
    let mut over = false;
    for (i, d) in diags.iter().enumerate() {
        let (listed, omitted, anchor) = codes.entry(d.code).or_insert((0, 0, i));
        if d.omitted > 0 {
            *omitted = omitted.saturating_add(d.omitted);
            over = true;
        } else if *listed < MAX_PER_CODE {
            *listed += 1;
            *anchor = i;
        } else {
            *omitted = omitted.saturating_add(1);
            over = true;
        }
    }
    if !over {
        return;
    }
    let mut shown: HashMap<&'static str, usize> = HashMap::new();
    let old = std::mem::take(diags);
    for (i, d) in old.into_iter().enumerate() {
        let (_, omitted, anchor) = codes[d.code];
        let n = shown.entry(d.code).or_default();
        let keep = d.omitted == 0 && *n < MAX_PER_CODE;
        if keep {
            *n += 1;
        }
        let summary = (i == anchor && omitted > 0).then(|| Diagnostic::more(&d, omitted));
        if keep {
            diags.push(d);
        }
        diags.extend(summary);
    }
}

/// Caps diagnostics while they are made, for checks that can repeat once per cluster and stage:
/// past [`MAX_PER_CODE`] of a code, [`Cap::push`] only counts them, on one "… and N more"
/// diagnostic (whose text [`cap`] writes when the list is handed out).
#[derive(Debug, Default)]
pub struct Cap {
    /// Per code: how many were listed, and where its summary sits in the list.
    seen: HashMap<&'static str, (usize, Option<usize>)>,
}

impl Cap {
    /// Whether a diagnostic of `code` would still be listed (so a costly message is worth making).
    pub fn admits(&self, code: &str) -> bool {
        self.seen.get(code).is_none_or(|(n, _)| *n < MAX_PER_CODE)
    }

    pub fn push(&mut self, diags: &mut Vec<Diagnostic>, d: Diagnostic) {
        if self.admits(d.code) {
            self.seen.entry(d.code).or_default().0 += 1;
            diags.push(d);
        } else {
            self.count(diags, d.severity, d.code);
        }
    }

    /// Counts one more left-out diagnostic of `code` without its message (after [`Cap::admits`]
    /// said no).
    pub fn count(&mut self, diags: &mut Vec<Diagnostic>, severity: Severity, code: &'static str) {
        let (_, summary) = self.seen.entry(code).or_default();
        match summary.and_then(|i| diags.get_mut(i)) {
            Some(s) if s.code == code && s.omitted > 0 => s.omitted = s.omitted.saturating_add(1),
            _ => {
                *summary = Some(diags.len());
                let like = Diagnostic {
                    severity,
                    code,
                    message: String::new(),
                    path: None,
                    location: None,
                    subject: None,
                    omitted: 0,
                };
                diags.push(Diagnostic::more(&like, 1));
            }
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        // Shown to a person: a name with a terminal escape or a bidirectional override is written out.
        use crate::visible::visible;
        if let Some(loc) = &self.location {
            write!(f, "{}:{}:{}: ", visible(&loc.file), loc.line, loc.column)?;
        }
        write!(f, "{sev}[{}]: {}", self.code, visible(&self.message))?;
        match (self.subject(), &self.path) {
            (Some(subject), Some(path)) => {
                write!(f, " ({}, at {})", visible(subject), visible(path))?
            }
            (None, Some(path)) => write!(f, " (at {})", visible(path))?,
            _ => {}
        }
        Ok(())
    }
}

/// Remembers where each scenario field path came from, so diagnostics raised later (by validation,
/// on the decoded model) can point back at a line and column, even through manifest import.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// In the order recorded. A scenario of 10,000 clusters records some 150,000 paths and most are
    /// never looked up, so recording appends the path to `paths` (no allocation of its own) and the
    /// file is named once in `files`; the lookup order is built on the first lookup.
    entries: Vec<Record>,
    paths: String,
    files: Vec<String>,
    /// Positions in `entries` sorted by path, then by recording order (the first record wins).
    sorted: OnceLock<Vec<u32>>,
    /// Paths pointed elsewhere after they were recorded (a selector's syntax error at its character);
    /// they win over `entries`. Kept apart so that pointing one costs no scan of every record.
    moved: BTreeMap<String, Spot>,
    /// Paths that stand for a whole imported object, with its `Kind/name` (`clusters[3]` →
    /// `MemberCluster/prod-3`), so diagnostics can name it the way its author wrote it.
    objects: BTreeMap<String, String>,
}

impl PartialEq for SourceMap {
    fn eq(&self, other: &Self) -> bool {
        self.entries.len() == other.entries.len()
            && self.entries.iter().zip(&other.entries).all(|(a, b)| {
                self.path(a) == other.path(b)
                    && self.files[a.spot.file as usize] == other.files[b.spot.file as usize]
                    && (a.spot.line, a.spot.column) == (b.spot.line, b.spot.column)
            })
            && self.moved.len() == other.moved.len()
            && self.moved.iter().zip(&other.moved).all(|((p, a), (q, b))| {
                p == q
                    && self.files[a.file as usize] == other.files[b.file as usize]
                    && (a.line, a.column) == (b.line, b.column)
            })
            && self.objects == other.objects
    }
}

impl Eq for SourceMap {}

/// Records taken from one [`SourceMap`] to be put in another ([`SourceMap::splice_clusters`]):
/// their paths' text, and files by name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Recorded {
    entries: Vec<Record>,
    paths: String,
    files: Vec<String>,
}

/// One recorded path: where its text is in `SourceMap::paths`, and where it was written. 20 bytes:
/// a 10,000-cluster scenario records some 130,000 of them for as long as it lives.
#[derive(Clone, Copy, Debug)]
struct Record {
    /// Paths past 4 GiB of path text are not recorded (no input is longer than 16 MiB).
    start: u32,
    len: u32,
    spot: Spot,
}

/// A location with its file as an index into `SourceMap::files`. Lines and columns fit `u32`: no
/// input is longer than 16 MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Spot {
    file: u32,
    line: u32,
    column: u32,
}

impl Spot {
    fn at(file: u32, line: usize, column: usize) -> Spot {
        Spot {
            file,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        }
    }
}

impl SourceMap {
    /// Records where `path` was written; the first record of a path is the one kept.
    pub fn insert(&mut self, path: impl Into<String>, loc: Location) {
        self.record(&path.into(), loc);
    }

    fn record(&mut self, path: &str, loc: Location) {
        let spot = self.spot(&loc.file, loc.line, loc.column);
        self.push(path, spot);
    }

    /// [`SourceMap::insert`] without a `Location` (or any allocation) made for it: the decoder's way.
    /// `file` is what [`SourceMap::file`] gave for the file's name (looked up once per reader, not
    /// compared with every record's).
    pub(crate) fn record_at(&mut self, path: &str, file: u32, line: usize, column: usize) {
        let spot = Spot::at(file, line, column);
        self.push(path, spot);
    }

    /// The index `file` is recorded under, added if new.
    pub(crate) fn file(&mut self, file: &str) -> u32 {
        self.spot(file, 0, 0).file
    }

    /// [`SourceMap::record_at`] for the path `parent.key` (or `key` at the top). Inline: see
    /// `Reader::note_in`, its one caller.
    #[inline]
    pub(crate) fn record_field_at(
        &mut self,
        parent: &str,
        key: &str,
        file: u32,
        line: usize,
        column: usize,
    ) {
        let spot = Spot::at(file, line, column);
        let start = self.paths.len();
        let Ok(at) = u32::try_from(start) else {
            return;
        };
        if !parent.is_empty() {
            crate::append::append(&mut self.paths, parent);
            self.paths.push('.');
        }
        crate::append::append(&mut self.paths, key);
        match u32::try_from(self.paths.len() - start) {
            Ok(len) => {
                self.entries.push(Record {
                    start: at,
                    len,
                    spot,
                });
                self.sorted.take();
            }
            Err(_) => self.paths.truncate(start),
        }
    }

    /// Points `path` at `loc`, whatever was recorded for it before or after.
    pub(crate) fn repoint(&mut self, path: &str, loc: Location) {
        let spot = self.spot(&loc.file, loc.line, loc.column);
        self.moved.insert(path.to_string(), spot);
    }

    fn spot(&mut self, file: &str, line: usize, column: usize) -> Spot {
        let file = match self.files.iter().rposition(|f| f == file) {
            Some(i) => i,
            None => {
                self.files.push(file.to_string());
                self.files.len() - 1
            }
        };
        Spot::at(u32::try_from(file).unwrap_or(u32::MAX), line, column)
    }

    fn push(&mut self, path: &str, spot: Spot) {
        let (Ok(start), Ok(len)) = (u32::try_from(self.paths.len()), u32::try_from(path.len()))
        else {
            return;
        };
        self.entries.push(Record { start, len, spot });
        crate::append::append(&mut self.paths, path);
        self.sorted.take();
    }

    fn path(&self, r: &Record) -> &str {
        self.paths
            .get(r.start as usize..r.start as usize + r.len as usize)
            .unwrap_or_default()
    }

    /// Gives back the room the records grew into and do not use (a map read from a large text keeps
    /// up to half its memory empty otherwise, for as long as the scenario lives).
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
        self.paths.shrink_to_fit();
    }

    /// Room for `records` more records whose paths have `bytes` bytes together.
    pub fn reserve(&mut self, records: usize, bytes: usize) {
        self.entries.reserve(records);
        self.paths.reserve(bytes);
    }

    fn get(&self, path: &str) -> Option<&Spot> {
        if let Some(spot) = self.moved.get(path) {
            return Some(spot);
        }
        let sorted = self.sorted.get_or_init(|| {
            let mut order: Vec<u32> = (0..self.entries.len())
                .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
                .collect();
            // Stable: among equal paths the first recorded comes first.
            crate::sort::sort_by(&mut order, |&a, &b| {
                let path = |i: u32| self.path(&self.entries[i as usize]);
                path(a).cmp(path(b))
            });
            order
        });
        let first = sorted.partition_point(|&i| self.path(&self.entries[i as usize]) < path);
        let r = &self.entries[*sorted.get(first)? as usize];
        (self.path(r) == path).then_some(&r.spot)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.moved.is_empty()
    }

    /// The records of a top-level `clusters` list: the first record of `clusters` and those of its
    /// items right after it, when no other record is under `clusters` (see [`crate::memo`]).
    pub(crate) fn clusters_records(&self) -> Option<Recorded> {
        let under = |r: &Record| in_clusters(self.path(r));
        let first = self
            .entries
            .iter()
            .position(|r| self.path(r) == "clusters")?;
        let end = first
            + 1
            + self.entries[first + 1..]
                .iter()
                .take_while(|r| under(r) && self.path(r) != "clusters")
                .count();
        if self.entries[end..].iter().any(under)
            || self.moved.keys().any(|k| k.starts_with("clusters"))
        {
            return None;
        }
        let mut paths = String::new();
        let entries = self.entries[first..end]
            .iter()
            .map(|r| {
                let start = u32::try_from(paths.len()).unwrap_or(u32::MAX);
                paths.push_str(self.path(r));
                Record { start, ..*r }
            })
            .collect();
        Some(Recorded {
            entries,
            paths,
            files: self.files.clone(),
        })
    }

    /// Puts `r` in place of this map's only record under `clusters` (an empty list's), as if its
    /// records had been made there; false when this map has no such single record.
    pub(crate) fn splice_clusters(&mut self, r: &Recorded) -> bool {
        let Some(at) = self.entries.iter().position(|e| self.path(e) == "clusters") else {
            return false;
        };
        let others = self
            .entries
            .iter()
            .enumerate()
            .any(|(i, e)| i != at && in_clusters(self.path(e)));
        let Ok(shift) = u32::try_from(self.paths.len()) else {
            return false;
        };
        if others {
            return false;
        }
        // The records' file is looked up by name: this map numbers its files its own way. Once per
        // file, not per record (the reader looks its file up once for the same reason), in the
        // order the records first name them, so the files list grows as a lookup per record grew it.
        let mut numbered: Vec<Option<u32>> = vec![None; r.files.len()];
        let mut entries = Vec::with_capacity(self.entries.len() + r.entries.len());
        entries.extend_from_slice(&self.entries[..at]);
        for e in &r.entries {
            let Some(start) = e.start.checked_add(shift) else {
                return false;
            };
            let file = match numbered.get_mut(e.spot.file as usize) {
                Some(Some(file)) => *file,
                Some(slot) => *slot.insert(self.file(&r.files[e.spot.file as usize])),
                None => self.file(""),
            };
            entries.push(Record {
                start,
                len: e.len,
                spot: Spot { file, ..e.spot },
            });
        }
        entries.extend_from_slice(&self.entries[at + 1..]);
        self.entries = entries;
        self.paths.push_str(&r.paths);
        self.sorted.take();
        true
    }

    /// Records that `path` is the object `kind_name` (`MemberCluster/prod-3`).
    pub fn name_object(&mut self, path: impl Into<String>, kind_name: impl Into<String>) {
        self.objects.insert(path.into(), kind_name.into());
    }

    /// The imported object `path` (or its nearest recorded parent) belongs to.
    pub fn object(&self, path: &str) -> Option<&str> {
        let mut p = path;
        loop {
            if let Some(o) = self.objects.get(p) {
                return Some(o);
            }
            let cut = p.rfind(['.', '['])?;
            p = &p[..cut];
        }
    }

    /// The location of `path`, or of its nearest recorded parent (`a.b[2].c` → `a.b[2]` → `a.b` → `a`).
    pub fn locate(&self, path: &str) -> Option<Location> {
        let mut p = path;
        loop {
            if let Some(spot) = self.get(p) {
                return Some(Location {
                    file: self
                        .files
                        .get(spot.file as usize)
                        .cloned()
                        .unwrap_or_default(),
                    line: spot.line as usize,
                    column: spot.column as usize,
                });
            }
            let cut = p.rfind(['.', '['])?;
            p = &p[..cut];
        }
    }

    /// Fills in `location` of every diagnostic that has a path and no location yet.
    pub fn attach(&self, diagnostics: &mut [Diagnostic]) {
        for d in diagnostics.iter_mut().filter(|d| d.location.is_none()) {
            if let Some(path) = &d.path {
                d.location = self.locate(path);
            }
        }
    }
}

/// Whether a recorded path is `clusters` or lies under it (`clusters[3]`, `clusters.x`), not a
/// key that merely starts with the word.
fn in_clusters(path: &str) -> bool {
    path.strip_prefix("clusters")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['[', '.']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn locate_falls_back_to_the_nearest_parent() {
        let mut map = SourceMap::default();
        let loc = Location {
            file: "s.yaml".into(),
            line: 7,
            column: 5,
        };
        map.insert("strategy.stages[1]", loc.clone());
        assert_eq!(
            map.locate("strategy.stages[1].afterStageTasks[0].waitTime"),
            Some(loc.clone())
        );
        assert_eq!(map.locate("strategy.stages[2]"), None);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_first_record_of_a_path_wins_and_later_records_are_found() {
        let at = |file: &str, line| Location {
            file: file.into(),
            line,
            column: 1,
        };
        let mut map = SourceMap::default();
        map.insert("clusters[10]", at("a.yaml", 10));
        map.insert("clusters[1]", at("a.yaml", 1));
        map.insert("clusters[1]", at("b.yaml", 99));
        assert_eq!(map.locate("clusters[1].name"), Some(at("a.yaml", 1)));
        assert_eq!(map.locate("clusters[10]"), Some(at("a.yaml", 10)));
        // Recorded after a lookup: found too.
        map.insert("clusters[2]", at("b.yaml", 2));
        assert_eq!(map.locate("clusters[2].labels"), Some(at("b.yaml", 2)));
        assert_eq!(map.locate("clusters[3]"), None);
    }
}
