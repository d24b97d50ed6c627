//! What a chart of a live projection draws on top of the ordinary layout: the now-line, whether each
//! bar is a fact, running or projected (a running bar is split at now: solid up to it, light after),
//! and each row's P10–P90 whisker. Computed here, from `Plan.projection` and the laid-out chart, so
//! front ends only draw (and the tests check it without a browser).

use serde::Serialize;

use crate::gantt::{Chart, RowKind, View};
use crate::plan::projection::{Basis, Projection, Spread};
use crate::plan::Plan;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Marks {
    /// Where now is, when it is on the chart's timeline.
    pub now_x: Option<f64>,
    /// Per row of the chart, per bar: its basis.
    pub bars: Vec<Vec<Basis>>,
    /// Per row: the P10–P90 range of its end, in px, when the Monte Carlo gave one that is wider than
    /// nothing.
    pub whiskers: Vec<Option<Whisker>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Whisker {
    pub x10: f64,
    pub x50: f64,
    pub x90: f64,
}

/// The marks of `chart`, laid out from `plan` with `view`; empty when the plan is no projection.
pub fn marks(plan: &Plan, chart: &Chart, view: &View) -> Marks {
    let Some(p) = &plan.projection else {
        return Marks::default();
    };
    let mut out = Marks {
        now_x: Some(view.x_at(p.now)),
        bars: Vec::with_capacity(chart.rows.len()),
        whiskers: Vec::with_capacity(chart.rows.len()),
    };
    for row in &chart.rows {
        let (bases, end) = match row.kind {
            RowKind::Stage { stage, .. } => {
                let sp = p.stages.get(stage);
                let bases = row
                    .bars
                    .iter()
                    .map(|b| {
                        b.phase
                            .and_then(|i| sp.and_then(|s| s.phases.get(i)).copied())
                            .unwrap_or_else(|| by_time(p, b.start, b.end))
                    })
                    .collect();
                (bases, sp.and_then(|s| s.end))
            }
            RowKind::Cluster { stage, cluster } => {
                let cp = p.stages.get(stage).and_then(|s| s.clusters.get(cluster));
                let bases = row
                    .bars
                    .iter()
                    .map(|b| match (b.phase, cp) {
                        // A staged cluster's one bar has the cluster's basis.
                        (None, Some(c)) => c.basis,
                        _ => by_time(p, b.start, b.end),
                    })
                    .collect();
                (bases, cp.and_then(|c| c.end))
            }
            RowKind::Unstaged { .. } => (vec![Basis::Projected; row.bars.len()], None),
        };
        out.bars.push(bases);
        out.whiskers.push(end.and_then(|e| whisker(&e, view)));
    }
    out
}

/// A phase's basis from its times: facts lie before now, projections after.
fn by_time(p: &Projection, start: crate::time::Time, end: Option<crate::time::Time>) -> Basis {
    crate::status::basis(Some(start), end, p.now)
}

fn whisker(s: &Spread, view: &View) -> Option<Whisker> {
    let (a, m, b) = (s.p10?, s.p50?, s.p90?);
    (a < b).then(|| Whisker {
        x10: view.x_at(a),
        x50: view.x_at(m),
        x90: view.x_at(b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Source;
    use crate::status::{load, project, Options};
    use crate::time::Time;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn the_chart_marks_facts_running_and_projected_bars_and_the_now_line() {
        let text = include_str!("../../../examples/staged-in-progress.yaml");
        let input = load(
            &[Source {
                name: "s.yaml",
                text,
            }],
            &[],
        );
        let now = Time::parse("2026-11-24T10:12:00Z").unwrap();
        let plan = project(&input.items[0], &Options::new(now, true));
        let view = View::fit(&plan, 1000.0);
        let chart = crate::gantt::layout(&plan, &view);
        let m = marks(&plan, &chart, &view);
        assert_eq!(m.now_x, Some(view.x_at(now)));
        // Rows: staging, member-cluster-02, canary, member-cluster-03, member-cluster-01.
        assert_eq!(chart.rows.len(), 5);
        assert_eq!(m.bars[1], vec![Basis::Fact]);
        assert_eq!(m.bars[4], vec![Basis::Running]);
        // Canary's row: updating (running), then the approval ahead (projected).
        assert_eq!(m.bars[2], vec![Basis::Running, Basis::Projected]);
        // Staging is over: no whisker; canary's end is uncertain: P10 < P50 < P90 in px.
        assert!(m.whiskers[0].is_none());
        let w = m.whiskers[2].unwrap();
        assert!(w.x10 < w.x50 && w.x50 < w.x90);
    }
}
