//! Gantt chart layout: pure geometry from a [`Plan`] and a [`View`], for the web app's SVG, the SVG
//! export and the tests alike. No front end computes a position itself.
//!
//! Rows are uniform in height so that virtualisation ([`visible_rows`]) is a division, and bars are
//! culled to the view's time window and clipped to its width, so a 10,000-cluster plan zoomed into one
//! hour yields only the bars that hour shows, with coordinates a browser can draw. Tooltips are not
//! part of the layout: [`title`] writes one for a bar on demand, so only the rows in view pay for it.
//!
//! Kind-neutral: stage rows draw `StagePlan.phases`, cluster rows draw `ClusterPlan.phases` when the
//! planner filled them (GKE control-plane and node upgrades, window waits; rolling remove/update/add)
//! and the cluster's start..end otherwise. Each bar carries the index of its phase's version among the
//! plan's [`versions`], so the version, not the kind, can give it its colour.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;

use chrono::{Datelike, Timelike};
use serde::Serialize;

use crate::plan::{ClusterPlan, ClusterStatus, Phase, PhaseKind, Plan, StageStatus};
use crate::time::{Duration, Time, DAY, HOUR, MINUTE};
use crate::zone::Zone;

/// What part of the timeline is shown, and how.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub start: Time,
    pub end: Time,
    /// Width of the time area in px (labels are drawn left of it).
    pub width: f64,
    pub row_height: f64,
    /// Names of stages whose cluster rows are hidden.
    pub collapsed: Vec<String>,
    /// The clock the axis reads (day boundaries, weekends, hour labels); UTC unless a front end says.
    #[serde(skip)]
    pub zone: Zone,
}

pub const DEFAULT_ROW_HEIGHT: f64 = 22.0;
const MIN_SPAN: i64 = 5 * MINUTE.0;
const MAX_SPAN: i64 = 800 * DAY.0;
/// Minimum distance between labelled ticks, in px.
const MIN_TICK_PX: f64 = 56.0;

impl View {
    /// The whole plan with a small margin either side. A plan that never ends is shown up to its last
    /// known moment plus a day, so the open-ended wait is visible as such.
    pub fn fit(plan: &Plan, width: f64) -> View {
        let start = plan.start;
        let last = plan.end.unwrap_or_else(|| plan.latest_time().plus(DAY));
        let span = last.since(start).0.max(HOUR.0);
        let margin = span / 30;
        View {
            start: start.plus(Duration(-margin)),
            end: start.plus(Duration(span + margin)),
            width: if width.is_finite() && width > 10.0 {
                width
            } else {
                800.0
            },
            row_height: DEFAULT_ROW_HEIGHT,
            collapsed: Vec::new(),
            zone: Zone::utc(),
        }
    }

    fn span(&self) -> i64 {
        self.end.since(self.start).0.max(1)
    }

    pub fn x_at(&self, t: Time) -> f64 {
        t.since(self.start).0 as f64 / self.span() as f64 * self.width
    }

    pub fn time_at(&self, x: f64) -> Time {
        let x = if x.is_finite() { x } else { 0.0 };
        // `as` saturates; `plus` keeps the result inside the time cap.
        self.start.plus(Duration(
            (x / self.width * self.span() as f64).round() as i64
        ))
    }

    /// Zooms in (`factor` > 1) or out around `anchor_x`, which keeps showing the same instant.
    pub fn zoom(&self, factor: f64, anchor_x: f64) -> View {
        let factor = if factor.is_finite() && factor > 0.0 {
            factor
        } else {
            1.0
        };
        let anchor = self.time_at(anchor_x);
        let span = ((self.span() as f64 / factor).round() as i64).clamp(MIN_SPAN, MAX_SPAN);
        let left = anchor.since(self.start).0 as f64 / self.span() as f64;
        let start = anchor.plus(Duration(-(left * span as f64).round() as i64));
        View {
            start,
            end: start.plus(Duration(span)),
            ..self.clone()
        }
    }

    /// Moves the window by `dx` px (positive: later times come into view).
    pub fn pan(&self, dx: f64) -> View {
        let dx = if dx.is_finite() { dx } else { 0.0 };
        let shift = (dx / self.width * self.span() as f64).round() as i64;
        View {
            start: self.start.plus(Duration(shift)),
            end: self.end.plus(Duration(shift)),
            ..self.clone()
        }
    }

    pub fn with_collapsed(&self, stage: &str, collapsed: bool) -> View {
        let mut v = self.clone();
        v.collapsed.retain(|s| s != stage);
        if collapsed {
            v.collapsed.push(stage.to_string());
        }
        v
    }
}

