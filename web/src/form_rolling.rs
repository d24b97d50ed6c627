//! The form's section for `kubefleet-rolling`: the placement (type, counts, affinity) and the rolling
//! update's settings, edited through the text like the rest of the form.

use std::sync::Arc;

use fleetplan::model::{LabelSelector, Placement, Scenario, Strategy};
use fleetplan::plan::Plan;
use fleetplan::selector;
use leptos::prelude::*;

use crate::form::{field, labelled, Edit, OnText};
use crate::form_gke::list;

fn placement(s: &mut Scenario) -> Result<&mut Placement, String> {
    match &mut s.strategy {
        Strategy::KubefleetRolling(r) => Ok(&mut r.placement),
        other => Err(format!("`{}` is not a rolling update", other.kind())),
    }
}

/// A field editing the placement (or the run) through `set`.
fn placement_field(edit: &Edit, set: fn(&mut Placement, &str) -> Result<(), String>) -> OnText {
    let e = edit.clone();
    Arc::new(move |v| e(&|s| set(placement(s)?, &v)))
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

pub fn rolling_view(s: &Scenario, plan: Option<&Plan>, edit: &Edit) -> AnyView {
    let Strategy::KubefleetRolling(run) = &s.strategy else {
        return ().into_any();
    };
    let p = &run.placement;
    let set_type = placement_field(edit, |p, v| {
        p.placement_type = v.trim().to_string();
        Ok(())
    });
    let set_n = placement_field(edit, |p, v| {
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
    let set_names = placement_field(edit, |p, v| {
        p.cluster_names = list(v);
        Ok(())
    });
    let set_affinity = placement_field(edit, |p, v| {
        p.affinity = parse_affinity(v)?;
        Ok(())
    });
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
            {labelled("Type", field("placement type", p.placement_type.clone(), 9, "PickAll, PickN or PickFixed", "", set_type))}
            {labelled("Number of clusters (PickN)", field("number of clusters", p.number_of_clusters.map(|n| n.to_string()).unwrap_or_default(), 4, "", "", set_n))}
            {labelled("Cluster names (PickFixed)", field("cluster names", p.cluster_names.join(", "), 24, "member1, member2", "", set_names))}
            {labelled("Required affinity", field("affinity selector", affinity_text(&p.affinity), 24, "loc=east; env=prod (terms ORed)", "", set_affinity))}
            <p class="selects" data-testid="selects">{picked}</p>
        </fieldset>
    }
    .into_any()
}
