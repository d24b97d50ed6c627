//! An independent, brute-force model of GKE stage ordering and soaks (issue 15, item 2), checked against
//! the planner on many small random sequences. The model is written from the rules in
//! ../shared/reference/gke.md §3–4, not from the planner's code: it walks time in 5-minute steps (every
//! instant in these scenarios is a multiple of 5 minutes) and, at each step, applies the rules until
//! nothing changes. Control-plane upgrades only, custom stages, flat releases.
//!
//! Rules modelled (gke.md):
//! - A released version is available to the first stage; a version a stage qualified (its soak ended)
//!   is available to the next stage.
//! - A free stage (not RUNNING, not SOAKING) takes the newest available version newer than the last it
//!   started, capped at one minor above its lowest control plane when that leaves one (§3).
//! - A stage whose clusters that need the version are all held (outside their window, inside an
//!   exclusion) is PAUSED: it commits to no version until one of them may start, then takes the newest
//!   version available at that moment (§3, seed 000).
//! - In a running stage every cluster upgrades as soon as its window is open and no exclusion holds it;
//!   an upgrade takes 30 minutes and runs to completion. A cluster already at the version or newer is
//!   ALREADY_UPGRADED; one more than a minor behind is VERSION_TOO_OLD; neither blocks the stage.
//! - The stage soaks when all its upgrades are done, or 30 days after it began (FORCED_SOAKING), and
//!   qualifies the version when the soak ends.
//! - A daily window is a 4-hour block from its start hour (§4); a NO_UPGRADES exclusion holds every
//!   upgrade from its start (inclusive) to its end (exclusive).

use fleetplan::plan::{PhaseKind, Plan};
use fleetplan_tests::load_and_plan;
use wasm_bindgen_test::wasm_bindgen_test;

const STEP: i64 = 5;
const MIN: i64 = 60_000;
const HOUR: i64 = 60;
const DAY: i64 = 24 * HOUR;
const START_TEXT: &str = "2026-11-23T00:00:00Z";

/// A small generator: the test needs many different fleets, no randomness from outside.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `(minor, patch)` of `1.MINOR.PATCH-gke.1`.
type Ver = (u32, u32);

fn text(v: Ver) -> String {
    format!("1.{}.{}-gke.1", v.0, v.1)
}

#[derive(Clone, Debug)]
struct Cluster {
    name: String,
    stage: usize,
    cp: Ver,
    /// Daily window start hour, or none (may upgrade at any time).
    window: Option<i64>,
    /// NO_UPGRADES exclusions, minutes from the start: [from, to) each (back to back when two, so a
    /// cluster can be held longer than one exclusion's 30 days).
    exclusions: Vec<(i64, i64)>,
}

#[derive(Clone, Debug)]
struct Case {
    clusters: Vec<Cluster>,
    soaks: Vec<i64>,
    releases: Vec<(Ver, i64)>,
}

fn generate(seed: u64) -> Case {
    let mut r = Rng(seed.wrapping_mul(2_654_435_761).wrapping_add(7));
    let stages = 1 + r.below(3) as usize;
    let soaks: Vec<i64> = (0..stages).map(|_| r.below(4) as i64 * 12 * HOUR).collect();
    let mut clusters = Vec::new();
    for s in 0..stages {
        for k in 0..r.below(4) {
            let window = (r.below(3) > 0).then(|| r.below(24) as i64);
            let mut exclusions = Vec::new();
            if r.below(4) == 0 {
                let mut from = r.below(6) as i64 * DAY + r.below(24) as i64 * HOUR;
                for _ in 0..1 + r.below(2) {
                    let to = from + (1 + r.below(30)) as i64 * DAY - r.below(12) as i64 * STEP;
                    exclusions.push((from, to));
                    from = to;
                }
            }
            clusters.push(Cluster {
                name: format!("c{s}-{k}"),
                stage: s,
                cp: (30 + r.below(2) as u32, r.below(3) as u32),
                window,
                exclusions,
            });
        }
    }
    let mut releases = Vec::new();
    let mut v: Ver = (31, 3);
    let mut at = 0;
    for _ in 0..1 + r.below(3) {
        v = if r.below(3) == 0 {
            (v.0 + 1, 0)
        } else {
            (v.0, v.1 + 1 + r.below(2) as u32)
        };
        releases.push((v, at));
        at += r.below(6) as i64 * DAY + r.below(24) as i64 * HOUR;
    }
    Case {
        clusters,
        soaks,
        releases,
    }
}

