//! `kubectl describe` output of a custom resource, read back into the positioned document tree, so
//! what people paste from their terminal is read by the same readers as `-o yaml`.
//!
//! kubectl's generic describer (`printUnstructuredContent`) prints every field as `Label:  value`,
//! two spaces of indentation per level, fields of a map sorted by their JSON name, the JSON name
//! turned into words (`smartLabelFor`: `stagesStatus` → `Stages Status`, `apiVersion` → `API
//! Version`; names with other characters than letters and `-` are kept), items of a list of maps
//! printed one after the other with no marker, and scalar list items one per line. The header
//! (`Name:`, `Namespace:`, `Labels:`, `Annotations:`) comes first and `Events:` last.
//!
//! Reading it back: a label becomes its JSON name again (first word lower-cased, the rest joined);
//! since fields are sorted, a name that does not sort after the previous one starts the next item of
//! a list; fields that are lists in the APIs read here are lists even with one item (describe cannot
//! show the difference). Positions are the text's own lines and columns.

use crate::diag::{Diagnostic, Location};
use crate::source::{Entry, Node, Scalar, Style, Value};

/// Fields that are lists in the objects read from describe output (KubeFleet runs, approval
/// requests, placements, members).
const LISTS: &[&str] = &[
    "conditions",
    "clusters",
    "stagesStatus",
    "stages",
    "afterStageTasks",
    "beforeStageTasks",
    "afterStageTaskStatus",
    "beforeStageTaskStatus",
    "matchExpressions",
    "values",
    "placementStatuses",
    "finalizers",
    "resourceSelectors",
    "clusterNames",
    "failedPlacements",
    "selectedResources",
];

const ACRONYMS: &[&str] = &["API", "URL", "UID", "OSB", "GUID"];

/// Does this text look like `kubectl describe` output (rather than YAML or JSON)?
pub fn looks_like_describe(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("");
    first.starts_with("Name:")
        && text
            .lines()
            .any(|l| l.starts_with("Kind:") || l.starts_with("API Version:"))
}

struct Line<'t> {
    number: usize,
    indent: usize,
    text: &'t str,
}

/// Every object described in `text` (kubectl describes several one after the other).
pub fn parse(text: &str, file: &str) -> (Vec<Node<'static>>, Vec<Diagnostic>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut docs = Vec::new();
    let mut diags = Vec::new();
    let mut current: Vec<Line> = Vec::new();
    let mut in_events = false;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_end();
        if trimmed.trim().is_empty() {
            continue;
        }
        let indent = trimmed.len() - trimmed.trim_start().len();
        if indent == 0 && trimmed.starts_with("Name:") {
            if !current.is_empty() {
                docs.push(object(&std::mem::take(&mut current), file, &mut diags));
            }
            in_events = false;
        }
        if indent == 0 && trimmed.starts_with("Events:") {
            in_events = true;
        }
        if in_events {
            continue;
        }
        if raw.contains('\t') {
            // tabwriter has already turned tabs into spaces; a tab means something else wrote this.
            let mut d = Diagnostic::warning(
                "describe-tab",
                "a tab in `kubectl describe` output: read as one space",
            );
            d.location = Some(Location {
                file: file.into(),
                line: i + 1,
                column: raw.find('\t').map_or(1, |c| c + 1),
            });
            diags.push(d);
        }
        current.push(Line {
            number: i + 1,
            indent,
            text: trimmed.trim_start(),
        });
    }
    if !current.is_empty() {
        docs.push(object(&current, file, &mut diags));
    }
    (docs, diags)
}

