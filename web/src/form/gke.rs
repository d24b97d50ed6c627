//! The form's sections for the GKE kinds: the sequence (custom stages or a fleet chain), the version
//! events, and the clusters' GKE fields (fleet, versions, channel, maintenance window, exclusions).
//!
//! Like the staged form, every change edits a copy of the loaded scenario and rewrites the text; values
//! GKE validates (soak durations, CEL selectors, RRULEs) are kept as written, so the core's diagnostics
//! quote exactly what was typed. Each stage shows which clusters it selects, taken from the plan.
//! What the form adds is valid: a new stage joins the last stage's fleet, a new fleet follows the last
//! one in the chain, a new cluster gets a free name and its neighbour's fleet, version and channel.

use std::sync::Arc;

use fleetplan::gke::model::{FleetGroup, SequenceStage, VersionEvent};
use fleetplan::model::{
    Cluster, ClusterVersion, MaintenanceExclusion, MaintenancePolicy, MaintenanceWindow, Scenario,
    Strategy,
};
use fleetplan::plan::Plan;
use fleetplan::time::Time;
use leptos::prelude::*;

use super::widgets::{
    button, field, labelled, list, parse_labels, selection_text, unique_name, Act, Change, Form,
};

fn rollout_stages(s: &mut Scenario) -> Result<&mut Vec<SequenceStage>, String> {
    match &mut s.strategy {
        Strategy::GkeRolloutSequence(q) => Ok(&mut q.stages),
        other => Err(format!("`{}` has no custom stages", other.kind())),
    }
}

fn fleet_groups(s: &mut Scenario) -> Result<&mut Vec<FleetGroup>, String> {
    match &mut s.strategy {
        Strategy::GkeFleetSequence(q) => Ok(&mut q.groups),
        other => Err(format!("`{}` has no fleet chain", other.kind())),
    }
}

fn versions_mut(s: &mut Scenario) -> Result<&mut Vec<VersionEvent>, String> {
    match &mut s.strategy {
        Strategy::GkeRolloutSequence(q) => Ok(&mut q.versions),
        Strategy::GkeFleetSequence(q) => Ok(&mut q.versions),
        other => Err(format!("`{}` has no version events", other.kind())),
    }
}

fn some_text(v: &str) -> Option<String> {
    Some(v.trim().to_string()).filter(|t| !t.is_empty())
}

/// `1.31.2-gke.100/1.30.5-gke.200` → control plane and node versions; one version: the control plane
/// only (the node version then follows the control plane's, as the core reads it).
pub fn parse_versions(text: &str) -> Option<ClusterVersion> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let (cp, node) = t.split_once('/').unwrap_or((t, ""));
    Some(ClusterVersion {
        control_plane: some_text(cp),
        node: some_text(node),
    })
}

pub fn versions_text(v: &Option<ClusterVersion>) -> String {
    match v {
        Some(ClusterVersion {
            control_plane: cp,
            node: Some(n),
        }) => format!("{}/{n}", cp.as_deref().unwrap_or("")),
        Some(ClusterVersion {
            control_plane: Some(cp),
            node: None,
        }) => cp.clone(),
        _ => String::new(),
    }
}

/// `daily 03:00`, or `START END RRULE` (`22:00 02:00 FREQ=WEEKLY;BYDAY=SA`); empty: no window.
pub fn parse_window(text: &str) -> Result<Option<MaintenanceWindow>, String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    match parts.as_slice() {
        [] => Ok(None),
        ["daily", start] => Ok(Some(MaintenanceWindow::Daily {
            start: start.to_string(),
        })),
        [start, end, recurrence] => Ok(Some(MaintenanceWindow::Recurring {
            start: start.to_string(),
            end: end.to_string(),
            recurrence: recurrence.to_string(),
        })),
        _ => Err(format!(
            "`{}` is not a window like `daily 03:00` or `22:00 02:00 FREQ=WEEKLY;BYDAY=SA`",
            text.trim()
        )),
    }
}

pub fn window_text(w: Option<&MaintenanceWindow>) -> String {
    match w {
        Some(MaintenanceWindow::Daily { start }) => format!("daily {start}"),
        Some(MaintenanceWindow::Recurring {
            start,
            end,
            recurrence,
        }) => format!("{start} {end} {recurrence}"),
        None => String::new(),
    }
}

/// `NAME START END SCOPE; …` (scope defaults to NO_UPGRADES).
pub fn parse_exclusions(text: &str) -> Result<Vec<MaintenanceExclusion>, String> {
    text.split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let f: Vec<&str> = p.split_whitespace().collect();
            match f.as_slice() {
                [name, start, end] | [name, start, end, _] => Ok(MaintenanceExclusion {
                    name: name.to_string(),
                    start: start.to_string(),
                    end: end.to_string(),
                    scope: f.get(3).unwrap_or(&"NO_UPGRADES").to_string(),
                }),
                _ => Err(format!(
                    "`{p}` is not an exclusion like `freeze 2026-12-20T00:00:00Z 2027-01-05T00:00:00Z NO_UPGRADES`"
                )),
            }
        })
        .collect()
}

