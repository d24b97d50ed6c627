//! What the KubeFleet examples' golden plans (`examples/*.plan.json`) pin, checked here with
//! expectations derived by hand from the rules, so a wrong plan fails a test even after someone
//! rewrites the goldens with `UPDATE_GOLDEN=1`. The goldens stay as regression nets; see
//! tests/README.md for which test covers which part of which golden.

use fleetplan::examples;
use fleetplan::plan::{Outcome, Plan};
use fleetplan_tests::render::offset;
use fleetplan_tests::{load, load_and_plan};
use wasm_bindgen_test::wasm_bindgen_test;

fn example(name: &str) -> Plan {
    let text = examples::get(name).expect("a built-in example").text;
    let (loaded, plans) = load_and_plan(text);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    plans.into_iter().next().expect("one plan")
}

/// `+offset reason [stage/cluster]` per event.
fn event_log(plan: &Plan) -> Vec<String> {
    plan.events
        .iter()
        .map(|e| {
            let who = match (&e.stage, &e.cluster) {
                (Some(s), Some(c)) => format!(" [{s}/{c}]"),
                (Some(s), None) => format!(" [{s}]"),
                _ => String::new(),
            };
            format!("{} {}{who}", offset(plan.start, e.at), e.reason)
        })
        .collect()
}

#[wasm_bindgen_test(unsupported = test)]
fn staged_example_event_log_by_hand() {
    // examples/staged.yaml: updates 3m, approvals 30m of business time (Monday 09:00 on, inside the
    // hours). staging (member1) then a 1h TimedWait from +3m; canary (member2) from +1h03m, its
    // after-stage approval requested at +1h06m and granted at +1h36m; production asks its
    // before-stage approval at +1h36m (granted +2h06m), then updates two at a time in `order`:
    // member3+4 at +2h06m, 5 and 6 as those end at +2h09m, 7 at +2h12m, last end +2h15m; its
    // after-stage approval (+2h15m → +2h45m) and 1h TimedWait (+2h15m → +3h15m) both gate the end.
    // The run's Progressing condition is announced when it changes (execution.go markUpdateRun*).
    let want = [
        "+0m UpdateRunInitializedSuccessfully",
        "+0m UpdateRunProgressing",
        "+0m StageUpdatingStarted [staging]",
        "+0m ClusterUpdatingStarted [staging/member1]",
        "+3m ClusterUpdatingSucceeded [staging/member1]",
        "+3m StageUpdatingWaiting [staging]",
        "+3m UpdateRunWaiting",
        "+1h03m WaitTimeElapsed [staging]",
        "+1h03m StageUpdatingSucceeded [staging]",
        "+1h03m StageUpdatingStarted [canary]",
        "+1h03m UpdateRunProgressing",
        "+1h03m ClusterUpdatingStarted [canary/member2]",
        "+1h06m ClusterUpdatingSucceeded [canary/member2]",
        "+1h06m StageUpdatingWaiting [canary]",
        "+1h06m UpdateRunWaiting",
        "+1h06m ApprovalRequestCreated [canary]",
        "+1h36m ApprovalRequestApproved [canary]",
        "+1h36m StageUpdatingSucceeded [canary]",
        "+1h36m ApprovalRequestCreated [production]",
        "+1h36m StageUpdatingWaiting [production]",
        "+1h36m UpdateRunWaiting",
        "+2h06m ApprovalRequestApproved [production]",
        "+2h06m StageUpdatingStarted [production]",
        "+2h06m UpdateRunProgressing",
        "+2h06m ClusterUpdatingStarted [production/member3]",
        "+2h06m ClusterUpdatingStarted [production/member4]",
        "+2h09m ClusterUpdatingSucceeded [production/member3]",
        "+2h09m ClusterUpdatingStarted [production/member5]",
        "+2h09m ClusterUpdatingSucceeded [production/member4]",
        "+2h09m ClusterUpdatingStarted [production/member6]",
        "+2h12m ClusterUpdatingSucceeded [production/member5]",
        "+2h12m ClusterUpdatingStarted [production/member7]",
        "+2h12m ClusterUpdatingSucceeded [production/member6]",
        "+2h15m ClusterUpdatingSucceeded [production/member7]",
        "+2h15m StageUpdatingWaiting [production]",
        "+2h15m UpdateRunWaiting",
        "+2h15m ApprovalRequestCreated [production]",
        "+2h45m ApprovalRequestApproved [production]",
        "+3h15m WaitTimeElapsed [production]",
        "+3h15m StageUpdatingSucceeded [production]",
        "+3h15m UpdateRunSucceeded",
    ];
    assert_eq!(event_log(&example("staged")), want);
}

