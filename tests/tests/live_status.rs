//! Live projection of KubeFleet staged runs from their status. Each status is written step by step
//! by `fleetplan_tests::live::Run`, following the controller's own rules (execution.go, stop.go),
//! never taken from fleetplan's output; each expectation is derived by hand from the rule named in
//! its comment.

use fleetplan::plan::projection::{Basis, RunState, WaitingKind};
use fleetplan::plan::{Outcome, Plan};
use fleetplan::status::{self, Options};
use fleetplan::time::{Duration, Time};
use fleetplan::Source;
use fleetplan_tests::live::{Run, StageSpec};
use wasm_bindgen_test::wasm_bindgen_test;

fn t(s: &str) -> Time {
    Time::parse(s).unwrap()
}

fn m(x: i64) -> Duration {
    Duration(x * 60_000)
}

/// Loads `texts` as one input and projects the first item at `now`.
fn project(texts: &[&str], now: &str) -> Plan {
    project_with(texts, &[], now, true)
}

fn project_with(texts: &[&str], history: &[&str], now: &str, forecast: bool) -> Plan {
    let names: Vec<String> = (0..texts.len())
        .map(|i| format!("input-{i}.yaml"))
        .collect();
    let sources: Vec<Source> = texts
        .iter()
        .zip(&names)
        .map(|(text, name)| Source { name, text })
        .collect();
    let past: Vec<Source> = history
        .iter()
        .map(|text| Source {
            name: "history.yaml",
            text,
        })
        .collect();
    let input = status::load(&sources, &past);
    assert!(!input.items.is_empty(), "{:?}", input.diagnostics);
    status::project(&input.items[0], &Options::new(t(now), forecast))
}

const ASSUME: &str = "assumptions:\n  updateDuration: 10m\n  approvals: {delay: 1h}\n  uncertainty: {updateSpread: 0, approvalSpread: 0}\n";

/// staging (1 cluster, TimedWait 1h) → canary (2 clusters, one at a time, after-stage Approval) →
/// prod (3 clusters, two at a time, before-stage Approval).
fn three_stages() -> Vec<StageSpec> {
    vec![
        StageSpec {
            name: "staging",
            clusters: vec!["s1"],
            wait: Some("1h"),
            ..Default::default()
        },
        StageSpec {
            name: "canary",
            clusters: vec!["c1", "c2"],
            after_approval: true,
            ..Default::default()
        },
        StageSpec {
            name: "prod",
            clusters: vec!["p1", "p2", "p3"],
            max_concurrency: Some(2),
            before_approval: true,
            ..Default::default()
        },
    ]
}

/// The run of `three_stages` until canary's second cluster is updating since 10:10.
fn canary_updating() -> Run {
    let mut r = Run::initialized("run1", three_stages(), &[], "2026-11-24T09:00:00Z");
    r.run_progressing("2026-11-24T09:00:00Z")
        .stage_reached(0, "2026-11-24T09:00:00Z")
        .cluster_started(0, 0, "2026-11-24T09:00:00Z")
        .cluster_succeeded(0, 0, "2026-11-24T09:04:00Z")
        .clusters_done(0, "2026-11-24T09:04:00Z")
        .wait_elapsed(0, "2026-11-24T10:04:00Z")
        .stage_succeeded(0, "2026-11-24T10:04:00Z")
        .stage_reached(1, "2026-11-24T10:04:00Z")
        .cluster_started(1, 0, "2026-11-24T10:04:00Z")
        .cluster_succeeded(1, 0, "2026-11-24T10:10:00Z")
        .cluster_started(1, 1, "2026-11-24T10:10:00Z");
    r
}

