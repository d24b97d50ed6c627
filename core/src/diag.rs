//! Diagnostics: what is wrong, how badly, and where (a field path, and a file line/column when known).

use std::collections::BTreeMap;
use std::fmt;

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
}

/// The name of what a diagnostic is about. Behind a thin box: diagnostics are returned by value in
/// `Result`s, so they stay small.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Subject(pub String);

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
        }
    }
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        if let Some(loc) = &self.location {
            write!(f, "{}:{}:{}: ", loc.file, loc.line, loc.column)?;
        }
        write!(f, "{sev}[{}]: {}", self.code, self.message)?;
        match (self.subject(), &self.path) {
            (Some(subject), Some(path)) => write!(f, " ({subject}, at {path})")?,
            (None, Some(path)) => write!(f, " (at {path})")?,
            _ => {}
        }
        Ok(())
    }
}

/// Remembers where each scenario field path came from, so diagnostics raised later (by validation,
/// on the decoded model) can point back at a line and column, even through manifest import.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    entries: BTreeMap<String, Location>,
    /// Paths that stand for a whole imported object, with its `Kind/name` (`clusters[3]` →
    /// `MemberCluster/prod-3`), so diagnostics can name it the way its author wrote it.
    objects: BTreeMap<String, String>,
}

impl SourceMap {
    pub fn insert(&mut self, path: impl Into<String>, loc: Location) {
        self.entries.entry(path.into()).or_insert(loc);
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
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
    pub fn locate(&self, path: &str) -> Option<&Location> {
        let mut p = path;
        loop {
            if let Some(loc) = self.entries.get(p) {
                return Some(loc);
            }
            let cut = p.rfind(['.', '['])?;
            p = &p[..cut];
        }
    }

    /// Fills in `location` of every diagnostic that has a path and no location yet.
    pub fn attach(&self, diagnostics: &mut [Diagnostic]) {
        for d in diagnostics.iter_mut().filter(|d| d.location.is_none()) {
            if let Some(path) = &d.path {
                d.location = self.locate(path).cloned();
            }
        }
    }
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
            Some(&loc)
        );
        assert_eq!(map.locate("strategy.stages[2]"), None);
    }
}