pub fn exclusions_text(e: &[MaintenanceExclusion]) -> String {
    e.iter()
        .map(|x| format!("{} {} {} {}", x.name, x.start, x.end, x.scope))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The change a field makes to item `i` of a list reached through `get`.
fn item_change<T: 'static>(
    get: fn(&mut Scenario) -> Result<&mut Vec<T>, String>,
    i: usize,
    set: fn(&mut T, &str) -> Result<(), String>,
) -> Change {
    Arc::new(move |s, v| match get(s)?.get_mut(i) {
        Some(item) => set(item, v),
        None => Ok(()),
    })
}

fn remove_item<T: 'static>(get: fn(&mut Scenario) -> Result<&mut Vec<T>, String>, i: usize) -> Act {
    Arc::new(move |s| {
        let l = get(s)?;
        if i < l.len() {
            l.remove(i);
        }
        Ok(())
    })
}

/// A new custom stage: the last stage's fleet (a stage needs one), no selector, a day's soak.
fn add_stage(s: &mut Scenario) -> Result<(), String> {
    let stages = rollout_stages(s)?;
    let fleet_projects = stages
        .last()
        .map(|l| l.fleet_projects.clone())
        .unwrap_or_default();
    stages.push(SequenceStage {
        fleet_projects,
        soak_duration: Some("1d".into()),
        ..Default::default()
    });
    Ok(())
}

/// A new fleet at the end of the chain: a free name, upstream of it the chain's last fleet.
fn add_fleet(s: &mut Scenario) -> Result<(), String> {
    let groups = fleet_groups(s)?;
    let fleet = unique_name("fleet-", groups.iter().map(|g| g.fleet.as_str()));
    let upstream_fleets = groups
        .last()
        .map(|l| vec![l.fleet.clone()])
        .unwrap_or_default();
    groups.push(FleetGroup {
        fleet,
        upstream_fleets,
        soaking: Some("1d".into()),
        ..Default::default()
    });
    Ok(())
}

/// A new cluster: a free name, and its neighbour's fleet, version and channel.
fn add_cluster(s: &mut Scenario) -> Result<(), String> {
    let name = unique_name("cluster-", s.clusters.iter().map(|c| c.name.as_str()));
    let like = s.clusters.last().cloned().unwrap_or_default();
    s.clusters.push(Cluster {
        name: name.into(),
        fleet: like.fleet,
        version: like.version,
        release_channel: like.release_channel,
        ..Default::default()
    });
    Ok(())
}