#[wasm_bindgen_test(unsupported = test)]
fn finished_facts_keep_their_real_times_and_the_rest_is_projected_from_now() {
    let plan = project(&[&canary_updating().json(), ASSUME], "2026-11-24T10:12:00Z");
    let p = plan.projection.as_ref().unwrap();
    // Facts: staging's start/end and s1's update, canary's first cluster, as the status says.
    let staging = &plan.stages[0];
    assert_eq!(
        (staging.start, staging.end),
        (
            Some(t("2026-11-24T09:00:00Z")),
            Some(t("2026-11-24T10:04:00Z"))
        )
    );
    assert_eq!(staging.clusters[0].end, Some(t("2026-11-24T09:04:00Z")));
    assert_eq!(p.stages[0].basis, Basis::Fact);
    assert_eq!(p.stages[1].clusters[0].basis, Basis::Fact);
    assert_eq!(
        plan.stages[1].clusters[0].end,
        Some(t("2026-11-24T10:10:00Z"))
    );
    // c2 updates since 10:10 and takes the assumed 10m from its own start (not from now): 10:20.
    assert_eq!(p.stages[1].clusters[1].basis, Basis::Running);
    assert_eq!(
        plan.stages[1].clusters[1].end,
        Some(t("2026-11-24T10:20:00Z"))
    );
    // Canary's approval request is created when its last cluster finishes and approved 1h later
    // (assumed); prod's before-stage approval likewise; then p1, p2 at once (maxConcurrency 2),
    // p3 after them: 11:20 + 1h = 12:20, +10m = 12:30, +10m = 12:40.
    assert_eq!(plan.stages[1].end, Some(t("2026-11-24T11:20:00Z")));
    assert_eq!(plan.stages[2].end, Some(t("2026-11-24T12:40:00Z")));
    assert_eq!(plan.end, Some(t("2026-11-24T12:40:00Z")));
    assert_eq!(p.stages[2].basis, Basis::Projected);
    // Where it stands.
    assert_eq!(p.position.state, RunState::Running);
    assert_eq!(p.position.stage.as_deref(), Some("canary"));
    assert_eq!((p.position.stages_done, p.position.stages), (1, 3));
    assert_eq!((p.position.clusters_done, p.position.clusters), (2, 6));
    assert_eq!(p.position.in_flight[0].cluster, "c2");
    assert_eq!(p.position.in_flight[0].since, t("2026-11-24T10:10:00Z"));
    // The original plan from the run's start: 09:10 staging updated, 10:10 wait over, canary 10:30,
    // approval 11:30, prod approval 12:30, 12:40, 12:50. The run is 10m ahead.
    assert_eq!(p.baseline_end, Some(t("2026-11-24T12:50:00Z")));
    assert_eq!(p.behind.unwrap().0, Duration(-m(10).0));
    // The next gate: canary's approval request, with the command that approves it.
    let next = p.position.next.as_ref().unwrap();
    assert_eq!(next.request.as_deref(), Some("run1-after-canary"));
    assert_eq!(next.since, t("2026-11-24T10:20:00Z"));
}

