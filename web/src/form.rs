//! The form editor: stages, clusters and assumptions as fields, in sync with the YAML text.
//!
//! The form shows the scenario the core loaded from the current text; a change edits a copy of that
//! scenario and writes the whole text anew with the core's `yaml_out::scenario_to_yaml`, which then flows
//! through the normal path (undo, re-plan, share link). So there is one source of truth, the text, and
//! the form is derived from it. Values are parsed with the core's own parsers (durations, times, kubectl
//! selectors); a value they refuse is not applied and the reason is shown above the form.
//!
//! Every field and button goes through the few type-erased helpers at the end (`field`, `button`), with
//! boxed callbacks: each distinct closure in a view costs its own copy of the rendering code, and the
//! bundle has a size budget.

use std::collections::BTreeMap;
use std::sync::Arc;

use fleetplan::model::{
    BusinessHours, Cluster, ClusterGenerator, FailureSpec, IntOrString, LabelSpread, Scenario,
    SpreadMode, StageConfig, StageTask, Strategy,
};
use fleetplan::plan::Plan;
use fleetplan::selector;
use fleetplan::time::{Duration, Time};
use fleetplan::yaml_out;
use leptos::prelude::*;

/// Applies a change to a copy of the scenario (or refuses it with a reason) and rewrites the text.
pub(crate) type Edit = Arc<dyn Fn(&dyn Fn(&mut Scenario) -> Result<(), String>) + Send + Sync>;
pub(crate) type OnText = Arc<dyn Fn(String) + Send + Sync>;
pub(crate) type OnClick = Arc<dyn Fn() + Send + Sync>;

/// The stages of the scenario's strategy, to edit.
fn stages_mut(s: &mut Scenario) -> Result<&mut Vec<StageConfig>, String> {
    match &mut s.strategy {
        Strategy::KubefleetStaged(run) => Ok(&mut run.stages),
        other => Err(format!("`{}` has no KubeFleet stages", other.kind())),
    }
}

fn stages(s: &Scenario) -> &[StageConfig] {
    match &s.strategy {
        Strategy::KubefleetStaged(run) => &run.stages,
        _ => &[],
    }
}

/// The before- or after-stage task list of stage `stage`.
fn task_list(s: &mut Scenario, stage: usize, after: bool) -> Result<&mut Vec<StageTask>, String> {
    let st = stages_mut(s)?
        .get_mut(stage)
        .ok_or_else(|| "that stage is gone".to_string())?;
    Ok(if after {
        &mut st.after_stage_tasks
    } else {
        &mut st.before_stage_tasks
    })
}

/// `key=value, key2=value2` → labels; the first malformed pair is the error.
pub fn parse_labels(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((k, v)) = part.split_once('=') else {
            return Err(format!("`{part}` is not key=value"));
        };
        let k = k.trim();
        if k.is_empty() {
            return Err(format!("`{part}` has no key"));
        }
        out.insert(k.to_string(), v.trim().to_string());
    }
    Ok(out)
}

/// `2` → an integer, `25%` (or anything else) → the string, as KubeFleet's IntOrString.
pub fn parse_concurrency(text: &str) -> Option<IntOrString> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    Some(
        t.parse::<i64>()
            .map_or_else(|_| IntOrString::Str(t.to_string()), IntOrString::Int),
    )
}

fn concurrency_text(c: &Option<IntOrString>) -> String {
    match c {
        Some(IntOrString::Int(n)) => n.to_string(),
        Some(IntOrString::Str(s)) => s.clone(),
        None => String::new(),
    }
}

/// An optional duration field: empty means "the default".
fn parse_optional_duration(v: &str) -> Result<Option<Duration>, String> {
    if v.trim().is_empty() {
        Ok(None)
    } else {
        Duration::parse(v).map(Some)
    }
}