/// The versions the plan's phases move, in the order they first start (ties: by name), so the first
/// version released is `v0` everywhere: chart colours, legend and tooltips agree.
pub fn versions(plan: &Plan) -> Vec<String> {
    let mut firsts: Vec<(Time, &str)> = Vec::new();
    let phases = plan.stages.iter().flat_map(|s| {
        s.phases
            .iter()
            .chain(s.clusters.iter().flat_map(|c| c.phases.iter()))
    });
    for p in phases {
        if let Some(v) = plan.version(p) {
            match firsts.iter_mut().find(|(_, n)| *n == v) {
                Some(f) => f.0 = f.0.min(p.start),
                None => firsts.push((p.start, v)),
            }
        }
    }
    // Names are unique, so a stable sort gives the same order as any other.
    crate::sort::sort_by(&mut firsts, |a, b| a.cmp(b));
    firsts.into_iter().map(|(_, v)| v.to_string()).collect()
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Chart {
    pub width: f64,
    pub height: f64,
    pub rows: Vec<Row>,
    pub axis: Axis,
    pub weekends: Vec<Span>,
    pub start_x: f64,
    pub end_x: Option<f64>,
    /// The plan's [`versions`]: bar `version` indexes into it.
    pub versions: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub y: f64,
    pub height: f64,
    pub kind: RowKind,
    pub label: String,
    pub bars: Vec<Bar>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum RowKind {
    Stage {
        stage: usize,
        collapsed: bool,
    },
    Cluster {
        stage: usize,
        cluster: usize,
    },
    /// The plan's clusters that no stage selects ([`Plan::unstaged`]): a heading row (`None`), then
    /// one row per cluster, drawn in red under the stages.
    Unstaged {
        cluster: Option<usize>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bar {
    pub x: f64,
    pub width: f64,
    pub kind: BarKind,
    /// Short text drawn on the bar when it is wide enough.
    pub label: String,
    /// The tooltip: exact times and the reason. Filled by [`layout`]; empty from [`layout_untitled`],
    /// whose callers write it with [`title`] for the rows they show.
    pub title: String,
    /// The phase's own times (unclipped), for [`title`].
    pub start: Time,
    pub end: Option<Time>,
    /// Index of the phase in the row's stage or cluster phases; `None` for a staged cluster's
    /// start..end bar.
    pub phase: Option<usize>,
    /// Index of the phase's version in [`versions`] (capped at [`VERSION_COLOURS`] - 1).
    pub version: Option<u8>,
    /// The phase never ends (an approval nobody grants): drawn to the edge, marked open.
    pub open_end: bool,
    /// Parallel phases (an after-stage TimedWait and Approval) share the row in `lanes` horizontal
    /// strips; this bar is drawn in strip `lane`, so neither hides the other.
    pub lane: u8,
    pub lanes: u8,
}

impl Bar {
    /// Top and height of the bar inside a row at `row_y` of height `row_height`.
    pub fn vertical(&self, row_y: f64, row_height: f64) -> (f64, f64) {
        let inner = (row_height - 6.0).max(1.0);
        let lanes = f64::from(self.lanes.max(1));
        let h = inner / lanes;
        (row_y + 3.0 + h * f64::from(self.lane), h)
    }
}

/// Rows with at most this many bars are laid out in lanes without allocating (nearly every row).
const FEW_BARS: usize = 8;

/// Puts overlapping bars of one row into separate lanes (greedy, in start order).
fn assign_lanes(bars: &mut [Bar]) {
    // A bar alone keeps lane 0 of 1, as `bar` made it.
    if bars.len() < 2 {
        return;
    }
    if bars.len() <= FEW_BARS {
        assign_few_lanes(bars);
    } else {
        assign_many_lanes(bars);
    }
}

/// [`assign_lanes`] for any row: the order by start from the shared sort, the buffers on the heap.
fn assign_many_lanes(bars: &mut [Bar]) {
    let mut order: Vec<usize> = (0..bars.len()).collect();
    crate::sort::sort_by(&mut order, |&a, &b| bars[a].x.total_cmp(&bars[b].x));
    let n = bars.len();
    place_in_lanes(bars, &order, &mut vec![0.0; n], &mut vec![false; n]);
}

/// [`assign_lanes`] for a row of at most [`FEW_BARS`] bars, with the same result: the order by start
/// (ties in row order) is an insertion sort, and the buffers live on the stack. The chart lays out
/// every row on each edit, and a 1,000-cluster plan spent more on small vectors' allocations than on
/// the lanes.
fn assign_few_lanes(bars: &mut [Bar]) {
    let n = bars.len();
    let mut order = [0usize; FEW_BARS];
    for i in 0..n {
        let mut k = i;
        while k > 0 && bars[order[k - 1]].x.total_cmp(&bars[i].x) == std::cmp::Ordering::Greater {
            order[k] = order[k - 1];
            k -= 1;
        }
        order[k] = i;
    }
    place_in_lanes(
        bars,
        &order[..n],
        &mut [0.0; FEW_BARS][..n],
        &mut [false; FEW_BARS][..n],
    );
}

/// The lanes of a row's bars taken in `order` (by start): each goes into the first lane free by then.
/// Only bars that overlap another are drawn in a strip; the rest keep the full row height.
/// `lane_ends` and `overlapping` are scratch of one slot per bar (a row never needs more lanes).
fn place_in_lanes(
    bars: &mut [Bar],
    order: &[usize],
    lane_ends: &mut [f64],
    overlapping: &mut [bool],
) {
    let mut lanes_used = 0;
    for &i in order {
        let b = &mut bars[i];
        let lane = lane_ends[..lanes_used]
            .iter()
            .position(|end| *end <= b.x + 0.5)
            .unwrap_or(lanes_used);
        if lane == lanes_used {
            lanes_used += 1;
        }
        lane_ends[lane] = b.x + b.width;
        b.lane = lane.min(u8::MAX as usize) as u8;
    }
    let lanes = lanes_used.clamp(1, u8::MAX as usize) as u8;
    for (i, o) in overlapping.iter_mut().enumerate() {
        let a = &bars[i];
        *o = bars
            .iter()
            .enumerate()
            .any(|(j, b)| j != i && a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5);
    }
    for (b, &overlaps) in bars.iter_mut().zip(overlapping.iter()) {
        if overlaps {
            b.lanes = lanes;
        } else {
            b.lane = 0;
            b.lanes = 1;
        }
    }
}

/// How many version colours the stylesheets define (`v0`..`v5`); later versions share the last.
pub const VERSION_COLOURS: usize = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum BarKind {
    Updating,
    BeforeApproval,
    TimedWait,
    AfterApproval,
    Stopped,
    ClusterSucceeded,
    ClusterFailed,
    ClusterUntracked,
    ControlPlane,
    Node,
    /// Hatched: waiting for a maintenance window to open.
    WindowWait,
    /// Hatched: held by a maintenance exclusion.
    ExclusionWait,
    Soaking,
    ForcedSoaking,
    Remove,
    Update,
    Add,
    AvailabilityWait,
    /// A cluster no stage selects: never updated, and the run cannot start.
    Unstaged,
}

impl BarKind {
    pub const ALL: [BarKind; 19] = [
        BarKind::Updating,
        BarKind::BeforeApproval,
        BarKind::TimedWait,
        BarKind::AfterApproval,
        BarKind::Stopped,
        BarKind::ClusterSucceeded,
        BarKind::ClusterFailed,
        BarKind::ClusterUntracked,
        BarKind::ControlPlane,
        BarKind::Node,
        BarKind::WindowWait,
        BarKind::ExclusionWait,
        BarKind::Soaking,
        BarKind::ForcedSoaking,
        BarKind::Remove,
        BarKind::Update,
        BarKind::Add,
        BarKind::AvailabilityWait,
        BarKind::Unstaged,
    ];

    pub fn css_class(self) -> &'static str {
        match self {
            BarKind::Updating => "bar-updating",
            BarKind::BeforeApproval => "bar-before-approval",
            BarKind::TimedWait => "bar-timed-wait",
            BarKind::AfterApproval => "bar-after-approval",
            BarKind::Stopped => "bar-stopped",
            BarKind::ClusterSucceeded => "bar-cluster",
            BarKind::ClusterFailed => "bar-cluster-failed",
            BarKind::ClusterUntracked => "bar-cluster-untracked",
            BarKind::ControlPlane => "bar-control-plane",
            BarKind::Node => "bar-node",
            BarKind::WindowWait => "bar-window-wait",
            BarKind::ExclusionWait => "bar-exclusion-wait",
            BarKind::Soaking => "bar-soaking",
            BarKind::ForcedSoaking => "bar-forced-soaking",
            BarKind::Remove => "bar-remove",
            BarKind::Update => "bar-update",
            BarKind::Add => "bar-add",
            BarKind::AvailabilityWait => "bar-availability-wait",
            BarKind::Unstaged => "bar-unstaged",
        }
    }

    /// The legend's words: colour is never the only carrier of meaning.
    pub fn legend(self) -> &'static str {
        match self {
            BarKind::Updating => "updating",
            BarKind::BeforeApproval => "waiting for approval (before stage)",
            BarKind::TimedWait => "timed wait (soak)",
            BarKind::AfterApproval => "waiting for approval (after stage)",
            BarKind::Stopped => "run stopped",
            BarKind::ClusterSucceeded => "cluster update",
            BarKind::ClusterFailed => "cluster update failed",
            BarKind::ClusterUntracked => "update no longer tracked (run aborted)",
            BarKind::ControlPlane => "control-plane upgrade",
            BarKind::Node => "node upgrade",
            BarKind::WindowWait => "waiting for a maintenance window",
            BarKind::ExclusionWait => "held by a maintenance exclusion",
            BarKind::Soaking => "soaking",
            BarKind::ForcedSoaking => "forced soak (30 days after start)",
            BarKind::Remove => "resources removed",
            BarKind::Update => "resources updated in place",
            BarKind::Add => "resources added",
            BarKind::AvailabilityWait => "waiting to become available",
            BarKind::Unstaged => "in no stage: never updated, the run cannot start",
        }
    }

    /// The kinds a plan's bars use, in legend order: a staged run's legend does not list GKE's kinds.
    pub fn used(chart: &Chart) -> Vec<BarKind> {
        let mut seen = [false; BarKind::ALL.len()];
        for r in &chart.rows {
            for b in &r.bars {
                seen[b.kind as usize] = true;
            }
        }
        BarKind::ALL
            .iter()
            .copied()
            .filter(|k| seen[*k as usize])
            .collect()
    }

    fn of_phase(kind: PhaseKind) -> BarKind {
        match kind {
            PhaseKind::Updating => BarKind::Updating,
            PhaseKind::BeforeStageApproval => BarKind::BeforeApproval,
            PhaseKind::AfterStageTimedWait => BarKind::TimedWait,
            PhaseKind::AfterStageApproval => BarKind::AfterApproval,
            PhaseKind::Stopped => BarKind::Stopped,
            PhaseKind::ControlPlaneUpgrade => BarKind::ControlPlane,
            PhaseKind::NodeUpgrade => BarKind::Node,
            PhaseKind::MaintenanceWait => BarKind::WindowWait,
            PhaseKind::ExclusionWait => BarKind::ExclusionWait,
            PhaseKind::Soaking => BarKind::Soaking,
            PhaseKind::ForcedSoaking => BarKind::ForcedSoaking,
            PhaseKind::Remove => BarKind::Remove,
            PhaseKind::Update => BarKind::Update,
            PhaseKind::Add => BarKind::Add,
            PhaseKind::AvailabilityWait => BarKind::AvailabilityWait,
            PhaseKind::FailedRetrying => BarKind::ClusterFailed,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Axis {
    /// Upper tier: days (or weeks when zoomed out).
    pub major: Vec<Tick>,
    /// Lower tier: hours (or days when zoomed out).
    pub minor: Vec<Tick>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tick {
    pub x: f64,
    pub label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Span {
    pub x: f64,
    pub width: f64,
}

/// Lays out every row of the plan for `view`, tooltips included; bars outside the view's time window
/// are left out.
pub fn layout(plan: &Plan, view: &View) -> Chart {
    let mut chart = layout_untitled(plan, view);
    for row in &mut chart.rows {
        let titles: Vec<String> = row.bars.iter().map(|b| title(plan, row, b)).collect();
        for (b, t) in row.bars.iter_mut().zip(titles) {
            b.title = t;
        }
    }
    chart
}

/// [`layout`] without the tooltips: what an interactive chart lays out on every zoom, writing tooltips
/// only for the rows it puts on screen.
pub fn layout_untitled(plan: &Plan, view: &View) -> Chart {
    let mut rows = Vec::new();
    let h = if view.row_height.is_finite() && view.row_height > 1.0 {
        view.row_height
    } else {
        DEFAULT_ROW_HEIGHT
    };
    let versions = versions(plan);
    let version_of = |p: &Phase| {
        let v = plan.version(p)?;
        let i = versions.iter().position(|n| n == v)?;
        Some(i.min(VERSION_COLOURS - 1) as u8)
    };
    let phase_bars = |phases: &[Phase]| {
        let mut bars: Vec<Bar> = phases
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let mut b = bar(view, BarKind::of_phase(p.kind), p.start, p.end)?;
                b.label = phase_label(plan, p);
                b.phase = Some(i);
                b.version = version_of(p);
                Some(b)
            })
            .collect();
        assign_lanes(&mut bars);
        bars
    };
    let mut y = 0.0;
    for (si, stage) in plan.stages.iter().enumerate() {
        let collapsed = view.collapsed.iter().any(|c| c == &stage.name);
        let status = match stage.status {
            StageStatus::Skipped => " (skipped: no clusters)",
            StageStatus::Failed => " (failed)",
            StageStatus::Waiting => " (waiting)",
            _ => "",
        };
        rows.push(Row {
            y,
            height: h,
            kind: RowKind::Stage {
                stage: si,
                collapsed,
            },
            label: format!("{}{status}", shown(&stage.name)),
            bars: phase_bars(&stage.phases),
        });
        y += h;
        if collapsed {
            continue;
        }
        for (ci, c) in stage.clusters.iter().enumerate() {
            let bars = if !c.phases.is_empty() {
                phase_bars(&c.phases)
            } else {
                let kind = match c.status {
                    ClusterStatus::Failed => BarKind::ClusterFailed,
                    ClusterStatus::Untracked => BarKind::ClusterUntracked,
                    _ => BarKind::ClusterSucceeded,
                };
                c.start
                    .and_then(|start| bar(view, kind, start, c.end))
                    .into_iter()
                    .collect()
            };
            rows.push(Row {
                y,
                height: h,
                kind: RowKind::Cluster {
                    stage: si,
                    cluster: ci,
                },
                label: shown(&c.name).into_owned(),
                bars,
            });
            y += h;
        }
    }
    if !plan.unstaged.is_empty() {
        rows.push(Row {
            y,
            height: h,
            kind: RowKind::Unstaged { cluster: None },
            label: format!("not in any stage ({})", plan.unstaged.len()),
            bars: Vec::new(),
        });
        y += h;
        for (i, name) in plan.unstaged.iter().enumerate() {
            // From the start on, to the edge: such a cluster is never updated.
            let bars = bar(view, BarKind::Unstaged, plan.start, None)
                .map(|mut b| {
                    b.label = "in no stage".into();
                    b.open_end = false;
                    b
                })
                .into_iter()
                .collect();
            rows.push(Row {
                y,
                height: h,
                kind: RowKind::Unstaged { cluster: Some(i) },
                label: shown(name).into_owned(),
                bars,
            });
            y += h;
        }
    }
    Chart {
        width: view.width,
        height: y,
        rows,
        axis: axis(view),
        weekends: weekends(view),
        start_x: view.x_at(plan.start),
        end_x: plan.end.map(|e| view.x_at(e)),
        versions,
    }
}

/// The words drawn on a phase's bar.
fn phase_label(plan: &Plan, p: &Phase) -> String {
    match p.kind {
        PhaseKind::Updating => "updating".to_string(),
        PhaseKind::BeforeStageApproval | PhaseKind::AfterStageApproval => "approval".to_string(),
        PhaseKind::AfterStageTimedWait => {
            crate::substr::replace(plan.label(p), "TimedWait ", "wait ")
        }
        PhaseKind::Stopped => "stopped".to_string(),
        _ => plan.label(p).to_string(),
    }
}

/// A bar for `[start, end)` clipped to the view, or `None` when it lies outside it.
fn bar(view: &View, kind: BarKind, start: Time, end: Option<Time>) -> Option<Bar> {
    let open_end = end.is_none();
    let end_t = end.unwrap_or(Time(view.end.0.max(start.0)));
    if end_t < view.start || start > view.end {
        return None;
    }
    let x0 = view.x_at(start).max(-1.0);
    let x1 = view.x_at(end_t).min(view.width + 1.0);
    Some(Bar {
        x: x0,
        width: (x1 - x0).max(1.0),
        kind,
        label: String::new(),
        title: String::new(),
        start,
        end,
        phase: None,
        version: None,
        open_end,
        lane: 0,
        lanes: 1,
    })
}

/// What a bar of `row` is (`member3: updating`, `waiting for approval run-after-canary (version …)`),
/// with the cluster it belongs to, if any; `None` for a bar the plan does not know.
fn bar_subject<'p>(
    plan: &'p Plan,
    row: &Row,
    bar: &Bar,
) -> Option<(String, Option<&'p ClusterPlan>, Option<&'p Phase>)> {
    let (stage, cluster) = match row.kind {
        RowKind::Stage { stage, .. } => (plan.stages.get(stage)?, None),
        RowKind::Cluster { stage, cluster } => {
            let s = plan.stages.get(stage)?;
            (s, s.clusters.get(cluster))
        }
        RowKind::Unstaged { cluster } => {
            let name = cluster.and_then(|c| plan.unstaged.get(c))?;
            return Some((
                format!("{name}: selected by no stage, so the controller refuses to start the run"),
                None,
                None,
            ));
        }
    };
    let phase = bar.phase.and_then(|i| match cluster {
        Some(c) => c.phases.get(i),
        None => stage.phases.get(i),
    });
    let mut what = match (phase, cluster) {
        (Some(p), None) => {
            let label = plan.label(p);
            match p.kind {
                PhaseKind::Updating => format!("stage {} updating ({label})", stage.name),
                PhaseKind::BeforeStageApproval | PhaseKind::AfterStageApproval => {
                    format!("waiting for approval {label}")
                }
                PhaseKind::AfterStageTimedWait => format!("after-stage {label}"),
                PhaseKind::Stopped => "run stopped".to_string(),
                _ => format!("stage {}: {}: {label}", stage.name, bar.kind.legend()),
            }
        }
        (Some(p), Some(c)) => format!("{}: {}: {}", c.name, bar.kind.legend(), plan.label(p)),
        (None, Some(c)) => {
            let verb = match c.status {
                ClusterStatus::Failed => "update failed",
                ClusterStatus::Untracked => "updating, untracked after the run aborted",
                _ if stage.delete_stage => "deleting resources",
                _ => "updating",
            };
            let mut w = format!("{}: {verb}", c.name);
            if let Some(stuck) = c.stuck_at {
                let _ = write!(w, "; run marked stuck at {stuck}");
            }
            w
        }
        (None, None) => return None,
    };
    if let Some(v) = phase.and_then(|p| plan.version(p)) {
        let _ = write!(what, " (version {v})");
    }
    Some((what, cluster, phase))
}

/// Names and reasons from the input as a person sees them: a bidirectional override or zero-width
/// character in a cluster name is written out (`\u{202e}`) rather than reordering the chart's text.
fn shown(s: &str) -> Cow<'_, str> {
    crate::visible::visible(s)
}

fn owned_visible(s: String) -> String {
    match shown(&s) {
        Cow::Borrowed(_) => s,
        Cow::Owned(o) => o,
    }
}

/// The tooltip of a bar of `row`: what it is, its exact times and duration, and the reason or version.
/// Written on demand (only for rows on screen), not by [`layout`].
pub fn title(plan: &Plan, row: &Row, bar: &Bar) -> String {
    owned_visible(title_raw(plan, row, bar))
}

fn title_raw(plan: &Plan, row: &Row, bar: &Bar) -> String {
    let Some((what, cluster, _)) = bar_subject(plan, row, bar) else {
        return String::new();
    };
    if matches!(row.kind, RowKind::Unstaged { .. }) {
        return what;
    }
    let start = bar.start;
    let mut t = match bar.end {
        Some(e) => format!("{what}: {start} → {e} ({})", e.since(start)),
        None => format!("{what}: from {start}, never ends under the assumptions"),
    };
    if let Some(r) = cluster.and_then(|c| c.reason.as_deref()) {
        let _ = write!(t, "; {r}");
    }
    t
}

/// [`title`] for people, on `zone`'s clock (`Mon 23 Nov 10:06 → 10:09 CET (3m)`, with the UTC times
/// after it when the zone is not UTC), the duration rounded as [`Duration::human`] does, and why the
/// bar waits: the approval assumption behind an approval, what a soak or TimedWait holds.
pub fn title_in(plan: &Plan, row: &Row, bar: &Bar, zone: &Zone) -> String {
    owned_visible(title_in_raw(plan, row, bar, zone))
}

fn title_in_raw(plan: &Plan, row: &Row, bar: &Bar, zone: &Zone) -> String {
    let Some((what, cluster, phase)) = bar_subject(plan, row, bar) else {
        return String::new();
    };
    if matches!(row.kind, RowKind::Unstaged { .. }) {
        return what;
    }
    let start = bar.start;
    let mut t = match bar.end {
        Some(e) => {
            let same_day = zone.wall(start).0.div_euclid(DAY.0) == zone.wall(e).0.div_euclid(DAY.0);
            let end = if same_day {
                zone.clock(e)
            } else {
                zone.short(e)
            };
            format!(
                "{what}: {} → {end} {} ({})",
                zone.short(start),
                zone.abbreviation_at(e),
                e.since(start).human()
            )
        }
        None => format!(
            "{what}: from {} {}, never ends under the assumptions",
            zone.short(start),
            zone.abbreviation_at(start)
        ),
    };
    if let Some(r) = cluster.and_then(|c| c.reason.as_deref()) {
        let _ = write!(t, "; {r}");
    }
    if let Some(why) = phase.and_then(|p| wait_reason(plan, p.kind)) {
        let _ = write!(t, "; {why}");
    }
    if !zone.is_utc() {
        match bar.end {
            Some(e) => {
                let _ = write!(t, " [UTC {start} → {e}]");
            }
            None => {
                let _ = write!(t, " [UTC from {start}]");
            }
        }
    }
    t
}

/// Why a phase of this kind holds the rollout, in the plan's own words where it has them (the approval
/// assumption, with its business hours).
fn wait_reason(plan: &Plan, kind: PhaseKind) -> Option<String> {
    match kind {
        PhaseKind::BeforeStageApproval | PhaseKind::AfterStageApproval => plan
            .assumptions
            .iter()
            .find(|a| a.field == "approvals")
            .map(|a| format!("assumed approval: {}", a.value)),
        PhaseKind::AfterStageTimedWait => {
            Some("the next stage starts only after this wait has passed".into())
        }
        PhaseKind::Soaking => Some("the next stage takes the version only after the soak".into()),
        PhaseKind::ForcedSoaking => Some(
            "GKE soaks a stage still upgrading 30 days after it began; its remaining clusters carry on"
                .into(),
        ),
        _ => None,
    }
}

/// The number of available clusters of a rolling update over time, laid out as a strip under the chart.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AvailabilityChart {
    pub width: f64,
    pub height: f64,
    /// The step line through the samples, `(x, y)` in px, ending at the view's right edge.
    pub line: Vec<(f64, f64)>,
    /// The budget: never fewer than `min_available` clusters (N − maxUnavailable).
    pub budget_y: f64,
    pub target_y: f64,
    pub min_available: usize,
    pub target: usize,
    /// The fewest available clusters any sample shows.
    pub lowest: usize,
    /// Labels of the y axis: (y, text), for 0, the budget and N.
    pub labels: Vec<(f64, String)>,
}

/// Lays out `samples` (available clusters from each instant on, in time order) for `view` in a strip
/// `height` px tall. The line holds each value until the next sample (a step line) and stays clipped to
/// the view, like the bars above it.
pub fn availability(
    samples: &[(Time, usize)],
    min_available: usize,
    target: usize,
    view: &View,
    height: f64,
) -> AvailabilityChart {
    let height = if height.is_finite() && height > 20.0 {
        height
    } else {
        60.0
    };
    let top = samples
        .iter()
        .map(|s| s.1)
        .chain([target, min_available, 1])
        .max()
        .unwrap_or(1);
    // 6 px of margin above and below so the lines at N and 0 are not cut.
    let y_of = |n: usize| 6.0 + (height - 12.0) * (1.0 - n as f64 / top as f64);
    let clip = |x: f64| x.clamp(-1.0, view.width + 1.0);
    let mut line: Vec<(f64, f64)> = Vec::new();
    for (i, &(at, n)) in samples.iter().enumerate() {
        let x = clip(view.x_at(at));
        let y = y_of(n);
        if let Some(&(_, prev_y)) = line.last() {
            line.push((x, prev_y));
        }
        line.push((x, y));
        if i + 1 == samples.len() {
            line.push((clip(view.width), y));
        }
    }
    let mut labels = vec![(y_of(0), "0".to_string())];
    if min_available != target {
        labels.push((y_of(min_available), format!("{min_available} (budget)")));
    }
    labels.push((y_of(target), format!("{target} (N)")));
    AvailabilityChart {
        width: view.width,
        height,
        line,
        budget_y: y_of(min_available),
        target_y: y_of(target),
        min_available,
        target,
        lowest: samples.iter().map(|s| s.1).min().unwrap_or(target),
        labels,
    }
}

/// Candidate minor steps, finest first; the major tier is days below a day, weeks above.
const STEPS: [i64; 12] = [
    5 * MINUTE.0,
    15 * MINUTE.0,
    30 * MINUTE.0,
    HOUR.0,
    2 * HOUR.0,
    3 * HOUR.0,
    6 * HOUR.0,
    12 * HOUR.0,
    DAY.0,
    2 * DAY.0,
    7 * DAY.0,
    28 * DAY.0,
];

/// The two-tier axis, on the view's clock: ticks fall on that zone's hours and midnights, and are
/// labelled with its wall time. Work happens on wall times (an instant shifted by the offset in force,
/// read as UTC); each tick goes back to the instant it stands for before it gets its x.
fn axis(view: &View) -> Axis {
    let zone = &view.zone;
    let ms_per_px = view.span() as f64 / view.width.max(1.0);
    let step = STEPS
        .iter()
        .copied()
        .find(|s| *s as f64 / ms_per_px >= MIN_TICK_PX)
        .unwrap_or(STEPS[STEPS.len() - 1]);
    let mut axis = Axis::default();
    let days_tier = step < DAY.0;
    let (wall_start, wall_end) = (zone.wall(view.start), zone.wall(view.end));
    // Minor ticks.
    let mut w = if step >= 7 * DAY.0 {
        next_monday(wall_start)
    } else {
        ceil_to(wall_start, step)
    };
    let mut guard = 0;
    while w <= wall_end && guard < 2_000 {
        let dt = w.to_datetime();
        let label = if days_tier {
            format!("{:02}:{:02}", dt.hour(), dt.minute())
        } else {
            format!("{} {}", weekday(dt.weekday()), dt.day())
        };
        axis.minor.push(Tick {
            x: view.x_at(zone.from_wall(w)),
            label,
        });
        w = w.plus(Duration(step));
        guard += 1;
    }
    // Major ticks: day starts, or Monday starts when zoomed out; the label stays at the window's left edge
    // for the period already under way, so the first tier never goes blank.
    let (major_step, mut m) = if days_tier {
        (DAY.0, floor_to(wall_start, DAY.0))
    } else {
        (7 * DAY.0, prev_monday(wall_start))
    };
    guard = 0;
    while m <= wall_end && guard < 2_000 {
        let dt = m.to_datetime();
        let label = if days_tier {
            format!(
                "{} {} {} {}",
                weekday(dt.weekday()),
                dt.day(),
                month(dt.month()),
                dt.year()
            )
        } else {
            format!("week of {} {} {}", dt.day(), month(dt.month()), dt.year())
        };
        axis.major.push(Tick {
            x: view.x_at(zone.from_wall(m)).max(0.0),
            label,
        });
        m = m.plus(Duration(major_step));
        guard += 1;
    }
    // The period under way is labelled at the left edge; when the next period starts too close for
    // both labels (about 6.5 px a character), the next one's label wins.
    if let [first, second, ..] = axis.major.as_slice() {
        if second.x - first.x < 6.5 * first.label.len() as f64 + 8.0 {
            axis.major.remove(0);
        }
    }
    axis
}

/// Saturdays and Sundays on the view's clock.
fn weekends(view: &View) -> Vec<Span> {
    let zone = &view.zone;
    let mut out = Vec::new();
    let (wall_start, wall_end) = (zone.wall(view.start), zone.wall(view.end));
    let mut sat = prev_monday(wall_start).plus(Duration(5 * DAY.0));
    let mut guard = 0;
    while sat <= wall_end && guard < 200 {
        let mon = sat.plus(Duration(2 * DAY.0));
        if mon > wall_start {
            let x0 = view.x_at(zone.from_wall(sat)).max(0.0);
            let x1 = view.x_at(zone.from_wall(mon)).min(view.width);
            if x1 > x0 {
                out.push(Span {
                    x: x0,
                    width: x1 - x0,
                });
            }
        }
        sat = sat.plus(Duration(7 * DAY.0));
        guard += 1;
    }
    out
}

fn floor_to(t: Time, step: i64) -> Time {
    Time(t.0.div_euclid(step) * step)
}

fn ceil_to(t: Time, step: i64) -> Time {
    let f = floor_to(t, step);
    if f == t {
        f
    } else {
        f.plus(Duration(step))
    }
}

/// Monday 00:00 UTC of `t`'s week (the epoch, a Thursday, is 3 days after a Monday).
fn prev_monday(t: Time) -> Time {
    let day = t.0.div_euclid(DAY.0);
    Time((day - (day + 3).rem_euclid(7)) * DAY.0)
}

fn next_monday(t: Time) -> Time {
    let m = prev_monday(t);
    if m == t {
        m
    } else {
        m.plus(Duration(7 * DAY.0))
    }
}

fn weekday(d: chrono::Weekday) -> &'static str {
    crate::model::WEEKDAY_NAMES[d.num_days_from_monday() as usize]
}

fn month(m: u32) -> &'static str {
    [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ][(m.clamp(1, 12) - 1) as usize]
}