/// The custom stages or the fleet chain, each with what it selects according to the plan.
pub(crate) fn sequence_view(form: &Form, s: &Scenario, plan: Option<&Plan>) -> AnyView {
    match &s.strategy {
        Strategy::GkeRolloutSequence(q) => {
            let cards: Vec<AnyView> = q
                .stages
                .iter()
                .enumerate()
                .map(|(i, st)| {
                    let fleet = item_change(rollout_stages, i, |st, v| {
                        st.fleet_projects = list(v);
                        Ok(())
                    });
                    let selector = item_change(rollout_stages, i, |st, v| {
                        st.label_selector = some_text(v);
                        Ok(())
                    });
                    let soak = item_change(rollout_stages, i, |st, v| {
                        st.soak_duration = some_text(v);
                        Ok(())
                    });
                    let p = format!("strategy.stages[{i}]");
                    view! {
                        <li class="stage-card" data-testid="gke-stage">
                            <div class="stage-head">
                                <strong>{format!("stage {}", i + 1)}</strong>
                                {button(form, "Delete", "delete this stage", "", false, remove_item(rollout_stages, i))}
                            </div>
                            {labelled("Fleet", field(form, format!("{p}.fleetProjects"), "fleet project", st.fleet_projects.join(", "), 18, "projects/bank-prod", "fleet", fleet))}
                            {labelled("Selector (CEL)", field(form, format!("{p}.labelSelector"), "CEL label selector", st.label_selector.clone().unwrap_or_default(), 30, "resource.labels.canary == 'true' (empty: the rest of the fleet)", "selector", selector))}
                            <p class="selects" data-testid="selects">{selection_text(plan, i)}</p>
                            {labelled("Soak", field(form, format!("{p}.soakDuration"), "soak duration", st.soak_duration.clone().unwrap_or_default(), 8, "3d", "soak", soak))}
                        </li>
                    }
                    .into_any()
                })
                .collect();
            view! {
                <fieldset class="form-group">
                    <legend>"Rollout sequence stages"</legend>
                    <ol class="stage-cards">{cards}</ol>
                    {button(form, "+ Add stage", "add a stage at the end", "", false, Arc::new(add_stage))}
                </fieldset>
            }
            .into_any()
        }
        Strategy::GkeFleetSequence(q) => {
            let cards: Vec<AnyView> = q
                .groups
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    let fleet = item_change(fleet_groups, i, |g, v| {
                        g.fleet = v.trim().to_string();
                        Ok(())
                    });
                    let upstream = item_change(fleet_groups, i, |g, v| {
                        g.upstream_fleets = list(v);
                        Ok(())
                    });
                    let soak = item_change(fleet_groups, i, |g, v| {
                        g.soaking = some_text(v);
                        Ok(())
                    });
                    let p = format!("strategy.groups[{i}]");
                    view! {
                        <li class="stage-card" data-testid="gke-stage">
                            <div class="stage-head">
                                {field(form, format!("{p}.fleet"), "fleet", g.fleet.clone(), 16, "projects/bank-prod", "fleet", fleet)}
                                {button(form, "Delete", "delete this fleet", "", false, remove_item(fleet_groups, i))}
                            </div>
                            {labelled("Upstream fleet", field(form, format!("{p}.upstreamFleets"), "upstream fleet", g.upstream_fleets.join(", "), 18, "(first in the chain)", "", upstream))}
                            {labelled("Soak", field(form, format!("{p}.soaking"), "soak duration", g.soaking.clone().unwrap_or_default(), 8, "7d", "soak", soak))}
                            <p class="selects" data-testid="selects">{selection_text(plan, i)}</p>
                        </li>
                    }
                    .into_any()
                })
                .collect();
            // GKE: a chain has at most five fleets (three team scopes); a sixth is refused.
            let limit = if q.grouping.as_deref() == Some("scope") {
                3
            } else {
                5
            };
            let full = q.groups.len() >= limit;
            view! {
                <fieldset class="form-group">
                    <legend>"Fleet chain"</legend>
                    <ol class="stage-cards">{cards}</ol>
                    {button(form, "+ Add fleet", "add a fleet to the chain", "", full, Arc::new(add_fleet))}
                </fieldset>
            }
            .into_any()
        }
        _ => ().into_any(),
    }
}

/// The versions released into the sequence: which, for which upgrade type, and when.
pub(crate) fn versions_view(form: &Form, s: &Scenario) -> AnyView {
    let events: &[VersionEvent] = match &s.strategy {
        Strategy::GkeRolloutSequence(q) => &q.versions,
        Strategy::GkeFleetSequence(q) => &q.versions,
        _ => &[],
    };
    let rows: Vec<AnyView> = events
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let version = item_change(versions_mut, i, |v, t| {
                v.version = t.trim().to_string();
                Ok(())
            });
            let kind = item_change(versions_mut, i, |v, t| {
                v.upgrade_type = some_text(t);
                Ok(())
            });
            let at = item_change(versions_mut, i, |v, t| {
                v.at = if t.trim().is_empty() {
                    None
                } else {
                    Some(Time::parse(t)?)
                };
                Ok(())
            });
            let p = format!("strategy.versions[{i}]");
            view! {
                <tr data-testid="version-event">
                    <td>{field(form, format!("{p}.version"), "version", v.version.clone(), 16, "1.31.5-gke.1023000", "", version)}</td>
                    <td>{field(form, format!("{p}.upgradeType"), "upgrade type", v.upgrade_type.clone().unwrap_or_default(), 10, "both", "", kind)}</td>
                    <td>{field(form, format!("{p}.at"), "released at", v.at.map(|t| t.to_string()).unwrap_or_default(), 20, "(the start)", "", at)}</td>
                    <td>{button(form, "×", "remove this version", "", false, remove_item(versions_mut, i))}</td>
                </tr>
            }
            .into_any()
        })
        .collect();
    let add: Act = Arc::new(|s| {
        versions_mut(s)?.push(VersionEvent {
            version: "1.32.0-gke.100".into(),
            ..Default::default()
        });
        Ok(())
    });
    view! {
        <fieldset class="form-group">
            <legend>"Versions"</legend>
            <table class="clusters">
                <thead><tr><th>"version"</th><th>"type (controlPlane, node, both)"</th><th>"becomes the target at"</th><th><span class="visually-hidden">"remove"</span></th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            {button(form, "+ Add version", "release another version into the sequence", "", false, add)}
        </fieldset>
    }
    .into_any()
}

fn clusters(s: &mut Scenario) -> Result<&mut Vec<Cluster>, String> {
    Ok(&mut s.clusters)
}

fn maintenance(c: &mut Cluster) -> &mut MaintenancePolicy {
    c.maintenance.get_or_insert_with(Default::default)
}

