//! A generator read once and then numbered per cluster: name patterns and label values split into
//! their text and `{i}` parts up front, so a cluster costs its digits, an exact-size name and one
//! exact-size label text (every value written straight into it), not a substring search per pattern
//! and value (a quarter of a 1,000-cluster staged plan) nor a string per key and value.

use crate::label_map::LabelMap;
use crate::model::{Cluster, ClusterGenerator, SpreadMode};

/// A name pattern (or a label value) as its parts: text copied as is, and `{i}` / `{i:0W}` places.
#[derive(Clone, Debug)]
pub struct Pattern<'a> {
    parts: Vec<Part<'a>>,
    /// Bytes of the text parts.
    text_len: usize,
}

#[derive(Clone, Copy, Debug)]
enum Part<'a> {
    Text(&'a str),
    /// The cluster's number, zero-padded to this many digits (at most 64).
    Index(usize),
}

impl<'a> Pattern<'a> {
    /// Splits `pattern` where [`super::format_name`] always has: `{i}` and `{i:0W}` are numbers,
    /// anything else (an unclosed `{i`, another spec) is text.
    pub fn new(pattern: &'a str) -> Pattern<'a> {
        let mut parts = Vec::new();
        let mut rest = pattern;
        while let Some(open) = crate::substr::find(rest, "{i") {
            parts.push(Part::Text(&rest[..open]));
            let after = &rest[open..];
            let Some(close) = after.find('}') else {
                rest = after;
                break;
            };
            let spec = &after[2..close];
            match spec
                .strip_prefix(':')
                .map(|w| w.trim_start_matches('0').parse::<usize>())
            {
                None if spec.is_empty() => parts.push(Part::Index(0)),
                Some(Ok(width)) => parts.push(Part::Index(width.min(64))),
                _ => parts.push(Part::Text(&after[..=close])),
            }
            rest = &after[close + 1..];
        }
        parts.push(Part::Text(rest));
        parts.retain(|p| !matches!(p, Part::Text("")));
        let text_len = parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.len(),
                Part::Index(_) => 0,
            })
            .sum();
        Pattern { parts, text_len }
    }

    /// The pattern numbered `i`, in a string of exactly its length.
    pub fn format(&self, i: u64) -> String {
        let mut buf = [0; crate::decimal::LONGEST];
        self.numbered(crate::decimal::decimal(i, &mut buf))
    }

    /// The pattern numbered with `digits` (a number's decimal digits), in a string of exactly its
    /// length.
    fn numbered(&self, digits: &str) -> String {
        let mut out = String::with_capacity(self.len(digits));
        self.write(digits, &mut out);
        out
    }

    /// Bytes of the pattern numbered with `digits`.
    fn len(&self, digits: &str) -> usize {
        self.text_len
            + self
                .parts
                .iter()
                .map(|p| match p {
                    Part::Index(width) => digits.len().max(*width),
                    Part::Text(_) => 0,
                })
                .sum::<usize>()
    }

    /// Appends the pattern numbered with `digits` (the number's decimal digits) to `out`.
    fn write(&self, digits: &str, out: &mut String) {
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Index(width) => {
                    for _ in digits.len()..*width {
                        out.push('0');
                    }
                    out.push_str(digits);
                }
            }
        }
    }
}

/// The value of a spread that lists none.
static EMPTY: Value<'static> = Value::Plain("");

/// A label value of a spread: most have no `{i}` and are copied as they are.
#[derive(Clone, Debug)]
enum Value<'a> {
    Plain(&'a str),
    Numbered(Pattern<'a>),
}

/// One label of a generator: its key and how each cluster's value is found.
#[derive(Clone, Debug)]
struct Label<'a> {
    key: &'a String,
    mode: SpreadMode,
    values: Vec<Value<'a>>,
}

/// A [`ClusterGenerator`] read once, to make any of its clusters.
#[derive(Clone, Debug)]
pub struct Generator<'a> {
    gen: &'a ClusterGenerator,
    name: Pattern<'a>,
    labels: Vec<Label<'a>>,
    /// Where each name is written before it is copied into its shared block: one buffer for every
    /// cluster, so a name costs one allocation, the one its plan's rows share.
    scratch: String,
}

impl<'a> Generator<'a> {
    pub fn new(gen: &'a ClusterGenerator) -> Generator<'a> {
        let labels = gen
            .labels
            .iter()
            .map(|(key, spread)| Label {
                key,
                mode: spread.mode,
                values: spread
                    .values
                    .iter()
                    .map(|v| {
                        // `{i}` / `{i:03}` in a value numbers it the way the name pattern is
                        // numbered (`order: "{i}"`).
                        if crate::substr::contains(v, "{i") {
                            Value::Numbered(Pattern::new(v))
                        } else {
                            Value::Plain(v)
                        }
                    })
                    .collect(),
            })
            .collect();
        Generator {
            gen,
            name: Pattern::new(&gen.name),
            labels,
            scratch: String::new(),
        }
    }

    /// The value `label` gives the `k`-th cluster: `None` for an index label (the cluster's number).
    fn value<'s>(&'s self, label: &'s Label<'a>, k: u32) -> Option<&'s Value<'a>> {
        let n = label.values.len() as u64;
        match label.mode {
            SpreadMode::Index => None,
            _ if n == 0 => Some(&EMPTY),
            SpreadMode::Cycle => Some(&label.values[(u64::from(k) % n) as usize]),
            SpreadMode::Blocks => {
                // Nearly equal contiguous blocks: the first `count % n` blocks get one extra cluster.
                let count = u64::from(self.gen.count.max(1));
                let idx = (u64::from(k) * n / count).min(n - 1);
                Some(&label.values[idx as usize])
            }
        }
    }

    /// The `k`-th (0-based) cluster.
    pub fn cluster(&mut self, k: u32) -> Cluster {
        let i = u64::from(self.gen.first) + u64::from(k);
        let mut buf = [0; crate::decimal::LONGEST];
        let digits = crate::decimal::decimal(i, &mut buf);
        // Each label's value three times: to size the map's one text exactly, to write where each
        // key and value ends, then to write it.
        let value_len = |label| match self.value(label, k) {
            // An index label's value is the cluster's number.
            None => digits.len(),
            Some(Value::Plain(v)) => v.len(),
            Some(Value::Numbered(p)) => p.len(digits),
        };
        let bytes = self
            .labels
            .iter()
            .map(|label| label.key.len() + value_len(label))
            .sum();
        let mut labels = LabelMap::builder(self.labels.len(), bytes);
        for label in &self.labels {
            labels.sizes(label.key.len(), value_len(label));
        }
        // The generator's keys are unique and ascending, as the map's must be.
        for label in &self.labels {
            labels.push(label.key, |text| match self.value(label, k) {
                None => text.push_str(digits),
                Some(Value::Plain(v)) => text.push_str(v),
                Some(Value::Numbered(p)) => p.write(digits, text),
            });
        }
        // The digits the labels were numbered with: a cluster's number is written once.
        self.scratch.clear();
        self.name.write(digits, &mut self.scratch);
        Cluster {
            name: self.scratch.as_str().into(),
            labels: labels.finish(),
            ..Default::default()
        }
    }
}
