//! Kubernetes label selectors: validation with apimachinery's error texts, and matching.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::label_map::LabelMap;
use crate::labels;
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
        Some(s) if s.match_labels.is_empty() && s.match_expressions.is_empty() => {
            Selects::Everything
        }
        Some(_) => Selects::Some,
    }
}

/// True when `labels` satisfy the selector. An absent selector matches nothing, an empty one everything
/// (`metav1.LabelSelectorAsSelector`). Unknown operators match nothing; [`validate`] reports them.
pub fn matches(selector: Option<&LabelSelector>, labels: &LabelMap) -> bool {
    Compiled::new(selector).matches(labels)
}

/// A selector prepared for matching many clusters: `In`/`NotIn` values in hash sets, so a list of
/// 30,000 values against a million clusters is a lookup per cluster rather than a scan (over a minute).
#[derive(Clone, Debug)]
pub struct Compiled<'s> {
    selector: Option<&'s LabelSelector>,
    /// `matchLabels`' entries, read out of the map once rather than for every cluster matched.
    labels: Vec<(&'s str, &'s str)>,
    /// Per match expression: its values as a set.
    sets: Vec<HashSet<&'s str>>,
}

impl<'s> Compiled<'s> {
    pub fn new(selector: Option<&'s LabelSelector>) -> Compiled<'s> {
        let sets = selector.map_or_else(Vec::new, |s| {
            s.match_expressions
                .iter()
                .map(|e| e.values.iter().map(String::as_str).collect())
                .collect()
        });
        let labels = selector.map_or_else(Vec::new, |s| s.match_labels.iter().collect());
        Compiled {
            selector,
            labels,
            sets,
        }
    }

    /// The same answer as [`matches`].
    pub fn matches(&self, labels: &LabelMap) -> bool {
        let Some(s) = self.selector else {
            return false;
        };
        self.labels.iter().all(|(k, v)| labels.has(k, v))
            && s.match_expressions
                .iter()
                .zip(&self.sets)
                .all(|(e, values)| {
                    let value = labels.get(&e.key);
                    match e.operator.as_str() {
                        "In" => value.is_some_and(|v| values.contains(v)),
                        "NotIn" => value.is_none_or(|v| !values.contains(v)),
                        "Exists" => value.is_some(),
                        "DoesNotExist" => value.is_none(),
                        _ => false,
                    }
                })
    }
}

/// How the API server prints a `[]string` bad value (`field.Error.ErrorBody` marshals it as JSON):
/// `null` for a nil slice, `["a","b"]` otherwise.
fn json_strings(values: &[String]) -> String {
    if values.is_empty() {
        return "null".into();
    }
    let quoted: Vec<String> = values.iter().map(|v| labels::go_quote(v)).collect();
    format!("[{}]", quoted.join(","))
}

/// `metav1.LabelSelectorAsSelector`'s error for an invalid selector, or `Ok`.
/// Like the real function it stops at the first bad requirement (matchLabels first, in key order here,
/// where Go's map order is random).
pub fn validate(selector: &LabelSelector) -> Result<(), String> {
    for (k, v) in &selector.match_labels {
        requirement_errors(k, "=", &[v.to_string()])?;
    }
    for e in &selector.match_expressions {
        let op = match e.operator.as_str() {
            "In" => "in",
            "NotIn" => "notin",
            "Exists" => "exists",
            "DoesNotExist" => "!",
            other => {
                return Err(format!(
                    "{} is not a valid label selector operator",
                    labels::go_quote(other)
                ))
            }
        };
        requirement_errors(&e.key, op, &e.values)?;
    }
    Ok(())
}

/// `labels.NewRequirement`'s errors (apimachinery v0.34 `pkg/labels/selector.go`): the key, the
/// value count for the operator, then each value (at `values[i][key]`), aggregated as Go does.
fn requirement_errors(key: &str, op: &str, values: &[String]) -> Result<(), String> {
    let mut errs: Vec<String> = Vec::new();
    let key_errs = labels::key_errors(key);
    if !key_errs.is_empty() {
        errs.push(format!(
            "key: Invalid value: {}: {}",
            labels::go_quote(key),
            key_errs.join("; ")
        ));
    }
    let count_error = match op {
        "in" | "notin" if values.is_empty() => {
            Some("for 'in', 'notin' operators, values set can't be empty")
        }
        "=" if values.len() != 1 => Some("exact-match compatibility requires one single value"),
        "exists" | "!" if !values.is_empty() => {
            Some("values set must be empty for exists and does not exist")
        }
        _ => None,
    };
    if let Some(msg) = count_error {
        errs.push(format!(
            "values: Invalid value: {}: {msg}",
            json_strings(values)
        ));
    }
    for (i, v) in values.iter().enumerate() {
        let value_errs = labels::value_errors(v);
        if !value_errs.is_empty() {
            errs.push(format!(
                "values[{i}][{key}]: Invalid value: {}: {}",
                labels::go_quote(v),
                value_errs.join("; ")
            ));
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
    let Some(s) = selector else {
        return "<none>".into();
    };
    let mut parts: Vec<String> = s
        .match_labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
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

/// Parses kubectl's selector syntax (`env=prod,env==prod,env!=dev,region in (us,eu),tier notin (a),canary,!canary`)
/// into a LabelSelector: equalities become matchLabels, everything else matchExpressions. An empty
/// text selects everything. Errors carry the 1-based column (in characters) where the text went wrong.
pub fn parse_kubectl(text: &str) -> Result<LabelSelector, (usize, String)> {
    let tokens = lex(text)?;
    let mut p = KubectlParser {
        tokens: &tokens,
        pos: 0,
        out: LabelSelector::default(),
        labels: Vec::new(),
        first: HashMap::new(),
    };
    if p.peek().tok == Tok::End {
        return Ok(p.out);
    }
    loop {
        p.requirement()?;
        let next = p.next();
        match next.tok {
            Tok::End => {
                // One sort, not one ordered insert per term (a text can hold a selector of many terms).
                p.out.match_labels = LabelMap::from_read(
                    &mut p
                        .labels
                        .iter()
                        .map(|(k, v)| (k.as_str(), Cow::Borrowed(v.as_str())))
                        .collect::<Vec<_>>(),
                );
                return Ok(p.out);
            }
            Tok::Comma => {}
            _ => {
                return Err((
                    next.col,
                    format!(
                        "expected `,` or the end of the selector, found {}",
                        next.tok.describe()
                    ),
                ))
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Word(String),
    Eq,
    NotEq,
    Not,
    Open,
    Close,
    Comma,
    Compare,
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Eq => "`=`".into(),
            Tok::NotEq => "`!=`".into(),
            Tok::Not => "`!`".into(),
            Tok::Open => "`(`".into(),
            Tok::Close => "`)`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Compare => "`<` or `>`".into(),
            Tok::End => "the end of the selector".into(),
        }
    }
}

struct Token {
    tok: Tok,
    col: usize,
}

fn lex(text: &str) -> Result<Vec<Token>, (usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        let (tok, len) = match c {
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            ',' => (Tok::Comma, 1),
            '(' => (Tok::Open, 1),
            ')' => (Tok::Close, 1),
            '<' | '>' => (Tok::Compare, 1),
            '=' if chars.get(i + 1) == Some(&'=') => (Tok::Eq, 2),
            '=' => (Tok::Eq, 1),
            '!' if chars.get(i + 1) == Some(&'=') => (Tok::NotEq, 2),
            '!' => (Tok::Not, 1),
            _ => {
                let start = i;
                while i < chars.len()
                    && !chars[i].is_whitespace()
                    && !matches!(chars[i], ',' | '(' | ')' | '<' | '>' | '=' | '!')
                {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Word(chars[start..i].iter().collect()),
                    col,
                });
                continue;
            }
        };
        out.push(Token { tok, col });
        i += len;
    }
    out.push(Token {
        tok: Tok::End,
        col: chars.len() + 1,
    });
    Ok(out)
}

struct KubectlParser<'t> {
    tokens: &'t [Token],
    pos: usize,
    out: LabelSelector,
    /// The `key=value` terms that become `matchLabels`, a key's first in the order written, and where
    /// each key's is in that list.
    labels: Vec<(String, String)>,
    first: HashMap<&'t str, usize>,
}

impl<'t> KubectlParser<'t> {
    fn peek(&self) -> &Token {
        // The lexer always ends the list with `End`, and `next` never moves past it.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn next(&mut self) -> &Token {
        let i = self.pos.min(self.tokens.len() - 1);
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        &self.tokens[i]
    }

    fn key(&mut self) -> Result<&'t str, (usize, String)> {
        let tokens = self.tokens;
        let t = &tokens[self.pos.min(tokens.len() - 1)];
        self.next();
        match &t.tok {
            Tok::Word(w) => Ok(w.as_str()),
            other => Err((
                t.col,
                format!("expected a label key, found {}", other.describe()),
            )),
        }
    }

    fn requirement(&mut self) -> Result<(), (usize, String)> {
        use crate::model::LabelSelectorRequirement as Req;
        if self.peek().tok == Tok::Not {
            self.next();
            let key = self.key()?.to_string();
            self.out.match_expressions.push(Req {
                key,
                operator: "DoesNotExist".into(),
                values: vec![],
            });
            return Ok(());
        }
        let key_text = self.key()?;
        let key = key_text.to_string();
        let op = self.peek();
        let op_col = op.col;
        match op.tok.clone() {
            Tok::Comma | Tok::End => {
                self.out.match_expressions.push(Req {
                    key,
                    operator: "Exists".into(),
                    values: vec![],
                });
            }
            Tok::Eq => {
                self.next();
                let value = self.value()?;
                // A second `key=` for the same key must still AND, which one matchLabels entry cannot.
                match self.first.get(key_text) {
                    Some(&i) if self.labels[i].1 != value => self.out.match_expressions.push(Req {
                        key,
                        operator: "In".into(),
                        values: vec![value],
                    }),
                    Some(_) => {}
                    None => {
                        self.first.insert(key_text, self.labels.len());
                        self.labels.push((key, value));
                    }
                }
            }
            Tok::NotEq => {
                self.next();
                let value = self.value()?;
                self.out.match_expressions.push(Req {
                    key,
                    operator: "NotIn".into(),
                    values: vec![value],
                });
            }
            Tok::Word(w) if w == "in" || w == "notin" => {
                self.next();
                let values = self.set()?;
                let operator = if w == "in" { "In" } else { "NotIn" };
                self.out.match_expressions.push(Req {
                    key,
                    operator: operator.into(),
                    values,
                });
            }
            Tok::Compare => {
                return Err((
                    op_col,
                    "`<` and `>` (Gt, Lt) are not supported by label selectors of stages".into(),
                ));
            }
            other => {
                return Err((op_col, format!("expected `=`, `==`, `!=`, `in`, `notin`, `,` or the end after key `{key}`, found {}", other.describe())));
            }
        }
        Ok(())
    }

    /// The value after `=`/`!=`; may be empty (`env=`).
    fn value(&mut self) -> Result<String, (usize, String)> {
        match &self.peek().tok {
            Tok::Word(w) => {
                let w = w.clone();
                self.next();
                Ok(w)
            }
            Tok::Comma | Tok::End => Ok(String::new()),
            other => Err((
                self.peek().col,
                format!("expected a label value, found {}", other.describe()),
            )),
        }
    }

    fn set(&mut self) -> Result<Vec<String>, (usize, String)> {
        let t = self.next();
        if t.tok != Tok::Open {
            return Err((
                t.col,
                format!(
                    "expected `(` after `in`/`notin`, found {}",
                    t.tok.describe()
                ),
            ));
        }
        let mut values = Vec::new();
        if self.peek().tok == Tok::Close {
            self.next();
            return Ok(values);
        }
        loop {
            let t = self.next();
            match &t.tok {
                Tok::Word(w) => values.push(w.clone()),
                other => {
                    return Err((
                        t.col,
                        format!("expected a label value, found {}", other.describe()),
                    ))
                }
            }
            let t = self.next();
            match t.tok {
                Tok::Comma => {}
                Tok::Close => return Ok(values),
                _ => {
                    return Err((
                        t.col,
                        format!(
                            "expected `,` or `)` in the value list, found {}",
                            t.tok.describe()
                        ),
                    ))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LabelSelectorRequirement;

    fn labels<M: FromIterator<(String, String)>>(pairs: &[(&str, &str)]) -> M {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn expr(key: &str, op: &str, values: &[&str]) -> LabelSelectorRequirement {
        LabelSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn nil_selects_nothing_and_empty_selects_everything() {
        let l = labels(&[("env", "prod")]);
        assert!(!matches(None, &l));
        assert!(matches(Some(&LabelSelector::default()), &l));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn expressions_follow_kubernetes_semantics() {
        let s = LabelSelector {
            match_labels: labels(&[("env", "prod")]),
            match_expressions: vec![
                expr("region", "In", &["eu", "us"]),
                expr("canary", "DoesNotExist", &[]),
            ],
        };
        assert!(matches(
            Some(&s),
            &labels(&[("env", "prod"), ("region", "eu")])
        ));
        assert!(!matches(
            Some(&s),
            &labels(&[("env", "prod"), ("region", "ap")])
        ));
        assert!(!matches(
            Some(&s),
            &labels(&[("env", "prod"), ("region", "eu"), ("canary", "1")])
        ));
        let notin = LabelSelector {
            match_expressions: vec![expr("region", "NotIn", &["eu"])],
            ..Default::default()
        };
        assert!(
            matches(Some(&notin), &labels(&[])),
            "NotIn matches clusters without the key"
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn invalid_selectors_get_apimachinery_messages() {
        let bad_op = LabelSelector {
            match_expressions: vec![expr("a", "Equals", &["x"])],
            ..Default::default()
        };
        assert_eq!(
            validate(&bad_op).unwrap_err(),
            "\"Equals\" is not a valid label selector operator"
        );
        let empty_in = LabelSelector {
            match_expressions: vec![expr("a", "In", &[])],
            ..Default::default()
        };
        // apimachinery v0.34 prints a []string bad value as JSON (field.Error.ErrorBody): nil is `null`.
        assert_eq!(
            validate(&empty_in).unwrap_err(),
            "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"
        );
        let exists_values = LabelSelector {
            match_expressions: vec![expr("a", "Exists", &["x"])],
            ..Default::default()
        };
        assert_eq!(
            validate(&exists_values).unwrap_err(),
            "values: Invalid value: [\"x\"]: values set must be empty for exists and does not exist"
        );
        // A bad value is reported at `values[i][key]` (path.Key(k)), and several problems of one
        // requirement are aggregated as Go does: `[a, b]`.
        let both = LabelSelector {
            match_expressions: vec![expr("a b", "In", &["ok", "no way"])],
            ..Default::default()
        };
        let err = validate(&both).unwrap_err();
        assert!(
            err.starts_with("[key: Invalid value: \"a b\": name part must consist")
                && err
                    .contains(", values[1][a b]: Invalid value: \"no way\": a valid label must be")
                && err.ends_with(']'),
            "{err}"
        );
        assert!(validate(&LabelSelector {
            match_labels: labels(&[("bad key", "v")]),
            ..Default::default()
        })
        .unwrap_err()
        .starts_with("key: Invalid value: \"bad key\": name part must consist"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn kubectl_selectors_parse_into_label_selectors() {
        let s = parse_kubectl(
            "env=prod, tier==web,env!=dev,region in (us, eu),zone notin (a),canary,!legacy",
        )
        .unwrap();
        assert_eq!(s.match_labels, labels(&[("env", "prod"), ("tier", "web")]));
        assert_eq!(
            s.match_expressions,
            vec![
                expr("env", "NotIn", &["dev"]),
                expr("region", "In", &["us", "eu"]),
                expr("zone", "NotIn", &["a"]),
                expr("canary", "Exists", &[]),
                expr("legacy", "DoesNotExist", &[]),
            ]
        );
        assert_eq!(parse_kubectl("").unwrap(), LabelSelector::default());
        assert_eq!(parse_kubectl("  ").unwrap(), LabelSelector::default());
        assert_eq!(
            parse_kubectl("kubernetes.io/os=linux")
                .unwrap()
                .match_labels,
            labels(&[("kubernetes.io/os", "linux")])
        );
        assert_eq!(
            parse_kubectl("a=").unwrap().match_labels,
            labels(&[("a", "")])
        );
        let twice = parse_kubectl("a=x,a=y").unwrap();
        assert!(
            !matches(Some(&twice), &labels(&[("a", "x")])),
            "two equalities on one key still AND"
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn kubectl_selector_errors_point_at_the_column() {
        assert_eq!(parse_kubectl("env=prod,,x").unwrap_err().0, 10);
        let (col, msg) = parse_kubectl("region in (us,eu").unwrap_err();
        assert_eq!(col, 17);
        assert!(msg.contains("`)`"), "{msg}");
        assert_eq!(parse_kubectl("region in us").unwrap_err().0, 11);
        assert_eq!(parse_kubectl("a>3").unwrap_err().0, 2);
        assert_eq!(parse_kubectl("env prod").unwrap_err().0, 5);
        assert_eq!(
            parse_kubectl("é=1,(").unwrap_err().0,
            5,
            "columns count characters, not bytes"
        );
    }
}
