//! A stage's or the sequence's CEL label selector, parsed once and matched against many clusters.
//! Syntax errors are the decoder's to report (`cel-syntax`); an unparsable selector selects nothing.

use std::collections::BTreeMap;

pub struct Selector {
    terms: Option<Vec<(String, bool, String)>>,
}

impl Selector {
    pub fn new(text: &str) -> Selector {
        // Interim reader of `resource.labels.k == 'v' && …` until the CEL module lands.
        let mut terms = Vec::new();
        for part in text.split("&&") {
            let (k, eq, v) = if let Some((k, v)) = part.split_once("!=") {
                (k, false, v)
            } else if let Some((k, v)) = part.split_once("==") {
                (k, true, v)
            } else {
                return Selector { terms: None };
            };
            let Some(k) = k.trim().strip_prefix("resource.labels.") else {
                return Selector { terms: None };
            };
            let v = v.trim().trim_matches(|c| c == '\'' || c == '"');
            terms.push((k.to_string(), eq, v.to_string()));
        }
        Selector { terms: Some(terms) }
    }

    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.terms.as_ref().is_some_and(|t| {
            t.iter()
                .all(|(k, eq, v)| (labels.get(k).map(String::as_str) == Some(v.as_str())) == *eq)
        })
    }
}
