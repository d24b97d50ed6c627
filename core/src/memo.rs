//! A text's decoded `clusters` kept from one reading of an edited text to the next
//! ([`load_again`]).
//!
//! An edit in the browser's editor reads the whole text again; at 1,000 clusters parsing and
//! decoding the `clusters` list is most of that work, and an edit of the strategy, the assumptions
//! or the start leaves the list as it was. A reading of one document with no diagnostic, whose
//! `clusters` is a top-level key of a block mapping (column 1) followed by another, keeps the text
//! up to the line of that next key. A next text that starts with the same bytes is parsed with the
//! list's lines emptied and `clusters: []` on its key's line: every other line is as written, so
//! every other node has its line and column, and when the stand-in's two keys are on the kept lines
//! the text's list is the kept one (both readers read left to right). Its clusters and source map
//! records are then put in place of the empty list's; having made no diagnostic before, the list
//! makes none now. Nothing is reused on a guess (no hash): the bytes are compared.
//!
//! The CLI, the bench and the embedded chart read with `load_with`. The browser's editor brings this
//! code in on demand (web/src/kinds.rs `memo_part`, after the first edit) as [`load_remembered`], so
//! the app's first visit carries none of it.

use std::cell::RefCell;
use std::sync::Arc;

use crate::diag::Recorded;
use crate::input::{load_documents_with, load_with, too_large, Loaded, Source};
use crate::model::Cluster;
use crate::parts::Parts;
use crate::source::{self, Node, Value};

/// What one reading of a text leaves for the next. Empty at first; cheap to clone (shared).
#[derive(Clone, Debug, Default)]
pub struct Memo {
    last: Option<Arc<Kept>>,
}

#[derive(Debug)]
struct Kept {
    file: String,
    /// The lines of the `clusters` key and of the top-level key after it.
    key_line: usize,
    next_line: usize,
    /// The text before `next_line`.
    before: String,
    /// Kept only once a second reading saw the same text before `next_line`: while the list itself
    /// is being edited every reading differs, and a copy of the list would only cost time.
    decoded: Option<(Vec<Cluster>, Recorded)>,
}

/// [`crate::load_with`] for a text read before (the editor's, after an edit): `clusters` written
/// as in the previous reading are neither parsed nor decoded again but taken from `memo` (see the
/// module's notes), which then holds what this reading leaves for the next. The answer is the one
/// [`crate::load_with`] gives.
pub fn load_again(sources: &[Source], parts: &Parts, memo: &mut Memo) -> Loaded {
    let previous = std::mem::take(memo);
    let ([src], None) = (sources, too_large(sources)) else {
        return load_with(sources, parts);
    };
    if let Some(stand_in) = previous.stand_in(src.name, src.text) {
        if let Some(mut docs) = source::parse_fast(&stand_in) {
            if docs.len() == 1 && previous.fits(&docs[0]) {
                let parsed = vec![(docs.swap_remove(0), src.name)];
                let mut loaded = load_documents_with(parsed, Vec::new(), parts);
                if previous.fill(&mut loaded) {
                    *memo = previous;
                    return loaded;
                }
            }
        }
    }
    // As `load_with` reads one text, noting where its keys are.
    let (docs, diagnostics) = match (source::parse_fast(src.text), parts.yaml) {
        (Some(docs), _) => (docs, Vec::new()),
        (None, Some(full)) => {
            // Outside the fast readers' subset: nothing is kept (a tab typed, then taken back,
            // finds the memo as it was).
            *memo = previous;
            let (docs, diags) = full(src.text, src.name);
            let parsed = docs.into_iter().map(|d| (d, src.name)).collect();
            return load_documents_with(parsed, diags, parts);
        }
        (None, None) => return load_with(sources, parts),
    };
    let keys = match docs.as_slice() {
        [doc] => place(doc),
        _ => None,
    };
    let parsed = docs.into_iter().map(|d| (d, src.name)).collect();
    let loaded = load_documents_with(parsed, diagnostics, parts);
    *memo = previous.after(src.name, src.text, keys, &loaded);
    loaded
}

