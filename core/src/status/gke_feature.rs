//! Fleet-based GKE sequencing in progress: the clusterupgrade feature of each fleet with its
//! `state` (per upgrade the fleet's status code — PENDING, IN_PROGRESS, SOAKING, FORCED_SOAKING,
//! COMPLETE — and since when) and its memberships' states, read as the Rollout of one upgrade
//! through the chain of fleets, which `super::gke` projects.

use crate::diag::Diagnostic;
use crate::gke::validate::{parse_soak, Stream};
use crate::source::{Node, Value};
use crate::time::Time;

use super::gke::{Member, RolloutStage, RolloutStatus};

/// A clusterupgrade feature document that carries state.
pub fn has_state(n: &Node) -> bool {
    n.get("state")
        .and_then(|s| s.get("clusterupgrade"))
        .is_some()
        || n.get("membershipStates").is_some_and(|m| match &m.value {
            Value::Map(entries) => entries
                .iter()
                .any(|e| e.value.get("clusterupgrade").is_some()),
            _ => false,
        })
}

struct Fleet<'n> {
    fleet: String,
    upstream: Option<String>,
    soak: Option<crate::time::Duration>,
    node: &'n Node<'n>,
    file: &'n str,
}

fn text<'a>(n: Option<&'a Node<'a>>) -> Option<&'a str> {
    n.and_then(|v| v.scalar()).map(|s| s.text.as_ref())
}

fn fleet_of(n: &Node) -> Option<String> {
    if let Some(f) = text(n.get("fleet")) {
        return Some(f.trim_start_matches("projects/").to_string());
    }
    let name = text(n.get("name"))?;
    let rest = name.strip_prefix("projects/")?;
    rest.split_once('/').map(|(p, _)| p.to_string())
}

fn cu_spec<'a>(n: &'a Node<'a>) -> Option<&'a Node<'a>> {
    n.get("clusterupgrade")
        .or_else(|| n.get("spec").and_then(|s| s.get("clusterupgrade")))
}

/// (upgrade name, version, status code, since) entries of a state part.
fn upgrades(n: Option<&Node>) -> Vec<(String, String, String, Option<Time>)> {
    let Some(Value::Seq(items)) = n.map(|n| &n.value) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|u| {
            let up = u.get("upgrade")?;
            let status = u.get("status");
            Some((
                text(up.get("name"))?.to_string(),
                text(up.get("version"))?.to_string(),
                text(status.and_then(|s| s.get("code")))
                    .unwrap_or("CODE_UNSPECIFIED")
                    .to_string(),
                text(status.and_then(|s| s.get("updateTime"))).and_then(|t| Time::parse(t).ok()),
            ))
        })
        .collect()
}