#[wasm_bindgen_test(unsupported = test)]
fn an_update_past_its_expected_duration_ends_now_at_the_earliest() {
    // c2 has updated for 40 minutes of an assumed 10: it has not finished, so it cannot end before now.
    let plan = project(&[&canary_updating().json(), ASSUME], "2026-11-24T10:50:00Z");
    assert_eq!(
        plan.stages[1].clusters[1].end,
        Some(t("2026-11-24T10:50:00Z"))
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_timed_wait_ends_at_its_real_start_plus_wait_time() {
    // checkAfterStageTasksStatus: the wait counts from the stage's Progressing condition turning to
    // waiting (09:04); at 09:23 there are 41 minutes left, ending 10:04.
    let mut r = Run::initialized("run1", three_stages(), &[], "2026-11-24T09:00:00Z");
    r.run_progressing("2026-11-24T09:00:00Z")
        .stage_reached(0, "2026-11-24T09:00:00Z")
        .cluster_started(0, 0, "2026-11-24T09:00:00Z")
        .cluster_succeeded(0, 0, "2026-11-24T09:04:00Z")
        .clusters_done(0, "2026-11-24T09:04:00Z");
    let plan = project(&[&r.json(), ASSUME], "2026-11-24T09:23:00Z");
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(p.position.state, RunState::Waiting);
    let w = &p.position.waiting[0];
    assert_eq!(w.kind, WaitingKind::TimedWait);
    assert_eq!(w.since, t("2026-11-24T09:04:00Z"));
    assert_eq!(w.until, Some(t("2026-11-24T10:04:00Z")));
    assert_eq!(w.what, "TimedWait 1h (time remaining 41m)");
    assert_eq!(plan.stages[0].end, Some(t("2026-11-24T10:04:00Z")));
    assert!(plan
        .diagnostics
        .iter()
        .any(|d| d.code == "timed-wait-remaining" && d.message.contains("(time remaining 41m)")));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_pending_approval_says_since_when_which_request_and_how_to_approve() {
    let mut r = canary_updating();
    r.cluster_succeeded(1, 1, "2026-11-24T10:20:00Z")
        .clusters_done(1, "2026-11-24T10:20:00Z");
    let plan = project(&[&r.json(), ASSUME], "2026-11-24T10:45:00Z");
    let p = plan.projection.as_ref().unwrap();
    let w = &p.position.waiting[0];
    assert_eq!(w.kind, WaitingKind::Approval);
    assert_eq!(w.since, t("2026-11-24T10:20:00Z"));
    assert_eq!(w.request.as_deref(), Some("run1-after-canary"));
    // Approved 1h after the request (assumed): 11:20.
    assert_eq!(w.until, Some(t("2026-11-24T11:20:00Z")));
    // A status patch of the ClusterApprovalRequest's status subresource with Approved=True; the
    // request's generation is 1 (its spec is immutable), which the controller compares.
    assert_eq!(
        w.command.as_deref(),
        Some("kubectl patch clusterapprovalrequest run1-after-canary --type=merge --subresource=status -p '{\"status\":{\"conditions\":[{\"type\":\"Approved\",\"status\":\"True\",\"reason\":\"Approved\",\"message\":\"approved\",\"lastTransitionTime\":\"2026-11-24T10:45:00Z\",\"observedGeneration\":1}]}}'")
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn an_approval_given_on_the_request_but_not_yet_taken_counts_from_its_time() {
    // The person patched Approved=True at 10:30; the controller's next reconcile records it.
    let mut r = canary_updating();
    r.cluster_succeeded(1, 1, "2026-11-24T10:20:00Z")
        .clusters_done(1, "2026-11-24T10:20:00Z");
    let request = "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterApprovalRequest\nmetadata: {name: run1-after-canary, generation: 1}\nspec: {parentStageRollout: run1, targetStage: canary}\nstatus:\n  conditions:\n  - {type: Approved, status: \"True\", reason: lgtm, message: lgtm, lastTransitionTime: \"2026-11-24T10:30:00Z\", observedGeneration: 1}\n";
    let plan = project(&[&r.json(), request, ASSUME], "2026-11-24T10:31:00Z");
    // Canary ends when approved; prod is reached at once and waits for its own approval.
    assert_eq!(plan.stages[1].end, Some(t("2026-11-24T10:31:00Z")));
}

#[wasm_bindgen_test(unsupported = test)]
fn observed_durations_replace_the_assumption_with_a_note() {
    // prod has three finished updates (4m, 5m, 6m): the remaining cluster takes their median, 5m.
    let mut r = canary_updating();
    r.cluster_succeeded(1, 1, "2026-11-24T10:20:00Z")
        .clusters_done(1, "2026-11-24T10:20:00Z")
        .after_approved(1, "2026-11-24T10:30:00Z")
        .stage_succeeded(1, "2026-11-24T10:30:00Z");
    let mut prod = StageSpec {
        name: "prod",
        clusters: vec!["p1", "p2", "p3", "p4"],
        max_concurrency: Some(3),
        ..Default::default()
    };
    prod.before_approval = false;
    let mut stages = three_stages();
    stages[2] = prod;
    let mut r2 = Run::initialized("run1", stages, &[], "2026-11-24T09:00:00Z");
    // Same history as `r` for the first two stages, then prod.
    r2.run_progressing("2026-11-24T09:00:00Z")
        .stage_reached(0, "2026-11-24T09:00:00Z")
        .cluster_started(0, 0, "2026-11-24T09:00:00Z")
        .cluster_succeeded(0, 0, "2026-11-24T09:04:00Z")
        .clusters_done(0, "2026-11-24T09:04:00Z")
        .wait_elapsed(0, "2026-11-24T10:04:00Z")
        .stage_succeeded(0, "2026-11-24T10:04:00Z")
        .stage_reached(1, "2026-11-24T10:04:00Z")
        .cluster_started(1, 0, "2026-11-24T10:04:00Z")
        .cluster_succeeded(1, 0, "2026-11-24T10:10:00Z")
        .cluster_started(1, 1, "2026-11-24T10:10:00Z")
        .cluster_succeeded(1, 1, "2026-11-24T10:20:00Z")
        .clusters_done(1, "2026-11-24T10:20:00Z")
        .after_approved(1, "2026-11-24T10:30:00Z")
        .stage_succeeded(1, "2026-11-24T10:30:00Z")
        .stage_reached(2, "2026-11-24T10:30:00Z")
        .cluster_started(2, 0, "2026-11-24T10:30:00Z")
        .cluster_started(2, 1, "2026-11-24T10:30:00Z")
        .cluster_started(2, 2, "2026-11-24T10:30:00Z")
        .cluster_succeeded(2, 0, "2026-11-24T10:34:00Z")
        .cluster_started(2, 3, "2026-11-24T10:34:00Z")
        .cluster_succeeded(2, 1, "2026-11-24T10:35:00Z")
        .cluster_succeeded(2, 2, "2026-11-24T10:36:00Z");
    let plan = project(&[&r2.json(), ASSUME], "2026-11-24T10:37:00Z");
    let p = plan.projection.as_ref().unwrap();
    let note = p
        .calibration
        .iter()
        .find(|c| c.field == "updateDuration of stage prod")
        .unwrap();
    assert!(note.applied);
    assert_eq!(note.value, m(5));
    assert_eq!(
        note.text,
        "update of stage prod 5m (median of 3 finished clusters) instead of the assumed 10m"
    );
    // p4 started 10:34 and takes the calibrated 5m, not the assumed 10m: 10:39.
    assert_eq!(
        plan.stages[2].clusters[3].end,
        Some(t("2026-11-24T10:39:00Z"))
    );
    let _ = r;
}

#[wasm_bindgen_test(unsupported = test)]
fn earlier_runs_given_as_history_calibrate_a_stage_without_data() {
    // An earlier run's canary took 2m, 3m, 4m: this run's canary clusters take the median, 3m.
    let mut past = Run::initialized("run0", three_stages(), &[], "2026-11-20T09:00:00Z");
    past.run_progressing("2026-11-20T09:00:00Z")
        .stage_reached(1, "2026-11-20T09:00:00Z")
        .cluster_started(1, 0, "2026-11-20T09:00:00Z")
        .cluster_succeeded(1, 0, "2026-11-20T09:02:00Z")
        .cluster_started(1, 1, "2026-11-20T09:02:00Z")
        .cluster_succeeded(1, 1, "2026-11-20T09:05:00Z");
    let mut other = Run::initialized("run00", three_stages(), &[], "2026-11-19T09:00:00Z");
    other
        .run_progressing("2026-11-19T09:00:00Z")
        .stage_reached(1, "2026-11-19T09:00:00Z")
        .cluster_started(1, 0, "2026-11-19T09:00:00Z")
        .cluster_succeeded(1, 0, "2026-11-19T09:04:00Z");
    let plan = project_with(
        &[&canary_updating().json(), ASSUME],
        &[&past.json(), &other.json()],
        "2026-11-24T10:11:00Z",
        false,
    );
    let p = plan.projection.as_ref().unwrap();
    // This run's own canary observation (6m) joins them: 2m, 3m, 4m, 6m → median (3m + 4m) / 2.
    let note = p
        .calibration
        .iter()
        .find(|c| c.field.ends_with("canary"))
        .unwrap();
    assert!(note.applied, "{}", note.text);
    assert_eq!(note.value, Duration(210_000));
    assert!(
        note.text.contains("3 of them in earlier runs"),
        "{}",
        note.text
    );
    assert_eq!(
        plan.stages[1].clusters[1].end,
        Some(t("2026-11-24T10:13:30Z"))
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn the_range_is_deterministic_ordered_and_collapses_without_spread() {
    let json = canary_updating().json();
    // Zero spread (ASSUME): P10 = P50 = P90 = the deterministic end.
    let plan = project(&[&json, ASSUME], "2026-11-24T10:12:00Z");
    let f = plan.projection.as_ref().unwrap().forecast.as_ref().unwrap();
    assert_eq!(
        (f.end.p10, f.end.p50, f.end.p90),
        (plan.end, plan.end, plan.end)
    );
    // With spread: ordered, strictly wider, the same numbers every time.
    let spread = "assumptions:\n  updateDuration: 10m\n  approvals: {delay: 1h}\n  uncertainty: {seed: 11, samples: 400}\n";
    let a = project(&[&json, spread], "2026-11-24T10:12:00Z");
    let b = project(&[&json, spread], "2026-11-24T10:12:00Z");
    let fa = a.projection.as_ref().unwrap().forecast.clone().unwrap();
    let fb = b.projection.as_ref().unwrap().forecast.clone().unwrap();
    assert_eq!(fa, fb);
    assert_eq!(fa.samples, 400);
    let (p10, p50, p90) = (
        fa.end.p10.unwrap(),
        fa.end.p50.unwrap(),
        fa.end.p90.unwrap(),
    );
    assert!(p10 < p50 && p50 < p90, "{p10} {p50} {p90}");
    // Symmetric draws around the expected values: the deterministic end lies inside P10..P90.
    let e = a.end.unwrap();
    assert!(p10 <= e && e <= p90, "{p10} {e} {p90}");
    for s in &a.projection.as_ref().unwrap().stages {
        let sp = s.end.unwrap();
        assert!(sp.p10 <= sp.p50 && sp.p50 <= sp.p90);
    }
    // A finished stage's end is a fact in every sample.
    let staging = a.projection.as_ref().unwrap().stages[0].end.unwrap();
    assert_eq!(staging.p10, staging.p90);
    // Another seed, other numbers.
    let other = spread.replace("seed: 11", "seed: 12");
    let c = project(&[&json, &other], "2026-11-24T10:12:00Z");
    assert_ne!(c.projection.unwrap().forecast.unwrap().end, fa.end);
}

#[wasm_bindgen_test(unsupported = test)]
fn failures_that_recover_only_delay() {
    // Every update fails once and recovers after 30m: the range moves right by whole recoveries.
    let json = canary_updating().json();
    let fails = "assumptions:\n  updateDuration: 10m\n  approvals: {delay: 1h}\n  uncertainty: {updateSpread: 0, approvalSpread: 0, failureRate: 1, recovery: 30m}\n";
    let plan = project(&[&json, fails], "2026-11-24T10:12:00Z");
    let f = plan.projection.as_ref().unwrap().forecast.as_ref().unwrap();
    // c2 (+30m), p1/p2 in parallel (+30m), p3 (+30m): 1h30m later than without failures.
    assert_eq!(f.end.p50, Some(t("2026-11-24T14:10:00Z")));
    assert_eq!(f.never, 0);
}

#[wasm_bindgen_test(unsupported = test)]
fn a_stopped_run_says_so_and_never_ends_under_the_assumptions() {
    let mut r = canary_updating();
    r.cluster_succeeded(1, 1, "2026-11-24T10:20:00Z")
        .run_stopped("2026-11-24T10:21:00Z");
    let plan = project(&[&r.json(), ASSUME], "2026-11-24T10:30:00Z");
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(p.position.state, RunState::Stopped);
    assert!(p
        .position
        .waiting
        .iter()
        .any(|w| w.kind == WaitingKind::Stopped && w.since == t("2026-11-24T10:21:00Z")));
    assert_eq!(plan.end, None);
    assert_eq!(plan.outcome, Outcome::Blocked);
}

#[wasm_bindgen_test(unsupported = test)]
fn a_stuck_run_is_reported_as_the_controller_marks_it() {
    let mut r = canary_updating();
    r.run_stuck(1, &["c2"], "2026-11-24T10:15:00Z");
    let plan = project(&[&r.json(), ASSUME], "2026-11-24T10:16:00Z");
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(p.position.state, RunState::Stuck);
    assert_eq!(p.position.reason.as_deref(), Some("UpdateRunStuck"));
    assert!(p
        .position
        .message
        .as_deref()
        .unwrap()
        .starts_with("The updateRun is stuck waiting for c2 cluster(s) in stage canary"));
}

#[wasm_bindgen_test(unsupported = test)]
fn a_finished_run_is_all_facts() {
    let mut r = canary_updating();
    r.cluster_succeeded(1, 1, "2026-11-24T10:20:00Z")
        .clusters_done(1, "2026-11-24T10:20:00Z")
        .after_approved(1, "2026-11-24T10:30:00Z")
        .stage_succeeded(1, "2026-11-24T10:30:00Z")
        .stage_reached(2, "2026-11-24T10:30:00Z")
        .before_approved(2, "2026-11-24T10:40:00Z")
        .cluster_started(2, 0, "2026-11-24T10:40:00Z")
        .cluster_started(2, 1, "2026-11-24T10:40:00Z")
        .cluster_succeeded(2, 0, "2026-11-24T10:45:00Z")
        .cluster_started(2, 2, "2026-11-24T10:45:00Z")
        .cluster_succeeded(2, 1, "2026-11-24T10:46:00Z")
        .cluster_succeeded(2, 2, "2026-11-24T10:50:00Z")
        .stage_succeeded(2, "2026-11-24T10:50:00Z")
        .delete_stage_succeeded("2026-11-24T10:50:00Z")
        .run_succeeded("2026-11-24T10:50:00Z");
    let plan = project(&[&r.json(), ASSUME], "2026-11-24T11:00:00Z");
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(p.position.state, RunState::Succeeded);
    assert_eq!(plan.end, Some(t("2026-11-24T10:50:00Z")));
    assert_eq!(plan.outcome, Outcome::Succeeded);
    assert!(p.stages.iter().all(|s| s.basis == Basis::Fact));
    assert_eq!(
        plan.stages[2].clusters[2].start,
        Some(t("2026-11-24T10:45:00Z"))
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn describe_output_reads_like_the_object() {
    // `kubectl describe` of the docs' example run: the same projection as its YAML.
    let yaml = include_str!("../../examples/staged-in-progress.yaml");
    let describe = include_str!("../../examples/staged-in-progress.describe.txt");
    let assumptions =
        "assumptions:\n  updateDuration: 5m\n  approvals: {delay: 30m}\n  uncertainty: {seed: 7}\n";
    let a = project(&[yaml], "2026-11-24T10:12:00Z");
    let b = project(&[describe, assumptions], "2026-11-24T10:12:00Z");
    assert_eq!(a.end, b.end);
    assert_eq!(a.stages, b.stages);
    assert_eq!(
        a.projection.as_ref().unwrap().forecast,
        b.projection.as_ref().unwrap().forecast
    );
    assert!(
        b.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        b.diagnostics
    );
}

// Bad and stale status: a diagnostic, never a wrong projection.

fn codes(plan: &Plan) -> Vec<&'static str> {
    plan.diagnostics.iter().map(|d| d.code).collect()
}

#[wasm_bindgen_test(unsupported = test)]
fn a_truncated_status_is_not_projected_from() {
    let mut r = canary_updating();
    // Cut after the second stage: the snapshot still has three.
    r.status_mut()["stagesStatus"]
        .as_array_mut()
        .unwrap()
        .truncate(2);
    let plan = project(&[&r.json(), ASSUME], "2026-11-24T10:12:00Z");
    assert!(
        codes(&plan).contains(&"status-truncated"),
        "{:?}",
        plan.diagnostics
    );
    assert_eq!(plan.end, None);
    assert_eq!(plan.outcome, Outcome::Invalid);
    assert!(plan.projection.as_ref().unwrap().forecast.is_none());
    // The facts still show.
    assert_eq!(plan.stages[0].end, Some(t("2026-11-24T10:04:00Z")));
    // A YAML text cut mid-object is a syntax error with its position.
    let text = r.json();
    let cut = &text[..text.len() / 2];
    let names = ["cut.json"];
    let input = status::load(
        &[Source {
            name: names[0],
            text: cut,
        }],
        &[],
    );
    assert!(input
        .diagnostics
        .iter()
        .any(|d| d.is_error() && d.location.is_some()));
}

#[wasm_bindgen_test(unsupported = test)]
fn times_after_now_are_refused_beyond_clock_skew() {
    let plan = project(&[&canary_updating().json(), ASSUME], "2026-11-24T10:00:00Z");
    let d = plan
        .diagnostics
        .iter()
        .find(|d| d.code == "status-after-now")
        .unwrap();
    assert!(d.is_error(), "{d}");
    assert_eq!(plan.end, None);
    // Two minutes ahead is clock skew: a warning, and the projection starts from now.
    let plan = project(&[&canary_updating().json(), ASSUME], "2026-11-24T10:08:00Z");
    let d = plan
        .diagnostics
        .iter()
        .find(|d| d.code == "status-after-now")
        .unwrap();
    assert!(!d.is_error());
    assert!(plan.end.is_some());
}

#[wasm_bindgen_test(unsupported = test)]
fn a_status_behind_the_spec_generation_is_flagged() {
    let mut r = canary_updating();
    r.generation = 2;
    let plan = project(&[&r.json(), ASSUME], "2026-11-24T10:12:00Z");
    assert!(codes(&plan).contains(&"status-stale"));
}

#[wasm_bindgen_test(unsupported = test)]
fn clusters_missing_from_the_member_clusters_are_flagged() {
    let members = "apiVersion: cluster.kubernetes-fleet.io/v1beta1\nkind: MemberCluster\nmetadata: {name: s1}\n---\napiVersion: cluster.kubernetes-fleet.io/v1beta1\nkind: MemberCluster\nmetadata: {name: c1}\n";
    let plan = project(
        &[&canary_updating().json(), members, ASSUME],
        "2026-11-24T10:12:00Z",
    );
    let d = plan
        .diagnostics
        .iter()
        .find(|d| d.code == "status-unknown-cluster")
        .unwrap();
    assert!(
        d.message.starts_with(
            "4 cluster(s) of the status are not among the input's MemberClusters (c2, p1, p2, p3)"
        ),
        "{d}"
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn a_strategy_changed_after_the_run_started_keeps_the_snapshot() {
    let strategy = "apiVersion: placement.kubernetes-fleet.io/v1beta1\nkind: ClusterStagedUpdateStrategy\nmetadata: {name: example-strategy}\nspec:\n  stages:\n  - {name: all, labelSelector: {}}\n";
    let plan = project(
        &[&canary_updating().json(), strategy, ASSUME],
        "2026-11-24T10:12:00Z",
    );
    assert!(codes(&plan).contains(&"status-strategy-changed"));
    assert_eq!(
        plan.stages.len(),
        3,
        "the snapshot's three stages, not the edited strategy's one"
    );
    assert_eq!(plan.end, Some(t("2026-11-24T12:40:00Z")));
}

#[wasm_bindgen_test(unsupported = test)]
fn stages_out_of_order_get_the_controllers_complaint() {
    // validateClusterUpdatingStatus: a stage updating while the one before it has not finished.
    let mut r = Run::initialized("run1", three_stages(), &[], "2026-11-24T09:00:00Z");
    r.run_progressing("2026-11-24T09:00:00Z")
        .stage_reached(1, "2026-11-24T09:00:00Z");
    let plan = project(&[&r.json(), ASSUME], "2026-11-24T09:10:00Z");
    let d = plan
        .diagnostics
        .iter()
        .find(|d| d.code == "status-inconsistent")
        .unwrap();
    assert!(d.message.ends_with("the updating stage `canary` is not right after the last finished stage with index `-1`"), "{d}");
    assert_eq!(plan.end, None);
}

// Plans that have not started.

#[wasm_bindgen_test(unsupported = test)]
fn a_plan_not_started_gets_a_range_too() {
    let scenario = include_str!("../../examples/staged.yaml");
    let plan = project(&[scenario], "2026-11-20T00:00:00Z");
    let p = plan.projection.as_ref().unwrap();
    assert_eq!(p.position.state, RunState::NotStarted);
    let f = p.forecast.as_ref().unwrap();
    let (p10, p50, p90) = (f.end.p10.unwrap(), f.end.p50.unwrap(), f.end.p90.unwrap());
    assert!(p10 <= p50 && p50 <= p90);
    assert!(p10 < p90, "the default spreads make a range");
    assert!(p.stages.iter().all(|s| s.basis == Basis::Projected));
    // `start: now` starts at the instant passed in; zero spreads collapse the range onto the plan.
    let now = scenario
        .replace("start: 2026-11-23T09:00:00Z", "start: now")
        .replace(
            "assumptions:\n",
            "assumptions:\n  uncertainty: {updateSpread: 0, approvalSpread: 0}\n",
        );
    let plan = project(&[&now], "2026-11-23T09:00:00Z");
    let f = plan.projection.as_ref().unwrap().forecast.as_ref().unwrap();
    assert_eq!(plan.start, t("2026-11-23T09:00:00Z"));
    assert_eq!(
        (f.end.p10, f.end.p50, f.end.p90),
        (plan.end, plan.end, plan.end)
    );
    let plain = fleetplan::plan(&fleetplan_tests::load(scenario).scenarios[0]);
    assert_eq!(plan.end, plain.end, "the same plan as `fleetplan plan`");
}

#[wasm_bindgen_test(unsupported = test)]
fn samples_drawn_in_chunks_combine_to_the_same_range() {
    // A page draws the Monte Carlo in chunks to stay responsive: the same numbers as in one go.
    let json = canary_updating().json();
    let spread = "assumptions:\n  updateDuration: 10m\n  approvals: {delay: 1h}\n  uncertainty: {seed: 5, samples: 300}\n";
    let names = ["run.json", "a.yaml"];
    let sources = [
        Source {
            name: names[0],
            text: &json,
        },
        Source {
            name: names[1],
            text: spread,
        },
    ];
    let input = status::load(&sources, &[]);
    let item = &input.items[0];
    let now = t("2026-11-24T10:12:00Z");
    let whole = status::project(item, &Options::new(now, true));
    assert_eq!(status::sample_count(item), 300);
    let mut chunks = Vec::new();
    let mut last = None;
    for (a, b) in [(0, 128), (128, 256), (256, 300)] {
        let mut o = Options::new(now, true);
        o.chunk = Some((a, b));
        let mut p = status::project(item, &o);
        chunks.push(p.projection.as_mut().unwrap().samples.take().unwrap());
        last = Some(p);
    }
    let mut combined = last.unwrap();
    status::combine(item, &mut combined, chunks);
    let (w, c) = (whole.projection.unwrap(), combined.projection.unwrap());
    assert_eq!(w.forecast, c.forecast);
    assert_eq!(w.stages, c.stages);
}

/// The web app reads a text as a run's status (and projects it) only when `looks_live` says it may
/// be one, on every edit: every status the examples hold must pass, and a scenario must not, or a
/// pasted status would silently plan as a scenario and a scenario would pay for a status read.
#[wasm_bindgen_test(unsupported = test)]
fn a_text_is_read_as_a_status_exactly_when_it_holds_a_status_key() {
    let statuses = [
        include_str!("../../examples/staged-in-progress.yaml"),
        include_str!("../../examples/staged-in-progress.describe.txt"),
        include_str!("../../examples/gke-rollout-in-progress.json"),
    ];
    for text in statuses {
        assert!(status::looks_live(text), "{}", &text[..80]);
    }
    let scenarios = [
        include_str!("../../examples/staged.yaml"),
        include_str!("../../examples/gke-bank.yaml"),
        include_str!("../../examples/kubefleet-manifests.yaml"),
        include_str!("../../examples/rolling-move-west-east.yaml"),
        include_str!("../../examples/large-fleet.yaml"),
    ];
    for text in scenarios {
        assert!(!status::looks_live(text), "{}", &text[..80]);
    }
    // Each key of a status, as `kubectl get -o yaml`, `-o json`, `describe` and GKE print them, is
    // found wherever it stands (first, last, between other text); the key cut short or with its
    // letters' case changed is not one.
    let scenario = include_str!("../../examples/staged.yaml");
    for key in [
        "stagesStatus:",
        "\"stagesStatus\":",
        "Stages Status:",
        "placementStatuses:",
        "\"versionUpgrade\":",
        "membershipStates:",
    ] {
        let bare = key.trim_matches(|c| c == '"' || c == ':');
        for text in [
            key.to_string(),
            format!("{key}\n{scenario}"),
            format!("{scenario}\n  {key}"),
            format!("{}{key}{}", &scenario[..40], &scenario[40..]),
        ]
        .into_iter()
        // At every place within an eight-byte word, and last in a text whose length is not a
        // multiple of eight (the check reads eight bytes at a time, then the rest one by one).
        .chain((0..17).map(|n| format!("{}{key}", "x".repeat(n))))
        .chain((0..17).map(|n| format!("{}{key}{}", "y".repeat(n), "z".repeat(n % 5))))
        {
            assert!(status::looks_live(&text), "{key} in {:?}", &text[..40]);
        }
        let short = &bare[..bare.len() - 1];
        assert!(
            !status::looks_live(&format!("{scenario}\n{short}")),
            "{short}"
        );
        let lower = bare.to_lowercase();
        assert!(
            !status::looks_live(&format!("{scenario}\n{lower}")),
            "{lower}"
        );
    }
}
