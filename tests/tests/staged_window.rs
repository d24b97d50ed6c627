//! The staged run's sliding window checked by brute force on small seeded random fleets: a
//! second-by-second walk of the rules (execution.go: clusters start in stage order while fewer than
//! maxConcurrency are unfinished; a failed cluster stays unfinished, holding its slot, until it
//! recovers; a stage ends when its last cluster does, plus its after-stage TimedWait; the next stage
//! starts then; `N%` is floor(N × clusters / 100), at least 1) that shares nothing with the planner's
//! event queue. Every cluster's start and end, every stage's end, the outcome and the stuck marks
//! (a cluster still unfinished 5 minutes after it started) must agree.

use std::fmt::Write as _;

use fleetplan::plan::{ClusterStatus, Outcome};
use fleetplan_tests::load_and_plan;
use wasm_bindgen_test::wasm_bindgen_test;

const CASES: u64 = 300;
/// The walk gives up here: anything still unfinished never finishes.
const HORIZON_S: i64 = 48 * 3600;
const STUCK_S: i64 = 300;

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
}

#[derive(Clone, Debug)]
struct Cluster {
    name: String,
    /// Seconds from start to Available.
    duration: i64,
    /// (seconds after its start that the binding fails, seconds after that it recovers).
    failure: Option<(Option<i64>, Option<i64>)>,
}

#[derive(Clone, Debug)]
struct Stage {
    name: String,
    clusters: Vec<Cluster>,
    /// `Ok(int)` or `Err(percent)`.
    max_concurrency: Result<i64, i64>,
    wait_s: Option<i64>,
}

fn case(seed: u64) -> Vec<Stage> {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    (0..1 + rng.below(3))
        .map(|s| {
            let clusters = (0..1 + rng.below(8))
                .map(|c| {
                    let failure = rng.chance(12).then(|| {
                        let after = rng.chance(50).then(|| rng.below(400) as i64);
                        let back = rng.chance(50).then(|| 1 + rng.below(900) as i64);
                        (after, back)
                    });
                    Cluster {
                        // Two-digit numbers with a letter keep byte order and name order apart.
                        name: format!("s{s}-{}{}", ["b", "a", "c"][c as usize % 3], c),
                        duration: 1 + rng.below(900) as i64,
                        failure,
                    }
                })
                .collect();
            Stage {
                name: format!("stage{s}"),
                clusters,
                max_concurrency: if rng.chance(50) {
                    Ok(1 + rng.below(4) as i64)
                } else {
                    Err(1 + rng.below(100) as i64)
                },
                wait_s: rng.chance(40).then(|| 1 + rng.below(3600) as i64),
            }
        })
        .collect()
}

fn scenario(stages: &[Stage]) -> String {
    let mut s = String::from("start: 2026-11-23T09:00:00Z\nclusters:\n");
    for st in stages {
        for c in &st.clusters {
            let _ = writeln!(s, "  - {{name: {}, labels: {{ring: {}}}}}", c.name, st.name);
        }
    }
    s.push_str("strategy:\n  kind: kubefleet-staged\n  stages:\n");
    for st in stages {
        let mc = match st.max_concurrency {
            Ok(i) => i.to_string(),
            Err(p) => format!("\"{p}%\""),
        };
        let _ = write!(
            s,
            "    - {{name: {}, labelSelector: {{matchLabels: {{ring: {}}}}}, maxConcurrency: {mc}",
            st.name, st.name
        );
        if let Some(w) = st.wait_s {
            let _ = write!(
                s,
                ", afterStageTasks: [{{type: TimedWait, waitTime: {w}s}}]"
            );
        }
        s.push_str("}\n");
    }
    s.push_str("assumptions:\n  updateDuration:\n    default: 1m\n    overrides:\n");
    for c in stages.iter().flat_map(|st| &st.clusters) {
        let _ = writeln!(
            s,
            "      - {{cluster: {}, duration: {}s}}",
            c.name, c.duration
        );
    }
    let failing: Vec<&Cluster> = stages
        .iter()
        .flat_map(|st| &st.clusters)
        .filter(|c| c.failure.is_some())
        .collect();
    if !failing.is_empty() {
        s.push_str("  failures:\n");
        for c in failing {
            let (after, back) = c.failure.unwrap_or((None, None));
            let _ = write!(s, "    - {{cluster: {}", c.name);
            if let Some(a) = after {
                let _ = write!(s, ", after: {a}s");
            }
            if let Some(b) = back {
                let _ = write!(s, ", recoversAfter: {b}s");
            }
            s.push_str("}\n");
        }
    }
    s
}

/// What the walk finds for one cluster: start, end (the failure for one that never recovers), and
/// whether it ever finished.
#[derive(Debug, PartialEq, Eq)]
struct Expected {
    start: Option<i64>,
    end: Option<i64>,
    finished: bool,
    stuck: Option<i64>,
}

/// What the walk says of a whole run: every cluster's fate by name, each stage's end, the run's end.
type Walk = (Vec<(String, Expected)>, Vec<Option<i64>>, Option<i64>);