/// `540` → `09:00`.
fn hhmm(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

fn parse_hhmm(t: &str) -> Result<u32, String> {
    let bad = || format!("`{}` is not a time of day like 09:00", t.trim());
    let (h, m) = t.trim().split_once(':').ok_or_else(bad)?;
    let (h, m) = (
        h.parse::<u32>().map_err(|_| bad())?,
        m.parse::<u32>().map_err(|_| bad())?,
    );
    if h > 24 || m > 59 || (h == 24 && m > 0) {
        return Err(bad());
    }
    Ok(h * 60 + m)
}

/// `09:00-17:00 +01:00` → business hours (days kept, Monday to Friday when new); empty → none. The core
/// validates the result again when it reads the text back.
pub fn business_hours(
    text: &str,
    keep: Option<BusinessHours>,
) -> Result<Option<BusinessHours>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let (span, offset) = t.split_once(' ').unwrap_or((t, "+00:00"));
    let (start, end) = span
        .split_once('-')
        .ok_or_else(|| format!("`{span}` is not a span like 09:00-17:00"))?;
    let days = keep.map_or_else(|| vec![1, 2, 3, 4, 5], |k| k.days);
    Ok(Some(BusinessHours {
        utc_offset: offset.trim().to_string(),
        // Not written out: the core derives it from `utc_offset` when it reads the text back.
        utc_offset_minutes: 0,
        start: parse_hhmm(start)?,
        end: parse_hhmm(end)?,
        days,
    }))
}

/// The failing clusters from a comma-separated list, keeping what was said (`after`, recovery,
/// preemption) of names already listed.
pub fn failures(current: &[FailureSpec], text: &str) -> Vec<FailureSpec> {
    text.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|name| {
            current
                .iter()
                .find(|f| f.cluster == name)
                .cloned()
                .unwrap_or_else(|| FailureSpec {
                    cluster: name.to_string(),
                    ..FailureSpec::default()
                })
        })
        .collect()
}

/// A generator from the bulk form: `count` clusters named by `pattern`, with `key=v1|v2|…` spread in
/// contiguous blocks (one value: every cluster gets it).
pub fn generator(count: u32, pattern: &str, spread: &str) -> Result<ClusterGenerator, String> {
    if count == 0 {
        return Err("the count must be at least 1".into());
    }
    let name = if pattern.trim().is_empty() {
        "cluster-{i:04}".to_string()
    } else {
        pattern.trim().to_string()
    };
    let mut labels = BTreeMap::new();
    for part in spread.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((k, vs)) = part.split_once('=') else {
            return Err(format!("`{part}` is not key=value1|value2"));
        };
        let values: Vec<String> = vs.split('|').map(|v| v.trim().to_string()).collect();
        labels.insert(
            k.trim().to_string(),
            LabelSpread {
                values,
                mode: SpreadMode::Blocks,
            },
        );
    }
    Ok(ClusterGenerator {
        count,
        name,
        first: 1,
        labels,
    })
}

/// The form. `scenario`: what the current text loads to (`None`: it does not load; the form waits).
/// `apply`: replaces the editor's text (and so commits it).
#[component]
pub fn ScenarioForm(
    #[prop(into)] scenario: Signal<Option<Arc<Scenario>>>,
    #[prop(into)] plan: Signal<Option<Arc<Plan>>>,
    apply: impl Fn(String) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let problem: RwSignal<Option<String>> = RwSignal::new(None);
    let edit: Edit = Arc::new(move |f: &dyn Fn(&mut Scenario) -> Result<(), String>| {
        let Some(current) = scenario.get_untracked() else {
            return;
        };
        let mut s = (*current).clone();
        match f(&mut s) {
            Ok(()) => {
                problem.set(None);
                apply(yaml_out::scenario_to_yaml(&s));
            }
            Err(e) => problem.set(Some(e)),
        }
    });
    // The bulk generator's inputs live here so they survive the form being redrawn after each edit.
    let bulk = (
        RwSignal::new(String::from("10")),
        RwSignal::new(String::from("cluster-{i:03}")),
        RwSignal::new(String::from("env=prod, ring=0|1|2")),
    );

    let body = move || {
        let Some(s) = scenario.get() else {
            return view! {
                <p class="form-wait">"The text has errors; fix them in the YAML tab and the form comes back."</p>
            }
            .into_any();
        };
        let plan = plan.get();
        match &s.strategy {
            Strategy::GkeRolloutSequence(_) | Strategy::GkeFleetSequence(_) => view! {
                <div class="form-body">
                    {start_view(&s, &edit)}
                    {crate::form_gke::sequence_view(&s, plan.as_deref(), &edit)}
                    {crate::form_gke::versions_view(&s, &edit)}
                    {crate::form_gke::clusters_view(&s, &edit)}
                </div>
            }
            .into_any(),
            Strategy::KubefleetRolling(_) => view! {
                <div class="form-body">
                    {start_view(&s, &edit)}
                    {crate::form_rolling::rolling_view(&s, plan.as_deref(), &edit)}
                    {clusters_view(&s, &edit, bulk)}
                </div>
            }
            .into_any(),
            Strategy::KubefleetStaged(_) => view! {
                <div class="form-body">
                    {assumptions_view(&s, &edit)}
                    {stages_view(&s, plan.as_deref(), &edit)}
                    {clusters_view(&s, &edit, bulk)}
                </div>
            }
            .into_any(),
        }
    };

    view! {
        <div class="scenario-form" data-testid="form">
            <p class="hint">"Changes here rewrite the YAML in fleetplan's scenario format (comments are not kept)."</p>
            {move || problem.get().map(|p| view! { <p class="form-problem" role="alert">{p}</p> })}
            {body}
        </div>
    }
}