/// One Rollout per upgrade still moving through the chain (or the latest, when all are complete).
pub fn rollouts(docs: &[(&Node, &str)], diags: &mut Vec<Diagnostic>) -> Vec<RolloutStatus> {
    let mut fleets: Vec<Fleet> = docs
        .iter()
        .filter_map(|(n, file)| {
            let fleet = fleet_of(n)?;
            let spec = cu_spec(n);
            Some(Fleet {
                fleet,
                upstream: spec
                    .and_then(|s| s.get("upstreamFleets"))
                    .and_then(|u| match &u.value {
                        Value::Seq(items) => text(items.first())
                            .map(|t| t.trim_start_matches("projects/").to_string()),
                        _ => None,
                    }),
                soak: text(
                    spec.and_then(|s| s.get("postConditions"))
                        .and_then(|p| p.get("soaking")),
                )
                .and_then(|t| parse_soak(t).ok()),
                node: n,
                file,
            })
        })
        .collect();
    // The chain: from the fleet with no upstream among them, downstream one by one.
    let mut chain: Vec<Fleet> = Vec::new();
    let head = fleets.iter().position(|f| {
        f.upstream
            .as_ref()
            .is_none_or(|u| !fleets.iter().any(|g| g.fleet == *u))
    });
    if let Some(i) = head {
        chain.push(fleets.remove(i));
        while let Some(i) = fleets
            .iter()
            .position(|f| f.upstream.as_deref() == chain.last().map(|l| l.fleet.as_str()))
        {
            chain.push(fleets.remove(i));
        }
    }
    if chain.is_empty() {
        return Vec::new();
    }
    let state_of = |f: &Fleet| {
        let s = f.node.get("state").and_then(|s| s.get("clusterupgrade"));
        let mut u = upgrades(
            s.and_then(|s| s.get("gkeState"))
                .and_then(|g| g.get("upgradeState")),
        );
        u.extend(upgrades(s.and_then(|s| s.get("upgrades"))));
        u
    };
    let mut all: Vec<(String, String)> = Vec::new();
    for f in &chain {
        for (name, version, ..) in state_of(f) {
            if !all.contains(&(name.clone(), version.clone())) {
                all.push((name, version));
            }
        }
    }
    let complete = |name: &str, version: &str| {
        chain.iter().all(|f| {
            state_of(f)
                .iter()
                .any(|u| u.0 == name && u.1 == version && u.2 == "COMPLETE")
        })
    };
    let mut chosen: Vec<&(String, String)> = all.iter().filter(|(n, v)| !complete(n, v)).collect();
    if chosen.is_empty() {
        chosen.extend(all.last());
    }
    let mut out = Vec::new();
    for (name, version) in chosen {
        let stream = if name == "k8s_node" {
            Stream::Node
        } else {
            Stream::ControlPlane
        };
        let mut stages: Vec<RolloutStage> = Vec::new();
        let mut members = Vec::new();
        let mut previous_end: Option<Time> = None;
        for (i, f) in chain.iter().enumerate() {
            let st = state_of(f)
                .into_iter()
                .find(|u| u.0 == *name && u.1 == *version);
            let (code, since) = st.map_or(("PENDING".to_string(), None), |u| (u.2, u.3));
            let state = match code.as_str() {
                "COMPLETE" => "COMPLETED",
                "SOAKING" | "FORCED_SOAKING" => "SOAKING",
                "IN_PROGRESS" => "RUNNING",
                "PAUSED" => "PAUSED",
                _ => "PENDING",
            };
            // A finished first fleet's start is not in the state: its first cluster's upgrade is.
            let first_update = || {
                f.node
                    .get("membershipStates")
                    .map(|m| match &m.value {
                        Value::Map(entries) => entries
                            .iter()
                            .flat_map(|e| {
                                upgrades(
                                    e.value
                                        .get("clusterupgrade")
                                        .and_then(|c| c.get("upgrades")),
                                )
                            })
                            .filter(|u| u.0 == *name && u.1 == *version)
                            .filter_map(|u| u.3)
                            .min(),
                        _ => None,
                    })
                    .unwrap_or(None)
            };
            let (start, end) = match state {
                "COMPLETED" => (previous_end.or_else(first_update), since),
                "RUNNING" => (since.or(previous_end), None),
                "SOAKING" => (previous_end.or_else(first_update), None),
                _ => (None, None),
            };
            previous_end = end.or(previous_end);
            stages.push(RolloutStage {
                number: i as i64 + 1,
                state: state.into(),
                start,
                end,
                soak: f.soak,
            });
            if let Some(Value::Map(entries)) = f.node.get("membershipStates").map(|m| &m.value) {
                for e in entries {
                    let u = upgrades(
                        e.value
                            .get("clusterupgrade")
                            .and_then(|c| c.get("upgrades")),
                    );
                    let mine = u.into_iter().find(|u| u.0 == *name && u.1 == *version);
                    let (code, updated) =
                        mine.map_or(("PENDING".to_string(), None), |u| (u.2, u.3));
                    members.push(Member {
                        cluster: e.key.rsplit('/').next().unwrap_or(&e.key).to_string(),
                        stage: i as i64 + 1,
                        state: match code.as_str() {
                            "COMPLETE" => "SUCCEEDED",
                            "IN_PROGRESS" => "RUNNING",
                            _ => "PENDING",
                        }
                        .into(),
                        updated,
                    });
                }
            }
        }
        let all_done = stages.iter().all(|s| s.state == "COMPLETED");
        let first = &chain[0];
        out.push(RolloutStatus {
            id: format!("clusterupgrade/{name}/{version}"),
            at: first.node.location(first.file),
            state: if all_done {
                "COMPLETED".into()
            } else {
                "RUNNING".into()
            },
            stream,
            version: version.clone(),
            sequence: None,
            stages,
            members,
            excluded: Vec::new(),
        });
    }
    if out.is_empty() {
        let mut d = Diagnostic::info(
            "feature-without-upgrades",
            "the clusterupgrade features carry state but no upgrade: nothing is in progress",
        );
        d.location = Some(chain[0].node.location(chain[0].file));
        diags.push(d);
    }
    out
}
