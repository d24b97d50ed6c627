//! The form's fleet section for the KubeFleet kinds: listed clusters with label chips, the generators,
//! and the bulk generator that adds a numbered block of clusters.

use std::sync::Arc;

use fleetplan::model::{Cluster, ClusterGenerator, LabelSpread, Scenario, SpreadMode};
use leptos::prelude::*;

use super::widgets::{button, field, parse_labels, unique_name, Act, Change, Form};

/// How many listed clusters the table shows; a larger fleet is better edited as text or generators.
const TABLE_LIMIT: usize = 200;

/// The bulk generator's inputs: how many, the name pattern, the label spread.
#[derive(Clone, Copy)]
pub(crate) struct Bulk {
    count: RwSignal<String>,
    name: RwSignal<String>,
    labels: RwSignal<String>,
}

impl Bulk {
    pub fn new() -> Bulk {
        Bulk {
            count: RwSignal::new("10".into()),
            name: RwSignal::new("cluster-{i:03}".into()),
            labels: RwSignal::new("env=prod, ring=0|1|2, order={i}".into()),
        }
    }
}

/// A generator from the bulk form: `count` clusters named by `pattern`, with `key=v1|v2|…` spread in
/// contiguous blocks (one value: every cluster gets it; `{i}` or `{i:03}` in a value numbers it the way
/// the name pattern does).
pub fn generator(count: u32, pattern: &str, spread: &str) -> Result<ClusterGenerator, String> {
    if count == 0 {
        return Err("the count must be at least 1".into());
    }
    let name = if pattern.trim().is_empty() {
        "cluster-{i:04}".to_string()
    } else {
        pattern.trim().to_string()
    };
    if !fleetplan::substr::contains(&name, "{i") {
        return Err(format!(
            "the name pattern `{name}` needs `{{i}}` (or `{{i:03}}`) for the cluster's number"
        ));
    }
    let mut labels = Vec::new();
    for part in spread.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((k, vs)) = part.split_once('=') else {
            return Err(format!("`{part}` is not key=value1|value2"));
        };
        let values: Vec<String> = vs.split('|').map(|v| v.trim().to_string()).collect();
        labels.push((
            k.trim().to_string(),
            LabelSpread {
                values,
                mode: SpreadMode::Blocks,
            },
        ));
    }
    Ok(ClusterGenerator {
        count,
        name,
        first: 1,
        labels: labels.into_iter().collect(),
    })
}

/// Adds `g` to the scenario, numbered after any block that would give the same names; refused when
/// no numbering in the first few blocks avoids a clash with the clusters already there.
fn add_generator(s: &mut Scenario, mut g: ClusterGenerator) -> Result<(), String> {
    for _ in 0..8 {
        let mut trial = s.clone();
        trial.generate.push(g.clone());
        let (_, diags) = trial.fleet();
        if diags.iter().all(|d| d.code != "duplicate-cluster") {
            *s = trial;
            return Ok(());
        }
        g.first = g.first.saturating_add(g.count);
    }
    Err(format!(
        "the names `{}` clash with clusters already in the fleet; choose another name pattern",
        g.name
    ))
}

fn cluster_row(form: &Form, i: usize, c: &Cluster) -> AnyView {
    let chips: Vec<AnyView> = c
        .labels
        .iter()
        .map(|(k, v)| {
            let key = k.to_string();
            let remove: Act = Arc::new(move |s| {
                if let Some(c) = s.clusters.get_mut(i) {
                    c.labels.remove(&key);
                }
                Ok(())
            });
            view! { <span class="chip">{format!("{k}={v}")}{button(form, "×", "remove this label", "chip-x", false, remove)}</span> }
                .into_any()
        })
        .collect();
    let rename: Change = Arc::new(move |s, v| {
        let v = v.trim();
        if s.clusters
            .iter()
            .enumerate()
            .any(|(j, c)| j != i && c.name == v)
        {
            return Err(format!("another cluster is already named `{v}`"));
        }
        if let Some(c) = s.clusters.get_mut(i) {
            c.name = v.into();
        }
        Ok(())
    });
    let add_labels: Change = Arc::new(move |s, v| {
        let add = parse_labels(v)?;
        if let Some(c) = s.clusters.get_mut(i) {
            c.labels.extend(&add);
        }
        Ok(())
    });
    let remove: Act = Arc::new(move |s| {
        if i < s.clusters.len() {
            s.clusters.remove(i);
        }
        Ok(())
    });
    view! {
        <tr>
            <td>{field(form, format!("clusters[{i}].name"), "cluster name", c.name.to_string(), 12, "", "", rename)}</td>
            <td class="chips">{chips}{field(form, format!("clusters[{i}].labels"), "add labels", String::new(), 10, "key=value", "add-label", add_labels)}</td>
            <td>{button(form, "×", "remove this cluster", "", false, remove)}</td>
        </tr>
    }
    .into_any()
}