/// Sets the scenario's start from the text (empty: the default start).
fn start_setter(edit: &Edit) -> OnText {
    let e = edit.clone();
    Arc::new(move |v| {
        e(&|s| {
            s.start = if v.trim().is_empty() {
                None
            } else {
                Some(Time::parse(&v)?)
            };
            Ok(())
        })
    })
}

/// The failing clusters as comma-separated names, and the edit that sets them from such text.
pub(crate) fn failing_field(s: &Scenario, edit: &Edit) -> (String, OnText) {
    let text = s
        .assumptions
        .failures
        .iter()
        .map(|f| f.cluster.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let e = edit.clone();
    let set: OnText = Arc::new(move |v| {
        e(&|s| {
            s.assumptions.failures = failures(&s.assumptions.failures, &v);
            Ok(())
        })
    });
    (text, set)
}

/// The start time alone, for the kinds whose other assumptions live in their own sections.
fn start_view(s: &Scenario, edit: &Edit) -> AnyView {
    let start = s.start.map(|t| t.to_string()).unwrap_or_default();
    let set_start = start_setter(edit);
    view! {
        <fieldset class="form-group">
            <legend>"Start"</legend>
            {labelled("Start (UTC)", field("start", start, 20, "2026-11-23T09:00:00Z", "", set_start))}
        </fieldset>
    }
    .into_any()
}

fn assumptions_view(s: &Scenario, edit: &Edit) -> AnyView {
    let start = s.start.map(|t| t.to_string()).unwrap_or_default();
    let update = s
        .assumptions
        .update_duration
        .map(|d| d.to_string())
        .unwrap_or_default();
    let delay = s
        .assumptions
        .approvals
        .delay
        .map(|d| d.to_string())
        .unwrap_or_default();
    let set_start = start_setter(edit);
    let e = edit.clone();
    let set_update: OnText = Arc::new(move |v| {
        e(&|s| {
            s.assumptions.update_duration = parse_optional_duration(&v)?;
            Ok(())
        })
    });
    let e = edit.clone();
    let set_delay: OnText = Arc::new(move |v| {
        e(&|s| {
            s.assumptions.approvals.delay = parse_optional_duration(&v)?;
            Ok(())
        })
    });
    let (failing, set_failing) = failing_field(s, edit);
    let hours_text = s
        .assumptions
        .approvals
        .business_hours
        .as_ref()
        .map(|h| format!("{}-{} {}", hhmm(h.start), hhmm(h.end), h.utc_offset))
        .unwrap_or_default();
    let e = edit.clone();
    let set_hours: OnText = Arc::new(move |v| {
        e(&|s| {
            let keep = s.assumptions.approvals.business_hours.clone();
            s.assumptions.approvals.business_hours = business_hours(&v, keep)?;
            Ok(())
        })
    });
    view! {
        <fieldset class="form-group">
            <legend>"Assumptions"</legend>
            {labelled("Start (UTC)", field("start", start, 20, "2026-11-23T09:00:00Z", "", set_start))}
            {labelled("Update duration", field("update duration", update, 8, "default", "", set_update))}
            {labelled("Approval delay", field("approval delay", delay, 8, "default", "", set_delay))}
            {labelled("Approvers work", field("business hours", hours_text, 22, "09:00-17:00 +01:00 (empty: any hour)", "", set_hours))}
            {labelled("Failing clusters", field("failing clusters", failing, 24, "member3, member4", "", set_failing))}
        </fieldset>
    }
    .into_any()
}

fn task_view(stage: usize, after: bool, i: usize, t: &StageTask, edit: &Edit) -> AnyView {
    let is_wait = t.kind == "TimedWait";
    let e = edit.clone();
    // Switching the kind: TimedWait gets a wait time to edit, Approval loses it (KubeFleet drops it).
    let toggle: OnClick = Arc::new(move || {
        e(&|s| {
            if let Some(t) = task_list(s, stage, after)?.get_mut(i) {
                if t.kind == "TimedWait" {
                    t.kind = "Approval".into();
                    t.wait_time = None;
                } else {
                    t.kind = "TimedWait".into();
                    t.wait_time = Some("1h".into());
                }
            }
            Ok(())
        })
    });
    let e = edit.clone();
    let remove: OnClick = Arc::new(move || {
        e(&|s| {
            let l = task_list(s, stage, after)?;
            if i < l.len() {
                l.remove(i);
            }
            Ok(())
        })
    });
    let wait = is_wait.then(|| {
        let e = edit.clone();
        let set: OnText = Arc::new(move |v| {
            // Kept as written: the core checks it against KubeFleet's pattern and says so.
            e(&|s| {
                if let Some(t) = task_list(s, stage, after)?.get_mut(i) {
                    t.wait_time = Some(v.trim().to_string());
                }
                Ok(())
            })
        });
        field(
            "wait time",
            t.wait_time.clone().unwrap_or_default(),
            6,
            "1h",
            "wait",
            set,
        )
    });
    view! {
        <li class="task">
            {button(if is_wait { "TimedWait" } else { "Approval" }, "switch between Approval and TimedWait", "small", false, toggle)}
            {wait}
            {button("×", "remove this task", "small", false, remove)}
        </li>
    }
    .into_any()
}

fn tasks_view(stage: usize, after: bool, tasks: &[StageTask], edit: &Edit) -> AnyView {
    let items: Vec<AnyView> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| task_view(stage, after, i, t, edit))
        .collect();
    let add = |kind: &'static str| -> OnClick {
        let e = edit.clone();
        Arc::new(move || {
            e(&|s| {
                task_list(s, stage, after)?.push(StageTask {
                    kind: kind.into(),
                    wait_time: (kind == "TimedWait").then(|| "1h".into()),
                });
                Ok(())
            })
        })
    };
    view! {
        <div class="tasks">
            <span class="tasks-title">{if after { "after" } else { "before" }}</span>
            <ul>{items}</ul>
            {button("+ approval", "add an Approval task", "small", false, add("Approval"))}
            {button("+ wait", "add a TimedWait task", "small", false, add("TimedWait"))}
        </div>
    }
    .into_any()
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

