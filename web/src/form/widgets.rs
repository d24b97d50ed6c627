//! The form's shared pieces: the edit context, type-erased fields and buttons that show their own
//! problem next to them, and the small parsers every kind's section uses.
//!
//! Every field and button goes through `field` and `button`, with boxed callbacks: each distinct closure
//! in a view costs its own copy of the rendering code, and the bundle has a size budget.

use fleetplan::label_map::LabelMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use fleetplan::model::{FailureSpec, IntOrString, Scenario};
use fleetplan::plan::Plan;
use fleetplan::time::{Duration, Time};
use fleetplan::{Diagnostic, Severity};
use leptos::prelude::*;

/// A change of the scenario made from a field's text; `Err` refuses the value with a reason.
pub(crate) type Change = Arc<dyn Fn(&mut Scenario, &str) -> Result<(), String> + Send + Sync>;
/// A change made by a button.
pub(crate) type Act = Arc<dyn Fn(&mut Scenario) -> Result<(), String> + Send + Sync>;
/// Applies a change to a copy of the scenario and rewrites the text; `Err` when the change refused.
pub(crate) type Apply =
    Arc<dyn Fn(&dyn Fn(&mut Scenario) -> Result<(), String>) -> Result<(), String> + Send + Sync>;

/// What every field needs: how to apply a change, the values refused so far (field path → reason) and
/// the current text's diagnostics, each shown next to the field its path names.
#[derive(Clone)]
pub(crate) struct Form {
    pub apply: Apply,
    pub refused: RwSignal<Vec<(String, String)>>,
    pub diagnostics: Signal<Arc<Vec<Diagnostic>>>,
}

/// The key of problems that belong to no field (a button's refusal).
pub(crate) const FORM_LEVEL: &str = "";

impl Form {
    /// Applies `f`; a refusal is kept under `key` until the next change that applies.
    pub fn run(&self, key: &str, f: &dyn Fn(&mut Scenario) -> Result<(), String>) {
        match (self.apply)(f) {
            // The text was rewritten: values refused earlier are no longer in any field.
            Ok(()) => self.refused.set(Vec::new()),
            Err(e) => self.refused.update(|r| {
                r.retain(|(k, _)| k != key);
                r.push((key.to_string(), e));
            }),
        }
    }

    /// The problem to show next to the field at `path`: a refused value, or the first error or warning
    /// the core reported at that path (or, for an object's name field, at the object itself).
    pub fn problem(&self, path: &str) -> Option<String> {
        if let Some(r) = self
            .refused
            .with(|r| r.iter().find(|(k, _)| k == path).map(|(_, m)| m.clone()))
        {
            return Some(r);
        }
        self.diagnostics.with(|ds| {
            ds.iter()
                .filter(|d| d.severity != Severity::Info)
                .find(|d| d.path.as_deref().is_some_and(|p| names_field(p, path)))
                .map(|d| d.message.clone())
        })
    }
}

/// Whether a diagnostic at `diag_path` belongs next to the field at `field_path`: the same path, or the
/// field is the name of the object the diagnostic is about (`clusters[4]` → `clusters[4].name`).
pub fn names_field(diag_path: &str, field_path: &str) -> bool {
    diag_path == field_path
        || field_path
            .strip_suffix(".name")
            .is_some_and(|object| object == diag_path)
}

static FIELD_IDS: AtomicU32 = AtomicU32::new(0);

/// A text field that applies its value when changed (on Enter or leaving it), not on every key: the
/// whole text is rewritten per change. `path` is the scenario field it edits, as diagnostics name it;
/// a problem with it is shown right after the field and announced.
#[allow(clippy::too_many_arguments)]
pub(crate) fn field(
    form: &Form,
    path: String,
    label: &'static str,
    value: String,
    size: u32,
    placeholder: &'static str,
    class: &'static str,
    change: Change,
) -> AnyView {
    let id = format!("fp-problem-{}", FIELD_IDS.fetch_add(1, Ordering::Relaxed));
    let (f, key) = (form.clone(), path.clone());
    let problem = Memo::new(move |_| f.problem(&key));
    let f = form.clone();
    let described = id.clone();
    view! {
        <span class="field">
            <input
                class=class
                size=size
                placeholder=placeholder
                aria-label=label
                aria-invalid=move || problem.with(|p| p.is_some()).to_string()
                aria-describedby=move || problem.with(|p| p.is_some()).then(|| described.clone())
                data-path=path.clone()
                prop:value=value
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    f.run(&path, &|s| change(s, &v));
                }
            />
            {move || problem.get().map(|m| view! { <span class="field-problem" id=id.clone() role="alert">{m}</span> })}
        </span>
    }
    .into_any()
}

pub(crate) fn labelled(text: &'static str, input: AnyView) -> AnyView {
    view! { <label>{text}" "{input}</label> }.into_any()
}

/// A button that changes the scenario. `name` is its accessible name when the visible `text` is a
/// symbol (`×`, `↑`); a refusal is shown above the form.
pub(crate) fn button(
    form: &Form,
    text: &'static str,
    name: &'static str,
    class: &'static str,
    disabled: bool,
    act: Act,
) -> AnyView {
    let f = form.clone();
    // A symbol (`×`, `↑`) is named by `name`; words are their own name (speech input says what it sees).
    let symbol = !text.chars().any(char::is_alphabetic);
    view! {
        <button class=class title=name aria-label=symbol.then_some(name) disabled=disabled on:click=move |_| f.run(FORM_LEVEL, &|s| act(s))>{text}</button>
    }
    .into_any()
}

