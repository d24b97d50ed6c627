//! A stage's or the sequence's CEL label selector, parsed once and matched against many clusters.
//! A selector that does not parse selects nothing; validation reports it (`cel-syntax`).

use crate::cel::{self, CelError, Expr, Labels};
use crate::label_map::LabelMap;

pub struct Selector {
    expr: Option<Expr>,
}

impl Selector {
    /// The selector, and its syntax error if it has one.
    pub fn new(text: &str) -> (Selector, Option<CelError>) {
        match cel::parse(text) {
            Ok(e) => (Selector { expr: Some(e) }, None),
            Err(e) => (Selector { expr: None }, Some(e)),
        }
    }

    /// `prod-region=us-west1` for a single equality (what most stages use), else `None`.
    pub fn short(&self) -> Option<String> {
        match &self.expr {
            Some(Expr::Eq(cel::Operand::Label(k), cel::Operand::Str(v)))
            | Some(Expr::Eq(cel::Operand::Str(v), cel::Operand::Label(k))) => {
                Some(format!("{k}={v}"))
            }
            _ => None,
        }
    }

    pub fn matches(&self, labels: &LabelMap) -> bool {
        self.expr.as_ref().is_some_and(|e| e.matches(labels))
    }

    /// Whether the selector selects a cluster with these labels, and the label whose absence keeps
    /// the cluster out although a reading that treats a missing label as "some other value" would
    /// select it (`resource.labels.env != 'prod'` on a cluster without `env`): CEL raises "no such
    /// key" there, and GKE does not select the cluster. One evaluation for a cluster that has every
    /// label the selector reads (most clusters): the answer and the surprise were two (3% of the
    /// instructions of a 10,000-cluster plan).
    pub fn select(&self, labels: &LabelMap) -> (bool, Option<String>) {
        let Some(expr) = self.expr.as_ref() else {
            return (false, None);
        };
        let missing = match expr.evaluate(labels) {
            Ok(selected) => return (selected, None),
            Err(missing) => missing,
        };
        // Each round fills one missing key with a value no selector can name; selectors are small.
        let first = missing.key.clone();
        let mut filled = Filled {
            labels,
            keys: vec![missing.key],
        };
        for _ in 1..64 {
            match expr.evaluate(&filled) {
                Ok(naive) => return (false, naive.then_some(first)),
                Err(missing) => filled.keys.push(missing.key),
            }
        }
        (false, None)
    }
}

/// A cluster's labels with the keys it lacks filled in, each with a value no selector can name,
/// read through instead of copying the map (a copy per cluster lacking a label the selector reads
/// was 3% of a 10,000-cluster GKE plan).
struct Filled<'a> {
    labels: &'a LabelMap,
    keys: Vec<String>,
}

impl Labels for Filled<'_> {
    fn label(&self, key: &str) -> Option<&str> {
        match self.labels.get(key) {
            Some(v) => Some(v),
            None => self.keys.iter().any(|k| k == key).then_some("\u{0}absent"),
        }
    }
}