fn stage_view(
    i: usize,
    count: usize,
    st: &StageConfig,
    plan: Option<&Plan>,
    edit: &Edit,
) -> AnyView {
    let stage_edit = |f: fn(&mut StageConfig, &str) -> Result<(), String>| -> OnText {
        let e = edit.clone();
        Arc::new(move |v| {
            e(&|s| match stages_mut(s)?.get_mut(i) {
                Some(st) => f(st, &v),
                None => Ok(()),
            })
        })
    };
    let set_name = stage_edit(|st, v| {
        st.name = v.trim().to_string();
        Ok(())
    });
    let set_selector = stage_edit(|st, v| {
        let parsed = selector::parse_kubectl(v)
            .map_err(|(col, msg)| format!("selector, column {col}: {msg}"))?;
        st.label_selector = Some(parsed);
        Ok(())
    });
    let set_sort = stage_edit(|st, v| {
        st.sorting_label_key = Some(v.trim().to_string()).filter(|k| !k.is_empty());
        Ok(())
    });
    let set_conc = stage_edit(|st, v| {
        st.max_concurrency = parse_concurrency(v);
        Ok(())
    });
    let moved = |delta: isize| -> OnClick {
        let e = edit.clone();
        Arc::new(move || {
            e(&|s| {
                let j = i as isize + delta;
                let stages = stages_mut(s)?;
                if j >= 0 && (j as usize) < stages.len() && i < stages.len() {
                    stages.swap(i, j as usize);
                }
                Ok(())
            })
        })
    };
    let e = edit.clone();
    let delete: OnClick = Arc::new(move || {
        e(&|s| {
            let stages = stages_mut(s)?;
            if i < stages.len() {
                stages.remove(i);
            }
            Ok(())
        })
    });
    let sel = match selector::describe(st.label_selector.as_ref()).as_str() {
        "<none>" | "<all>" => String::new(),
        other => other.to_string(),
    };
    view! {
        <li class="stage-card" data-stage=st.name.clone()>
            <div class="stage-head">
                {field("stage name", st.name.clone(), 16, "", "stage-name", set_name)}
                {button("↑", "move up", "", i == 0, moved(-1))}
                {button("↓", "move down", "", i + 1 >= count, moved(1))}
                {button("Delete", "delete this stage", "", false, delete)}
            </div>
            {labelled("Selector", field("label selector", sel, 28, "env=prod,region in (eu,us),!canary", "selector", set_selector))}
            <p class="selects" data-testid="selects">{selection_text(plan, i)}</p>
            <div class="stage-row">
                {labelled("Sort by label", field("sorting label key", st.sorting_label_key.clone().unwrap_or_default(), 8, "", "", set_sort))}
                {labelled("Max concurrency", field("max concurrency", concurrency_text(&st.max_concurrency), 5, "1", "", set_conc))}
            </div>
            {tasks_view(i, false, &st.before_stage_tasks, edit)}
            {tasks_view(i, true, &st.after_stage_tasks, edit)}
        </li>
    }
    .into_any()
}