/// The walk, second by second.
fn walk(stages: &[Stage]) -> Walk {
    let mut fates = Vec::new();
    let mut stage_ends = Vec::new();
    let mut t = 0i64;
    let mut hung = false;
    for st in stages {
        let mut order: Vec<&Cluster> = st.clusters.iter().collect();
        order.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        if hung {
            for c in order {
                let fate = Expected {
                    start: None,
                    end: None,
                    finished: false,
                    stuck: None,
                };
                fates.push((c.name.clone(), fate));
            }
            stage_ends.push(None);
            continue;
        }
        let k = order.len() as i64;
        let window = match st.max_concurrency {
            Ok(i) => i,
            Err(p) => (p * k / 100).max(1),
        };
        // (start, finish: None = never) per cluster in order.
        let mut started: Vec<(i64, Option<i64>)> = Vec::new();
        let mut now = t;
        while now <= HORIZON_S {
            let running = started
                .iter()
                .filter(|(_, f)| f.is_none_or(|f| f > now))
                .count() as i64;
            let mut free = window - running;
            while free > 0 && started.len() < order.len() {
                let c = order[started.len()];
                let finish = match c.failure {
                    None => Some(now + c.duration),
                    Some((after, back)) => back.map(|b| now + after.unwrap_or(c.duration) + b),
                };
                started.push((now, finish));
                free -= 1;
            }
            if started.len() == order.len() && started.iter().all(|(_, f)| f.is_some()) {
                break;
            }
            // Nothing will ever change: every unfinished cluster never finishes and no slot frees.
            let stuck_forever = started
                .iter()
                .filter(|(_, f)| f.is_none_or(|f| f > now))
                .all(|(_, f)| f.is_none());
            if stuck_forever && (free <= 0 || started.len() == order.len()) {
                break;
            }
            now += 1;
        }
        for (c, (start, finish)) in order.iter().zip(&started) {
            let fail_at = c
                .failure
                .map(|(after, _)| start + after.unwrap_or(c.duration));
            let end = finish.or(fail_at);
            let stuck = finish
                .is_none_or(|f| f - start > STUCK_S)
                .then_some(start + STUCK_S);
            fates.push((
                c.name.clone(),
                Expected {
                    start: Some(*start),
                    end,
                    finished: finish.is_some(),
                    stuck,
                },
            ));
        }
        for c in order.iter().skip(started.len()) {
            let fate = Expected {
                start: None,
                end: None,
                finished: false,
                stuck: None,
            };
            fates.push((c.name.clone(), fate));
        }
        let last = started
            .iter()
            .map(|(_, f)| *f)
            .collect::<Option<Vec<i64>>>();
        match last.filter(|l| l.len() == order.len()) {
            Some(ends) => {
                let done = ends.into_iter().max().unwrap_or(t);
                t = done + st.wait_s.unwrap_or(0);
                stage_ends.push(Some(t));
            }
            None => {
                hung = true;
                stage_ends.push(None);
            }
        }
    }
    (fates, stage_ends, (!hung).then_some(t))
}

#[wasm_bindgen_test(unsupported = test)]
fn the_sliding_window_matches_a_second_by_second_walk_of_the_rules() {
    let (mut hangs, mut recoveries, mut clusters_checked, mut stuck_marks) = (0, 0, 0, 0);
    for seed in 0..CASES {
        let stages = case(seed);
        let text = scenario(&stages);
        let ctx = || format!("case {seed}:\n{text}");
        let (_, plans) = load_and_plan(&text);
        let plan = &plans[0];
        let errors: Vec<_> = plan.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{errors:?}\n{}", ctx());
        let s = |t: fleetplan::time::Time| t.since(plan.start).0 / 1000;
        let (fates, stage_ends, end) = walk(&stages);
        for (name, want) in &fates {
            clusters_checked += 1;
            let c = plan
                .stages
                .iter()
                .flat_map(|st| &st.clusters)
                .find(|c| &c.name == name)
                .expect("every cluster is in the plan");
            let got = Expected {
                start: c.start.map(s),
                end: c.end.map(s),
                finished: c.status == ClusterStatus::Succeeded,
                stuck: c.stuck_at.map(s),
            };
            assert_eq!(&got, want, "{name}\n{}", ctx());
            stuck_marks += usize::from(want.stuck.is_some());
        }
        let got_ends: Vec<Option<i64>> = plan.stages.iter().map(|st| st.end.map(s)).collect();
        assert_eq!(got_ends, stage_ends, "stage ends\n{}", ctx());
        assert_eq!(plan.end.map(s), end, "run end\n{}", ctx());
        match end {
            Some(_) => assert_eq!(plan.outcome, Outcome::Succeeded, "{}", ctx()),
            None => {
                hangs += 1;
                assert_eq!(plan.outcome, Outcome::Blocked, "{}", ctx());
                assert!(
                    plan.diagnostics
                        .iter()
                        .any(|d| d.code == "stage-never-finishes"),
                    "{}",
                    ctx()
                );
            }
        }
        recoveries += stages
            .iter()
            .flat_map(|st| &st.clusters)
            .filter(|c| matches!(c.failure, Some((_, Some(_)))))
            .count();
    }
    assert!(
        hangs > 30 && recoveries > 30 && clusters_checked > 1000 && stuck_marks > 300,
        "{hangs} {recoveries} {clusters_checked} {stuck_marks}"
    );
}