fn yaml(case: &Case) -> String {
    let mut out = format!("start: {START_TEXT}\nclusters:\n");
    for c in &case.clusters {
        let mut m = Vec::new();
        if let Some(h) = c.window {
            m.push(format!("window: {{daily: \"{h:02}:00\"}}"));
        }
        if !c.exclusions.is_empty() {
            let t = |x: i64| {
                fleetplan::time::Time::parse(START_TEXT)
                    .unwrap_or_default()
                    .plus(fleetplan::time::Duration(x * MIN))
            };
            let list: Vec<String> = c
                .exclusions
                .iter()
                .enumerate()
                .map(|(i, (from, to))| {
                    format!(
                        "{{name: x{i}, start: \"{}\", end: \"{}\", scope: NO_UPGRADES}}",
                        t(*from),
                        t(*to)
                    )
                })
                .collect();
            m.push(format!("exclusions: [{}]", list.join(", ")));
        }
        let maintenance = if m.is_empty() {
            String::new()
        } else {
            format!(", maintenance: {{{}}}", m.join(", "))
        };
        out.push_str(&format!(
            "  - {{name: {}, fleet: f{}, version: {{controlPlane: {}}}{maintenance}}}\n",
            c.name,
            c.stage,
            text(c.cp)
        ));
    }
    out.push_str("strategy:\n  kind: gke-rollout-sequence\n  name: seq\n  stages:\n");
    for (s, soak) in case.soaks.iter().enumerate() {
        out.push_str(&format!(
            "    - {{fleetProjects: [projects/f{s}], soakDuration: {}m}}\n",
            soak
        ));
    }
    out.push_str("  versions:\n");
    for (v, at) in &case.releases {
        let t = fleetplan::time::Time::parse(START_TEXT)
            .unwrap_or_default()
            .plus(fleetplan::time::Duration(at * MIN));
        out.push_str(&format!(
            "    - {{version: {}, upgradeType: controlPlane, at: {t}}}\n",
            text(*v)
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------------------
// The model.

fn minors(from: Ver, to: Ver) -> i64 {
    i64::from(to.0) - i64::from(from.0)
}

fn can_start(c: &Cluster, t: i64) -> bool {
    let in_window = c
        .window
        .is_none_or(|h| (t - h * HOUR).rem_euclid(DAY) < 4 * HOUR);
    let excluded = c.exclusions.iter().any(|(a, b)| *a <= t && t < *b);
    in_window && !excluded
}

#[derive(Clone, Debug, PartialEq)]
enum StageState {
    Free,
    Running { v: Ver, start: i64 },
    Soaking { v: Ver, until: i64 },
}

/// One rollout of a stage: `(version, running from, soak from, forced, completed)`, minutes from the
/// start (-1: never).
type Rollout = (Ver, i64, i64, bool, i64);

/// What happened: per stage its rollouts, per cluster `(version, upgrade start)`.
#[derive(Debug, Default, PartialEq)]
struct Outcome {
    rollouts: Vec<Vec<Rollout>>,
    upgrades: Vec<Vec<(Ver, i64)>>,
}

fn model(case: &Case) -> Outcome {
    let n = case.soaks.len();
    let mut cp: Vec<Ver> = case.clusters.iter().map(|c| c.cp).collect();
    // Per cluster: the version it is upgrading to and when that upgrade ends.
    let mut upgrading: Vec<Option<(Ver, i64)>> = vec![None; cp.len()];
    // Per cluster: the versions rollouts asked of it, oldest first, until it has each or skips it
    // (an upgrade to a version waits for the one before it, gke.md §3 and fleetplan's docs).
    let mut wants: Vec<std::collections::VecDeque<Ver>> = vec![Default::default(); cp.len()];
    let mut state = vec![StageState::Free; n];
    let mut last_started: Vec<Option<Ver>> = vec![None; n];
    let mut qualified: Vec<Vec<Ver>> = vec![Vec::new(); n];
    let mut soak_from: Vec<(i64, bool)> = vec![(0, false); n];
    let mut out = Outcome {
        rollouts: vec![Vec::new(); n],
        upgrades: vec![Vec::new(); cp.len()],
    };
    let last_release = case.releases.iter().map(|r| r.1).max().unwrap_or(0);
    let horizon = last_release + 200 * DAY;
    let members_of: Vec<Vec<usize>> = (0..n)
        .map(|s| {
            (0..cp.len())
                .filter(|&c| case.clusters[c].stage == s)
                .collect()
        })
        .collect();
    let mut t = 0;
    while t <= horizon {
        // Stages that wait with something to take (PAUSED) at this step.
        let mut waiting;
        loop {
            waiting = 0;
            let mut changed = false;
            // Upgrades that end now; then each idle cluster's oldest wish: skipped when it already
            // runs that version or newer (ALREADY_UPGRADED) or is more than a minor behind
            // (VERSION_TOO_OLD), started when its window is open and no exclusion holds it.
            for c in 0..cp.len() {
                if let Some((v, end)) = upgrading[c] {
                    if end == t {
                        cp[c] = v;
                        upgrading[c] = None;
                        changed = true;
                    }
                }
                while upgrading[c].is_none() {
                    let Some(&v) = wants[c].front() else {
                        break;
                    };
                    if cp[c] >= v || minors(cp[c], v) > 1 {
                        wants[c].pop_front();
                        changed = true;
                        continue;
                    }
                    if can_start(&case.clusters[c], t) {
                        upgrading[c] = Some((v, t + 30));
                        out.upgrades[c].push((v, t));
                        wants[c].pop_front();
                        changed = true;
                    }
                    break;
                }
            }
            for s in 0..n {
                let members = &members_of[s];
                match state[s].clone() {
                    StageState::Soaking { v, until } if until == t => {
                        qualified[s].push(v);
                        let (from, forced) = soak_from[s];
                        let running = out.rollouts[s].len() - 1;
                        out.rollouts[s][running] = (v, out.rollouts[s][running].1, from, forced, t);
                        state[s] = StageState::Free;
                        changed = true;
                    }
                    StageState::Running { v, start } => {
                        let done = members.iter().all(|&c| {
                            !wants[c].contains(&v) && upgrading[c].is_none_or(|(u, _)| u != v)
                        });
                        let forced = t == start + 30 * DAY;
                        if done || forced {
                            let soak = case.soaks[s];
                            soak_from[s] = (t, !done);
                            out.rollouts[s].push((v, start, t, !done, -1));
                            state[s] = StageState::Soaking { v, until: t + soak };
                            changed = true;
                        }
                    }
                    _ => {}
                }
                if state[s] != StageState::Free {
                    continue;
                }
                let available: Vec<Ver> = if s == 0 {
                    case.releases
                        .iter()
                        .filter(|(_, at)| *at <= t)
                        .map(|(v, _)| *v)
                        .collect()
                } else {
                    qualified[s - 1].clone()
                };
                let mut candidates: Vec<Ver> = available
                    .into_iter()
                    .filter(|v| last_started[s].is_none_or(|l| *v > l))
                    .collect();
                candidates.sort();
                candidates.dedup();
                let Some(&newest) = candidates.last() else {
                    continue;
                };
                let lowest = members.iter().map(|&c| cp[c]).min();
                let pick = lowest
                    .and_then(|low| {
                        candidates
                            .iter()
                            .rev()
                            .find(|v| minors(low, **v) <= 1)
                            .copied()
                    })
                    .unwrap_or(newest);
                let needing: Vec<usize> = members
                    .iter()
                    .copied()
                    .filter(|&c| cp[c] < pick && minors(cp[c], pick) <= 1)
                    .collect();
                if !needing.is_empty() && needing.iter().all(|&c| !can_start(&case.clusters[c], t))
                {
                    // PAUSED: look again at the next step.
                    waiting += 1;
                    continue;
                }
                last_started[s] = Some(pick);
                for &c in members {
                    wants[c].push_back(pick);
                }
                state[s] = StageState::Running { v: pick, start: t };
                changed = true;
            }
            if !changed {
                break;
            }
        }
        let idle = waiting == 0
            && t >= last_release
            && state.iter().all(|st| *st == StageState::Free)
            && upgrading.iter().all(Option::is_none)
            && wants.iter().all(|w| w.is_empty());
        if idle {
            break;
        }
        t += STEP;
    }
    // Rollouts still running or soaking at the horizon never complete in this model's time.
    for (s, st) in state.iter().enumerate() {
        if let StageState::Running { v, start } = st {
            out.rollouts[s].push((*v, *start, -1, false, -1));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------------
// The planner's answer in the same shape.

fn minutes(plan: &Plan, t: fleetplan::time::Time) -> i64 {
    t.since(plan.start).0 / MIN
}

fn parse_ver(s: &str) -> Ver {
    let core = s.split('-').next().unwrap_or(s);
    let parts: Vec<u32> = core.split('.').map(|p| p.parse().unwrap_or(0)).collect();
    (parts[1], parts[2])
}

fn planned(plan: &Plan, case: &Case) -> Outcome {
    let gke = plan.gke.as_ref().expect("a GKE plan");
    let rollouts = gke
        .stages
        .iter()
        .map(|s| {
            s.upgrades
                .iter()
                .map(|u| {
                    let at = |name: &str| {
                        u.states
                            .iter()
                            .find(|st| st.state == name)
                            .map_or(-1, |st| minutes(plan, st.start))
                    };
                    let forced = at("FORCED_SOAKING") >= 0;
                    let soak = if forced {
                        at("FORCED_SOAKING")
                    } else {
                        at("SOAKING")
                    };
                    (
                        parse_ver(&u.version),
                        at("RUNNING"),
                        soak,
                        forced,
                        at("COMPLETED"),
                    )
                })
                .collect()
        })
        .collect();
    let upgrades = case
        .clusters
        .iter()
        .map(|c| {
            plan.stages
                .iter()
                .flat_map(|s| &s.clusters)
                .filter(|row| row.name == c.name)
                .flat_map(|row| &row.phases)
                .filter(|p| p.kind == PhaseKind::ControlPlaneUpgrade)
                .map(|p| {
                    (
                        parse_ver(plan.version(p).unwrap_or("")),
                        minutes(plan, p.start),
                    )
                })
                .collect()
        })
        .collect();
    Outcome { rollouts, upgrades }
}

/// Many small random sequences: the planner and the brute-force model agree on every stage's
/// versions, their RUNNING, SOAKING (or FORCED_SOAKING) and COMPLETED times, and every cluster's
/// upgrades. 600 fleets natively; fewer in wasm, where the step walk is slower.
#[wasm_bindgen_test(unsupported = test)]
fn the_planner_agrees_with_a_brute_force_model_of_the_rules() {
    let seeds: u64 = if cfg!(target_arch = "wasm32") {
        100
    } else {
        600
    };
    let mut compared = 0;
    let mut paused = 0;
    let mut forced = 0;
    let mut skipped = 0;
    for seed in 0..seeds {
        let case = generate(seed);
        let text = yaml(&case);
        let (loaded, plans) = load_and_plan(&text);
        assert!(
            loaded.diagnostics.iter().all(|d| !d.is_error()),
            "seed {seed}: {:#?}\n{text}",
            loaded.diagnostics
        );
        let plan = &plans[0];
        let errors: Vec<_> = plan.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "seed {seed}: {errors:#?}\n{text}");
        let want = model(&case);
        let got = planned(plan, &case);
        assert_eq!(got, want, "seed {seed}\n{text}");
        compared += 1;
        paused += usize::from(plan.events.iter().any(|e| e.reason == "STAGE_PAUSED"));
        forced += usize::from(want.rollouts.iter().flatten().any(|r| r.3));
        skipped += usize::from(plan.gke.as_ref().is_some_and(|g| !g.skipped.is_empty()));
    }
    assert_eq!(compared, seeds);
    // The random fleets exercise the rules that matter, not only the easy path.
    eprintln!("{compared} fleets: {paused} paused a stage, {forced} forced a soak, {skipped} skipped a cluster");
    assert!(
        paused as u64 > seeds / 10,
        "only {paused} fleets paused a stage"
    );
    assert!(forced > 0, "no fleet forced a soak");
    assert!(skipped > 0, "no fleet skipped a cluster");
}