fn stages_view(s: &Scenario, plan: Option<&Plan>, edit: &Edit) -> AnyView {
    let count = stages(s).len();
    let cards: Vec<AnyView> = stages(s)
        .iter()
        .enumerate()
        .map(|(i, st)| stage_view(i, count, st, plan, edit))
        .collect();
    let e = edit.clone();
    let add: OnClick = Arc::new(move || {
        e(&|s| {
            let stages = stages_mut(s)?;
            let n = stages.len() + 1;
            stages.push(StageConfig {
                name: format!("stage-{n}"),
                label_selector: Some(Default::default()),
                ..Default::default()
            });
            Ok(())
        })
    });
    view! {
        <fieldset class="form-group">
            <legend>"Stages"</legend>
            <ol class="stage-cards">{cards}</ol>
            {button("+ Add stage", "add a stage at the end", "", false, add)}
        </fieldset>
    }
    .into_any()
}

/// How many listed clusters the table shows; a larger fleet is better edited as text or generators.
const TABLE_LIMIT: usize = 200;

fn cluster_row(i: usize, c: &Cluster, edit: &Edit) -> AnyView {
    let chips: Vec<AnyView> = c
        .labels
        .iter()
        .map(|(k, v)| {
            let key = k.clone();
            let e = edit.clone();
            let remove: OnClick = Arc::new(move || {
                e(&|s| {
                    if let Some(c) = s.clusters.get_mut(i) {
                        c.labels.remove(&key);
                    }
                    Ok(())
                })
            });
            view! { <span class="chip">{format!("{k}={v}")}{button("×", "remove this label", "chip-x", false, remove)}</span> }
                .into_any()
        })
        .collect();
    let e = edit.clone();
    let rename: OnText = Arc::new(move |v| {
        e(&|s| {
            if let Some(c) = s.clusters.get_mut(i) {
                c.name = v.trim().to_string();
            }
            Ok(())
        })
    });
    let e = edit.clone();
    let add_labels: OnText = Arc::new(move |v| {
        e(&|s| {
            let add = parse_labels(&v)?;
            if let Some(c) = s.clusters.get_mut(i) {
                c.labels.extend(add);
            }
            Ok(())
        })
    });
    let e = edit.clone();
    let remove: OnClick = Arc::new(move || {
        e(&|s| {
            if i < s.clusters.len() {
                s.clusters.remove(i);
            }
            Ok(())
        })
    });
    view! {
        <tr>
            <td>{field("cluster name", c.name.clone(), 12, "", "", rename)}</td>
            <td class="chips">{chips}{field("add labels", String::new(), 10, "key=value", "add-label", add_labels)}</td>
            <td>{button("×", "remove this cluster", "", false, remove)}</td>
        </tr>
    }
    .into_any()
}

