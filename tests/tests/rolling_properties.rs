//! Properties of rolling updates over a few hundred random fleets and settings, from a hand-rolled,
//! seeded generator (xorshift64*), so every run, native or wasm32, checks the same cases:
//! - the availability line never drops below N − maxUnavailable when the starting state met it;
//! - the rollout ends, or stalls with a reason for every cluster left waiting;
//! - unless stalled, every picked cluster ends on the new resources and every other one is emptied;
//! - no cluster is both removed and added, and no cluster moves twice.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use fleetplan::plan::{ClusterStatus, Outcome, PhaseKind};
use fleetplan::rolling::Action;
use fleetplan_tests::load_and_plan;
use wasm_bindgen_test::wasm_bindgen_test;

const CASES: u64 = 300;

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
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const LOCS: &[&str] = &["west", "east", "north"];

/// A placement policy over clusters `c0..c{n-1}` labelled with `loc`.
fn policy(rng: &mut Rng, n: u64) -> String {
    match rng.below(3) {
        0 => {
            if rng.chance(30) {
                "{type: PickAll}".into()
            } else {
                format!("{{type: PickAll, affinity: \"loc={}\"}}", rng.pick(LOCS))
            }
        }
        1 => format!(
            "{{type: PickN, numberOfClusters: {}, affinity: \"loc in ({},{})\"}}",
            rng.below(n + 2),
            rng.pick(LOCS),
            rng.pick(LOCS)
        ),
        _ => {
            let names: Vec<String> = (0..n)
                .filter(|_| rng.chance(50))
                .map(|i| format!("c{i}"))
                .collect();
            format!("{{type: PickFixed, clusterNames: [{}]}}", names.join(", "))
        }
    }
}

fn int_or_percent(rng: &mut Rng) -> String {
    if rng.chance(50) {
        rng.below(4).to_string()
    } else {
        format!("\"{}%\"", rng.below(101))
    }
}

fn scenario(seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let n = 1 + rng.below(10);
    let mut s = String::from("start: 2026-11-23T09:00:00Z\nclusters:\n");
    for i in 0..n {
        let _ = writeln!(s, "  - {{name: c{i}, labels: {{loc: {}}}}}", rng.pick(LOCS));
    }
    let _ = writeln!(s, "strategy:\n  kind: kubefleet-rolling");
    let _ = writeln!(s, "  placement: {}", policy(&mut rng, n));
    let _ = writeln!(
        s,
        "  rollingUpdate: {{maxUnavailable: {}, maxSurge: {}, unavailablePeriodSeconds: {}}}",
        int_or_percent(&mut rng),
        int_or_percent(&mut rng),
        rng.below(120)
    );
    let resources = [
        "[Deployment]",
        "[Job]",
        "[ConfigMap, Secret]",
        "[Deployment, Ingress]",
        "[{kind: Service, type: LoadBalancer}]",
    ];
    let _ = writeln!(s, "  resources: {}", rng.pick(&resources));
    let update = rng.chance(70);
    let mut change = format!("  change:\n    update: {update}\n");
    if !update || rng.chance(50) {
        let _ = writeln!(change, "    from: {}", policy(&mut rng, n));
    }
    let failed: Vec<String> = (0..n)
        .filter(|_| rng.chance(10))
        .map(|i| format!("c{i}"))
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(change, "    failedToApply: [{}]", failed.join(", "));
    }
    s.push_str(&change);
    let _ = writeln!(
        s,
        "assumptions:\n  applyDuration: {}s\n  deleteDuration: {}s",
        rng.below(60),
        1 + rng.below(120)
    );
    let _ = writeln!(
        s,
        "  updateDuration: {{default: {}s, jitter: {{seed: {}, spread: 0.{}}}}}",
        1 + rng.below(600),
        rng.below(1000),
        rng.below(10)
    );
    let bad: Vec<String> = (0..n)
        .filter(|_| rng.chance(8))
        .map(|i| format!("c{i}"))
        .collect();
    if !bad.is_empty() {
        let _ = writeln!(s, "  failures: [{}]", bad.join(", "));
    }
    s
}

