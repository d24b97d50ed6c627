//! The form's sections for `kubefleet-staged`: the assumptions, and the stages with their selectors,
//! sorting, concurrency and before/after tasks.
//!
//! Nothing the form creates is refused by KubeFleet: a new stage gets a free name that matches the
//! stage-name pattern and a selector that selects no cluster yet (an empty stage is skipped, not an
//! error), and the task buttons only offer what the controller accepts (one Approval before a stage; at
//! most one Approval and one TimedWait after it).

use std::sync::Arc;

use fleetplan::model::{BusinessHours, LabelSelector, Scenario, StageConfig, StageTask, Strategy};
use fleetplan::plan::Plan;
use fleetplan::selector;
use leptos::prelude::*;

use super::widgets::{
    button, failing_field, field, int_or_string_text, labelled, parse_concurrency,
    parse_optional_duration, selection_text, start_field, unique_name, Act, Change, Form,
};

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

pub(crate) fn assumptions_view(form: &Form, s: &Scenario) -> AnyView {
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
    let set_update: Change = Arc::new(|s, v| {
        s.assumptions.update_duration = parse_optional_duration(v)?;
        Ok(())
    });
    let set_delay: Change = Arc::new(|s, v| {
        s.assumptions.approvals.delay = parse_optional_duration(v)?;
        Ok(())
    });
    let hours_text = s
        .assumptions
        .approvals
        .business_hours
        .as_ref()
        .map(|h| format!("{}-{} {}", hhmm(h.start), hhmm(h.end), h.utc_offset))
        .unwrap_or_default();
    let set_hours: Change = Arc::new(|s, v| {
        let keep = s.assumptions.approvals.business_hours.clone();
        s.assumptions.approvals.business_hours = business_hours(v, keep)?;
        Ok(())
    });
    view! {
        <fieldset class="form-group">
            <legend>"Assumptions"</legend>
            {start_field(form, s)}
            {labelled("Update duration", field(form, "assumptions.updateDuration".into(), "update duration", update, 8, "default", "", set_update))}
            {labelled("Approval delay", field(form, "assumptions.approvals.delay".into(), "approval delay", delay, 8, "default", "", set_delay))}
            {labelled("Approvers work", field(form, "assumptions.approvals.businessHours".into(), "business hours", hours_text, 22, "09:00-17:00 +01:00 (empty: any hour)", "", set_hours))}
            {labelled("Failing clusters", failing_field(form, s))}
        </fieldset>
    }
    .into_any()
}

fn task_view(
    form: &Form,
    stage: usize,
    after: bool,
    i: usize,
    t: &StageTask,
    others: &[StageTask],
) -> AnyView {
    let is_wait = t.kind == "TimedWait";
    // Switching the kind: TimedWait gets a wait time to edit, Approval loses it (KubeFleet drops it).
    // Offered only after a stage, and only when the other kind is not there already.
    let other_kind = if is_wait { "Approval" } else { "TimedWait" };
    let can_switch = after
        && !others
            .iter()
            .enumerate()
            .any(|(j, o)| j != i && o.kind == other_kind);
    let toggle: Act = Arc::new(move |s| {
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
    });
    let remove: Act = Arc::new(move |s| {
        let l = task_list(s, stage, after)?;
        if i < l.len() {
            l.remove(i);
        }
        Ok(())
    });
    let side = if after {
        "afterStageTasks"
    } else {
        "beforeStageTasks"
    };
    let wait = is_wait.then(|| {
        // Kept as written: the core checks it against KubeFleet's pattern and says so next to it.
        let set: Change = Arc::new(move |s, v| {
            if let Some(t) = task_list(s, stage, after)?.get_mut(i) {
                t.wait_time = Some(v.trim().to_string());
            }
            Ok(())
        });
        field(
            form,
            format!("strategy.stages[{stage}].{side}[{i}].waitTime"),
            "wait time",
            t.wait_time.clone().unwrap_or_default(),
            6,
            "1h",
            "wait",
            set,
        )
    });
    let (kind_text, switch_name) = if is_wait {
        ("TimedWait", "switch this TimedWait to an Approval")
    } else {
        ("Approval", "switch this Approval to a TimedWait")
    };
    view! {
        <li class="task">
            {if can_switch {
                button(form, kind_text, switch_name, "small", false, toggle)
            } else {
                view! { <span class="task-kind">{kind_text}</span> }.into_any()
            }}
            {wait}
            {button(form, "×", if is_wait { "remove this TimedWait" } else { "remove this Approval" }, "small", false, remove)}
        </li>
    }
    .into_any()
}

fn tasks_view(form: &Form, stage: usize, after: bool, tasks: &[StageTask]) -> AnyView {
    let items: Vec<AnyView> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| task_view(form, stage, after, i, t, tasks))
        .collect();
    let add = |kind: &'static str| -> Act {
        Arc::new(move |s| {
            task_list(s, stage, after)?.push(StageTask {
                kind: kind.into(),
                wait_time: (kind == "TimedWait").then(|| "1h".into()),
            });
            Ok(())
        })
    };
    let has = |kind: &str| tasks.iter().any(|t| t.kind == kind);
    // KubeFleet: before a stage at most one task, an Approval; after it at most one of each type.
    let (approval_ok, wait_ok) = if after {
        (!has("Approval"), !has("TimedWait"))
    } else {
        (tasks.is_empty(), false)
    };
    view! {
        <div class="tasks">
            <span class="tasks-title">{if after { "after" } else { "before" }}</span>
            <ul>{items}</ul>
            {approval_ok.then(|| button(form, "+ approval", if after { "add an Approval after this stage" } else { "add an Approval before this stage" }, "small", false, add("Approval")))}
            {wait_ok.then(|| button(form, "+ wait", "add a TimedWait after this stage", "small", false, add("TimedWait")))}
        </div>
    }
    .into_any()
}