fn clusters_view(
    s: &Scenario,
    edit: &Edit,
    (count, name, labels): (RwSignal<String>, RwSignal<String>, RwSignal<String>),
) -> AnyView {
    let rows: Vec<AnyView> = s
        .clusters
        .iter()
        .take(TABLE_LIMIT)
        .enumerate()
        .map(|(i, c)| cluster_row(i, c, edit))
        .collect();
    let hidden = s.clusters.len().saturating_sub(TABLE_LIMIT);
    let generators: Vec<AnyView> = s
        .generate
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let spread: Vec<String> = g
                .labels
                .iter()
                .map(|(k, l)| format!("{k}={}", l.values.join("|")))
                .collect();
            let e = edit.clone();
            let remove: OnClick = Arc::new(move || {
                e(&|s| {
                    if i < s.generate.len() {
                        s.generate.remove(i);
                    }
                    Ok(())
                })
            });
            view! { <li>{format!("{} × {} {}", g.count, g.name, spread.join(", "))}{button("×", "remove this generator", "small", false, remove)}</li> }
                .into_any()
        })
        .collect();
    let e = edit.clone();
    let add: OnClick = Arc::new(move || {
        e(&|s| {
            let n = s.clusters.len() + 1;
            s.clusters.push(Cluster {
                name: format!("member{n}"),
                ..Default::default()
            });
            Ok(())
        })
    });
    let e = edit.clone();
    let generate: OnClick = Arc::new(move || {
        let n = count
            .get_untracked()
            .trim()
            .parse::<u32>()
            .map_err(|_| "the count must be a whole number".to_string());
        let (pattern, spread) = (name.get_untracked(), labels.get_untracked());
        e(&|s| {
            s.generate.push(generator(n.clone()?, &pattern, &spread)?);
            Ok(())
        })
    });
    let keep = |sig: RwSignal<String>| -> OnText { Arc::new(move |v| sig.set(v)) };
    view! {
        <fieldset class="form-group">
            <legend>"Clusters"</legend>
            <table class="clusters">
                <thead><tr><th>"name"</th><th>"labels"</th><th></th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            {(hidden > 0).then(|| view! { <p class="hint">{format!("and {hidden} more listed clusters (edit them in the YAML)")}</p> })}
            {button("+ Add cluster", "add a cluster", "", false, add)}
            <h4>"Generated"</h4>
            <ul class="generators">{generators}</ul>
            <div class="bulk">
                {field("how many", count.get_untracked(), 5, "", "", keep(count))}
                " named "
                {field("name pattern", name.get_untracked(), 14, "", "", keep(name))}
                " with "
                {field("label spread", labels.get_untracked(), 20, "", "", keep(labels))}
                {button("Generate", "add a generated block of clusters", "", false, generate)}
            </div>
        </fieldset>
    }
    .into_any()
}

/// A text field that reports its value when changed (on Enter or leaving it), not on every key: the
/// whole text is rewritten per change.
pub(crate) fn field(
    label: &'static str,
    value: String,
    size: u32,
    placeholder: &'static str,
    class: &'static str,
    set: OnText,
) -> AnyView {
    view! {
        <input
            class=class
            size=size
            placeholder=placeholder
            aria-label=label
            prop:value=value
            on:change=move |ev| set(event_target_value(&ev))
        />
    }
    .into_any()
}

