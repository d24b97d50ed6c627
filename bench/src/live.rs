//! Live projection benchmark inputs: the JSON status of a staged run of `clusters` clusters in ten
//! stages, halfway through (five stages finished, the sixth updating, four to go), as `kubectl get -o
//! json` prints it; and the functions timed natively and in wasm.

use std::fmt::Write as _;

use fleetplan::status::{self, Options};
use fleetplan::time::Time;
use fleetplan::Source;

pub const STAGES: usize = 10;
/// The instant the status is read at.
pub const NOW: &str = "2026-11-24T20:00:00Z";

fn at(minutes: i64) -> String {
    // 2026-11-24T09:00:00Z plus `minutes`.
    Time(1_795_510_800_000 + minutes * 60_000).to_string()
}

fn cond(out: &mut String, kind: &str, status: &str, reason: &str, minutes: i64) {
    let _ = write!(
        out,
        r#"{{"type":"{kind}","status":"{status}","reason":"{reason}","message":"","observedGeneration":1,"lastTransitionTime":"{}"}}"#,
        at(minutes)
    );
}

/// The status text. Stage `s` has `clusters / STAGES` clusters updated 10% at a time, 4 minutes each;
/// even stages wait 30m after updating, odd ones need an approval first.
pub fn status_json(clusters: usize) -> String {
    let per = (clusters / STAGES).max(1);
    let mut out = String::with_capacity(clusters * 700);
    out.push_str(r#"{"apiVersion":"placement.kubernetes-fleet.io/v1beta1","kind":"ClusterStagedUpdateRun","metadata":{"name":"bench-run","generation":1},"spec":{"placementName":"bench-placement","stagedRolloutStrategyName":"bench-strategy","state":"Run"},"status":{"conditions":["#);
    cond(
        &mut out,
        "Initialized",
        "True",
        "UpdateRunInitializedSuccessfully",
        0,
    );
    out.push(',');
    cond(&mut out, "Progressing", "True", "UpdateRunProgressing", 0);
    out.push_str(r#"],"deletionStageStatus":{"stageName":"kubernetes-fleet.io/deleteStage","clusters":[]},"stagedUpdateStrategySnapshot":{"stages":["#);
    for s in 0..STAGES {
        if s > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            r#"{{"name":"ring{s}","labelSelector":{{"matchLabels":{{"ring":"{s}"}}}},"maxConcurrency":"10%"{}}}"#,
            if s % 2 == 0 {
                r#","afterStageTasks":[{"type":"TimedWait","waitTime":"30m"}]"#
            } else {
                r#","beforeStageTasks":[{"type":"Approval"}]"#
            }
        );
    }
    out.push_str(r#"]},"stagesStatus":["#);
    let window = (per / 10).max(1) as i64;
    let mut t = 0i64;
    for s in 0..STAGES {
        if s > 0 {
            out.push(',');
        }
        let _ = write!(out, r#"{{"stageName":"ring{s}","#);
        let finished = s < 5;
        let current = s == 5;
        let start = t;
        if finished || current {
            let _ = write!(out, r#""startTime":"{}","#, at(start));
        }
        out.push_str(r#""clusters":["#);
        for c in 0..per {
            if c > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                r#"{{"clusterName":"member-{:06}","conditions":["#,
                s * per + c
            );
            let begin = start + (c as i64 / window) * 4;
            let done = finished || (current && c < per / 2);
            let started = done || (current && c < per / 2 + window as usize);
            if started {
                cond(&mut out, "Started", "True", "ClusterUpdatingStarted", begin);
            }
            if done {
                out.push(',');
                cond(
                    &mut out,
                    "Succeeded",
                    "True",
                    "ClusterUpdatingSucceeded",
                    begin + 4,
                );
            }
            out.push_str("]}");
        }
        out.push_str("],\"conditions\":[");
        let end = start + (per as i64 + window - 1) / window * 4;
        if finished {
            cond(
                &mut out,
                "Progressing",
                "False",
                "StageUpdatingSucceeded",
                end + 30,
            );
            out.push(',');
            cond(
                &mut out,
                "Succeeded",
                "True",
                "StageUpdatingSucceeded",
                end + 30,
            );
            let _ = write!(out, r#"],"endTime":"{}""#, at(end + 30));
            t = end + 30;
        } else if current {
            cond(
                &mut out,
                "Progressing",
                "True",
                "StageUpdatingStarted",
                start,
            );
            out.push(']');
        } else {
            out.push(']');
        }
        out.push('}');
    }
    out.push_str("]}}");
    out
}

/// Reads the status and projects it (without the range); returns the projected stage count so the
/// work cannot be optimised away.
pub fn import_and_project(text: &str, forecast: bool, samples: u32) -> usize {
    let assumptions = format!(
        "assumptions:\n  updateDuration: 4m\n  approvals: {{delay: 1h}}\n  uncertainty: {{samples: {samples}}}\n"
    );
    let input = status::load(
        &[
            Source {
                name: "status.json",
                text,
            },
            Source {
                name: "assumptions.yaml",
                text: &assumptions,
            },
        ],
        &[],
    );
    let now = Time::parse(NOW).unwrap_or_default();
    input
        .items
        .iter()
        .map(|i| {
            let plan = status::project(i, &Options::new(now, forecast));
            plan.stages.len() + plan.end.map_or(0, |_| 1)
        })
        .sum()
}