/// How a front end reads an edited text: [`load_remembered`] (the browser's on-demand kit) or
/// [`crate::load_with`], which gives the same answer.
pub type LoadAgainFn = fn(&[Source], &Parts) -> Loaded;

thread_local! {
    /// The last [`load_remembered`] reading's memo. One per thread, not per editor: a memo only
    /// ever serves a text that starts with the bytes it kept, so two editors sharing it can only
    /// miss, never answer wrongly.
    static LAST: RefCell<Memo> = const { RefCell::new(Memo { last: None }) };
}

/// [`load_again`] with the memo of this thread's previous call: a [`LoadAgainFn`] with no state
/// of its caller's, so the browser's kit is a plain function pointer.
pub fn load_remembered(sources: &[Source], parts: &Parts) -> Loaded {
    LAST.with(|last| {
        let mut memo = last.take();
        let loaded = load_again(sources, parts, &mut memo);
        *last.borrow_mut() = memo;
        loaded
    })
}

/// The lines of a document's top-level `clusters` key and of the key after it, both at column 1.
pub(crate) fn place(doc: &Node) -> Option<(usize, usize)> {
    let Value::Map(m) = &doc.value else {
        return None;
    };
    let i = m.iter().position(|e| e.key == "clusters")?;
    let next = m.get(i + 1)?;
    (m[i].key_column == 1 && next.key_column == 1 && next.key_line > m[i].key_line)
        .then_some((m[i].key_line, next.key_line))
}

impl Memo {
    /// A text to parse in place of `text` when the kept list can be taken for it: `text` with the
    /// list's lines emptied and `clusters: []` on its key's line.
    pub(crate) fn stand_in(&self, file: &str, text: &str) -> Option<String> {
        let kept = self.last.as_ref()?;
        kept.decoded.as_ref()?;
        if kept.file != file || !text.starts_with(kept.before.as_str()) {
            return None;
        }
        let key_start = line_start(&kept.before, kept.key_line)?;
        let mut s = String::with_capacity(text.len());
        s.push_str(&kept.before[..key_start]);
        s.push_str("clusters: []");
        for _ in kept.key_line..kept.next_line {
            s.push('\n');
        }
        s.push_str(&text[kept.before.len()..]);
        Some(s)
    }

    /// Whether `doc`, parsed from [`Memo::stand_in`]'s text, has its two keys on the kept lines.
    pub(crate) fn fits(&self, doc: &Node) -> bool {
        self.last
            .as_ref()
            .is_some_and(|k| place(doc) == Some((k.key_line, k.next_line)))
    }

    /// Puts the kept list in place of the stand-in's empty one in `loaded`, the stand-in's
    /// reading; false when it cannot (then read the text itself).
    pub(crate) fn fill(&self, loaded: &mut Loaded) -> bool {
        let (Some(kept), [scenario]) = (&self.last, loaded.scenarios.as_mut_slice()) else {
            return false;
        };
        let Some((clusters, records)) = &kept.decoded else {
            return false;
        };
        if !loaded.missing.is_empty()
            || !scenario.clusters.is_empty()
            || !scenario.origin.splice_clusters(records)
        {
            return false;
        }
        scenario.clusters = clusters.clone();
        true
    }

    /// The memo a reading of `text` (from `file`, its document's keys at `place`) leaves, this
    /// memo being the previous reading's.
    pub(crate) fn after(
        self,
        file: &str,
        text: &str,
        place: Option<(usize, usize)>,
        loaded: &Loaded,
    ) -> Memo {
        let (Some((key_line, next_line)), [scenario]) = (place, loaded.scenarios.as_slice()) else {
            return Memo::default();
        };
        if !loaded.diagnostics.is_empty() || !loaded.missing.is_empty() {
            return Memo::default();
        }
        let seen = self.last.as_ref().filter(|k| {
            (k.file.as_str(), k.key_line, k.next_line) == (file, key_line, next_line)
                && text.starts_with(k.before.as_str())
        });
        let kept = match seen {
            Some(k) => Kept {
                file: k.file.clone(),
                key_line,
                next_line,
                before: k.before.clone(),
                decoded: scenario
                    .origin
                    .clusters_records()
                    .map(|r| (scenario.clusters.clone(), r)),
            },
            None => {
                let Some(end) = line_start(text, next_line) else {
                    return Memo::default();
                };
                Kept {
                    file: file.to_string(),
                    key_line,
                    next_line,
                    before: text[..end].to_string(),
                    decoded: None,
                }
            }
        };
        Memo {
            last: Some(Arc::new(kept)),
        }
    }
}

