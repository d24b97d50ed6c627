//! Kubernetes label selectors: validation with apimachinery's error texts, and matching.

use std::collections::BTreeMap;

use crate::model::LabelSelector;

/// What a selector selects, after `nil` vs `{}` is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selects {
    Nothing,
    Everything,
    Some,
}

pub fn selects(selector: Option<&LabelSelector>) -> Selects {
    match selector {
        None => Selects::Nothing,
        Some(s) if s.match_labels.is_empty() && s.match_expressions.is_empty() => Selects::Everything,
        Some(_) => Selects::Some,
    }
}

/// True when `labels` satisfy the selector. An absent selector matches nothing, an empty one everything
/// (`metav1.LabelSelectorAsSelector`). Unknown operators match nothing; [`validate`] reports them.
pub fn matches(selector: Option<&LabelSelector>, labels: &BTreeMap<String, String>) -> bool {
    let Some(s) = selector else { return false };
    s.match_labels.iter().all(|(k, v)| labels.get(k) == Some(v))
        && s.match_expressions.iter().all(|e| {
            let value = labels.get(&e.key);
            match e.operator.as_str() {
                "In" => value.is_some_and(|v| e.values.contains(v)),
                "NotIn" => value.is_none_or(|v| !e.values.contains(v)),
                "Exists" => value.is_some(),
                "DoesNotExist" => value.is_none(),
                _ => false,
            }
        })
}

const QUALIFIED_NAME_MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

fn is_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

fn is_dns_subdomain(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|part| {
            let b = part.as_bytes();
            !b.is_empty()
                && b[0].is_ascii_alphanumeric()
                && b[b.len() - 1].is_ascii_alphanumeric()
                && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        })
}

/// apimachinery's label-key check (`validation.IsQualifiedName`), returning its messages.
fn key_errors(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let (prefix, name) = match key.split_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 characters".to_string());
    } else if !is_name_part(name) {
        errs.push(QUALIFIED_NAME_MSG.to_string());
    }
    if let Some(p) = prefix {
        if p.is_empty() {
            errs.push("prefix part must be non-empty".to_string());
        } else if !is_dns_subdomain(p) {
            errs.push("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_string());
        }
    }
    if key.matches('/').count() > 1 {
        errs = vec!["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')".to_string()];
    }
    errs
}

fn value_ok(v: &str) -> bool {
    v.is_empty() || is_name_part(v)
}

fn go_strings(values: &[String]) -> String {
    if values.is_empty() {
        return "[]string(nil)".into();
    }
    let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
    format!("[]string{{{}}}", quoted.join(", "))
}

/// `metav1.LabelSelectorAsSelector`'s error for an invalid selector, or `Ok`.
/// Like the real function it stops at the first bad requirement (matchLabels first, in key order here,
/// where Go's map order is random).
pub fn validate(selector: &LabelSelector) -> Result<(), String> {
    for (k, v) in &selector.match_labels {
        requirement_errors(k, "=", std::slice::from_ref(v))?;
    }
    for e in &selector.match_expressions {
        let op = match e.operator.as_str() {
            "In" => "in",
            "NotIn" => "notin",
            "Exists" => "exists",
            "DoesNotExist" => "!",
            other => return Err(format!("{other:?} is not a valid label selector operator")),
        };
        requirement_errors(&e.key, op, &e.values)?;
    }
    Ok(())
}

fn requirement_errors(key: &str, op: &str, values: &[String]) -> Result<(), String> {
    let mut errs: Vec<String> = Vec::new();
    let key_errs = key_errors(key);
    if !key_errs.is_empty() {
        errs.push(format!("key: Invalid value: {key:?}: {}", key_errs.join("; ")));
    }
    match op {
        "in" | "notin" if values.is_empty() => errs.push(format!(
            "values: Invalid value: {}: for 'in', 'notin' operators, values set can't be empty",
            go_strings(values)
        )),
        "=" if values.len() != 1 => {
            errs.push(format!("values: Invalid value: {}: exact-match compatibility requires one single value", go_strings(values)))
        }
        "exists" | "!" if !values.is_empty() => {
            errs.push("values: Forbidden: values set must be empty for exists and does not exist".into())
        }
        _ => {}
    }
    for (i, v) in values.iter().enumerate() {
        if !value_ok(v) {
            errs.push(format!("values[{i}]: Invalid value: {v:?}: {LABEL_VALUE_MSG}"));
        }
    }
    match errs.len() {
        0 => Ok(()),
        1 => Err(errs.remove(0)),
        _ => Err(format!("[{}]", errs.join(", "))),
    }
}

/// Short human form in kubectl syntax: `env=prod,region in (eu,us),!canary`; `<none>` / `<all>`.
pub fn describe(selector: Option<&LabelSelector>) -> String {
    let Some(s) = selector else { return "<none>".into() };
    let mut parts: Vec<String> = s.match_labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    for e in &s.match_expressions {
        parts.push(match e.operator.as_str() {
            "In" => format!("{} in ({})", e.key, e.values.join(",")),
            "NotIn" => format!("{} notin ({})", e.key, e.values.join(",")),
            "Exists" => e.key.clone(),
            "DoesNotExist" => format!("!{}", e.key),
            other => format!("{} {other} ({})", e.key, e.values.join(",")),
        });
    }
    if parts.is_empty() {
        "<all>".into()
    } else {
        parts.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LabelSelectorRequirement;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn expr(key: &str, op: &str, values: &[&str]) -> LabelSelectorRequirement {
        LabelSelectorRequirement { key: key.into(), operator: op.into(), values: values.iter().map(|v| v.to_string()).collect() }
    }

    #[test]
    fn nil_selects_nothing_and_empty_selects_everything() {
        let l = labels(&[("env", "prod")]);
        assert!(!matches(None, &l));
        assert!(matches(Some(&LabelSelector::default()), &l));
    }

    #[test]
    fn expressions_follow_kubernetes_semantics() {
        let s = LabelSelector {
            match_labels: labels(&[("env", "prod")]),
            match_expressions: vec![expr("region", "In", &["eu", "us"]), expr("canary", "DoesNotExist", &[])],
        };
        assert!(matches(Some(&s), &labels(&[("env", "prod"), ("region", "eu")])));
        assert!(!matches(Some(&s), &labels(&[("env", "prod"), ("region", "ap")])));
        assert!(!matches(Some(&s), &labels(&[("env", "prod"), ("region", "eu"), ("canary", "1")])));
        let notin = LabelSelector { match_expressions: vec![expr("region", "NotIn", &["eu"])], ..Default::default() };
        assert!(matches(Some(&notin), &labels(&[])), "NotIn matches clusters without the key");
    }

    #[test]
    fn invalid_selectors_get_apimachinery_messages() {
        let bad_op = LabelSelector { match_expressions: vec![expr("a", "Equals", &["x"])], ..Default::default() };
        assert_eq!(validate(&bad_op).unwrap_err(), "\"Equals\" is not a valid label selector operator");
        let empty_in = LabelSelector { match_expressions: vec![expr("a", "In", &[])], ..Default::default() };
        assert_eq!(
            validate(&empty_in).unwrap_err(),
            "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"
        );
        let exists_values = LabelSelector { match_expressions: vec![expr("a", "Exists", &["x"])], ..Default::default() };
        assert_eq!(validate(&exists_values).unwrap_err(), "values: Forbidden: values set must be empty for exists and does not exist");
        assert!(validate(&LabelSelector { match_labels: labels(&[("bad key", "v")]), ..Default::default() })
            .unwrap_err()
            .starts_with("key: Invalid value: \"bad key\": name part must consist"));
    }
}
