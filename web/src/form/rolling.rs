//! The form's section for `kubefleet-rolling`: the placement (type, counts, affinity) and the rolling
//! update's settings, edited through the text like the rest of the form.

use std::sync::Arc;

use fleetplan::model::{LabelSelector, Placement, Scenario, Strategy};
use fleetplan::plan::Plan;
use fleetplan::rolling::model::{PlacedResource, RollingRun};
use fleetplan::selector;
use leptos::prelude::*;

use super::widgets::{
    failing_field, field, int_or_string_text, labelled, list, parse_concurrency, Change, Form,
};

fn placement(s: &mut Scenario) -> Result<&mut Placement, String> {
    match &mut s.strategy {
        Strategy::KubefleetRolling(r) => Ok(&mut r.placement),
        other => Err(format!("`{}` is not a rolling update", other.kind())),
    }
}

/// A change of the placement through `set`.
fn placement_field(set: fn(&mut Placement, &str) -> Result<(), String>) -> Change {
    Arc::new(move |s, v| set(placement(s)?, v))
}

fn run_mut(s: &mut Scenario) -> Result<&mut RollingRun, String> {
    match &mut s.strategy {
        Strategy::KubefleetRolling(r) => Ok(r),
        other => Err(format!("`{}` is not a rolling update", other.kind())),
    }
}

fn run_field(set: fn(&mut RollingRun, &str) -> Result<(), String>) -> Change {
    Arc::new(move |s, v| set(run_mut(s)?, v))
}

/// `Deployment, Service/LoadBalancer, ConfigMap` → placed resources (a Service's type after a slash).
pub fn parse_resources(text: &str) -> Vec<PlacedResource> {
    list(text)
        .into_iter()
        .map(|r| match r.split_once('/') {
            Some((k, t)) => PlacedResource {
                kind: k.trim().to_string(),
                service_type: Some(t.trim().to_string()).filter(|t| !t.is_empty()),
            },
            None => PlacedResource {
                kind: r,
                service_type: None,
            },
        })
        .collect()
}

