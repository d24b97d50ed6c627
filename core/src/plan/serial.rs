//! A plan serialized with its bars' texts: a bar names its label and version by their place in the
//! plan's [`Labels`], so stages, clusters and bars are written through views that carry the table,
//! field for field as the derived serialization wrote them before bars held ids (same names, order
//! and omissions: the JSON and YAML of a plan are unchanged).

use serde::{Serialize, Serializer};

use super::{
    gke::GkeDetail, projection::Projection, rolling::RollingDetail, AssumptionNote, ClusterPlan,
    ClusterStatus, Events, Labels, Outcome, Phase, PhaseKind, Plan, StagePlan, StageStatus,
    Summary,
};
use crate::diag::Diagnostic;
use crate::time::Time;

impl Serialize for Plan {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        PlanView {
            kind: self.kind,
            scenario: self.scenario.as_ref(),
            run: &self.run,
            start: self.start,
            end: self.end,
            outcome: self.outcome,
            stages: Stages(&self.stages, &self.labels),
            unstaged: &self.unstaged,
            events: &self.events,
            diagnostics: &self.diagnostics,
            summary: &self.summary,
            assumptions: &self.assumptions,
            gke: self.gke.as_ref(),
            rolling: self.rolling.as_ref(),
            projection: self.projection.as_ref(),
        }
        .serialize(s)
    }
}

#[derive(Serialize)]
#[serde(rename = "Plan", rename_all = "camelCase")]
struct PlanView<'a> {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    scenario: Option<&'a String>,
    run: &'a str,
    start: Time,
    end: Option<Time>,
    outcome: Outcome,
    stages: Stages<'a>,
    #[serde(skip_serializing_if = "is_empty")]
    unstaged: &'a [String],
    events: &'a Events,
    diagnostics: &'a [Diagnostic],
    summary: &'a Summary,
    assumptions: &'a [AssumptionNote],
    #[serde(skip_serializing_if = "Option::is_none")]
    gke: Option<&'a GkeDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rolling: Option<&'a RollingDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    projection: Option<&'a Projection>,
}

fn is_empty<T>(list: &&[T]) -> bool {
    list.is_empty()
}

struct Stages<'a>(&'a [StagePlan], &'a Labels);

impl Serialize for Stages<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let labels = self.1;
        s.collect_seq(self.0.iter().map(|st| StageView {
            name: &st.name,
            index: st.index,
            delete_stage: st.delete_stage,
            max_concurrency: st.max_concurrency,
            status: st.status,
            start: st.start,
            end: st.end,
            clusters: Clusters(&st.clusters, labels),
            phases: Bars(&st.phases, labels),
        }))
    }
}

#[derive(Serialize)]
#[serde(rename = "StagePlan", rename_all = "camelCase")]
struct StageView<'a> {
    name: &'a str,
    index: usize,
    delete_stage: bool,
    max_concurrency: usize,
    status: StageStatus,
    start: Option<Time>,
    end: Option<Time>,
    clusters: Clusters<'a>,
    phases: Bars<'a>,
}

struct Clusters<'a>(&'a [ClusterPlan], &'a Labels);

impl Serialize for Clusters<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let labels = self.1;
        s.collect_seq(self.0.iter().map(|c| ClusterView {
            name: &c.name,
            sort_value: c.sort_value,
            status: c.status,
            start: c.start,
            end: c.end,
            stuck_at: c.stuck_at,
            phases: Bars(&c.phases, labels),
            reason: c.reason.as_ref(),
        }))
    }
}

#[derive(Serialize)]
#[serde(rename = "ClusterPlan", rename_all = "camelCase")]
struct ClusterView<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    sort_value: Option<i64>,
    status: ClusterStatus,
    start: Option<Time>,
    end: Option<Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stuck_at: Option<Time>,
    #[serde(skip_serializing_if = "Bars::is_empty")]
    phases: Bars<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a String>,
}

struct Bars<'a>(&'a [Phase], &'a Labels);

impl Bars<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Bars<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let labels = self.1;
        s.collect_seq(self.0.iter().map(|p| BarView {
            kind: p.kind,
            start: p.start,
            end: p.end,
            label: labels.text(p.label),
            version: p.version.map(|v| labels.text(v)),
        }))
    }
}

#[derive(Serialize)]
#[serde(rename = "Phase", rename_all = "camelCase")]
struct BarView<'a> {
    kind: PhaseKind,
    start: Time,
    end: Option<Time>,
    label: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<&'a str>,
}
