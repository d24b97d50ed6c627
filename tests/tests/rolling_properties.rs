//! Rolling updates over many seeded random fleets (a hand-rolled xorshift64*, so every run, native or
//! wasm32, checks the same cases), each planned by fleetplan and replayed by an independent reference
//! model of the rollout controller (`fleetplan_tests::rolling_oracle`, written from the controller's
//! rules, sharing no code with the planner):
//! - every round matches the model's: the instant, the counts (ready, canBeUnavailable, canBeReady),
//!   maxToRemove = (ready − canBeUnavailable) − (N − maxUnavailable), maxToAdd = N + maxSurge −
//!   canBeReady, and the bindings moved, in order;
//! - no round moves more than those budgets allow (failed-to-apply updates aside);
//! - the availability line matches the model's, and never drops below N − maxUnavailable computed
//!   from the settings (not the planner's own figure) when the starting state met it;
//! - the outcome and end match the model's; a stall explains every cluster left waiting;
//! - the plan does not depend on the order the clusters are listed in.
//!
//! Cases cover PickAll (with and without affinity), PickN (N below, at and above the matching
//! count), PickFixed (with names that are not members), percentages and integers, surges, placement
//! changes, failed-to-apply bindings, failing and recovering clusters, every availability class and
//! the ReportDiff apply strategy.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use fleetplan::plan::{Outcome, PhaseKind};
use fleetplan::rolling::Action;
use fleetplan_tests::load_and_plan;
use fleetplan_tests::rolling_oracle::{self, Case, IntOrPct, Policy, Resources};
use wasm_bindgen_test::wasm_bindgen_test;

const CASES: u64 = 500;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

const LOCS: &[&str] = &["west", "east", "north"];

fn policy(rng: &mut Rng, n: usize) -> Policy {
    match rng.below(3) {
        0 => Policy::All(if rng.chance(30) {
            None
        } else {
            Some(rng.pick(LOCS))
        }),
        1 => Policy::N(
            rng.below(n as u64 + 3) as i64,
            vec![rng.pick(LOCS), rng.pick(LOCS)],
        ),
        _ => {
            let mut names: Vec<String> = (0..n)
                .filter(|_| rng.chance(50))
                .map(|i| format!("c{i}"))
                .collect();
            if rng.chance(15) {
                names.push("not-a-member".into());
            }
            Policy::Fixed(names)
        }
    }
}

fn int_or_pct(rng: &mut Rng) -> IntOrPct {
    if rng.chance(50) {
        IntOrPct::Int(rng.below(4) as i64)
    } else {
        IntOrPct::Pct(rng.below(101) as i64)
    }
}