pub(crate) fn labelled(text: &'static str, input: AnyView) -> AnyView {
    view! { <label>{text}" "{input}</label> }.into_any()
}

pub(crate) fn button(
    text: &'static str,
    title: &'static str,
    class: &'static str,
    disabled: bool,
    act: OnClick,
) -> AnyView {
    view! { <button class=class title=title disabled=disabled on:click=move |_| act()>{text}</button> }
        .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn labels_and_concurrency_parse_as_typed() {
        let l = parse_labels("env=prod, order = 3,").unwrap();
        assert_eq!(l.get("env").map(String::as_str), Some("prod"));
        assert_eq!(l.get("order").map(String::as_str), Some("3"));
        assert!(parse_labels("nokey").is_err());
        assert!(parse_labels("=v").is_err());
        assert_eq!(parse_concurrency("2"), Some(IntOrString::Int(2)));
        assert_eq!(
            parse_concurrency("25%"),
            Some(IntOrString::Str("25%".into()))
        );
        assert_eq!(parse_concurrency(" "), None);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_bulk_generator_spreads_labels_in_blocks() {
        let g = generator(6, "", "ring=0|1|2, env=prod").unwrap();
        assert_eq!(g.name, "cluster-{i:04}");
        assert_eq!(g.labels["ring"].values, ["0", "1", "2"]);
        assert_eq!(g.labels["ring"].mode, SpreadMode::Blocks);
        assert!(generator(0, "x", "").is_err());
        assert!(generator(3, "x", "ring").is_err());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn business_hours_and_failures_read_as_typed() {
        let h = business_hours("08:30-16:00 +01:00", None).unwrap().unwrap();
        assert_eq!(
            (h.start, h.end, h.utc_offset.as_str()),
            (510, 960, "+01:00")
        );
        assert_eq!(h.days, [1, 2, 3, 4, 5]);
        assert_eq!(business_hours("  ", Some(h.clone())), Ok(None));
        assert!(business_hours("9-17", None).is_err());
        assert!(business_hours("25:00-26:00", None).is_err());
        let kept = vec![FailureSpec {
            cluster: "b".into(),
            after: Some(Duration(60_000)),
            ..FailureSpec::default()
        }];
        let f = failures(&kept, "a, b,");
        assert_eq!(f.len(), 2);
        assert_eq!(f[1].after, Some(Duration(60_000)));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_form_edit_round_trips_through_the_text() {
        // What the form does: load, change a wait time, write the text, load again.
        let text = crate::link::example_text();
        let a = crate::analysis::analyse(text, None);
        let mut s = (*a.scenario.clone().unwrap()).clone();
        stages_mut(&mut s).unwrap()[0].after_stage_tasks[0].wait_time = Some("3h".into());
        let b = crate::analysis::analyse(&yaml_out::scenario_to_yaml(&s), None);
        assert!(
            !b.stale && b.count(fleetplan::Severity::Error) == 0,
            "{:?}",
            b.diagnostics
        );
        let (before, after) = (a.plan.unwrap().end.unwrap(), b.plan.unwrap().end.unwrap());
        assert_eq!(
            after.since(before),
            fleetplan::time::Duration(2 * 3_600_000)
        );
        // Failing clusters and business hours written by the form read back as the same assumptions.
        s.assumptions.failures = failures(&[], "member3");
        let keep = s.assumptions.approvals.business_hours.clone();
        s.assumptions.approvals.business_hours =
            business_hours("10:00-16:00 +02:00", keep).unwrap();
        let c = crate::analysis::analyse(&yaml_out::scenario_to_yaml(&s), None);
        let back = c.scenario.unwrap();
        assert_eq!(back.assumptions.failures, s.assumptions.failures);
        let h = back.assumptions.approvals.business_hours.as_ref().unwrap();
        assert_eq!((h.start, h.end, h.utc_offset_minutes), (600, 960, 120));
        // A failed cluster is retried forever by default: the run hangs instead of failing.
        assert_eq!(c.plan.unwrap().outcome, fleetplan::plan::Outcome::Blocked);
    }
}
