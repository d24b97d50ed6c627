//! What every status reader shares: Kubernetes objects out of documents and `List`s, their identity,
//! and `metav1.Condition`s with their times.

use std::borrow::Cow;

use crate::decode::{Path, Reader};
use crate::diag::{Diagnostic, Location};
use crate::source::{Node, Value};
use crate::time::Time;

/// A document's object, with the file it came from.
pub struct Object<'n> {
    pub kind: String,
    pub node: &'n Node<'n>,
    pub file: &'n str,
}

/// Expands `kind: List` (and `*List`) documents into their items; objects without `kind` are
/// reported and skipped.
pub fn flatten<'n>(
    docs: &[(&'n Node<'n>, &'n str)],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Object<'n>> {
    let mut out = Vec::new();
    // Depth is bounded by the parser's nesting limit, so this stack stays small.
    let mut stack: Vec<(&Node, &str)> = docs.iter().rev().copied().collect();
    while let Some((node, file)) = stack.pop() {
        let kind = node
            .get("kind")
            .and_then(|k| k.scalar())
            .map(|s| s.text.to_string())
            .unwrap_or_default();
        if kind == "List" || (kind.ends_with("List") && node.get("items").is_some()) {
            if let Some(Value::Seq(items)) = node.get("items").map(|i| &i.value) {
                stack.extend(items.iter().rev().map(|i| (i, file)));
            }
            continue;
        }
        if kind.is_empty() {
            let mut d = Diagnostic::warning(
                "missing-kind",
                "this object has `apiVersion` but no `kind`; it is ignored",
            );
            d.location = Some(node.location(file));
            diags.push(d);
            continue;
        }
        out.push(Object { kind, node, file });
    }
    out
}

/// `metadata.name`, `metadata.namespace` and `metadata.generation` of an object.
pub struct Meta {
    pub name: String,
    pub namespace: Option<String>,
    pub generation: Option<i64>,
    /// `Kind/name` or `Kind/namespace/name`: how diagnostics name the object.
    pub id: String,
}

pub fn meta(r: &mut Reader, obj: &Object) -> Option<Meta> {
    let m = obj.node.get("metadata");
    let p = Path::object(String::new(), "metadata", "");
    let text = |r: &mut Reader, key: &str| {
        m.and_then(|m| m.get(key))
            .and_then(|v| r.string(v, &p.field(key)))
    };
    let name = text(r, "name");
    let namespace = text(r, "namespace").filter(|n| !n.is_empty());
    let generation = m
        .and_then(|m| m.get("generation"))
        .and_then(|v| r.int(v, &p.field("generation")));
    let Some(name) = name else {
        let mut d = Diagnostic::error(
            "missing-field",
            format!("{} without `metadata.name` is ignored", obj.kind),
        )
        .at("metadata.name");
        d.location = Some(obj.node.location(obj.file));
        r.diags.push(d);
        return None;
    };
    let id = match &namespace {
        Some(ns) => format!("{}/{ns}/{name}", obj.kind),
        None => format!("{}/{name}", obj.kind),
    };
    Some(Meta {
        name,
        namespace,
        generation,
        id,
    })
}

/// Where a node was written, without its file (objects keep theirs once): thousands of conditions
/// need no copy of the file name each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

impl Pos {
    pub fn of(n: &Node) -> Pos {
        Pos {
            line: n.line,
            column: n.column,
        }
    }

    pub fn in_file(self, file: &str) -> Location {
        Location {
            file: file.to_string(),
            line: self.line,
            column: self.column,
        }
    }
}

/// A condition's `type`, `status` or `reason`: the controllers' constants shared as static text,
/// anything else owned. A 10,000-cluster run has some 17,500 conditions, and a copy of each of the
/// three was 50,000 small allocations per read (about 30 ns each in wasm, 10 natively).
pub type Word = Cow<'static, str>;

/// The reasons KubeFleet's controllers write (pkg/utils/condition/reason.go): shared as [`Word`]s,
/// and the static text the staged status's events keep.
pub const REASONS: &[&str] = &[
    "UpdateRunInitializedSuccessfully",
    "UpdateRunInitializedFailed",
    "UpdateRunProgressing",
    "UpdateRunFailed",
    "UpdateRunStuck",
    "UpdateRunWaiting",
    "UpdateRunStopping",
    "UpdateRunStopped",
    "UpdateRunSucceeded",
    "StageUpdatingStarted",
    "StageUpdatingWaiting",
    "StageUpdatingStopping",
    "StageUpdatingStopped",
    "StageUpdatingFailed",
    "StageUpdatingSucceeded",
    "StageUpdatingSkippedNoClusters",
    "ClusterUpdatingStarted",
    "ClusterUpdatingFailed",
    "ClusterUpdatingSucceeded",
    "StageTaskApprovalRequestApproved",
    "StageTaskApprovalRequestCreated",
    "AfterStageTaskWaitTimeElapsed",
];

/// `text` as a [`Word`], borrowing the static copy of a value KubeFleet's controllers write.
pub fn word(text: &str) -> Word {
    // One `match`: lengths are compared first, the bytes only of values of the same length.
    macro_rules! known {
        ($($value:literal),* $(,)?) => {
            match text {
                $($value => Cow::Borrowed($value),)*
                _ => REASONS
                    .iter()
                    .find(|r| **r == text)
                    .map_or_else(|| Cow::Owned(text.to_string()), |r| Cow::Borrowed(*r)),
            }
        };
    }
    known!(
        "True",
        "False",
        "Unknown",
        // Condition types of runs, stages, clusters and approval requests.
        "Initialized",
        "Progressing",
        "Succeeded",
        "Started",
        "Approved",
        "ApprovalAccepted",
        "WaitTimeElapsed",
        "ApprovalRequestApproved",
        "ApprovalRequestCreated",
    )
}

/// One `metav1.Condition` as the status shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub kind: Word,
    pub status: Word,
    pub reason: Word,
    pub message: String,
    /// `lastTransitionTime`: when `status` last changed.
    pub since: Option<Time>,
    pub observed_generation: Option<i64>,
    pub at: Pos,
}

impl Condition {
    pub fn is_true(&self) -> bool {
        self.status == "True"
    }
    pub fn is_false(&self) -> bool {
        self.status == "False"
    }
}

/// `conditions` of a status part; `path` makes the field's path, only called for a diagnostic.
pub fn conditions(r: &mut Reader, n: Option<&Node>, path: impl Fn() -> Path) -> Vec<Condition> {
    let items = match n {
        Some(Node {
            value: Value::Seq(items),
            ..
        }) => items,
        Some(node) => {
            // Null reads as absent; anything else is reported as not a list.
            let _ = r.seq(node, &path());
            return Vec::new();
        }
        None => return Vec::new(),
    };
    let p = &path;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if !matches!(item.value, Value::Map(_)) {
            r.map(item, &p().index(i), &[]);
            continue;
        }
        // Paths are built only for a diagnostic: a large run has tens of thousands of conditions.
        let text = |r: &mut Reader, key: &str| match item.get(key) {
            Some(v) if v.is_null() => Cow::Borrowed(""),
            Some(Node {
                value: Value::Scalar(s),
                ..
            }) => Cow::Borrowed(&*s.text),
            Some(v) => Cow::Owned(r.string(v, &p().index(i).field(key)).unwrap_or_default()),
            None => Cow::Borrowed(""),
        };
        let kind = word(&text(r, "type"));
        if kind.is_empty() {
            r.missing("type", &p().index(i), item);
            continue;
        }
        let status = word(&text(r, "status"));
        let reason = word(&text(r, "reason"));
        let message = text(r, "message").into_owned();
        let since = item
            .get("lastTransitionTime")
            .and_then(|v| match v.scalar() {
                Some(s) if !v.is_null() => match Time::parse(&s.text) {
                    Ok(t) => Some(t),
                    Err(_) => r.time(v, &p().index(i).field("lastTransitionTime")),
                },
                _ => r.time(v, &p().index(i).field("lastTransitionTime")),
            });
        let observed_generation = item
            .get("observedGeneration")
            .and_then(|v| match v.resolve() {
                Some(crate::source::Resolved::Int(g)) => Some(g),
                _ => r.int(v, &p().index(i).field("observedGeneration")),
            });
        out.push(Condition {
            kind,
            status,
            reason,
            message,
            since,
            observed_generation,
            at: Pos::of(item),
        });
    }
    out
}

pub fn find<'c>(conditions: &'c [Condition], kind: &str) -> Option<&'c Condition> {
    conditions.iter().find(|c| c.kind == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The controllers' values are shared, anything else is kept as written (a newer controller's
    /// reason, another case).
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn condition_words_keep_their_text() {
        for text in [
            "True",
            "Started",
            "ClusterUpdatingSucceeded",
            "StageUpdatingWaiting",
        ] {
            assert!(matches!(word(text), Cow::Borrowed(w) if w == text));
        }
        for text in ["true", "SomeNewReason", ""] {
            assert!(matches!(word(text), Cow::Owned(w) if w == text));
        }
    }
}
