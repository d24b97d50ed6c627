//! KubeFleet objects as the API returns them while a staged run runs: ClusterStagedUpdateRun /
//! StagedUpdateRun with `status` (the frozen strategy snapshot, stages, clusters, tasks, conditions),
//! ClusterApprovalRequest / ApprovalRequest, the strategies and MemberClusters beside them. Field
//! names are those of `apis/placement/v1beta1/stageupdate_types.go`; every problem is located.

use crate::decode::{Path, Reader};
use crate::diag::{Diagnostic, Location};
use crate::label_map::LabelMap;
use crate::model::StageConfig;
use crate::plan::Name;
use crate::source::Node;
use crate::time::Time;

use super::objects::{conditions, find, meta, Condition, Object, Pos};

/// A staged update run with its status.
#[derive(Clone, Debug)]
pub struct RunStatus {
    pub id: String,
    pub name: String,
    pub namespace: Option<String>,
    pub generation: Option<i64>,
    pub at: Location,
    pub file: String,
    /// `spec.state` as written (`None`: absent, which older releases ran at once).
    pub state: Option<String>,
    pub placement: String,
    pub strategy_name: String,
    /// `status.stagedUpdateStrategySnapshot.stages`; `None` when the status has no snapshot.
    pub snapshot: Option<Vec<StageConfig>>,
    pub snapshot_at: Option<Location>,
    pub stages: Vec<StageStatus>,
    pub deletion: Option<StageStatus>,
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug)]
pub struct StageStatus {
    pub name: String,
    pub start: Option<Time>,
    pub end: Option<Time>,
    pub conditions: Vec<Condition>,
    pub clusters: Vec<ClusterStatus>,
    pub before: Vec<TaskStatus>,
    pub after: Vec<TaskStatus>,
    pub at: Location,
    /// `status.stagesStatus[i]`, for diagnostics.
    pub path: String,
}

#[derive(Clone, Debug)]
pub struct ClusterStatus {
    /// Shared text: the projection's scenario and its events name the cluster with copies of it.
    pub name: Name,
    pub conditions: Vec<Condition>,
    pub at: Pos,
}

#[derive(Clone, Debug)]
pub struct TaskStatus {
    pub kind: String,
    pub request: Option<String>,
    pub conditions: Vec<Condition>,
}

impl StageStatus {
    pub fn condition(&self, kind: &str) -> Option<&Condition> {
        find(&self.conditions, kind)
    }
}

impl ClusterStatus {
    pub fn started(&self) -> Option<&Condition> {
        find(&self.conditions, "Started").filter(|c| c.is_true())
    }
    pub fn succeeded(&self) -> Option<&Condition> {
        find(&self.conditions, "Succeeded")
    }
}

impl TaskStatus {
    pub fn condition(&self, kind: &str) -> Option<&Condition> {
        find(&self.conditions, kind).filter(|c| c.is_true())
    }
}

/// A ClusterApprovalRequest or ApprovalRequest.
#[derive(Clone, Debug)]
pub struct ApprovalStatus {
    pub name: String,
    pub namespace: Option<String>,
    pub generation: Option<i64>,
    pub run: String,
    pub stage: String,
    /// `Approved=True`: when the person approved.
    pub approved: Option<Time>,
    /// `ApprovalAccepted=True`: when the controller took the approval.
    pub accepted: Option<Time>,
}

/// A MemberCluster's name and labels.
#[derive(Clone, Debug)]
pub struct Member {
    pub name: String,
    pub labels: LabelMap,
}

/// A strategy object beside the run, to compare with the run's snapshot.
#[derive(Clone, Debug)]
pub struct Strategy {
    pub id: String,
    pub name: String,
    pub namespace: Option<String>,
    pub stages: Vec<StageConfig>,
    pub at: Location,
}

pub const RUN_KINDS: &[&str] = &["ClusterStagedUpdateRun", "StagedUpdateRun"];
pub const APPROVAL_KINDS: &[&str] = &["ClusterApprovalRequest", "ApprovalRequest"];
pub const STRATEGY_KINDS: &[&str] = &["ClusterStagedUpdateStrategy", "StagedUpdateStrategy"];