pub fn resources_text(r: &[PlacedResource]) -> String {
    r.iter()
        .map(|r| match &r.service_type {
            Some(t) => format!("{}/{t}", r.kind),
            None => r.kind.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `env=prod; env=staging` → the affinity's ORed cluster selector terms (kubectl selector syntax each).
pub fn parse_affinity(text: &str) -> Result<Vec<LabelSelector>, String> {
    text.split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            selector::parse_kubectl(t)
                .map_err(|(col, msg)| format!("affinity `{t}`, column {col}: {msg}"))
        })
        .collect()
}

pub fn affinity_text(terms: &[LabelSelector]) -> String {
    terms
        .iter()
        .map(|t| selector::describe(Some(t)))
        .collect::<Vec<_>>()
        .join("; ")
}

pub(crate) fn rolling_view(form: &Form, s: &Scenario, plan: Option<&Plan>) -> AnyView {
    let Strategy::KubefleetRolling(run) = &s.strategy else {
        return ().into_any();
    };
    let p = &run.placement;
    let set_type = placement_field(|p, v| {
        p.placement_type = v.trim().to_string();
        Ok(())
    });
    let set_n = placement_field(|p, v| {
        p.number_of_clusters = if v.trim().is_empty() {
            None
        } else {
            Some(
                v.trim()
                    .parse()
                    .map_err(|_| format!("`{}` is not a whole number", v.trim()))?,
            )
        };
        Ok(())
    });
    let set_names = placement_field(|p, v| {
        p.cluster_names = list(v);
        Ok(())
    });
    let set_affinity = placement_field(|p, v| {
        p.affinity = parse_affinity(v)?;
        Ok(())
    });
    let ru = &run.rolling_update;
    let set_unavailable = run_field(|r, v| {
        r.rolling_update.max_unavailable = parse_concurrency(v);
        Ok(())
    });
    let set_surge = run_field(|r, v| {
        r.rolling_update.max_surge = parse_concurrency(v);
        Ok(())
    });
    let set_period = run_field(|r, v| {
        r.rolling_update.unavailable_period_seconds = if v.trim().is_empty() {
            None
        } else {
            Some(
                v.trim()
                    .parse()
                    .map_err(|_| format!("`{}` is not a whole number of seconds", v.trim()))?,
            )
        };
        Ok(())
    });
    let set_resources = run_field(|r, v| {
        r.resources = parse_resources(v);
        Ok(())
    });
    let set_update = run_field(|r, v| {
        r.change.update = match v.trim() {
            "yes" | "true" | "" => true,
            "no" | "false" => false,
            other => return Err(format!("`{other}`: answer yes or no")),
        };
        Ok(())
    });
    let set_from = run_field(|r, v| {
        r.change.from = if v.trim().is_empty() {
            None
        } else {
            let mut from = r.change.from.clone().unwrap_or_else(|| r.placement.clone());
            from.affinity = parse_affinity(v)?;
            Some(from)
        };
        Ok(())
    });
    let set_failed = run_field(|r, v| {
        r.change.failed_to_apply = list(v);
        Ok(())
    });
    let from_text = run
        .change
        .from
        .as_ref()
        .map(|f| affinity_text(&f.affinity))
        .unwrap_or_default();
    let picked = plan.map_or_else(
        || "not planned yet".to_string(),
        |p| {
            let names: Vec<&str> = p
                .stages
                .iter()
                .flat_map(|s| s.clusters.iter().map(|c| c.name.as_str()))
                .collect();
            format!(
                "the plan touches {} clusters: {}",
                names.len(),
                names.join(", ")
            )
        },
    );
    view! {
        <fieldset class="form-group" data-testid="rolling-form">
            <legend>"Placement"</legend>
            {labelled("Type", field(form, "strategy.placement.type".into(), "placement type", p.placement_type.clone(), 9, "PickAll, PickN or PickFixed", "", set_type))}
            {labelled("Number of clusters (PickN)", field(form, "strategy.placement.numberOfClusters".into(), "number of clusters", p.number_of_clusters.map(|n| n.to_string()).unwrap_or_default(), 4, "", "", set_n))}
            {labelled("Cluster names (PickFixed)", field(form, "strategy.placement.clusterNames".into(), "cluster names", p.cluster_names.join(", "), 24, "member1, member2", "", set_names))}
            {labelled("Required affinity", field(form, "strategy.placement.affinity".into(), "affinity selector", affinity_text(&p.affinity), 24, "loc=east; env=prod (terms ORed)", "", set_affinity))}
            <p class="selects" data-testid="selects">{picked}</p>
        </fieldset>
        <fieldset class="form-group" data-testid="rolling-update-form">
            <legend>"Rolling update"</legend>
            {labelled("maxUnavailable", field(form, "strategy.rollingUpdate.maxUnavailable".into(), "max unavailable", int_or_string_text(&ru.max_unavailable), 5, "25%", "max-unavailable", set_unavailable))}
            {labelled("maxSurge", field(form, "strategy.rollingUpdate.maxSurge".into(), "max surge", int_or_string_text(&ru.max_surge), 5, "25%", "max-surge", set_surge))}
            {labelled("unavailablePeriodSeconds", field(form, "strategy.rollingUpdate.unavailablePeriodSeconds".into(), "unavailable period seconds", ru.unavailable_period_seconds.map(|n| n.to_string()).unwrap_or_default(), 5, "60", "", set_period))}
            {labelled("Resources", field(form, "strategy.resources".into(), "resource kinds", resources_text(&run.resources), 28, "Deployment, Service/LoadBalancer, ConfigMap", "", set_resources))}
        </fieldset>
        <fieldset class="form-group">
            <legend>"The change"</legend>
            {labelled("New resources (in-place update)", field(form, "strategy.change.update".into(), "in-place update", if run.change.update { "yes" } else { "no" }.to_string(), 4, "yes", "", set_update))}
            {labelled("Placement before (affinity)", field(form, "strategy.change.from".into(), "affinity before the change", from_text, 24, "loc=west (empty: unchanged)", "from-affinity", set_from))}
            {labelled("Failed to apply before", field(form, "strategy.change.failedToApply".into(), "failed to apply", run.change.failed_to_apply.join(", "), 20, "member2", "", set_failed))}
            {labelled("Never become available", failing_field(form, s))}
        </fieldset>
    }
    .into_any()
}