/// The rows to put in the DOM for a scroll position: those intersecting the viewport plus a few either
/// side, so scrolling never shows a gap. Rows are uniform, so this is arithmetic, not a search.
pub fn visible_rows(chart: &Chart, scroll_top: f64, viewport_height: f64) -> Range<usize> {
    const OVERSCAN: usize = 8;
    let Some(first) = chart.rows.first() else {
        return 0..0;
    };
    let h = first.height.max(1.0);
    let top = if scroll_top.is_finite() {
        scroll_top.max(0.0)
    } else {
        0.0
    };
    let vh = if viewport_height.is_finite() {
        viewport_height.max(0.0)
    } else {
        0.0
    };
    let start = ((top / h).floor() as usize)
        .saturating_sub(OVERSCAN)
        .min(chart.rows.len());
    let end = (((top + vh) / h).ceil() as usize)
        .saturating_add(OVERSCAN)
        .min(chart.rows.len());
    start..end.max(start)
}

/// Escaping for SVG text lives with the other exports; re-exported here for chart code.
pub use crate::export::xml_escape;

pub const AXIS_HEIGHT: f64 = 40.0;
const LEGEND_HEIGHT: f64 = 24.0;

/// A standalone SVG document of the whole chart (every row), with styles inline, for export.
pub fn svg(chart: &Chart, label_width: f64) -> String {
    let lw = if label_width.is_finite() {
        label_width.max(0.0)
    } else {
        160.0
    };
    let width = lw + chart.width;
    let height = AXIS_HEIGHT + chart.height + LEGEND_HEIGHT;
    let mut s = String::with_capacity(256 + chart.rows.len() * 160);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="11">"#
    );
    s.push_str(SVG_STYLE);
    s.push_str(SVG_DEFS);
    let _ = write!(
        s,
        r#"<rect class="bg" x="0" y="0" width="{width:.0}" height="{height:.0}"/>"#
    );
    let _ = write!(s, r#"<g transform="translate({lw:.1},0)">"#);
    for w in &chart.weekends {
        let _ = write!(
            s,
            r#"<rect class="weekend" x="{:.1}" y="0" width="{:.1}" height="{:.1}"/>"#,
            w.x,
            w.width,
            AXIS_HEIGHT + chart.height
        );
    }
    for t in &chart.axis.major {
        let _ = write!(
            s,
            r#"<text class="axis-major" x="{:.1}" y="14">{}</text>"#,
            t.x + 2.0,
            xml_escape(&t.label)
        );
    }
    for t in &chart.axis.minor {
        let _ = write!(
            s,
            r#"<line class="grid" x1="{x:.1}" y1="20" x2="{x:.1}" y2="{:.1}"/><text class="axis-minor" x="{:.1}" y="32">{}</text>"#,
            AXIS_HEIGHT + chart.height,
            t.x + 2.0,
            xml_escape(&t.label),
            x = t.x
        );
    }
    let _ = write!(
        s,
        r#"<line class="start" x1="{x:.1}" y1="0" x2="{x:.1}" y2="{:.1}"/>"#,
        AXIS_HEIGHT + chart.height,
        x = chart.start_x
    );
    s.push_str("</g>");
    for row in &chart.rows {
        let y = AXIS_HEIGHT + row.y;
        let class = match row.kind {
            RowKind::Stage { .. } => "label-stage",
            RowKind::Unstaged { cluster: None } => "label-unstaged",
            _ => "label",
        };
        let _ = write!(
            s,
            r#"<text class="{class}" x="4" y="{:.1}">{}</text>"#,
            y + row.height * 0.7,
            xml_escape(&row.label)
        );
        let _ = write!(s, r#"<g transform="translate({lw:.1},0)">"#);
        for b in &row.bars {
            let (by, bh) = b.vertical(y, row.height);
            let _ = write!(
                s,
                r#"<rect class="{}" x="{:.1}" y="{by:.1}" width="{:.1}" height="{bh:.1}"><title>{}</title></rect>"#,
                b.classes(),
                b.x,
                b.width,
                xml_escape(&b.title)
            );
            if !b.label.is_empty() && b.width > 7.0 * b.label.len() as f64 && bh >= 9.0 {
                let _ = write!(
                    s,
                    r#"<text class="bar-label" x="{:.1}" y="{:.1}">{}</text>"#,
                    b.x + 3.0,
                    by + bh * 0.5 + 3.5,
                    xml_escape(&b.label)
                );
            }
        }
        s.push_str("</g>");
    }
    let ly = AXIS_HEIGHT + chart.height + 16.0;
    let mut lx = 4.0;
    let versions = &chart.versions;
    let entries = BarKind::used(chart)
        .into_iter()
        .map(|k| (k.css_class().to_string(), k.legend().to_string()))
        .chain(versions.iter().enumerate().map(|(i, v)| {
            (
                format!("bar-control-plane{}", version_class(Some(i as u8))),
                format!("version {v}"),
            )
        }));
    for (class, words) in entries {
        let _ = write!(
            s,
            r#"<rect class="{class}" x="{lx:.1}" y="{:.1}" width="12" height="10"/><text x="{:.1}" y="{ly:.1}">{}</text>"#,
            ly - 9.0,
            lx + 16.0,
            xml_escape(&words)
        );
        lx += 24.0 + 6.5 * words.len() as f64;
    }
    s.push_str("</svg>");
    s
}

/// [`svg`] with a caption above the chart, so a picture of it says what it is: `lines[0]` as the
/// title, the rest below it in smaller type (the end time, the outcome). Text is escaped.
pub fn svg_captioned(chart: &Chart, label_width: f64, lines: &[String]) -> String {
    let inner = svg(chart, label_width);
    let Some((title, rest)) = lines.split_first() else {
        return inner;
    };
    let lw = if label_width.is_finite() {
        label_width.max(0.0)
    } else {
        160.0
    };
    let width = lw + chart.width;
    let caption = 16.0 + 20.0 * lines.len() as f64;
    let height = AXIS_HEIGHT + chart.height + LEGEND_HEIGHT + caption;
    let mut s = String::with_capacity(inner.len() + 512);
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif"><rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="#fff"/><text x="8" y="24" font-size="16" font-weight="bold" fill="#1d2330">{}</text>"##,
        xml_escape(title)
    );
    for (i, line) in rest.iter().enumerate() {
        let _ = write!(
            s,
            r##"<text x="8" y="{:.0}" font-size="12" fill="#333a48">{}</text>"##,
            44.0 + 20.0 * i as f64,
            xml_escape(line)
        );
    }
    // The chart itself, as its own document placed under the caption.
    s.push_str(&inner.replacen("<svg ", &format!(r#"<svg y="{caption:.0}" "#), 1));
    s.push_str("</svg>");
    s
}

impl Bar {
    /// The CSS classes of the bar: its kind, and its version's colour for the kinds a version colours
    /// (waits keep their hatching whatever version they hold back).
    pub fn classes(&self) -> String {
        let coloured = matches!(
            self.kind,
            BarKind::ControlPlane | BarKind::Node | BarKind::Soaking | BarKind::ForcedSoaking
        );
        let v = if coloured { self.version } else { None };
        format!("{}{}", self.kind.css_class(), version_class(v))
    }
}

/// The CSS class suffix of a version colour: ` v0` … ` v5`, or nothing.
pub fn version_class(v: Option<u8>) -> &'static str {
    match v {
        Some(0) => " v0",
        Some(1) => " v1",
        Some(2) => " v2",
        Some(3) => " v3",
        Some(4) => " v4",
        Some(_) => " v5",
        None => "",
    }
}

/// Hatching for window and exclusion waits (the web app's chart defines the same ids): stripes 6 px
/// apart, 2.5 px dark, at 45° and -45°. Drawn as linear gradients that repeat with hard stops rather
/// than as `<pattern>` tiles: they look the same, but Chromium records a pattern's tile again for every
/// bar it repaints (each edit moves every bar in view), and a pasted 1,000-cluster GKE edit painted
/// about 0.5-1 ms faster with gradients (bench/REPORT.md, 2026-11-28). The gradient's vector is the
/// stripes' normal, one period (6 px) long: (6/√2, ±6/√2).
pub const SVG_DEFS: &str = concat!(
    r##"<defs><linearGradient id="hatch-window" gradientUnits="userSpaceOnUse" spreadMethod="repeat" x1="0" y1="0" x2="4.243" y2="4.243">"##,
    r##"<stop offset="0" stop-color="#c99a2e"/><stop offset="0.4167" stop-color="#c99a2e"/><stop offset="0.4167" stop-color="#f3e3b8"/><stop offset="1" stop-color="#f3e3b8"/></linearGradient>"##,
    r##"<linearGradient id="hatch-exclusion" gradientUnits="userSpaceOnUse" spreadMethod="repeat" x1="0" y1="0" x2="4.243" y2="-4.243">"##,
    r##"<stop offset="0" stop-color="#b33a3a"/><stop offset="0.4167" stop-color="#b33a3a"/><stop offset="0.4167" stop-color="#f4cccc"/><stop offset="1" stop-color="#f4cccc"/></linearGradient></defs>"##
);

const SVG_STYLE: &str = "<style>.bg{fill:#fff}.weekend{fill:#f1f1f4}.grid{stroke:#e3e3e8}.start{stroke:#222;stroke-dasharray:3 2}.axis-major{font-weight:bold}.label-stage{font-weight:bold}.bar-updating{fill:#3b73c4}.bar-before-approval{fill:#e8a33d}.bar-after-approval{fill:#d9822b}.bar-timed-wait{fill:#7b5bb3}.bar-stopped{fill:#9a9a9a}.bar-cluster{fill:#5a9bd8}.bar-cluster-failed{fill:#c8423b}.bar-cluster-untracked{fill:#b9c4d0}.bar-label{fill:#fff;font-size:10px}.bar-control-plane{fill:#2f6fb5}.bar-node{fill:#2f6fb5;fill-opacity:.6}.bar-window-wait{fill:url(#hatch-window)}.bar-exclusion-wait{fill:url(#hatch-exclusion)}.bar-soaking{fill:#8e6cc2;fill-opacity:.35}.bar-forced-soaking{fill:#a04d9e;fill-opacity:.35;stroke:#a04d9e;stroke-dasharray:3 2}.bar-remove{fill:#c8423b;fill-opacity:.8}.bar-update{fill:#237a88}.bar-add{fill:#3a9a5b}.bar-availability-wait{fill:#e8a33d;fill-opacity:.8}.bar-unstaged{fill:#b3261e}.label-unstaged{font-weight:bold;fill:#b3261e}.v0{fill:#2f6fb5}.v1{fill:#d2691e}.v2{fill:#277a4c}.v3{fill:#8b3a8b}.v4{fill:#b8860b}.v5{fill:#5f6b7a}.bar-before-approval+.bar-label,.bar-after-approval+.bar-label,.bar-stopped+.bar-label,.bar-cluster+.bar-label,.bar-cluster-untracked+.bar-label,.bar-add+.bar-label,.bar-control-plane.v1+.bar-label,.bar-control-plane.v4+.bar-label{fill:#111827}.bar-node+.bar-label,.bar-soaking+.bar-label,.bar-forced-soaking+.bar-label,.bar-window-wait+.bar-label,.bar-exclusion-wait+.bar-label,.bar-remove+.bar-label,.bar-availability-wait+.bar-label{fill:#111827;stroke:#fff;stroke-width:3px;paint-order:stroke}</style>";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Labels;
    use crate::{examples, load, Source};

    fn staged_plan() -> Plan {
        let e = examples::get("staged").expect("the staged example exists");
        let loaded = load(&[Source {
            name: "staged.yaml",
            text: e.text,
        }]);
        crate::plan(&loaded.scenarios[0])
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn rows_of_few_bars_get_the_lanes_the_general_rule_gives() {
        // Both paths place bars with place_in_lanes; the short one orders them by start with its own
        // insertion sort, which must agree with the shared stable sort (ties in row order), or a row
        // would get other lanes. Rows with ties, touching bars, nested and disjoint ones, 2 to 8 bars.
        let mut x: u64 = 13;
        let mut next = |m: u64| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % m
        };
        for round in 0..400 {
            let n = 2 + round % (FEW_BARS - 1);
            let row: Vec<Bar> = (0..n)
                .map(|_| Bar {
                    x: (next(12) * 5) as f64,
                    width: (1 + next(4) * 5) as f64 - 0.5 * next(2) as f64,
                    kind: BarKind::Updating,
                    label: String::new(),
                    title: String::new(),
                    start: Time(0),
                    end: None,
                    phase: None,
                    version: None,
                    open_end: false,
                    lane: 0,
                    lanes: 1,
                })
                .collect();
            let mut few = row.clone();
            assign_few_lanes(&mut few);
            let mut many = row;
            assign_many_lanes(&mut many);
            let lanes = |r: &[Bar]| r.iter().map(|b| (b.lane, b.lanes)).collect::<Vec<_>>();
            assert_eq!(lanes(&few), lanes(&many), "round {round}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn fit_shows_the_whole_run_and_bars_line_up_with_times() {
        let plan = staged_plan();
        let view = View::fit(&plan, 1000.0);
        let chart = layout(&plan, &view);
        assert!(
            chart.start_x > 0.0 && chart.end_x.is_some_and(|x| x < 1000.0),
            "margins on both sides"
        );
        let stage_rows = chart
            .rows
            .iter()
            .filter(|r| matches!(r.kind, RowKind::Stage { .. }))
            .count();
        assert_eq!(stage_rows, 3);
        assert_eq!(chart.rows.len(), 3 + 7, "a row per stage and per cluster");
        let member1 = chart
            .rows
            .iter()
            .find(|r| r.label == "member1")
            .expect("member1 row");
        let b = &member1.bars[0];
        assert!((b.x - view.x_at(plan.start)).abs() < 1e-6);
        let t = title(&plan, member1, b);
        assert!(
            t.contains("member1: updating: 2026-11-23T09:00:00Z → 2026-11-23T09:03:00Z (3m)"),
            "{t}"
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn parallel_after_stage_tasks_get_separate_lanes() {
        let plan = staged_plan();
        let chart = layout(&plan, &View::fit(&plan, 1000.0));
        let prod = chart
            .rows
            .iter()
            .find(|r| r.label == "production")
            .expect("stage row");
        let wait = prod
            .bars
            .iter()
            .find(|b| b.kind == BarKind::TimedWait)
            .expect("timed wait");
        let approval = prod
            .bars
            .iter()
            .find(|b| b.kind == BarKind::AfterApproval)
            .expect("approval");
        assert_eq!((wait.lanes, approval.lanes), (2, 2));
        assert_ne!(wait.lane, approval.lane);
        let before = prod
            .bars
            .iter()
            .find(|b| b.kind == BarKind::BeforeApproval)
            .expect("before");
        assert_eq!(before.lane, 0, "sequential phases stay in the first lane");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn zoom_keeps_the_anchor_and_pan_moves_the_window() {
        let plan = staged_plan();
        let view = View::fit(&plan, 1000.0);
        let anchor = view.time_at(300.0);
        let zoomed = view.zoom(4.0, 300.0);
        assert!((zoomed.x_at(anchor) - 300.0).abs() < 0.01);
        assert!(zoomed.end.since(zoomed.start) < view.end.since(view.start));
        let panned = zoomed.pan(100.0);
        assert!(panned.start > zoomed.start);
        assert_eq!(
            panned.end.since(panned.start),
            zoomed.end.since(zoomed.start)
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn collapsing_a_stage_hides_its_clusters_and_culling_drops_offscreen_bars() {
        let plan = staged_plan();
        let view = View::fit(&plan, 1000.0).with_collapsed("production", true);
        assert_eq!(layout(&plan, &view).rows.len(), 3 + 2);
        // A window over the first ten minutes only: production's bars are culled.
        let early = View {
            start: plan.start,
            end: plan.start.plus(Duration(10 * MINUTE.0)),
            ..View::fit(&plan, 1000.0)
        };
        let chart = layout(&plan, &early);
        let prod = chart
            .rows
            .iter()
            .find(|r| r.label == "production")
            .expect("stage row");
        assert!(prod.bars.is_empty());
        assert!(chart.rows.iter().all(|r| r
            .bars
            .iter()
            .all(|b| b.x >= -1.0 && b.x + b.width <= 1001.0)));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn axis_has_two_tiers_and_weekends_are_shaded() {
        let plan = staged_plan();
        let day_view = View::fit(&plan, 1000.0);
        let a = layout(&plan, &day_view).axis;
        assert!(
            a.major.iter().any(|t| t.label == "Mon 23 Nov 2026"),
            "{:?}",
            a.major
        );
        assert!(a.minor.iter().any(|t| t.label == "10:00"), "{:?}", a.minor);
        let wide = View {
            start: plan.start,
            end: plan.start.plus(Duration(30 * DAY.0)),
            ..day_view
        };
        let chart = layout(&plan, &wide);
        assert!(chart
            .axis
            .major
            .iter()
            .any(|t| t.label.starts_with("week of")));
        assert!(
            chart
                .axis
                .major
                .windows(2)
                .all(|w| w[1].x - w[0].x >= 6.5 * w[0].label.len() as f64),
            "major labels never overlap: {:?}",
            chart.axis.major
        );
        // Monday 23 Nov 09:00 + 30 days reaches Wednesday 23 Dec: four weekends.
        assert_eq!(chart.weekends.len(), 4, "{:?}", chart.weekends);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn virtualisation_returns_only_rows_near_the_viewport() {
        let plan = staged_plan();
        let chart = layout(&plan, &View::fit(&plan, 1000.0));
        assert_eq!(visible_rows(&chart, 0.0, 44.0), 0..10);
        let mut big = chart.clone();
        big.rows = (0..10_000)
            .map(|i| Row {
                y: i as f64 * 22.0,
                ..chart.rows[1].clone()
            })
            .collect();
        let r = visible_rows(&big, 22.0 * 5_000.0, 660.0);
        assert!(r.len() < 60 && r.contains(&5_000), "{r:?}");
        assert_eq!(
            visible_rows(&big, f64::NAN, f64::INFINITY),
            0..8,
            "nonsense scroll values show the top"
        );
        assert_eq!(
            visible_rows(&big, 0.0, 1e300),
            0..10_000,
            "a huge viewport shows everything without overflow"
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn svg_export_escapes_names() {
        let mut plan = staged_plan();
        plan.stages[0].clusters[0].name = "<script>alert(1)</script>".into();
        let text = svg(&layout(&plan, &View::fit(&plan, 800.0)), 160.0);
        assert!(!text.contains("<script>"));
        assert!(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(text.starts_with("<svg") && text.ends_with("</svg>"));
    }

    fn phase(
        labels: &mut Labels,
        kind: PhaseKind,
        start: &str,
        end: Option<&str>,
        version: Option<&str>,
    ) -> Phase {
        Phase {
            kind,
            start: Time::parse(start).unwrap(),
            end: end.map(|e| Time::parse(e).unwrap()),
            label: labels.add(kind.slug()),
            version: version.map(|v| labels.add(v)),
        }
    }

    /// The staged plan with GKE-style bars on member1: control plane and nodes overlapping, a window
    /// wait before them, and a second version's control plane later.
    fn plan_with_cluster_phases() -> Plan {
        let mut plan = staged_plan();
        let l = &mut plan.labels;
        let phases = vec![
            phase(
                l,
                PhaseKind::MaintenanceWait,
                "2026-11-23T09:00:00Z",
                Some("2026-11-23T10:00:00Z"),
                Some("1.31.2"),
            ),
            phase(
                l,
                PhaseKind::ControlPlaneUpgrade,
                "2026-11-23T10:00:00Z",
                Some("2026-11-23T10:40:00Z"),
                Some("1.31.2"),
            ),
            phase(
                l,
                PhaseKind::NodeUpgrade,
                "2026-11-23T10:20:00Z",
                Some("2026-11-23T11:00:00Z"),
                Some("1.31.2"),
            ),
            phase(
                l,
                PhaseKind::ControlPlaneUpgrade,
                "2026-11-23T11:30:00Z",
                Some("2026-11-23T11:50:00Z"),
                Some("1.32.0"),
            ),
        ];
        let c = &mut plan.stages[0].clusters[0];
        c.phases = phases;
        c.reason = Some("window opens at 10:00".into());
        plan
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn hidden_characters_in_names_are_written_out_on_the_chart() {
        // A right-to-left override in a cluster name would reorder every label after it on the
        // page; the chart shows it as the CLI does. Plain names stay as they are.
        let mut plan = staged_plan();
        let plain = plan.stages[1].clusters[0].name.clone();
        plan.stages[0].clusters[0].name = "prod\u{202e}1-dor".into();
        plan.stages[0].name = "can\u{200b}ary".into();
        let chart = layout(&plan, &View::fit(&plan, 1000.0));
        let labels: Vec<&str> = chart.rows.iter().map(|r| r.label.as_str()).collect();
        assert!(labels.contains(&"prod\\u{202e}1-dor"), "{labels:?}");
        assert!(
            labels.iter().any(|l| l.starts_with("can\\u{200b}ary")),
            "{labels:?}"
        );
        assert!(labels.contains(&plain.as_str()));
        assert!(labels
            .iter()
            .all(|l| !l.chars().any(crate::visible::is_hidden)));
        let row = chart
            .rows
            .iter()
            .find(|r| r.label.starts_with("prod"))
            .unwrap();
        let bar = row.bars.first().expect("the cluster has a bar");
        let tip = title(&plan, row, bar);
        assert!(tip.contains("prod\\u{202e}1-dor"), "{tip}");
        assert!(!tip.chars().any(crate::visible::is_hidden), "{tip}");
        let tip = title_in(&plan, row, bar, &Zone::utc());
        assert!(!tip.chars().any(crate::visible::is_hidden), "{tip}");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn cluster_phases_are_drawn_in_lanes_with_version_colours() {
        let plan = plan_with_cluster_phases();
        assert_eq!(versions(&plan), ["1.31.2", "1.32.0"]);
        let chart = layout(&plan, &View::fit(&plan, 1000.0));
        let row = chart.rows.iter().find(|r| r.label == "member1").unwrap();
        let kinds: Vec<_> = row.bars.iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [
                BarKind::WindowWait,
                BarKind::ControlPlane,
                BarKind::Node,
                BarKind::ControlPlane
            ]
        );
        let (cp, node) = (&row.bars[1], &row.bars[2]);
        assert_eq!(
            (cp.lanes, node.lanes),
            (2, 2),
            "overlapping bars share the row"
        );
        assert_ne!(cp.lane, node.lane);
        assert_eq!(row.bars[3].lanes, 1, "a bar alone keeps the full height");
        assert_eq!(cp.classes(), "bar-control-plane v0");
        assert_eq!(row.bars[3].classes(), "bar-control-plane v1");
        assert_eq!(
            row.bars[0].classes(),
            "bar-window-wait",
            "waits stay hatched whatever version they hold back"
        );
        let t = title(&plan, row, &row.bars[0]);
        assert_eq!(
            t,
            "member1: waiting for a maintenance window: window-wait (version 1.31.2): \
             2026-11-23T09:00:00Z → 2026-11-23T10:00:00Z (1h); window opens at 10:00"
        );
        assert_eq!(row.bars[0].title, t, "layout writes the tooltips");
        let bare = layout_untitled(&plan, &View::fit(&plan, 1000.0));
        assert!(bare
            .rows
            .iter()
            .all(|r| r.bars.iter().all(|b| b.title.is_empty())));
        let used = BarKind::used(&chart);
        assert!(used.contains(&BarKind::WindowWait) && used.contains(&BarKind::Node));
        assert!(!used.contains(&BarKind::Remove));
        let text = svg(&chart, 160.0);
        assert!(text.contains("url(#hatch-window)") && text.contains("version 1.32.0"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn availability_is_a_step_line_with_its_budget() {
        let plan = staged_plan();
        let view = View::fit(&plan, 1000.0);
        let t = |h: i64| plan.start.plus(Duration(h * HOUR.0));
        let a = availability(&[(t(0), 4), (t(1), 3), (t(2), 4)], 3, 4, &view, 72.0);
        assert_eq!(a.lowest, 3);
        assert_eq!(
            a.line.len(),
            6,
            "each change is a vertical then a horizontal step"
        );
        assert_eq!(a.line[1], (view.x_at(t(1)), a.target_y));
        assert_eq!(a.line[2], (view.x_at(t(1)), a.budget_y));
        assert!(a.line.iter().all(|&(_, y)| y <= a.budget_y + 1e-9));
        assert_eq!(a.line.last().unwrap().0, 1000.0, "held to the right edge");
        assert!(a.budget_y > a.target_y && a.budget_y < 72.0);
        let words: Vec<&str> = a.labels.iter().map(|l| l.1.as_str()).collect();
        assert_eq!(words, ["0", "3 (budget)", "4 (N)"]);
    }

    fn example_plan(name: &str) -> Plan {
        let e = examples::get(name).expect("the example exists");
        let loaded = load(&[Source {
            name: "example.yaml",
            text: e.text,
        }]);
        crate::plan(&loaded.scenarios[0])
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_rolling_seed_examples_never_dip_under_the_budget() {
        for name in ["rolling-bad-image", "rolling-move-west-east"] {
            let plan = example_plan(name);
            let r = plan.rolling.as_ref().expect("a rolling plan");
            let samples: Vec<(Time, usize)> =
                r.availability.iter().map(|a| (a.at, a.available)).collect();
            let view = View::fit(&plan, 1000.0);
            let a = availability(&samples, r.min_available, r.target, &view, 72.0);
            assert!(!a.line.is_empty(), "{name}");
            assert!(
                a.lowest >= r.min_available,
                "{name}: {} < {}",
                a.lowest,
                r.min_available
            );
            assert!(
                a.line.iter().all(|&(_, y)| y <= a.budget_y + 1e-9),
                "{name}: the drawn line dips under the budget"
            );
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_bank_example_draws_control_plane_node_and_window_bars() {
        let plan = example_plan("gke-bank");
        let chart = layout(&plan, &View::fit(&plan, 1200.0));
        let stages = chart
            .rows
            .iter()
            .filter(|r| matches!(r.kind, RowKind::Stage { .. }))
            .count();
        assert_eq!(stages, 5);
        let used = BarKind::used(&chart);
        for k in [
            BarKind::ControlPlane,
            BarKind::Node,
            BarKind::WindowWait,
            BarKind::ExclusionWait,
            BarKind::Soaking,
        ] {
            assert!(used.contains(&k), "{k:?} missing from {used:?}");
        }
        assert_eq!(chart.versions, ["1.31.5-gke.1200000"]);
        let east2 = chart
            .rows
            .iter()
            .find(|r| r.label == "prod-east-2")
            .unwrap();
        assert!(east2.bars.iter().any(|b| b.kind == BarKind::WindowWait));
        let two = example_plan("gke-pipelining");
        assert_eq!(layout(&two, &View::fit(&two, 1200.0)).versions.len(), 2);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_axis_reads_the_views_zone() {
        // Berlin in winter is UTC+1: its midnight is 23:00 UTC, its 10:00 tick is 09:00 UTC, and a
        // weekend starts at Friday 23:00 UTC.
        let plan = staged_plan();
        let utc = View::fit(&plan, 1000.0);
        let berlin = View {
            zone: Zone::fixed("Europe/Berlin", 60, "CET"),
            ..utc.clone()
        };
        let (a, b) = (layout(&plan, &utc), layout(&plan, &berlin));
        let x_of =
            |c: &Chart, label: &str| c.axis.minor.iter().find(|t| t.label == label).map(|t| t.x);
        // The same instant, 10:00 UTC, is labelled 11:00 in Berlin.
        let ten_utc = x_of(&a, "10:00").expect("a 10:00 tick in UTC");
        let eleven_berlin = x_of(&b, "11:00").expect("an 11:00 tick in Berlin");
        assert!(
            (ten_utc - eleven_berlin).abs() < 1e-6,
            "{ten_utc} vs {eleven_berlin}"
        );
        let wide = |zone: Zone| View {
            start: Time::parse("2026-11-27T12:00:00Z").unwrap(),
            end: Time::parse("2026-11-30T12:00:00Z").unwrap(),
            zone,
            ..utc.clone()
        };
        let (wu, wb) = (
            wide(Zone::utc()),
            wide(Zone::fixed("Europe/Berlin", 60, "CET")),
        );
        let (su, sb) = (&weekends(&wu)[0], &weekends(&wb)[0]);
        let hour_px = wu.x_at(Time(wu.start.0 + HOUR.0)) - wu.x_at(wu.start);
        assert!(
            (su.x - sb.x - hour_px).abs() < 1e-6,
            "Berlin's Saturday starts an hour earlier"
        );
        assert!((su.width - sb.width).abs() < 1e-6);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn clusters_in_no_stage_get_red_rows_under_the_stages() {
        // The example's placement picks six clusters and its stages select staging1 and prod1-3: dev1
        // and dev2 are in no stage (KubeFleet lists such clusters sorted by name).
        let plan = example_plan("cluster-in-no-stage");
        assert_eq!(plan.unstaged, ["dev1", "dev2"]);
        let view = View::fit(&plan, 1000.0);
        let chart = layout(&plan, &view);
        let n = chart.rows.len();
        let tail: Vec<(&str, RowKind)> = chart.rows[n - 3..]
            .iter()
            .map(|r| (r.label.as_str(), r.kind))
            .collect();
        assert_eq!(
            tail,
            [
                ("not in any stage (2)", RowKind::Unstaged { cluster: None }),
                ("dev1", RowKind::Unstaged { cluster: Some(0) }),
                ("dev2", RowKind::Unstaged { cluster: Some(1) }),
            ]
        );
        let bar = &chart.rows[n - 1].bars[0];
        assert_eq!(bar.kind, BarKind::Unstaged);
        assert!(
            (bar.x - view.x_at(plan.start)).abs() < 1e-6,
            "from the start"
        );
        assert!(bar.x + bar.width >= view.width, "to the edge");
        assert!(title(&plan, &chart.rows[n - 1], bar).starts_with("dev2: selected by no stage"));
        assert!(BarKind::used(&chart).contains(&BarKind::Unstaged));
        assert!(svg(&chart, 160.0).contains("label-unstaged"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn tooltips_for_people_read_the_zone_and_say_why_a_stage_waits() {
        let plan = staged_plan();
        let chart = layout(&plan, &View::fit(&plan, 1000.0));
        let canary = chart.rows.iter().find(|r| r.label == "canary").unwrap();
        let approval = canary
            .bars
            .iter()
            .find(|b| b.kind == BarKind::AfterApproval)
            .unwrap();
        // The canary's after-stage approval: requested 10:06Z, approved 30 minutes later (the
        // example's approval assumption), so 11:06 → 11:36 in Berlin.
        let berlin = Zone::fixed("Europe/Berlin", 60, "CET");
        let t = title_in(&plan, canary, approval, &berlin);
        assert!(
            t.starts_with("waiting for approval example-run-after-canary: Mon 23 Nov 11:06 → 11:36 CET (30m); assumed approval: granted 30m of business time"),
            "{t}"
        );
        assert!(
            t.ends_with("[UTC 2026-11-23T10:06:00Z → 2026-11-23T10:36:00Z]"),
            "{t}"
        );
        let utc = title_in(&plan, canary, approval, &Zone::utc());
        assert!(!utc.contains("[UTC"), "{utc}");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_captioned_svg_names_the_scenario_above_the_chart() {
        let plan = staged_plan();
        let chart = layout(&plan, &View::fit(&plan, 800.0));
        let plain = svg(&chart, 160.0);
        let lines = [
            "<my> rollout".to_string(),
            "ends Mon 23 Nov 2026 12:15 UTC".to_string(),
        ];
        let s = svg_captioned(&chart, 160.0, &lines);
        assert!(s.contains("&lt;my&gt; rollout") && s.contains("ends Mon 23 Nov 2026 12:15 UTC"));
        // Two caption lines take 16 + 2 × 20 px above the chart, which keeps its own size.
        let height = |doc: &str| -> f64 {
            let rest = &doc[doc.find("height=\"").unwrap() + 8..];
            rest[..rest.find('"').unwrap()].parse().unwrap()
        };
        assert_eq!(height(&s), height(&plain) + 56.0);
        assert!(s.contains(r#"<svg y="56" xmlns"#));
        assert_eq!(svg_captioned(&chart, 160.0, &[]), plain);
    }
}