/// The byte offset where 1-based `line` starts in `text`.
fn line_start(text: &str, line: usize) -> Option<usize> {
    if line <= 1 {
        return Some(0);
    }
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .nth(line - 2)
        .map(|(i, _)| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator: the same edits on every run and target.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n.max(1) as u64) as usize
        }
    }

    /// Lines worth inserting or swapping in: a list item at both indentations, comments, empty
    /// lines, top-level keys (new, repeated, mistyped), values of the wrong type, text outside the
    /// fast reader's subset.
    const SNIPPETS: &[&str] = &[
        "  - name: extra",
        "- name: extra",
        "  - {name: e, labels: {env: prod}}",
        "  # a note",
        "# a note",
        "",
        "strategy:",
        "clusters:",
        "clusters: []",
        "start: nope",
        "name: again",
        "zz: 1",
        "    labels: {a: b}",
        "  fleet: 7",
        "\tx: 1",
        "a: &x 1",
        "b: 'open",
        "---",
    ];

    /// The line after `clusters`' block: where a kept list ends, the edits that matter most.
    fn next_key_line(lines: &[String]) -> usize {
        let Some(k) = lines.iter().position(|l| l.starts_with("clusters:")) else {
            return 0;
        };
        lines
            .iter()
            .skip(k + 1)
            .position(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
            .map_or(lines.len(), |i| k + 1 + i)
    }

    /// One edit of a line: near the end of `clusters`' block, anywhere, or (`after`) only past the
    /// key that follows it.
    fn edit(text: &str, after: bool, rng: &mut Rng) -> String {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let near = next_key_line(&lines);
        let at = if after {
            near + 1 + rng.below(lines.len().saturating_sub(near))
        } else if rng.below(2) == 0 {
            (near + rng.below(5)).saturating_sub(2)
        } else {
            rng.below(lines.len() + 1)
        }
        .min(lines.len());
        let snippet = SNIPPETS[rng.below(SNIPPETS.len())].to_string();
        match (rng.below(7), at < lines.len()) {
            (0, _) | (_, false) => lines.insert(at, snippet),
            (1, true) => {
                lines.remove(at);
            }
            (2, true) => {
                let l = lines[at].clone();
                lines.insert(at, l);
            }
            (3, true) => lines[at] = snippet,
            (4, true) => {
                let l = &mut lines[at];
                let chars: Vec<char> = l.chars().collect();
                let i = rng.below(chars.len() + 1);
                let c = ['0', 'a', ':', '-', '#', '\'', '{', ' ', 'é'][rng.below(9)];
                *l = chars[..i.min(chars.len())]
                    .iter()
                    .chain(std::iter::once(&c))
                    .chain(chars.get(i + 1..).unwrap_or_default())
                    .collect();
            }
            (5, true) => lines[at].insert_str(0, "  "),
            _ => {
                let l = &mut lines[at];
                let cut = l.len() - l.trim_start_matches(' ').len();
                l.drain(..cut.min(2));
            }
        }
        let mut out = lines.join("\n");
        if text.ends_with('\n') {
            out.push('\n');
        }
        out
    }

    fn same(a: &Loaded, b: &Loaded, text: &str) {
        assert_eq!(a.scenarios, b.scenarios, "scenarios of:\n{text}");
        assert_eq!(a.diagnostics, b.diagnostics, "diagnostics of:\n{text}");
        assert_eq!(a.missing, b.missing, "missing parts of:\n{text}");
    }

    /// Random edits of every example (and of a GKE fleet of 60 clusters), each text read again
    /// with the previous reading's memo (and with [`load_remembered`]'s, kept across the texts):
    /// the answer is a full reading's, diagnostics and their
    /// locations included, and the kept list is taken often enough for that to mean something.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_text_read_again_reads_as_read_afresh() {
        let gke = {
            let mut s = String::from("name: g\nstart: 2026-11-23T09:00:00Z\nclusters:\n");
            for i in 0..60 {
                let f = ["testing", "staging", "production"][i % 3];
                s.push_str(&format!("  - {{name: g-{i}, fleet: projects/{f}, version: {{controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}}, maintenance: {{window: {{daily: \"18:00\"}}}}}}\n"));
            }
            s.push_str("strategy:\n  kind: gke-rollout-sequence\n  stages:\n    - {fleetProjects: [projects/testing], soakDuration: 1d}\n    - {fleetProjects: [projects/staging], soakDuration: 2d}\n    - {fleetProjects: [projects/production], soakDuration: 0s}\n  versions:\n    - {version: 1.31.5-gke.1200000, at: 2026-11-23T09:00:00Z}\n");
            s
        };
        let mut texts: Vec<String> = crate::examples::all()
            .iter()
            .map(|e| e.text.to_string())
            .collect();
        texts.push(gke);
        let parts = Parts::all();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut taken = 0;
        for start in &texts {
            let mut memo = Memo::default();
            let (mut text, mut before) = (start.clone(), start.clone());
            for _ in 0..80 {
                let next = match rng.below(8) {
                    0 => before.clone(),
                    1 => text.clone(),
                    2 => start.clone(),
                    3 | 4 => edit(&text, true, &mut rng),
                    _ => edit(&text, false, &mut rng),
                };
                (before, text) = (text, next);
                let src = [Source {
                    name: "scenario.yaml",
                    text: &text,
                }];
                let could_take = memo
                    .last
                    .as_ref()
                    .is_some_and(|k| k.decoded.is_some() && text.starts_with(&k.before));
                let full = load_with(&src, &parts);
                same(&load_again(&src, &parts, &mut memo), &full, &text);
                // The browser's kit: one memo for every text read on this thread, never reset.
                same(&load_remembered(&src, &parts), &full, &text);
                taken += usize::from(could_take);
            }
        }
        assert!(taken >= 100, "the kept list could be taken {taken} times");
    }

    /// Edits past the kept list that change what the document is, each read after the original
    /// was read twice (so the list is kept): the text cut after the list's next key or before it,
    /// the strategy's kind changed to every kind (and to none of them), a second document added.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn whole_blocks_after_the_list() {
        let parts = Parts::all();
        let kinds = [
            "kubefleet-staged",
            "kubefleet-rolling",
            "gke-rollout-sequence",
            "gke-fleet-sequence",
            "nonsense",
        ];
        let mut taken = 0;
        for e in crate::examples::all() {
            let text = e.text.to_string();
            let lines: Vec<&str> = text.lines().collect();
            let next = next_key_line(&lines.iter().map(|l| l.to_string()).collect::<Vec<_>>());
            if next == 0 || next >= lines.len() {
                continue;
            }
            let mut edits = vec![
                lines[..next].join("\n") + "\n",
                lines[..=next].join("\n") + "\n",
                text.clone() + "---\nname: second\n",
                text.clone() + "---\n",
            ];
            for kind in kinds {
                let mut t = String::new();
                for l in &lines {
                    match l.split_once("kind:") {
                        Some((indent, _)) if indent.trim().is_empty() => {
                            t.push_str(&format!("{indent}kind: {kind}\n"));
                        }
                        _ => {
                            t.push_str(l);
                            t.push('\n');
                        }
                    }
                }
                edits.push(t);
            }
            for edit in edits {
                let mut memo = Memo::default();
                for _ in 0..2 {
                    let src = [Source {
                        name: "s.yaml",
                        text: &text,
                    }];
                    load_again(&src, &parts, &mut memo);
                }
                taken += usize::from(memo.stand_in("s.yaml", &edit).is_some());
                let src = [Source {
                    name: "s.yaml",
                    text: &edit,
                }];
                same(
                    &load_again(&src, &parts, &mut memo),
                    &load_with(&src, &parts),
                    &edit,
                );
            }
        }
        assert!(taken >= 20, "the kept list could be taken {taken} times");
    }
}