/// Does this object carry a run's status (rather than only its spec)?
pub fn is_run_with_status(obj: &Object) -> bool {
    RUN_KINDS.contains(&obj.kind.as_str())
        && obj.node.get("status").is_some_and(|s| {
            s.get("stagesStatus").is_some()
                || s.get("stagedUpdateStrategySnapshot").is_some()
                || s.get("conditions").is_some()
        })
}

pub fn read_run(obj: &Object, diags: &mut Vec<Diagnostic>) -> Option<RunStatus> {
    let mut r = Reader::new(obj.file, false);
    let m = meta(&mut r, obj);
    let out = m.map(|m| {
        let prefix = format!("{}: ", m.id);
        let root = Path::object(prefix.clone(), "", "");
        let spec = obj.node.get("spec");
        let sp = root.report_field("spec");
        let text = |r: &mut Reader, key: &str| {
            spec.and_then(|s| s.get(key))
                .and_then(|v| r.string(v, &sp.report_field(key)))
        };
        let state = text(&mut r, "state");
        let placement = text(&mut r, "placementName").unwrap_or_default();
        let strategy_name = text(&mut r, "stagedRolloutStrategyName").unwrap_or_default();
        let status = obj.node.get("status");
        let st = root.report_field("status");
        let snapshot_node = status.and_then(|s| s.get("stagedUpdateStrategySnapshot"));
        let snapshot = snapshot_node.map(|n| match n.get("stages") {
            Some(stages) => r.stages(
                stages,
                &st.report_field("stagedUpdateStrategySnapshot")
                    .report_field("stages"),
            ),
            None => Vec::new(),
        });
        let mut stages = Vec::new();
        if let Some(list) = status
            .and_then(|s| s.get("stagesStatus"))
            .and_then(|n| r.seq(n, &st.report_field("stagesStatus")))
        {
            for (i, item) in list.iter().enumerate() {
                let ip = st.report_field("stagesStatus").index(i);
                if let Some(s) = stage(&mut r, item, &ip) {
                    stages.push(s);
                }
            }
        }
        let deletion = status
            .and_then(|s| s.get("deletionStageStatus"))
            .and_then(|n| stage(&mut r, n, &st.report_field("deletionStageStatus")));
        let conditions = conditions(&mut r, status.and_then(|s| s.get("conditions")), || {
            st.report_field("conditions")
        });
        RunStatus {
            id: m.id,
            name: m.name,
            namespace: m.namespace,
            generation: m.generation,
            at: obj.node.location(obj.file),
            file: obj.file.to_string(),
            state,
            placement,
            strategy_name,
            snapshot,
            snapshot_at: snapshot_node.map(|n| n.location(obj.file)),
            stages,
            deletion,
            conditions,
        }
    });
    diags.append(&mut r.diags);
    out
}