#[wasm_bindgen_test(unsupported = test)]
fn staged_example_summary_and_notes_by_hand() {
    let plan = example("staged");
    let s = &plan.summary;
    assert_eq!(plan.outcome, Outcome::Succeeded);
    assert_eq!(
        s.total_duration.map(|d| d.to_string()).as_deref(),
        Some("3h15m")
    );
    assert_eq!(
        (s.clusters, s.clusters_updated, s.errors, s.warnings),
        (7, 7, 0, 0)
    );
    let etas: Vec<(String, String)> = s
        .stage_etas
        .iter()
        .map(|e| {
            (
                e.stage.clone(),
                e.end.map(|t| offset(plan.start, t)).unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        etas,
        [
            ("staging".to_string(), "+1h03m".to_string()),
            ("canary".into(), "+1h36m".into()),
            ("production".into(), "+3h15m".into())
        ]
    );
    // The five longest waits, longest first; ties (the two 1h waits, the three 30m approvals) keep
    // the order in which they started.
    let waits: Vec<(String, String, String)> = s
        .longest_waits
        .iter()
        .map(|w| {
            (
                w.stage.clone(),
                w.label.clone(),
                w.duration.map(|d| d.to_string()).unwrap_or_default(),
            )
        })
        .collect();
    let w = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(
        waits,
        [
            w("staging", "TimedWait 1h", "1h"),
            w("production", "TimedWait 1h", "1h"),
            w("canary", "example-run-after-canary", "30m"),
            w("production", "example-run-before-production", "30m"),
            w("production", "example-run-after-production", "30m"),
        ]
    );
    // Every assumption used, flagged when fleetplan's default stood in.
    let notes: Vec<(String, bool)> = plan
        .assumptions
        .iter()
        .map(|n| (n.field.clone(), n.defaulted))
        .collect();
    let n = |f: &str, d: bool| (f.to_string(), d);
    assert_eq!(
        notes,
        [
            n("start", false),
            n("updateDuration", false),
            n("deleteDuration", true),
            n("approvals", false),
            n("failures", true)
        ]
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn the_manifests_example_is_the_staged_example_as_kubefleet_objects() {
    // examples/kubefleet-manifests.yaml holds the same seven MemberClusters, strategy, run and
    // External placement as the staged example, with the same assumptions: the same plan, stage by
    // stage and event by event.
    let objects = example("kubefleet-manifests");
    let scenario = example("staged");
    assert_eq!(objects.stages, scenario.stages);
    assert_eq!(event_log(&objects), event_log(&scenario));
    assert_eq!(objects.summary, scenario.summary);
    assert_eq!(objects.run, "example-run");
}

#[wasm_bindgen_test(unsupported = test)]
fn cluster_in_no_stage_example_by_hand() {
    // The placement picks all six clusters; the stages take staging1 and prod1-3, so dev1 and dev2
    // are in no stage: initialization refuses the run with the controller's text, at the stages list
    // (line 21, column 5 of the file: its first `-`). The timeline is still drawn: staging1 +0 → +3m
    // and the 1h wait; production two at a time from +1h03m: prod1+2 → +1h06m, prod3 → +1h09m.
    let text = examples::get("cluster-in-no-stage").expect("example").text;
    let loaded = load(text);
    let plan = fleetplan::plan(&loaded.scenarios[0]);
    assert_eq!(plan.outcome, Outcome::Invalid);
    assert_eq!(
        plan.end.map(|e| offset(plan.start, e)).as_deref(),
        Some("+1h09m")
    );
    let d = plan
        .diagnostics
        .iter()
        .find(|d| d.code == "cluster-in-no-stage")
        .expect("the controller's refusal");
    assert_eq!(d.message, "cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: some clusters are not placed in any stage, total 2, showing up to 10: dev1, dev2");
    let loc = d.location.as_ref().expect("located");
    assert_eq!((loc.line, loc.column), (21, 5));
    let clusters: Vec<(String, String, String)> = plan
        .stages
        .iter()
        .flat_map(|s| &s.clusters)
        .map(|c| {
            (
                c.name.to_string(),
                c.start.map(|t| offset(plan.start, t)).unwrap_or_default(),
                c.end.map(|t| offset(plan.start, t)).unwrap_or_default(),
            )
        })
        .collect();
    let c = |a: &str, b: &str, e: &str| (a.to_string(), b.to_string(), e.to_string());
    assert_eq!(
        clusters,
        [
            c("staging1", "+0m", "+3m"),
            c("prod1", "+1h03m", "+1h06m"),
            c("prod2", "+1h03m", "+1h06m"),
            c("prod3", "+1h06m", "+1h09m")
        ]
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn large_fleet_example_follows_its_rules() {
    // examples/large-fleet.yaml: 2,000 clusters spread in blocks over ten rings of 200; ring0 one at
    // a time in `order` (the cluster's number), later rings floor(p% × 200) at a time (10% → 20, 20%
    // → 40, 50% → 100); waits after ring0 (1h), ring1 (30m), ring3 (1h), ring8 (2h); approvals
    // before ring5 and ring7, granted 1h of business time (08:00–18:00 Mon–Fri) after the request.
    // Durations are 4m ± 25% by seeded jitter: read from each cluster's own bar, so what is checked
    // here is the rules, not the numbers.
    let plan = example("large-fleet");
    assert_eq!(plan.outcome, Outcome::Succeeded);
    assert_eq!(plan.stages.len(), 10);
    let windows = [1, 20, 20, 40, 40, 40, 100, 100, 100, 100];
    let waits_h = [1.0, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0];
    let mut previous_end = plan.start;
    for (i, stage) in plan.stages.iter().enumerate() {
        assert_eq!(stage.clusters.len(), 200, "ring{i}");
        assert_eq!(stage.max_concurrency, windows[i], "ring{i}");
        let start = stage.start.expect("started");
        assert_eq!(
            start,
            previous_end,
            "ring{i} starts when ring{} ends",
            i.max(1) - 1
        );
        // Ring i holds clusters 200i+1 … 200(i+1); ring0 in `order`, the others by name: the same order.
        let names: Vec<&str> = stage.clusters.iter().map(|c| c.name.as_str()).collect();
        let want: Vec<String> = (200 * i + 1..=200 * (i + 1))
            .map(|k| format!("aks-{k:04}"))
            .collect();
        assert_eq!(names, want, "ring{i}");
        // Each cluster takes 3m to 5m; the window is full whenever clusters wait, and never exceeded:
        // each cluster starts when the one `window` places before it ends (or at the stage's
        // update start).
        let w = windows[i];
        let first = stage.clusters[0].start.expect("started");
        for (k, c) in stage.clusters.iter().enumerate() {
            let (s, e) = (c.start.expect("s"), c.end.expect("e"));
            let took = e.since(s).0;
            assert!(
                (180_000..=300_000).contains(&took),
                "ring{i} {} took {took}ms",
                c.name
            );
            let free_from = if k < w {
                first
            } else {
                // The k-th start is the (k − w + 1)-th earliest end among the clusters before it.
                let mut ends: Vec<_> = stage.clusters[..k]
                    .iter()
                    .map(|c| c.end.expect("e"))
                    .collect();
                ends.sort();
                ends[k - w]
            };
            assert_eq!(s, free_from, "ring{i} {}", c.name);
        }
        let last = stage
            .clusters
            .iter()
            .map(|c| c.end.expect("e"))
            .max()
            .expect("clusters");
        let end = stage.end.expect("ended");
        assert_eq!(
            end.since(last).0,
            (waits_h[i] * 3_600_000.0) as i64,
            "ring{i}'s after-stage wait"
        );
        if i == 5 || i == 7 {
            // The before-stage approval: an hour of business time after the stage is reached.
            let granted = first;
            assert!(granted.since(start).0 >= 3_600_000, "ring{i}");
        } else {
            assert_eq!(first, start, "ring{i} starts updating at once");
        }
        previous_end = end;
    }
    assert_eq!(plan.end, Some(previous_end));
}

#[wasm_bindgen_test(unsupported = test)]
fn rolling_examples_summaries_by_hand() {
    // Seed example 1 (rolling_rules.rs derives its rounds): member1's new image never becomes
    // available, so nothing ends and no cluster is on the new resources; its availability wait is
    // the one wait that lasts forever.
    let bad = example("rolling-bad-image");
    assert_eq!(bad.outcome, Outcome::Stalled);
    assert_eq!((bad.summary.clusters, bad.summary.clusters_updated), (4, 0));
    assert_eq!(bad.summary.total_duration, None);
    let forever: Vec<&str> = bad
        .summary
        .longest_waits
        .iter()
        .filter(|w| w.duration.is_none())
        .map(|w| w.label.as_str())
        .collect();
    assert_eq!(forever.len(), 1);
    assert!(forever[0].starts_with("member1: "), "{forever:?}");
    // Seed example 2: the four east clusters each wait 3m for their Deployment after a 30s apply;
    // the five longest waits are those four (ties in start order: east-1 and east-2 from +30s,
    // east-3 from +1m30s, east-4 from +5m). Done at +8m with all four on the placement.
    let moved = example("rolling-move-west-east");
    assert_eq!(moved.outcome, Outcome::Succeeded);
    assert_eq!(
        moved
            .summary
            .total_duration
            .map(|d| d.to_string())
            .as_deref(),
        Some("8m")
    );
    assert_eq!(
        (moved.summary.clusters, moved.summary.clusters_updated),
        (4, 4)
    );
    let waits: Vec<(String, String)> = moved
        .summary
        .longest_waits
        .iter()
        .map(|w| {
            (
                w.label.split(':').next().unwrap_or("").to_string(),
                offset(moved.start, w.start),
            )
        })
        .collect();
    let w = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        waits,
        [
            w("east-1", "+0m30s"),
            w("east-2", "+0m30s"),
            w("east-3", "+1m30s"),
            w("east-4", "+5m")
        ]
    );
}
