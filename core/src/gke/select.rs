//! A stage's or the sequence's CEL label selector, parsed once and matched against many clusters.
//! Syntax errors are the decoder's to report (`cel-syntax`); an unparsable selector selects nothing.

use std::collections::BTreeMap;

use crate::cel::{self, Expr};

pub struct Selector {
    expr: Option<Expr>,
}

impl Selector {
    pub fn new(text: &str) -> Selector {
        Selector {
            expr: cel::parse(text).ok(),
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

    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.expr.as_ref().is_some_and(|e| e.matches(labels))
    }
}