/// One described object: the header folded into `metadata`, the rest read as nested fields.
fn object(lines: &[Line], file: &str, diags: &mut Vec<Diagnostic>) -> Node<'static> {
    let mut header: Vec<Entry> = Vec::new();
    let mut body_start = 0;
    let mut i = 0;
    while i < lines.len() {
        let l = &lines[i];
        let Some((label, value, vcol)) = split(l.text) else {
            break;
        };
        if l.indent != 0 || !matches!(label, "Name" | "Namespace" | "Labels" | "Annotations") {
            break;
        }
        let key = json_name(label);
        let node = if matches!(label, "Labels" | "Annotations") {
            // `k=v` on this line, more on the following more-indented lines; `<none>` for none.
            let mut entries = Vec::new();
            let mut pairs = vec![(l, value, vcol)];
            while i + 1 < lines.len()
                && lines[i + 1].indent > 0
                && split(lines[i + 1].text).is_none()
            {
                i += 1;
                pairs.push((&lines[i], lines[i].text, lines[i].indent + 1));
            }
            for (pl, pair, col) in pairs {
                if pair.is_empty() || pair == "<none>" {
                    continue;
                }
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                entries.push(Entry {
                    key: k.to_string().into(),
                    key_line: pl.number,
                    key_column: col,
                    value: scalar(v, pl.number, col + k.len() + 1),
                });
            }
            Node {
                value: Value::Map(entries),
                line: l.number,
                column: vcol,
            }
        } else {
            scalar(value, l.number, vcol)
        };
        header.push(Entry {
            key: key.into(),
            key_line: l.number,
            key_column: 1,
            value: node,
        });
        i += 1;
        body_start = i;
    }
    let (mut body, _) = block(&lines[body_start..], 0, "", file, diags, 0);
    let root_line = lines.first().map_or(1, |l| l.number);
    if let Value::Map(entries) = &mut body.value {
        if !header.is_empty() {
            match entries.iter_mut().find(|e| e.key == "metadata") {
                Some(meta) => {
                    if let Value::Map(m) = &mut meta.value.value {
                        for h in header {
                            if !m.iter().any(|e| e.key == h.key) {
                                m.push(h);
                            }
                        }
                    }
                }
                None => entries.push(Entry {
                    key: "metadata".into(),
                    key_line: root_line,
                    key_column: 1,
                    value: Node {
                        value: Value::Map(header),
                        line: root_line,
                        column: 1,
                    },
                }),
            }
        }
    }
    body.line = root_line;
    body.column = 1;
    body
}

/// The lines at indentation `indent` (and their children) read as one value: a map, a list of maps
/// (when field names restart), or a list of scalars. Returns the node and the lines consumed.
fn block(
    lines: &[Line],
    indent: usize,
    parent: &str,
    file: &str,
    diags: &mut Vec<Diagnostic>,
    depth: usize,
) -> (Node<'static>, usize) {
    let (line, column) = lines
        .first()
        .map_or((1, indent + 1), |l| (l.number, l.indent + 1));
    // The same bound as the YAML reader's: every walk over the tree stays small.
    if depth >= crate::source::MAX_DEPTH {
        let mut d = Diagnostic::error(
            "describe-too-deep",
            format!("nesting deeper than {} levels", crate::source::MAX_DEPTH),
        );
        d.location = Some(Location {
            file: file.into(),
            line,
            column,
        });
        diags.push(d);
        return (scalar("", line, column), lines.len());
    }
    let mut items: Vec<Node> = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    let mut item_start = (line, column);
    let mut scalars: Vec<Node> = Vec::new();
    let mut i = 0;
    while i < lines.len() && lines[i].indent >= indent {
        let l = &lines[i];
        if l.indent > indent {
            // Deeper than expected without a parent field: a continuation of the previous value.
            let mut d = Diagnostic::warning(
                "describe-layout",
                "this line is indented more than a field of its level and belongs to no field: it is ignored",
            );
            d.location = Some(Location {
                file: file.into(),
                line: l.number,
                column: l.indent + 1,
            });
            diags.push(d);
            i += 1;
            continue;
        }
        let Some((label, value, vcol)) = split(l.text) else {
            scalars.push(scalar(l.text, l.number, l.indent + 1));
            i += 1;
            continue;
        };
        let key = json_name(label);
        if entries.last().is_some_and(|e| key.as_str() <= &*e.key) {
            items.push(Node {
                value: Value::Map(std::mem::take(&mut entries)),
                line: item_start.0,
                column: item_start.1,
            });
            item_start = (l.number, l.indent + 1);
        }
        i += 1;
        let child_end = i + lines[i..]
            .iter()
            .position(|c| c.indent <= indent)
            .unwrap_or(lines.len() - i);
        let vcol = l.indent + vcol;
        let node = if !value.is_empty() {
            scalar(value, l.number, vcol)
        } else if child_end > i {
            let (child, _) = block(
                &lines[i..child_end],
                lines[i].indent,
                &key,
                file,
                diags,
                depth + 1,
            );
            child
        } else {
            scalar("", l.number, vcol)
        };
        i = child_end;
        entries.push(Entry {
            key: key.into(),
            key_line: l.number,
            key_column: l.indent + 1,
            value: node,
        });
    }
    let node = if !items.is_empty() || LISTS.contains(&parent) {
        if !entries.is_empty() {
            items.push(Node {
                value: Value::Map(entries),
                line: item_start.0,
                column: item_start.1,
            });
        }
        items.extend(scalars);
        Value::Seq(items)
    } else if entries.is_empty() {
        Value::Seq(scalars)
    } else {
        Value::Map(entries)
    };
    (
        Node {
            value: node,
            line,
            column,
        },
        i,
    )
}