pub(crate) fn clusters_view(form: &Form, s: &Scenario, bulk: Bulk) -> AnyView {
    let rows: Vec<AnyView> = s
        .clusters
        .iter()
        .take(TABLE_LIMIT)
        .enumerate()
        .map(|(i, c)| cluster_row(form, i, c))
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
            let remove: Act = Arc::new(move |s| {
                if i < s.generate.len() {
                    s.generate.remove(i);
                }
                Ok(())
            });
            view! { <li>{format!("{} × {} {}", g.count, g.name, spread.join(", "))}{button(form, "×", "remove this generator", "small", false, remove)}</li> }
                .into_any()
        })
        .collect();
    let add: Act = Arc::new(|s| {
        let (fleet, _) = s.fleet();
        let name = unique_name("member", fleet.iter().map(|c| c.cluster.name.as_str()));
        s.clusters.push(Cluster {
            name: name.into(),
            ..Default::default()
        });
        Ok(())
    });
    let Bulk {
        count,
        name,
        labels,
    } = bulk;
    let generate: Act = Arc::new(move |s| {
        let n = count
            .get_untracked()
            .trim()
            .parse::<u32>()
            .map_err(|_| "the count must be a whole number".to_string())?;
        let g = generator(n, &name.get_untracked(), &labels.get_untracked())?;
        add_generator(s, g)
    });
    // The bulk inputs only remember what is typed; the Generate button applies them.
    let input = move |sig: RwSignal<String>, label: &'static str, size: u32| {
        view! {
            <input size=size aria-label=label prop:value=sig.get_untracked()
                on:change=move |ev| sig.set(event_target_value(&ev)) />
        }
        .into_any()
    };
    view! {
        <fieldset class="form-group">
            <legend>"Clusters"</legend>
            <table class="clusters">
                <thead><tr><th>"name"</th><th>"labels"</th><th><span class="visually-hidden">"remove"</span></th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            {(hidden > 0).then(|| view! { <p class="hint">{format!("and {hidden} more listed clusters (edit them in the YAML)")}</p> })}
            {button(form, "+ Add cluster", "add a cluster", "", false, add)}
            <h4>"Generated"</h4>
            <ul class="generators">{generators}</ul>
            <div class="bulk">
                {input(count, "how many", 5)}
                " named "
                {input(name, "name pattern, {i} is the number", 14)}
                " with "
                {input(labels, "label spread: key=value1|value2, {i} numbers a value", 24)}
                {button(form, "Generate", "add a generated block of clusters", "", false, generate)}
            </div>
        </fieldset>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_bulk_generator_spreads_labels_in_blocks() {
        let g = generator(6, "", "ring=0|1|2, env=prod").unwrap();
        assert_eq!(g.name, "cluster-{i:04}");
        assert_eq!(g.labels["ring"].values, ["0", "1", "2"]);
        assert_eq!(g.labels["ring"].mode, SpreadMode::Blocks);
        assert!(generator(0, "x{i}", "").is_err());
        assert!(generator(3, "x{i}", "ring").is_err());
        assert!(generator(3, "fixed-name", "").is_err());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn generating_twice_numbers_the_second_block_after_the_first() {
        let a = crate::analysis::analyse(crate::link::example_text(), None);
        let mut s = (*a.scenario.unwrap()).clone();
        s.clusters.clear();
        add_generator(&mut s, generator(3, "c-{i}", "").unwrap()).unwrap();
        add_generator(&mut s, generator(3, "c-{i}", "").unwrap()).unwrap();
        let (fleet, diags) = s.fleet();
        assert!(diags.is_empty(), "{diags:?}");
        let names: Vec<&str> = fleet.iter().map(|c| c.cluster.name.as_str()).collect();
        assert_eq!(names, ["c-1", "c-2", "c-3", "c-4", "c-5", "c-6"]);
    }
}