fn stage_view(
    form: &Form,
    i: usize,
    count: usize,
    st: &StageConfig,
    plan: Option<&Plan>,
) -> AnyView {
    let stage_edit = |f: fn(&mut StageConfig, &str) -> Result<(), String>| -> Change {
        Arc::new(move |s, v| match stages_mut(s)?.get_mut(i) {
            Some(st) => f(st, v),
            None => Ok(()),
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
    let moved = |delta: isize| -> Act {
        Arc::new(move |s| {
            let j = i as isize + delta;
            let stages = stages_mut(s)?;
            if j >= 0 && (j as usize) < stages.len() && i < stages.len() {
                stages.swap(i, j as usize);
            }
            Ok(())
        })
    };
    let delete: Act = Arc::new(move |s| {
        let stages = stages_mut(s)?;
        if i < stages.len() {
            stages.remove(i);
        }
        Ok(())
    });
    let sel = match selector::describe(st.label_selector.as_ref()).as_str() {
        "<none>" | "<all>" => String::new(),
        other => other.to_string(),
    };
    let p = format!("strategy.stages[{i}]");
    view! {
        <li class="stage-card" data-stage=st.name.clone()>
            <div class="stage-head">
                {field(form, format!("{p}.name"), "stage name", st.name.clone(), 16, "", "stage-name", set_name)}
                {button(form, "↑", "move this stage up", "", i == 0, moved(-1))}
                {button(form, "↓", "move this stage down", "", i + 1 >= count, moved(1))}
                {button(form, "Delete", "delete this stage", "", false, delete)}
            </div>
            {labelled("Selector", field(form, format!("{p}.labelSelector"), "label selector", sel, 28, "env=prod,region in (eu,us),!canary", "selector", set_selector))}
            <p class="selects" data-testid="selects">{selection_text(plan, i)}</p>
            <div class="stage-row">
                {labelled("Sort by label", field(form, format!("{p}.sortingLabelKey"), "sorting label key", st.sorting_label_key.clone().unwrap_or_default(), 8, "", "", set_sort))}
                {labelled("Max concurrency", field(form, format!("{p}.maxConcurrency"), "max concurrency", int_or_string_text(&st.max_concurrency), 5, "1", "", set_conc))}
            </div>
            {tasks_view(form, i, false, &st.before_stage_tasks)}
            {tasks_view(form, i, true, &st.after_stage_tasks)}
        </li>
    }
    .into_any()
}

/// A new stage: a free name `stageN` (KubeFleet's stage names are lower-case alphanumerics and `-`,
/// starting with a letter) and a selector no cluster matches yet (`stage=stageN`), so it is valid and
/// empty until the user points it at clusters. An empty selector would select every cluster, which
/// then sits in two stages: an error.
pub fn new_stage(existing: &[StageConfig]) -> StageConfig {
    let name = unique_name("stage", existing.iter().map(|s| s.name.as_str()));
    let mut sel = LabelSelector::default();
    sel.match_labels.insert("stage", &name);
    StageConfig {
        name,
        label_selector: Some(sel),
        ..Default::default()
    }
}

pub(crate) fn stages_view(form: &Form, s: &Scenario, plan: Option<&Plan>) -> AnyView {
    let count = stages(s).len();
    let cards: Vec<AnyView> = stages(s)
        .iter()
        .enumerate()
        .map(|(i, st)| stage_view(form, i, count, st, plan))
        .collect();
    let add: Act = Arc::new(|s| {
        let stages = stages_mut(s)?;
        let stage = new_stage(stages);
        stages.push(stage);
        Ok(())
    });
    view! {
        <fieldset class="form-group">
            <legend>"Stages"</legend>
            <ol class="stage-cards">{cards}</ol>
            {button(form, "+ Add stage", "add a stage at the end", "", false, add)}
        </fieldset>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::widgets::failures;
    use fleetplan::time::Duration;
    use fleetplan::yaml_out;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn business_hours_read_as_typed() {
        let h = business_hours("08:30-16:00 +01:00", None).unwrap().unwrap();
        assert_eq!(
            (h.start, h.end, h.utc_offset.as_str()),
            (510, 960, "+01:00")
        );
        assert_eq!(h.days, [1, 2, 3, 4, 5]);
        assert_eq!(business_hours("  ", Some(h.clone())), Ok(None));
        assert!(business_hours("9-17", None).is_err());
        assert!(business_hours("25:00-26:00", None).is_err());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn stages_the_form_adds_are_valid_and_select_nothing() {
        // KubeFleet refuses `stage-1`-style names only by pattern; what matters to a user is that adding
        // stages to the example, even several, leaves the scenario free of errors.
        let text = crate::link::example_text();
        let a = crate::analysis::analyse(text, None);
        let mut s = (*a.scenario.clone().unwrap()).clone();
        for _ in 0..3 {
            let st = stages_mut(&mut s).unwrap();
            let new = new_stage(st);
            st.push(new);
        }
        let names: Vec<&str> = stages(&s).iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names[3..], ["stage1", "stage2", "stage3"]);
        let b = crate::analysis::analyse(&yaml_out::scenario_to_yaml(&s), None);
        assert_eq!(
            b.count(fleetplan::Severity::Error),
            0,
            "{:?}",
            b.diagnostics
        );
        let plan = b.plan.unwrap();
        assert_eq!(plan.outcome, fleetplan::plan::Outcome::Succeeded);
        for st in plan.stages.iter().filter(|st| st.name.starts_with("stage")) {
            assert!(
                st.clusters.is_empty(),
                "{} selects {:?}",
                st.name,
                st.clusters
            );
        }
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
        assert_eq!(after.since(before), Duration(2 * 3_600_000));
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