/// `Label:  value` → (label, value, column of the value); `None` for a line without a label.
fn split(text: &str) -> Option<(&str, &str, usize)> {
    let colon = text.find(':')?;
    let (label, rest) = (&text[..colon], &text[colon + 1..]);
    if label.is_empty() || !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    let value = rest.trim_start();
    Some((label, value, colon + 1 + (rest.len() - value.len()) + 1))
}

/// The JSON name behind a describe label (the inverse of kubectl's `smartLabelFor`).
pub fn json_name(label: &str) -> String {
    if !label.contains(' ') && label.chars().any(|c| !c.is_ascii_alphabetic() && c != '-') {
        return label.to_string();
    }
    let mut out = String::with_capacity(label.len());
    for (i, word) in label.split(' ').filter(|w| !w.is_empty()).enumerate() {
        if i == 0 {
            if ACRONYMS.contains(&word) {
                out.push_str(&word.to_ascii_lowercase());
            } else {
                let mut chars = word.chars();
                if let Some(c) = chars.next() {
                    out.push(c.to_ascii_lowercase());
                    out.push_str(chars.as_str());
                }
            }
        } else {
            out.push_str(word);
        }
    }
    out
}

fn scalar(text: &str, line: usize, column: usize) -> Node<'static> {
    let value = if text == "<none>" { "" } else { text };
    Node {
        value: Value::Scalar(Scalar {
            text: value.to_string().into(),
            // Plain, so `1` reads as a number and `True` as the condition's text, as in YAML.
            style: Style::Plain,
            quote: None,
        }),
        line,
        column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn labels_map_back_to_json_names() {
        for (label, name) in [
            ("Stages Status", "stagesStatus"),
            ("API Version", "apiVersion"),
            ("UID", "uid"),
            ("Last Transition Time", "lastTransitionTime"),
            (
                "Staged Update Strategy Snapshot",
                "stagedUpdateStrategySnapshot",
            ),
            (
                "kubernetes-fleet.io/deleteStage",
                "kubernetes-fleet.io/deleteStage",
            ),
            ("Environment", "environment"),
        ] {
            assert_eq!(json_name(label), name);
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn lists_of_maps_split_where_sorted_names_restart() {
        let text = "Name:         r\nNamespace:\nLabels:       a=1\n              b=2\nAnnotations:  <none>\nAPI Version:  placement.kubernetes-fleet.io/v1beta1\nKind:         ClusterStagedUpdateRun\nStatus:\n  Conditions:\n    Last Transition Time:  2026-11-23T09:00:00Z\n    Reason:                A\n    Type:                  Initialized\n    Last Transition Time:  2026-11-23T09:01:00Z\n    Reason:                B\n    Type:                  Progressing\n  Stages Status:\n    Clusters:\n      Cluster Name:  m1\n    Stage Name:      staging\nEvents:  <none>\n";
        assert!(looks_like_describe(text));
        let (docs, diags) = parse(text, "d.txt");
        assert!(diags.is_empty(), "{diags:?}");
        let doc = &docs[0];
        assert_eq!(
            doc.get("kind").unwrap().scalar().unwrap().text,
            "ClusterStagedUpdateRun"
        );
        let meta = doc.get("metadata").unwrap();
        assert_eq!(meta.get("name").unwrap().scalar().unwrap().text, "r");
        assert_eq!(
            meta.get("labels")
                .unwrap()
                .get("b")
                .unwrap()
                .scalar()
                .unwrap()
                .text,
            "2"
        );
        let conds = match &doc.get("status").unwrap().get("conditions").unwrap().value {
            Value::Seq(items) => items,
            other => panic!("{other:?}"),
        };
        assert_eq!(conds.len(), 2);
        assert_eq!(conds[1].get("reason").unwrap().scalar().unwrap().text, "B");
        assert_eq!(conds[1].line, 13);
        // One stage: still a list, because stagesStatus is one.
        let stages = doc.get("status").unwrap().get("stagesStatus").unwrap();
        assert!(matches!(stages.value, Value::Seq(ref s) if s.len() == 1));
        let reason = conds[0].get("reason").unwrap();
        assert_eq!((reason.line, reason.column), (11, 28));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn deep_indentation_is_refused_not_overflowed() {
        let mut text = String::from("Name: x\nKind: K\n");
        for i in 0..300 {
            text.push_str(&" ".repeat(i));
            text.push_str("A:\n");
        }
        let (_, diags) = parse(&text, "deep.txt");
        assert!(diags.iter().any(|d| d.code == "describe-too-deep"));
    }
}