fn stage(r: &mut Reader, n: &Node, p: &Path) -> Option<StageStatus> {
    r.map(n, p, &[])?;
    let name = match n
        .get("stageName")
        .and_then(|v| r.string(v, &p.report_field("stageName")))
    {
        Some(name) => name,
        None => {
            r.missing("stageName", p, n);
            return None;
        }
    };
    let time = |r: &mut Reader, key: &str| n.get(key).and_then(|v| r.time(v, &p.report_field(key)));
    let start = time(r, "startTime");
    let end = time(r, "endTime");
    let conds = conditions(r, n.get("conditions"), || p.report_field("conditions"));
    let cp = p.report_field("clusters");
    let listed = n
        .get("clusters")
        .map(|list| r.seq(list, &cp).unwrap_or(&[]));
    let mut clusters = Vec::with_capacity(listed.map_or(0, <[_]>::len));
    match listed {
        Some(listed) => {
            for (i, item) in listed.iter().enumerate() {
                // Paths only for diagnostics: a large run has thousands of clusters.
                let ip = || cp.index(i);
                if !matches!(item.value, crate::source::Value::Map(_)) {
                    r.map(item, &ip(), &[]);
                    continue;
                }
                let Some(cname) = item.get("clusterName").and_then(|v| match v.scalar() {
                    Some(s) if !v.is_null() => Some(Name::from(&*s.text)),
                    _ => r
                        .string(v, &ip().report_field("clusterName"))
                        .map(Name::from),
                }) else {
                    r.missing("clusterName", &ip(), item);
                    continue;
                };
                let conditions = conditions(r, item.get("conditions"), || {
                    ip().report_field("conditions")
                });
                clusters.push(ClusterStatus {
                    name: cname,
                    conditions,
                    at: Pos::of(item),
                });
            }
        }
        // `clusters` is required by the schema: an object without it was cut short.
        None => r.missing("clusters", p, n),
    }
    let tasks = |r: &mut Reader, key: &str| {
        let tp = p.report_field(key);
        let mut out = Vec::new();
        if let Some(list) = n.get(key).and_then(|l| r.seq(l, &tp)) {
            for (i, item) in list.iter().enumerate() {
                let ip = tp.index(i);
                if r.map(item, &ip, &[]).is_none() {
                    continue;
                }
                let kind = item
                    .get("type")
                    .and_then(|v| r.string(v, &ip.report_field("type")))
                    .unwrap_or_default();
                let request = item
                    .get("approvalRequestName")
                    .and_then(|v| r.string(v, &ip.report_field("approvalRequestName")));
                let conditions =
                    conditions(r, item.get("conditions"), || ip.report_field("conditions"));
                out.push(TaskStatus {
                    kind,
                    request,
                    conditions,
                });
            }
        }
        out
    };
    let before = tasks(r, "beforeStageTaskStatus");
    let after = tasks(r, "afterStageTaskStatus");
    Some(StageStatus {
        name,
        start,
        end,
        conditions: conds,
        clusters,
        before,
        after,
        at: r.loc(n),
        path: p.report.clone(),
    })
}

pub fn read_approval(obj: &Object, diags: &mut Vec<Diagnostic>) -> Option<ApprovalStatus> {
    let mut r = Reader::new(obj.file, false);
    let m = meta(&mut r, obj);
    let out = m.map(|m| {
        let root = Path::object(format!("{}: ", m.id), "", "");
        let spec = obj.node.get("spec");
        let text = |r: &mut Reader, key: &str| {
            spec.and_then(|s| s.get(key))
                .and_then(|v| r.string(v, &root.report_field("spec").report_field(key)))
                .unwrap_or_default()
        };
        let run = text(&mut r, "parentStageRollout");
        let stage = text(&mut r, "targetStage");
        let conds = conditions(
            &mut r,
            obj.node.get("status").and_then(|s| s.get("conditions")),
            || root.report_field("status").report_field("conditions"),
        );
        let when = |kind: &str| {
            find(&conds, kind)
                .filter(|c| c.is_true())
                .and_then(|c| c.since)
        };
        ApprovalStatus {
            approved: when("Approved"),
            accepted: when("ApprovalAccepted"),
            name: m.name,
            namespace: m.namespace,
            generation: m.generation,
            run,
            stage,
        }
    });
    diags.append(&mut r.diags);
    out
}

pub fn read_member(obj: &Object, diags: &mut Vec<Diagnostic>) -> Option<Member> {
    let mut r = Reader::new(obj.file, false);
    let m = meta(&mut r, obj);
    let out = m.map(|m| {
        let labels = obj
            .node
            .get("metadata")
            .and_then(|md| md.get("labels"))
            .map(|l| {
                r.labels(
                    l,
                    &Path::object(format!("{}: ", m.id), "metadata.labels", ""),
                )
            })
            .unwrap_or_default();
        Member {
            name: m.name,
            labels,
        }
    });
    diags.append(&mut r.diags);
    out
}

pub fn read_strategy(obj: &Object, diags: &mut Vec<Diagnostic>) -> Option<Strategy> {
    let mut r = Reader::new(obj.file, false);
    let m = meta(&mut r, obj);
    let out = m.map(|m| {
        let p = Path::object(format!("{}: ", m.id), "spec.stages", "");
        let stages = obj
            .node
            .get("spec")
            .and_then(|s| s.get("stages"))
            .map(|s| r.stages(s, &p))
            .unwrap_or_default();
        Strategy {
            id: m.id,
            name: m.name,
            namespace: m.namespace,
            stages,
            at: obj.node.location(obj.file),
        }
    });
    diags.append(&mut r.diags);
    out
}
