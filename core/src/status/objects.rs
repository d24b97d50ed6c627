//! What every status reader shares: Kubernetes objects out of documents and `List`s, their identity,
//! and `metav1.Condition`s with their times.

use crate::decode::{Path, Reader};
use crate::diag::{Diagnostic, Location};
use crate::source::{Node, Value};
use crate::time::Time;

/// A document's object, with the file it came from.
pub struct Object<'n> {
    pub kind: String,
    pub node: &'n Node,
    pub file: &'n str,
}

/// Expands `kind: List` (and `*List`) documents into their items; objects without `kind` are
/// reported and skipped.
pub fn flatten<'n>(docs: &[(&'n Node, &'n str)], diags: &mut Vec<Diagnostic>) -> Vec<Object<'n>> {
    let mut out = Vec::new();
    // Depth is bounded by the parser's nesting limit, so this stack stays small.
    let mut stack: Vec<(&Node, &str)> = docs.iter().rev().copied().collect();
    while let Some((node, file)) = stack.pop() {
        let kind = node
            .get("kind")
            .and_then(|k| k.scalar())
            .map(|s| s.text.clone())
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

/// One `metav1.Condition` as the status shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub kind: String,
    pub status: String,
    pub reason: String,
    pub message: String,
    /// `lastTransitionTime`: when `status` last changed.
    pub since: Option<Time>,
    pub observed_generation: Option<i64>,
    pub at: Location,
}

impl Condition {
    pub fn is_true(&self) -> bool {
        self.status == "True"
    }
    pub fn is_false(&self) -> bool {
        self.status == "False"
    }
}

pub fn conditions(r: &mut Reader, n: Option<&Node>, p: &Path) -> Vec<Condition> {
    let Some(items) = n.and_then(|n| r.seq(n, p)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let ip = p.index(i);
        if r.map(item, &ip, &[]).is_none() {
            continue;
        }
        let text = |r: &mut Reader, key: &str| {
            item.get(key)
                .and_then(|v| r.string(v, &ip.field(key)))
                .unwrap_or_default()
        };
        let kind = text(r, "type");
        if kind.is_empty() {
            r.missing("type", &ip, item);
            continue;
        }
        let status = text(r, "status");
        let reason = text(r, "reason");
        let message = text(r, "message");
        let since = item
            .get("lastTransitionTime")
            .and_then(|v| r.time(v, &ip.field("lastTransitionTime")));
        let observed_generation = item
            .get("observedGeneration")
            .and_then(|v| r.int(v, &ip.field("observedGeneration")));
        out.push(Condition {
            kind,
            status,
            reason,
            message,
            since,
            observed_generation,
            at: r.loc(item),
        });
    }
    out
}

pub fn find<'c>(conditions: &'c [Condition], kind: &str) -> Option<&'c Condition> {
    conditions.iter().find(|c| c.kind == kind)
}