#[wasm_bindgen_test(unsupported = test)]
fn rolling_updates_keep_their_budget_and_end_or_stall_with_a_reason() {
    let (mut succeeded, mut stalled, mut budget_checked) = (0, 0, 0);
    for seed in 0..CASES {
        let text = scenario(seed);
        let (loaded, plans) = load_and_plan(&text);
        let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "case {seed}: {errors:?}\n{text}");
        let [plan] = &plans[..] else {
            panic!("case {seed}: {} plans\n{text}", plans.len())
        };
        let ctx = || format!("case {seed}:\n{text}");
        let r = plan
            .rolling
            .as_ref()
            .expect("a rolling plan has its detail");
        assert_eq!(plan, &fleetplan::plan(&loaded.scenarios[0]), "{}", ctx());

        // The availability line: a step function from the start, in time order, within the budget.
        assert_eq!(r.availability[0].at, plan.start, "{}", ctx());
        for w in r.availability.windows(2) {
            assert!(w[0].at < w[1].at, "{}", ctx());
        }
        if r.available_before >= r.min_available {
            budget_checked += 1;
            for p in &r.availability {
                assert!(
                    p.available >= r.min_available,
                    "available {} < N − maxUnavailable = {} at {}\n{}",
                    p.available,
                    r.min_available,
                    p.at,
                    ctx()
                );
            }
        }

        // Each cluster moves at most once, and never both out and in.
        let mut moved = BTreeSet::new();
        for round in &r.rounds {
            for m in &round.moved {
                assert!(
                    moved.insert(m.cluster.clone()),
                    "{} moved twice\n{}",
                    m.cluster,
                    ctx()
                );
            }
        }
        let clusters = &plan.stages[0].clusters;
        for c in clusters {
            let has = |k: PhaseKind| c.phases.iter().any(|p| p.kind == k);
            assert!(
                !(has(PhaseKind::Remove) && has(PhaseKind::Add)),
                "{} removed and added\n{}",
                c.name,
                ctx()
            );
        }

        match plan.outcome {
            Outcome::Succeeded => {
                succeeded += 1;
                assert!(plan.end.is_some() && r.stall.is_none(), "{}", ctx());
                assert!(
                    clusters
                        .iter()
                        .all(|c| c.status == ClusterStatus::Succeeded),
                    "{}",
                    ctx()
                );
                // Every picked cluster is on the new resources; the others were emptied.
                assert_eq!(
                    plan.summary.clusters_updated,
                    plan.summary.clusters,
                    "{}",
                    ctx()
                );
                let removed = r
                    .rounds
                    .iter()
                    .flat_map(|x| &x.moved)
                    .filter(|m| m.action == Action::Remove)
                    .count();
                assert_eq!(clusters.len(), plan.summary.clusters + removed, "{}", ctx());
            }
            Outcome::Stalled => {
                stalled += 1;
                let stall = r.stall.as_ref().expect("a stalled plan says why");
                assert!(plan.end.is_none(), "{}", ctx());
                assert!(
                    !stall.reason.is_empty() && !stall.waiting.is_empty(),
                    "{}",
                    ctx()
                );
                for name in &stall.waiting {
                    let c = clusters
                        .iter()
                        .find(|c| &c.name == name)
                        .expect("waiting cluster in the plan");
                    assert!(
                        c.reason.is_some(),
                        "{name} waits without a reason\n{}",
                        ctx()
                    );
                }
                assert!(
                    plan.diagnostics.iter().any(|d| d.code == "rollout-stalled"),
                    "{}",
                    ctx()
                );
            }
            other => panic!("outcome {other:?}\n{}", ctx()),
        }
    }
    // The generator must exercise both endings and the budget, or the properties prove little.
    assert!(
        succeeded > 50 && stalled > 20 && budget_checked > 100,
        "{succeeded} {stalled} {budget_checked}"
    );
}