fn case(seed: u64) -> Case {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    // Up to 12 clusters, so byte order (c10 < c2) matters.
    let n = 1 + rng.below(12) as usize;
    let clusters: Vec<(String, &'static str)> =
        (0..n).map(|i| (format!("c{i}"), rng.pick(LOCS))).collect();
    let policy = policy(&mut rng, n);
    let update = rng.chance(70);
    let from = (!update || rng.chance(50)).then(|| self::policy(&mut rng, n));
    let names: Vec<String> = clusters.iter().map(|c| c.0.clone()).collect();
    let failed_to_apply = names.iter().filter(|_| rng.chance(10)).cloned().collect();
    let available_s = names
        .iter()
        .map(|c| (c.clone(), 1 + rng.below(600) as i64))
        .collect();
    let mut failures: BTreeMap<String, Option<i64>> = BTreeMap::new();
    for c in &names {
        if rng.chance(8) {
            let late = if rng.chance(40) {
                Some(1 + rng.below(900) as i64)
            } else {
                None
            };
            failures.insert(c.clone(), late);
        }
    }
    Case {
        clusters,
        policy,
        from,
        max_unavailable: int_or_pct(&mut rng),
        max_surge: int_or_pct(&mut rng),
        unavailable_period_s: rng.below(120) as i64,
        resources: rng.pick(&[
            Resources::Workload,
            Resources::Untrackable,
            Resources::Data,
            Resources::WorkloadAndUntrackable,
        ]),
        report_diff: rng.chance(15),
        update,
        failed_to_apply,
        apply_s: rng.below(60) as i64,
        delete_s: 1 + rng.below(120) as i64,
        available_s,
        failures,
    }
}

fn policy_yaml(p: &Policy) -> String {
    match p {
        Policy::All(None) => "type: PickAll".into(),
        Policy::All(Some(loc)) => format!("type: PickAll, affinity: \"loc={loc}\""),
        Policy::N(n, locs) => format!(
            "type: PickN, numberOfClusters: {n}, affinity: \"loc in ({})\"",
            locs.join(",")
        ),
        Policy::Fixed(names) => format!("type: PickFixed, clusterNames: [{}]", names.join(", ")),
    }
}

fn ip(v: IntOrPct) -> String {
    match v {
        IntOrPct::Int(i) => i.to_string(),
        IntOrPct::Pct(p) => format!("\"{p}%\""),
    }
}

/// The scenario text of a case; `reverse` lists the clusters backwards.
fn scenario(c: &Case, reverse: bool) -> String {
    let mut s = String::from("start: 2026-11-23T09:00:00Z\nclusters:\n");
    let mut clusters = c.clusters.clone();
    if reverse {
        clusters.reverse();
    }
    for (name, loc) in &clusters {
        let _ = writeln!(s, "  - {{name: {name}, labels: {{loc: {loc}}}}}");
    }
    let apply = if c.report_diff {
        ", applyStrategy: ReportDiff"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "strategy:\n  kind: kubefleet-rolling\n  placement: {{name: app, {}{apply}}}",
        policy_yaml(&c.policy)
    );
    let _ = writeln!(
        s,
        "  rollingUpdate: {{maxUnavailable: {}, maxSurge: {}, unavailablePeriodSeconds: {}}}",
        ip(c.max_unavailable),
        ip(c.max_surge),
        c.unavailable_period_s
    );
    let _ = writeln!(s, "  resources: {}", c.resources.yaml());
    let _ = writeln!(s, "  change:\n    update: {}", c.update);
    if let Some(from) = &c.from {
        let _ = writeln!(s, "    from: {{{}}}", policy_yaml(from));
    }
    if !c.failed_to_apply.is_empty() {
        let _ = writeln!(s, "    failedToApply: [{}]", c.failed_to_apply.join(", "));
    }
    let _ = writeln!(
        s,
        "assumptions:\n  applyDuration: {}s\n  deleteDuration: {}s\n  updateDuration:\n    default: 1s\n    overrides:",
        c.apply_s, c.delete_s
    );
    for (name, secs) in &c.available_s {
        let _ = writeln!(s, "      - {{cluster: {name}, duration: {secs}s}}");
    }
    if !c.failures.is_empty() {
        let _ = writeln!(s, "  failures:");
        for (name, late) in &c.failures {
            match late {
                Some(l) => {
                    let _ = writeln!(s, "    - {{cluster: {name}, recoversAfter: {l}s}}");
                }
                None => {
                    let _ = writeln!(s, "    - {name}");
                }
            }
        }
    }
    s
}

fn action(a: Action) -> &'static str {
    match a {
        Action::Remove => "remove",
        Action::Update => "update",
        Action::Add => "add",
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn rolling_updates_match_an_independent_model_of_the_controller_round_by_round() {
    let (mut succeeded, mut stalled, mut budget_checked, mut rounds_checked) = (0, 0, 0, 0);
    let (mut report_diff, mut pick_n_over, mut pick_n_under) = (0, 0, 0);
    for seed in 0..CASES {
        let c = case(seed);
        let text = scenario(&c, false);
        let ctx = || format!("case {seed}:\n{text}");
        let (loaded, plans) = load_and_plan(&text);
        let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{errors:?}\n{}", ctx());
        let [plan] = &plans[..] else {
            panic!("{} plans\n{}", plans.len(), ctx())
        };
        let plan_errors: Vec<_> = plan.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(plan_errors.is_empty(), "{plan_errors:?}\n{}", ctx());
        let r = plan
            .rolling
            .as_ref()
            .expect("a rolling plan has its detail");
        let model = rolling_oracle::run(&c);
        report_diff += usize::from(c.report_diff);
        if let Policy::N(n, _) = &c.policy {
            let matching = r.target as i64;
            assert_eq!(matching, *n, "N of PickN is numberOfClusters\n{}", ctx());
            let picked = plan.summary.clusters as i64;
            pick_n_over += usize::from(*n > picked);
            pick_n_under += usize::from(*n < c.clusters.len() as i64 && *n == picked);
        }

        // Round by round against the model.
        let ms = |t: fleetplan::time::Time| t.since(plan.start).0;
        assert_eq!(
            r.rounds.len(),
            model.rounds.len(),
            "rounds\n{:#?}\n{}",
            model.rounds,
            ctx()
        );
        for (got, want) in r.rounds.iter().zip(&model.rounds) {
            rounds_checked += 1;
            let moved: Vec<(&str, String)> = got
                .moved
                .iter()
                .map(|m| (action(m.action), m.cluster.to_string()))
                .collect();
            assert_eq!(
                (
                    ms(got.at),
                    got.counts.target as i64,
                    got.counts.ready as i64,
                    got.counts.can_be_unavailable as i64,
                    got.counts.can_be_ready as i64,
                    got.max_to_remove,
                    got.max_to_add,
                    &moved
                ),
                (
                    want.at_ms,
                    want.target,
                    want.ready,
                    want.can_be_unavailable,
                    want.can_be_ready,
                    want.max_to_remove,
                    want.max_to_add,
                    &want.moved
                ),
                "round\n{}",
                ctx()
            );
            // The budgets bound each round (failed-to-apply updates go outside them).
            let failed_first = got
                .moved
                .iter()
                .take_while(|m| m.why.to_string().starts_with("failed to apply"))
                .count() as i64;
            let out = moved.iter().filter(|(a, _)| *a != "add").count() as i64 - failed_first;
            let added = moved.iter().filter(|(a, _)| *a == "add").count() as i64;
            assert!(out <= want.max_to_remove.max(0), "{}", ctx());
            assert!(added <= want.max_to_add.max(0), "{}", ctx());
        }

        // The availability line, and the budget from the settings.
        let line: Vec<(i64, i64, i64)> = r
            .availability
            .iter()
            .map(|p| (ms(p.at), p.available as i64, p.placed as i64))
            .collect();
        assert_eq!(line, model.line, "availability\n{}", ctx());
        assert_eq!(
            r.min_available as i64,
            model.min_available.max(0),
            "{}",
            ctx()
        );
        if model.line[0].1 >= model.min_available {
            budget_checked += 1;
            for p in &r.availability {
                assert!(
                    p.available as i64 >= model.min_available,
                    "available {} < N − maxUnavailable = {} at {}\n{}",
                    p.available,
                    model.min_available,
                    p.at,
                    ctx()
                );
            }
        }

        // No cluster moves twice, or both out and in.
        let mut moved = BTreeSet::new();
        for m in r.rounds.iter().flat_map(|x| &x.moved) {
            assert!(
                moved.insert(m.cluster.clone()),
                "{} moved twice\n{}",
                m.cluster,
                ctx()
            );
        }
        let clusters = &plan.stages[0].clusters;
        for cl in clusters {
            let has = |k: PhaseKind| cl.phases.iter().any(|p| p.kind == k);
            assert!(
                !(has(PhaseKind::Remove) && has(PhaseKind::Add)),
                "{}",
                ctx()
            );
        }

        // Outcome and end.
        match plan.outcome {
            Outcome::Succeeded => {
                succeeded += 1;
                assert!(model.settled, "the model does not settle\n{}", ctx());
                assert_eq!(plan.end.map(ms), Some(model.last_ms), "{}", ctx());
                assert_eq!(
                    plan.summary.clusters_updated,
                    plan.summary.clusters,
                    "{}",
                    ctx()
                );
            }
            Outcome::Stalled => {
                stalled += 1;
                assert!(!model.settled, "the model settles\n{}", ctx());
                let stall = r.stall.as_ref().expect("a stalled plan says why");
                assert!(plan.end.is_none() && !stall.waiting.is_empty(), "{}", ctx());
                for name in &stall.waiting {
                    let cl = clusters
                        .iter()
                        .find(|x| &x.name == name)
                        .expect("in the plan");
                    assert!(
                        cl.reason.is_some(),
                        "{name} waits without a reason\n{}",
                        ctx()
                    );
                }
            }
            other => panic!("outcome {other:?}\n{}", ctx()),
        }

        // The order the clusters are listed in changes nothing.
        let (_, reversed) = load_and_plan(&scenario(&c, true));
        assert_eq!(
            reversed[0].rolling,
            plan.rolling,
            "listed backwards\n{}",
            ctx()
        );
        assert_eq!(
            reversed[0].stages,
            plan.stages,
            "listed backwards\n{}",
            ctx()
        );
    }
    // The generator must exercise both endings, the budget, ReportDiff and PickN on both sides of the
    // matching count, or the properties prove little.
    assert!(
        succeeded > 80
            && stalled > 30
            && budget_checked > 150
            && rounds_checked > 700
            && report_diff > 30
            && pick_n_over > 10
            && pick_n_under > 5,
        "{succeeded} {stalled} {budget_checked} {rounds_checked} {report_diff} {pick_n_over} {pick_n_under}"
    );
}
