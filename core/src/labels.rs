//! Label syntax as each real system checks it. Kubernetes (MemberCluster `metadata.labels`, label
//! selectors): apimachinery's `IsQualifiedName` for keys and `IsValidLabelValue` for values, with
//! their exact messages. Google Cloud's rules for GKE are in [`gcp`].
//!
//! The texts are those of k8s.io/apimachinery v0.34 (`pkg/util/validation/validation.go`), the version
//! KubeFleet's controllers are built with and that Kubernetes 1.34 API servers print. Kubernetes 1.35
//! moved them to `pkg/api/validate/content` and reworded two ("a valid label key", "bytes").

use std::fmt::Write as _;

pub mod gcp;

use crate::diag::Diagnostic;
use crate::model::Scenario;
pub use crate::quote::go_quote;

/// The longest name part of a key, and the longest value.
pub const MAX_NAME: usize = 63;
/// The longest key prefix (a DNS subdomain).
pub const MAX_PREFIX: usize = 253;

const NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/// apimachinery's `RegexError`: the message, the examples (each followed by ", ", joined by " or ",
/// hence the double spaces), and the regular expression.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        let _ = write!(s, "'{e}', ");
    }
    let _ = write!(s, "regex used for validation is '{fmt}')");
    s
}

fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, any length.
fn is_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `IsDNS1123Subdomain`: the length error, then the pattern error.
pub fn subdomain_errors(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > MAX_PREFIX {
        errs.push(max_len_error(MAX_PREFIX));
    }
    let ok = s.split('.').all(|part| {
        let b = part.as_bytes();
        !b.is_empty()
            && b[0].is_ascii_alphanumeric()
            && b[b.len() - 1].is_ascii_alphanumeric()
            && b.iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
    });
    if !ok {
        errs.push(regex_error(SUBDOMAIN_MSG, SUBDOMAIN_FMT, &["example.com"]));
    }
    errs
}

/// `IsQualifiedName`: the messages for a label key, in apimachinery's order (prefix, then name part).
pub fn key_errors(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    // No list of the parts: this runs for every label of every cluster, nearly always on a valid key.
    let split = match key.split_once('/') {
        None => Some((None, key)),
        Some((prefix, name)) if !name.as_bytes().contains(&b'/') => Some((Some(prefix), name)),
        Some(_) => None,
    };
    let name = match split {
        Some((None, name)) => name,
        Some((Some(prefix), name)) => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    subdomain_errors(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            name
        }
        None => {
            return vec![format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(NAME_MSG, NAME_FMT, &["MyName", "my.name", "123-abc"])
            )]
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > MAX_NAME {
        errs.push(format!("name part {}", max_len_error(MAX_NAME)));
    }
    if !is_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(NAME_MSG, NAME_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// `IsValidLabelValue`: the length error, then the pattern error.
pub fn value_errors(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > MAX_NAME {
        errs.push(max_len_error(MAX_NAME));
    }
    if !value.is_empty() && !is_name(value) {
        errs.push(regex_error(
            VALUE_MSG,
            VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `metav1validation.ValidateLabels` for one label as the API server reports it under
/// `metadata.labels`: each key error, then each value error, with its bad value.
pub fn label_errors(key: &str, value: &str) -> Vec<String> {
    let mut out = Vec::new();
    for m in key_errors(key) {
        out.push(format!(
            "metadata.labels: Invalid value: {}: {m}",
            go_quote(key)
        ));
    }
    for m in value_errors(value) {
        out.push(format!(
            "metadata.labels: Invalid value: {}: {m}",
            go_quote(value)
        ));
    }
    out
}

/// The API server's refusal of a MemberCluster whose labels break the syntax, for the KubeFleet kinds:
/// one error per problem, at the label's path, in kubectl's words. Generated clusters are checked once
/// per generator (every cluster it makes carries the same keys and values).
pub fn check_member_clusters(scenario: &Scenario, diags: &mut Vec<Diagnostic>) {
    let refuse = |name: &str, path: String, cause: String, diags: &mut Vec<Diagnostic>| {
        diags.push(
            Diagnostic::error(
                "member-cluster-label",
                format!("The MemberCluster {} is invalid: {cause}", go_quote(name)),
            )
            .at(path),
        );
    };
    for (i, c) in scenario.clusters.iter().enumerate() {
        for (k, v) in &c.labels {
            for cause in label_errors(k, v) {
                refuse(&c.name, format!("clusters[{i}].labels.{k}"), cause, diags);
            }
        }
    }
    for (g, gen) in scenario.generate.iter().enumerate() {
        if gen.count == 0 {
            continue;
        }
        let name = |k: u32| crate::fleet::generate_one(gen, k).name;
        for (key, spread) in &gen.labels {
            let path = format!("generate[{g}].labels.{key}");
            for cause in key_errors(key) {
                let cause = format!("metadata.labels: Invalid value: {}: {cause}", go_quote(key));
                refuse(&name(0), path.clone(), cause, diags);
            }
            for (j, v) in spread.values.iter().enumerate() {
                let errs = value_errors(v);
                // The first generated cluster that carries this value (none: the value is unused).
                let Some(k) = first_with_value(gen.count, spread, j).filter(|_| !errs.is_empty())
                else {
                    continue;
                };
                for cause in errs {
                    let cause = format!("metadata.labels: Invalid value: {}: {cause}", go_quote(v));
                    refuse(&name(k), path.clone(), cause, diags);
                }
            }
        }
    }
}

/// The index of the first cluster of a generator of `count` that gets value `j` of `spread`
/// (mirrors `fleet::generate_one`'s spreading).
fn first_with_value(count: u32, spread: &crate::model::LabelSpread, j: usize) -> Option<u32> {
    let (n, j, count) = (spread.values.len() as u64, j as u64, u64::from(count));
    let k = match spread.mode {
        crate::model::SpreadMode::Index => return None,
        crate::model::SpreadMode::Cycle => j,
        // Block `j` starts at the first k with k·n / count >= j; with more values than clusters,
        // that k may already be in a later block, and value `j` is then never used.
        crate::model::SpreadMode::Blocks => {
            let k = (j * count).div_ceil(n.max(1));
            if (k * n / count.max(1)).min(n.saturating_sub(1)) != j {
                return None;
            }
            k
        }
    };
    (k < count).then_some(k as u32)
}

#[cfg(test)]
mod tests;