/// `key=value, key2=value2` → labels; the first malformed pair is the error.
pub fn parse_labels(text: &str) -> Result<LabelMap, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((k, v)) = part.split_once('=') else {
            return Err(format!("`{part}` is not key=value"));
        };
        let k = k.trim();
        if k.is_empty() {
            return Err(format!("`{part}` has no key"));
        }
        out.push((k, v.trim()));
    }
    Ok(out.into_iter().collect())
}

/// `2` → an integer, `25%` (or anything else) → the string, as KubeFleet's IntOrString.
pub fn parse_concurrency(text: &str) -> Option<IntOrString> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    Some(
        t.parse::<i32>()
            .map_or_else(|_| IntOrString::Str(t.to_string()), IntOrString::Int),
    )
}

pub fn int_or_string_text(c: &Option<IntOrString>) -> String {
    match c {
        Some(IntOrString::Int(n)) => n.to_string(),
        Some(IntOrString::Str(s)) => s.clone(),
        None => String::new(),
    }
}

/// An optional duration field: empty means "the default".
pub fn parse_optional_duration(v: &str) -> Result<Option<Duration>, String> {
    if v.trim().is_empty() {
        Ok(None)
    } else {
        Duration::parse(v).map(Some)
    }
}

/// `a, b` → `["a", "b"]` (empty items dropped).
pub fn list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// The first of `prefix1`, `prefix2`, … that `taken` does not contain: what the form names a new
/// stage or cluster, so adding one never creates a duplicate (and never a name KubeFleet's patterns
/// refuse, given a prefix of lower-case letters).
pub fn unique_name<'a>(prefix: &str, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    (1..)
        .map(|n| format!("{prefix}{n}"))
        .find(|name| !taken.clone().any(|t| t == name))
        .unwrap_or_else(|| prefix.to_string())
}

/// The failing clusters from a comma-separated list, keeping what was said (`after`, recovery,
/// preemption) of names already listed.
pub fn failures(current: &[FailureSpec], text: &str) -> Vec<FailureSpec> {
    list(text)
        .into_iter()
        .map(|name| {
            current
                .iter()
                .find(|f| f.cluster == name)
                .cloned()
                .unwrap_or(FailureSpec {
                    cluster: name,
                    ..FailureSpec::default()
                })
        })
        .collect()
}

/// The failing clusters as comma-separated names, and the change that sets them from such text.
pub(crate) fn failing_field(form: &Form, s: &Scenario) -> AnyView {
    let text = s
        .assumptions
        .failures
        .iter()
        .map(|f| f.cluster.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let set: Change = Arc::new(|s, v| {
        s.assumptions.failures = failures(&s.assumptions.failures, v);
        Ok(())
    });
    field(
        form,
        "assumptions.failures".into(),
        "failing clusters",
        text,
        20,
        "member3, member4",
        "failing",
        set,
    )
}

/// The start field (empty: the default start).
pub(crate) fn start_field(form: &Form, s: &Scenario) -> AnyView {
    let start = s.start.map(|t| t.to_string()).unwrap_or_default();
    let set: Change = Arc::new(|s, v| {
        s.start = if v.trim().is_empty() {
            None
        } else {
            Some(Time::parse(v)?)
        };
        Ok(())
    });
    labelled(
        "Start (UTC)",
        field(
            form,
            "start".into(),
            "start",
            start,
            20,
            "2026-11-23T09:00:00Z",
            "",
            set,
        ),
    )
}

/// "selects N clusters: a, b, …" as the core planned it (selector, placement and all).
pub(crate) fn selection_text(plan: Option<&Plan>, index: usize) -> String {
    plan.and_then(|p| {
        p.stages
            .iter()
            .find(|ps| ps.index == index && !ps.delete_stage)
    })
    .map(|ps| {
        let n = ps.clusters.len();
        let names: Vec<&str> = ps
            .clusters
            .iter()
            .take(6)
            .map(|c| c.name.as_str())
            .collect();
        let more = if n > names.len() { ", …" } else { "" };
        let s = if n == 1 { "" } else { "s" };
        format!("selects {n} cluster{s}: {}{more}", names.join(", "))
    })
    .unwrap_or_else(|| "not planned yet".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn labels_and_concurrency_parse_as_typed() {
        let l = parse_labels("env=prod, order = 3,").unwrap();
        assert_eq!(l.get("env"), Some("prod"));
        assert_eq!(l.get("order"), Some("3"));
        assert!(parse_labels("nokey").is_err());
        assert!(parse_labels("=v").is_err());
        assert_eq!(parse_concurrency("2"), Some(IntOrString::Int(2)));
        assert_eq!(
            parse_concurrency("25%"),
            Some(IntOrString::Str("25%".into()))
        );
        assert_eq!(parse_concurrency(" "), None);
        assert_eq!(list(" a, ,b "), ["a", "b"]);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn new_names_skip_the_taken_ones() {
        let taken = ["stage1", "stage3", "canary"];
        assert_eq!(unique_name("stage", taken.iter().copied()), "stage2");
        assert_eq!(unique_name("member", [].iter().copied()), "member1");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_diagnostic_shows_at_its_field_or_its_objects_name() {
        assert!(names_field(
            "strategy.stages[1].maxConcurrency",
            "strategy.stages[1].maxConcurrency"
        ));
        assert!(names_field("clusters[4]", "clusters[4].name"));
        assert!(!names_field("clusters[4]", "clusters[40].name"));
        assert!(!names_field("clusters[4]", "clusters[4].labels"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn failures_keep_their_delay() {
        let kept = vec![FailureSpec {
            cluster: "b".into(),
            after: Some(Duration(60_000)),
            ..FailureSpec::default()
        }];
        let f = failures(&kept, "a, b,");
        assert_eq!(f.len(), 2);
        assert_eq!(f[1].after, Some(Duration(60_000)));
    }
}