/// The listed clusters with their GKE fields, one row each (the first 200; more are edited as text).
pub(crate) fn clusters_view(form: &Form, s: &Scenario) -> AnyView {
    let rows: Vec<AnyView> = s
        .clusters
        .iter()
        .take(200)
        .enumerate()
        .map(|(i, c)| {
            let name = item_change(clusters, i, |c, v| {
                c.name = v.trim().into();
                Ok(())
            });
            let fleet = item_change(clusters, i, |c, v| {
                c.fleet = some_text(v);
                Ok(())
            });
            let labels = item_change(clusters, i, |c, v| {
                c.labels = parse_labels(v)?;
                Ok(())
            });
            let version = item_change(clusters, i, |c, v| {
                c.version = parse_versions(v);
                Ok(())
            });
            let channel = item_change(clusters, i, |c, v| {
                c.release_channel = some_text(v).map(|t| t.to_uppercase());
                Ok(())
            });
            let window = item_change(clusters, i, |c, v| {
                maintenance(c).window = parse_window(v)?;
                Ok(())
            });
            let exclusions = item_change(clusters, i, |c, v| {
                maintenance(c).exclusions = parse_exclusions(v)?;
                Ok(())
            });
            let labels_text = c
                .labels
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ");
            let m = c.maintenance.as_ref();
            let p = format!("clusters[{i}]");
            view! {
                <tr data-testid="gke-cluster">
                    <td>{field(form, format!("{p}.name"), "cluster name", c.name.to_string(), 12, "", "", name)}</td>
                    <td>{field(form, format!("{p}.fleet"), "fleet", c.fleet.clone().unwrap_or_default(), 12, "", "", fleet)}</td>
                    <td>{field(form, format!("{p}.labels"), "labels", labels_text, 16, "key=value", "", labels)}</td>
                    <td>{field(form, format!("{p}.version"), "versions (control plane/node)", versions_text(&c.version), 14, "1.30.5/1.30.5", "", version)}</td>
                    <td>{field(form, format!("{p}.releaseChannel"), "release channel", c.release_channel.clone().unwrap_or_default(), 8, "REGULAR", "", channel)}</td>
                    <td>{field(form, format!("{p}.maintenance.window"), "maintenance window", window_text(m.and_then(|m| m.window.as_ref())), 18, "daily 03:00", "window", window)}</td>
                    <td>{field(form, format!("{p}.maintenance.exclusions"), "maintenance exclusions", m.map(|m| exclusions_text(&m.exclusions)).unwrap_or_default(), 18, "name start end SCOPE; …", "", exclusions)}</td>
                    <td>{button(form, "×", "remove this cluster", "", false, remove_item(clusters, i))}</td>
                </tr>
            }
            .into_any()
        })
        .collect();
    let hidden = s.clusters.len().saturating_sub(200);
    view! {
        <fieldset class="form-group">
            <legend>"Clusters"</legend>
            <div class="table-scroll">
                <table class="clusters">
                    <thead><tr><th>"name"</th><th>"fleet"</th><th>"labels"</th><th>"version"</th><th>"channel"</th><th>"window"</th><th>"exclusions"</th><th><span class="visually-hidden">"remove"</span></th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {(hidden > 0).then(|| view! { <p class="hint">{format!("and {hidden} more listed clusters (edit them in the YAML)")}</p> })}
            {button(form, "+ Add cluster", "add a cluster", "", false, Arc::new(add_cluster))}
        </fieldset>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn gke_fields_read_as_typed_and_print_back() {
        let v = parse_versions("1.31.2-gke.1/1.30.5-gke.2");
        assert_eq!(versions_text(&v), "1.31.2-gke.1/1.30.5-gke.2");
        assert_eq!(versions_text(&parse_versions("1.31")), "1.31");
        assert_eq!(parse_versions(" "), None);
        for w in ["daily 03:00", "22:00 02:00 FREQ=WEEKLY;BYDAY=SA"] {
            assert_eq!(window_text(parse_window(w).unwrap().as_ref()), w);
        }
        assert_eq!(parse_window(""), Ok(None));
        assert!(parse_window("sometimes").is_err());
        let x = parse_exclusions(
            "freeze 2026-12-20T00:00:00Z 2027-01-05T00:00:00Z; q4 a b NO_MINOR_UPGRADES",
        )
        .unwrap();
        assert_eq!(x[0].scope, "NO_UPGRADES");
        assert_eq!(x[1].scope, "NO_MINOR_UPGRADES");
        assert_eq!(
            exclusions_text(&x),
            "freeze 2026-12-20T00:00:00Z 2027-01-05T00:00:00Z NO_UPGRADES; q4 a b NO_MINOR_UPGRADES"
        );
        assert!(parse_exclusions("lonely").is_err());
    }
}
