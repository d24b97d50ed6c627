//! What **New** opens: the smallest valid scenario of each kind (one stage or fleet, a cluster or two),
//! starting at the next full hour, to be filled in with the form or the text.

use fleetplan::time::{Time, HOUR};

/// `(kind, label, text with `{start}` for the start time)`.
pub const TEMPLATES: [(&str, &str, &str); 4] = [
    (
        "kubefleet-staged",
        "KubeFleet staged update run",
        "name: new-staged-run
start: {start}
clusters:
  - {name: member1, labels: {environment: staging}}
  - {name: member2, labels: {environment: production}}
strategy:
  kind: kubefleet-staged
  name: my-strategy
  stages:
    - name: staging
      labelSelector: {matchLabels: {environment: staging}}
      afterStageTasks: [{type: TimedWait, waitTime: 1h}]
    - name: production
      labelSelector: {matchLabels: {environment: production}}
  run: my-run
  placement: my-placement
",
    ),
    (
        "kubefleet-rolling",
        "KubeFleet rolling update",
        "name: new-rolling-update
start: {start}
clusters:
  - {name: member1}
  - {name: member2}
strategy:
  kind: kubefleet-rolling
  placement: {name: my-placement, type: PickAll}
  rollingUpdate: {maxUnavailable: 1, maxSurge: 1}
  resources: [Deployment]
  change: {update: true}
",
    ),
    (
        "gke-rollout-sequence",
        "GKE rollout sequence (custom stages)",
        "name: new-rollout-sequence
start: {start}
clusters:
  - name: cluster-1
    fleet: projects/my-fleet
    version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}
    releaseChannel: REGULAR
strategy:
  kind: gke-rollout-sequence
  name: my-sequence
  stages:
    - {fleetProjects: [projects/my-fleet], soakDuration: 1d}
  versions: [1.31.5-gke.1200000]
",
    ),
    (
        "gke-fleet-sequence",
        "GKE fleet-based chain",
        "name: new-fleet-chain
start: {start}
clusters:
  - name: cluster-1
    fleet: my-fleet
    version: {controlPlane: 1.31.4-gke.1000, node: 1.31.4-gke.1000}
    releaseChannel: REGULAR
strategy:
  kind: gke-fleet-sequence
  name: my-chain
  groups:
    - {fleet: my-fleet, soaking: 1d}
  versions: [1.31.5-gke.1200000]
",
    ),
];

/// The template of `kind`, starting at the first full hour after `now`.
pub fn new_scenario(kind: &str, now: Time) -> Option<String> {
    let (_, _, text) = TEMPLATES.iter().find(|(k, _, _)| *k == kind)?;
    let start = Time((now.0.div_euclid(HOUR.0) + 1) * HOUR.0);
    Some(fleetplan::substr::replace(
        text,
        "{start}",
        &start.to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn every_new_scenario_plans_without_problems_from_the_next_hour() {
        let now = Time::parse("2026-11-23T09:41:07Z").unwrap();
        for (kind, _, _) in TEMPLATES {
            let text = new_scenario(kind, now).unwrap();
            let a = analyse(&text, None);
            let plan = a.plan.as_ref().expect(kind);
            assert_eq!(plan.kind, kind);
            assert_eq!(plan.start, Time::parse("2026-11-23T10:00:00Z").unwrap());
            let problems: Vec<_> = a
                .diagnostics
                .iter()
                .filter(|d| d.severity != fleetplan::Severity::Info)
                .collect();
            assert!(problems.is_empty(), "{kind}: {problems:?}");
            assert!(plan.end.is_some(), "{kind} finishes");
        }
    }
}
